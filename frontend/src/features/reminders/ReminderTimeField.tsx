import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { Weekday } from '../../api/gen/model';
import { isApiError } from '../../api/mutator';
import { nextDueText } from './nextDue';
import { useSaveReminders } from './mutations';
import { browserTimeZone } from './zones';

const EVERY_DAY: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/**
 * The onboarding's reminder step: one time, every day, by e-mail, in the browser's time zone.
 * Days, push and the zone can be changed on the profile.
 */
export function ReminderTimeField() {
  const update = useSaveReminders();
  const [time, setTime] = useState('19:00');
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  function save() {
    setStatus(null);
    setError(null);
    update.mutate(
      { data: { days: EVERY_DAY, time, timeZone: browserTimeZone(), email: true, push: false } },
      {
        onSuccess: (r) => setStatus(nextDueText(r)),
        onError: (e) => setError((isApiError(e) && (e.details?.time ?? e.details?.timeZone)) || 'We could not save that. Please try again.'),
      },
    );
  }

  return (
    <Stack gap="xs">
      <TextInput type="time" label="Reminder time" value={time} onChange={(e) => setTime(e.currentTarget.value)} error={error ?? undefined} />
      <Button variant="light" onClick={save} loading={update.isPending} disabled={!time}>
        Remind me by e-mail
      </Button>
      {status ? (
        <Text size="sm" role="status">
          {status}
        </Text>
      ) : null}
    </Stack>
  );
}
