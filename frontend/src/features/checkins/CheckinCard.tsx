import { Alert, Button, Chip, Group, Paper, Stack, Text, Textarea, Title, UnstyledButton } from '@mantine/core';
import { IconMoodCry, IconMoodEmpty, IconMoodHappy, IconMoodSad, IconMoodSmile } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { isApiError } from '../../api/errors';
import {
  getListCheckinsQueryKey,
  useCreateCheckin,
  useDeleteCheckin,
  useListCheckins,
  useUpdateCheckin,
} from '../../api/gen/checkins/checkins';
import type { Checkin, CheckinCreated, CheckinTag, Emotion, Mood } from '../../api/gen/model';
import { CrisisLinks } from '../chat/components/MessageList/CrisisLinks';
import { useStartNewChat } from '../chat/hooks/useStartNewChat';
import { PinnedSupport } from '../chat/components/PinnedSupport/PinnedSupport';
import { capitalise, emotions, localDate, MAX_EMOTIONS, MAX_NOTE, MAX_TAGS, moods, tags, UNDO_MS } from './moods';
import classes from './CheckinCard.module.css';

const icons = [IconMoodCry, IconMoodSad, IconMoodEmpty, IconMoodSmile, IconMoodHappy];

/** A failed request as the card says it: the server's message for the field, or a plain retry. */
function errorText(e: unknown): string {
  if (isApiError(e)) {
    const details = e.details ? Object.values(e.details).join(' ') : '';
    return details || e.serverMessage || e.serverError || 'That did not save. Please try again.';
  }
  return 'That did not save. Please try again.';
}

/**
 * The dashboard's check-in (issue 31): "How are you right now?" with five moods. One tap stores
 * the check-in; Undo deletes it for a few seconds after. Emotions, tags and a note can be added
 * on the same card. A note the crisis screen flags shows the support lines at once; a third very
 * low check-in in a row brings a gentle card with them (never a pop-up). Once the user has checked in
 * today, the card opens folded to one line (issue 36: the sessions stay on a phone's first screen),
 * unless a reminder brought them here to check in.
 */
export function CheckinCard() {
  const id = useId();
  const navigate = useNavigate();
  const create = useCreateCheckin();
  const update = useUpdateCheckin();
  const remove = useDeleteCheckin();
  const talk = useStartNewChat();
  const [saved, setSaved] = useState<Checkin | null>(null);
  const [safety, setSafety] = useState<string | null>(null);
  const [lowStreak, setLowStreak] = useState(false);
  const [canUndo, setCanUndo] = useState(false);
  const [chosenEmotions, setEmotions] = useState<string[]>([]);
  const [chosenTags, setTags] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const [detailsSaved, setDetailsSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const cardRef = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  const queryClient = useQueryClient();
  const today = localDate();
  const todays = useListCheckins({ from: today, to: today, limit: 1 });
  const [unfolded, setUnfolded] = useState(false);
  // A reminder's notification opens /dashboard#checkin: the card comes into view, unfolded, with
  // its first mood focused, one tap from a check-in.
  const earlier = saved || unfolded || hash === '#checkin' ? undefined : todays.data?.[0];
  // Today's check-ins as the dashboard shows them next time (folded or not).
  const changed = () => void queryClient.invalidateQueries({ queryKey: getListCheckinsQueryKey() });

  useEffect(() => {
    if (hash !== '#checkin' || !cardRef.current) return;
    cardRef.current.scrollIntoView?.({ block: 'start' });
    cardRef.current.querySelector<HTMLButtonElement>('button:not([disabled])')?.focus();
  }, [hash]);

  useEffect(() => {
    if (!canUndo) return;
    const timer = setTimeout(() => setCanUndo(false), UNDO_MS);
    return () => clearTimeout(timer);
  }, [canUndo]);

  function took(res: CheckinCreated) {
    setSaved(res.checkin);
    if (res.safety) setSafety(res.safety.category);
    if (res.lowStreak) setLowStreak(true);
  }

  async function choose(mood: Mood) {
    if (create.isPending || saved) return;
    setError(null);
    try {
      took(await create.mutateAsync({ data: { mood, localDate: localDate() } }));
      setCanUndo(true);
      changed();
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function undo() {
    if (!saved) return;
    setError(null);
    try {
      await remove.mutateAsync({ checkinId: saved.id });
      changed();
      setSaved(null);
      setCanUndo(false);
      setSafety(null);
      setLowStreak(false);
      setDetailsSaved(false);
    } catch {
      setError('Undo did not work. Please try again.');
    }
  }

  /** Saves the chosen details; the answer, or null when it failed (the card says why). */
  async function saveDetails(): Promise<CheckinCreated | null> {
    if (!saved) return null;
    setError(null);
    try {
      const res = await update.mutateAsync({
        checkinId: saved.id,
        data: { emotions: chosenEmotions as Emotion[], tags: chosenTags as CheckinTag[], note },
      });
      took(res);
      setDetailsSaved(true);
      return res;
    } catch (e) {
      setError(errorText(e));
      return null;
    }
  }

  // "Talk about it": details chosen but not yet added are saved first, so that the companion's
  // opening knows them. A note the screen flags keeps the user here, with the support lines.
  async function talkAboutIt() {
    if (!saved) return;
    if (!detailsSaved && (chosenEmotions.length > 0 || chosenTags.length > 0 || note.trim() !== '')) {
      const res = await saveDetails();
      if (!res || res.safety) return;
    }
    talk.talkAbout(saved.id);
  }

  const chosenLabel = saved ? moods.find((m) => m.value === saved.mood)?.label : undefined;
  if (earlier) {
    const label = moods.find((m) => m.value === earlier.mood)?.label;
    return (
      <Paper withBorder radius="md" px="sm" py={0} component="section" aria-labelledby={`${id}-title`} data-testid="checkin-card">
        <Group wrap="nowrap" justify="space-between" gap="xs">
          <Title order={2} fz="sm" id={`${id}-title`}>
            Checked in today: {label?.toLowerCase()}
          </Title>
          <Button variant="subtle" size="sm" px="xs" className={classes.again} onClick={() => setUnfolded(true)}>
            Check in again
          </Button>
        </Group>
      </Paper>
    );
  }
  return (
    <Paper
      ref={cardRef}
      id="checkin"
      withBorder
      radius="md"
      px="sm"
      py={{ base: 'xs', sm: 'sm' }}
      component="section"
      aria-labelledby={`${id}-title`}
      data-testid="checkin-card"
    >
      <Stack gap={4}>
        <Title order={2} fz="md" id={`${id}-title`}>
          How are you right now?
        </Title>
        <div className={classes.moods} role="group" aria-label="Your mood">
          {moods.map((m, i) => {
            const Icon = icons[i]!;
            const chosen = saved?.mood === m.value;
            return (
              <UnstyledButton
                key={m.value}
                className={classes.mood}
                data-chosen={chosen || undefined}
                aria-pressed={chosen}
                disabled={create.isPending || (saved !== null && !chosen)}
                onClick={() => void choose(m.value)}
              >
                <Icon size={20} aria-hidden />
                {m.label}
              </UnstyledButton>
            );
          })}
        </div>
        {saved ? (
          <Group gap="xs" role="status">
            <Text size="sm">Saved: {chosenLabel?.toLowerCase()}. Thanks for checking in.</Text>
            {canUndo ? (
              <Button size="compact-sm" variant="subtle" onClick={() => void undo()} loading={remove.isPending}>
                Undo
              </Button>
            ) : null}
          </Group>
        ) : null}
        {safety ? <PinnedSupport category={safety} /> : null}
        {lowStreak ? (
          <Alert color="clay" title="These last few check-ins sound hard" role="note">
            <Stack gap="xs">
              <Text size="sm">
                You don't have to carry this on your own. Talking it through can help, and these lines are free and
                there any time.
              </Text>
              <CrisisLinks />
              <Group>
                <Button size="sm" variant="light" color="clay" onClick={() => navigate('/chat')}>
                  Talk it through with Percolate
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : null}
        {saved && !detailsSaved ? (
          <Stack gap="xs">
            <Chip.Group multiple value={chosenEmotions} onChange={(v) => setEmotions(v.slice(0, MAX_EMOTIONS))}>
              <Group gap={6} role="group" aria-label={`Emotions (up to ${MAX_EMOTIONS})`}>
                {emotions.map((e) => (
                  <Chip key={e} value={e} size="xs" disabled={!chosenEmotions.includes(e) && chosenEmotions.length >= MAX_EMOTIONS}>
                    {capitalise(e)}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            <Chip.Group multiple value={chosenTags} onChange={(v) => setTags(v.slice(0, MAX_TAGS))}>
              <Group gap={6} role="group" aria-label={`What it's about (up to ${MAX_TAGS})`}>
                {tags.map((t) => (
                  <Chip key={t} value={t} size="xs" disabled={!chosenTags.includes(t) && chosenTags.length >= MAX_TAGS}>
                    {capitalise(t)}
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            <Textarea
              label="A note, if you like"
              autosize
              minRows={2}
              maxLength={MAX_NOTE}
              value={note}
              onChange={(e) => setNote(e.currentTarget.value)}
              description={`${note.length}/${MAX_NOTE}`}
            />
            <Group>
              <Button size="sm" onClick={() => void saveDetails()} loading={update.isPending}>
                Add to check-in
              </Button>
            </Group>
          </Stack>
        ) : null}
        {detailsSaved ? <Text size="sm">Added to your check-in.</Text> : null}
        {saved ? (
          <Group>
            <Button size="sm" variant="light" onClick={() => void talkAboutIt()} loading={talk.creating || update.isPending}>
              Talk about it
            </Button>
          </Group>
        ) : null}
        {talk.error ? (
          <Alert color="clay" role="alert">
            {talk.error}
          </Alert>
        ) : null}
        {error ? (
          <Alert color="clay" role="alert">
            {error}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
