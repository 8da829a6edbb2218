import { Alert, Button, Chip, Group, Paper, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import type { Reminders, Weekday } from '../../api/gen/model';
import { useGetReminders } from '../../api/gen/profile/profile';
import { isApiError } from '../../api/mutator';
import { subscribeThisDevice } from './push';
import { nextDueText } from './nextDue';
import { useAddDevice, useRemoveDevice, useSaveReminders } from './mutations';
import { browserTimeZone, zoneOptions } from './zones';

const DAYS: { value: Weekday; label: string }[] = [
  { value: 'mon', label: 'Mon' },
  { value: 'tue', label: 'Tue' },
  { value: 'wed', label: 'Wed' },
  { value: 'thu', label: 'Thu' },
  { value: 'fri', label: 'Fri' },
  { value: 'sat', label: 'Sat' },
  { value: 'sun', label: 'Sun' },
];

/** Form state: the saved settings, with the browser's time zone until one is saved. */
function formOf(r: Reminders) {
  return { days: r.days, time: r.time || '19:00', timeZone: r.timeZone || browserTimeZone(), email: r.email, push: r.push };
}

/** The profile's "Reminders" section: days, time, zone, e-mail and push, and the devices. */
export function RemindersSection() {
  const query = useGetReminders();
  if (query.isPending) return null;
  if (query.isError || !query.data) {
    return (
      <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="reminders-title">
        <Title order={2} size="h3" id="reminders-title">
          Reminders
        </Title>
        <Text c="dimmed">Reminders could not be loaded just now. Please try again in a little while.</Text>
      </Paper>
    );
  }
  return <RemindersForm reminders={query.data} />;
}

function RemindersForm({ reminders }: { reminders: Reminders }) {
  const [form, setForm] = useState(() => formOf(reminders));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<string | null>(null);
  const [pushNote, setPushNote] = useState<string | null>(null);
  const update = useSaveReminders();
  const addDevice = useAddDevice();
  const removeDevice = useRemoveDevice();
  const zones = useMemo(() => zoneOptions(form.timeZone), [form.timeZone]);

  function save(next = form) {
    setErrors({});
    setStatus(null);
    update.mutate(
      { data: next },
      {
        onSuccess: (r) => setStatus(nextDueText(r)),
        onError: (e) => {
          const details = isApiError(e) ? e.details : undefined;
          setErrors(details && Object.keys(details).length ? details : { form: 'Failed to save changes' });
        },
      },
    );
  }

  async function togglePush(on: boolean) {
    setPushNote(null);
    if (!on) {
      setForm((f) => ({ ...f, push: false }));
      return;
    }
    try {
      const outcome = await subscribeThisDevice(reminders.vapidPublicKey);
      if (outcome.kind === 'unavailable') {
        setPushNote('Push reminders are not available in this browser. E-mail works everywhere.');
        return;
      }
      if (outcome.kind === 'denied') {
        setPushNote('Notifications are turned off for Percolate in this browser, so push reminders cannot show.');
        return;
      }
      await addDevice.mutateAsync({ data: outcome.request });
      setForm((f) => ({ ...f, push: true }));
    } catch {
      setPushNote('This device could not be set up for push reminders just now.');
    }
  }

  function remove(id: string) {
    removeDevice.mutate({ subscriptionId: id });
  }

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="reminders-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="reminders-title">
          Reminders
        </Title>
        <Text size="sm" c="dimmed">
          A gentle nudge at a time you choose, with the prompt of the day. No streaks, and no reminder on a day you already checked in or
          wrote.
        </Text>
        <Stack gap={6} role="group" aria-labelledby="reminder-days-label">
          <Text size="sm" fw={500} id="reminder-days-label">
            Days
          </Text>
          <Chip.Group multiple value={form.days} onChange={(v) => setForm((f) => ({ ...f, days: v as Weekday[] }))}>
            <Group gap={6}>
              {DAYS.map((d) => (
                <Chip key={d.value} value={d.value} size="sm">
                  {d.label}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {errors.days ? (
            <Text size="sm" c="clay" role="alert">
              {errors.days}
            </Text>
          ) : null}
        </Stack>
        <TextInput
          type="time"
          label="Time"
          value={form.time}
          onChange={(e) => {
            const time = e.currentTarget.value;
            setForm((f) => ({ ...f, time }));
          }}
          error={errors.time}
        />
        <Select
          label="Time zone"
          description="Taken from this browser; change it if you are somewhere else."
          data={zones}
          value={form.timeZone}
          onChange={(v) => v && setForm((f) => ({ ...f, timeZone: v }))}
          searchable
          error={errors.timeZone}
        />
        <Switch label="E-mail" checked={form.email} onChange={(e) => {
            const email = e.currentTarget.checked;
            setForm((f) => ({ ...f, email }));
          }} />
        <Switch
          label="Push on this device"
          checked={form.push}
          disabled={addDevice.isPending}
          onChange={(e) => void togglePush(e.currentTarget.checked)}
        />
        {pushNote ? (
          <Text size="sm" c="dimmed" role="status">
            {pushNote}
          </Text>
        ) : null}
        {reminders.devices.length > 0 ? (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Devices with push reminders
            </Text>
            <ul aria-label="Devices with push reminders" style={{ margin: 0, paddingLeft: 0, listStyle: 'none' }}>
              {reminders.devices.map((d) => (
                <li key={d.id}>
                  <Group justify="space-between" wrap="nowrap">
                    <Text size="sm">
                      {d.device || 'A device'} · since {new Date(d.createdAt).toLocaleDateString()}
                    </Text>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="clay"
                      onClick={() => remove(d.id)}
                      aria-label={`Remove ${d.device || 'this device'}`}
                    >
                      Remove
                    </Button>
                  </Group>
                </li>
              ))}
            </ul>
          </Stack>
        ) : null}
        {errors.form ? (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        ) : null}
        <Group justify="space-between" align="center">
          <Text size="sm" c="dimmed" role="status">
            {status}
          </Text>
          <Button onClick={() => save()} loading={update.isPending}>
            Save reminders
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
