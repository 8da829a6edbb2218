import { Anchor, Button, Card, Loader, Group, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { longDay } from './dates';
import { MOOD_LABELS, nearestMood } from './moodScale';

/** A titled card of the mood page. */
export function MoodSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby={id}>
      <Title order={2} fz="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** What a free account sees in place of a paid view: one calm line, no error. */
export function UpgradeLine({ line }: { line: string }) {
  return (
    <Group gap={8} wrap="nowrap" align="flex-start">
      <IconLock size={16} aria-hidden style={{ flex: 'none', marginTop: 4 }} />
      <Text size="sm">
        {line}{' '}
        <Anchor component={Link} to="/about">
          See the plans
        </Anchor>
      </Text>
    </Group>
  );
}

export function Loading({ label }: { label: string }) {
  return (
    <Group gap="xs">
      <Loader size="sm" />
      <Text size="sm">{label}</Text>
    </Group>
  );
}

/** Before the first check-in: what the page will show, and the way to the card that makes one. */
export function FirstCheckIn() {
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="sm" align="flex-start">
        <Title order={2} fz="h4">
          Your moods will gather here
        </Title>
        <Text>
          Each time you check in, your mood lands on this page: a calendar of your days, how the last 30 have gone, and
          what tends to come with your better ones.
        </Text>
        <Text c="dimmed" size="sm">
          It takes two taps, on your dashboard.
        </Text>
        <Button component={Link} to="/dashboard">
          Make your first check-in
        </Button>
      </Stack>
    </Card>
  );
}

/** One check-in of "on this day", as the page lists it. */
export interface PastCheckIn {
  id: string;
  mood: number;
  /** "14:05" */
  time: string;
  tags: string[];
  emotions: string[];
  note?: string | null;
}

/** A month ago or a year ago: that day's check-ins and the titles of that day's conversations. */
export function PastDay({
  label,
  day,
  checkIns,
  sessionTitles,
  pending,
}: {
  label: string;
  day: string;
  checkIns: PastCheckIn[];
  sessionTitles: string[];
  pending: boolean;
}) {
  const empty = checkIns.length === 0 && sessionTitles.length === 0;
  return (
    <Stack gap={4} component="article" aria-label={`${label}, ${longDay(day)}`}>
      <Title order={3} fz="h5">
        {label} · {longDay(day)}
      </Title>
      {pending ? <Loading label="Looking back..." /> : null}
      {!pending && empty ? (
        <Text size="sm" c="dimmed">
          Nothing from that day.
        </Text>
      ) : null}
      {checkIns.map((c) => (
        <Text size="sm" key={c.id}>
          {c.time}: feeling {MOOD_LABELS[nearestMood(c.mood)].toLowerCase()} ({c.mood})
          {[...c.emotions, ...c.tags].length > 0 ? ` · ${[...c.emotions, ...c.tags].join(', ')}` : ''}
          {c.note ? ` · “${c.note}”` : ''}
        </Text>
      ))}
      {sessionTitles.length > 0 ? (
        <Text size="sm">
          You talked about: {sessionTitles.join(' · ')}
        </Text>
      ) : null}
    </Stack>
  );
}
