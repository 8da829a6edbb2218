import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import type { Profile, ProfileUpdate } from '../../api/gen/model';
import { useGetProfile } from '../../api/gen/profile/profile';
import { isApiError } from '../../api/mutator';
import { CountryField } from '../../pages/Profile/CountryField';
import { useSaveProfile } from '../profile/mutations';
import { ReminderTimeField } from '../reminders/ReminderTimeField';

/** A profile text the onboarding asks for, saved as the profile page saves it. */
type TextField = 'focusAreas' | 'sensitiveTopics';

/** One optional step: its heading, what it is for, and its field. */
interface Step {
  title: string;
  text: string;
  /** A text field of the profile; without one, the step renders its own (which saves itself). */
  field?: TextField;
  label?: string;
  render?: (profile: Profile, onSaved: (p: Profile) => void) => ReactNode;
}

/** The steps, in order, each skippable. */
const STEPS: Step[] = [
  {
    title: 'What would you like to focus on?',
    text: 'A few words are enough: exams, sleep, settling in, friendships. Percolate keeps them in mind.',
    field: 'focusAreas',
    label: 'Focus areas',
  },
  {
    title: 'Anything to steer clear of?',
    text: "Topics you'd rather Percolate doesn't bring up. You can change this on your profile at any time.",
    field: 'sensitiveTopics',
    label: 'Topics to steer clear of',
  },
  {
    title: 'Where are you?',
    text: 'So that, in a hard moment, Percolate gives helplines that work where you are.',
    render: (profile, onSaved) => <CountryField profile={profile} onSaved={onSaved} inModal />,
  },
  {
    title: 'A gentle reminder?',
    text: "One calm line and the day's journaling prompt, at a time you choose. No streaks; a missed day is fine.",
    render: () => <ReminderTimeField />,
  },
];

/**
 * The first sign-in's short onboarding: four optional steps over the dashboard. Finishing or
 * skipping it is recorded on the account (the profile's `onboarded`), so it shows once per
 * account, not per device.
 */
export function Onboarding() {
  const profile = useGetProfile({ query: { staleTime: 60_000 } });
  if (!profile.data || profile.data.onboarded) return null;
  return <OnboardingSteps profile={profile.data} />;
}

function OnboardingSteps({ profile: initial }: { profile: Profile }) {
  const phone = useMediaQuery('(max-width: 36em)');
  const update = useSaveProfile();
  const [profile, setProfile] = useState(initial);
  const [index, setIndex] = useState(0);
  const [values, setValues] = useState<Record<TextField, string>>({
    focusAreas: initial.focusAreas,
    sensitiveTopics: initial.sensitiveTopics,
  });
  const [error, setError] = useState<string | null>(null);
  const step = STEPS[index];
  const last = index === STEPS.length - 1;

  // The cached profile already holds the answer (useSaveProfile); the steps read this copy.
  function saved(p: Profile) {
    setProfile(p);
  }

  function next() {
    setError(null);
    if (last) finish();
    else setIndex(index + 1);
  }

  /** Records the onboarding as done (finished or skipped); the dashboard then shows alone. */
  function finish() {
    setError(null);
    update.mutate(
      { data: { onboarded: true } },
      { onSuccess: saved, onError: () => setError('We could not save that. Please try again.') },
    );
  }

  function saveAndNext() {
    const field = step.field;
    if (!field || values[field].trim() === profile[field]) return next();
    const data: ProfileUpdate = { [field]: values[field] };
    setError(null);
    update.mutate(
      { data },
      {
        onSuccess: (p) => {
          saved(p);
          next();
        },
        onError: (e) => setError((isApiError(e) && e.details?.[field]) || 'We could not save that. Please try again.'),
      },
    );
  }

  return (
    <Modal
      opened
      onClose={finish}
      fullScreen={phone}
      title={`Welcome to Percolate · step ${index + 1} of ${STEPS.length}`}
      closeButtonProps={{ 'aria-label': 'Skip the welcome' }}
    >
      <Stack gap="md" data-testid="onboarding">
        <Text component="h3" fw={700} fz="lg" m={0}>
          {step.title}
        </Text>
        <Text size="sm" c="dimmed">
          {step.text} This step is optional.
        </Text>
        {step.field ? (
          <Textarea
            label={step.label}
            value={values[step.field]}
            onChange={(e) => setValues({ ...values, [step.field as TextField]: e.currentTarget.value })}
            autosize
            minRows={2}
            maxLength={250}
            error={error ?? undefined}
          />
        ) : (
          step.render?.(profile, saved)
        )}
        {error && !step.field ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="space-between">
          <Button variant="subtle" onClick={finish} disabled={update.isPending}>
            Skip all
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={next} disabled={update.isPending}>
              Skip
            </Button>
            <Button onClick={step.field ? saveAndNext : next} loading={update.isPending}>
              {last ? 'Finish' : 'Next'}
            </Button>
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
