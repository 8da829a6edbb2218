import { Alert, Button, Chip, Group, Paper, Stack, Text, Textarea, Title, UnstyledButton } from '@mantine/core';
import { IconMoodCry, IconMoodEmpty, IconMoodHappy, IconMoodSad, IconMoodSmile } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { useAuth } from '../../auth/AuthContext';
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
import { change, errorText, forget, isOffline, keep, kept as keptNow, seen, unseenSent, whenSent, type Kept } from './offlineQueue';
import { RefusedCheckins } from './RefusedCheckins';
import { useIsKept } from './useKeptCheckins';
import classes from './CheckinCard.module.css';

const icons = [IconMoodCry, IconMoodSad, IconMoodEmpty, IconMoodSmile, IconMoodHappy];

/**
 * The dashboard's check-in (issue 31): "How are you right now?" with five moods. One tap stores
 * the check-in; Undo deletes it for a few seconds after. Emotions, tags and a note can be added
 * on the same card. A note the crisis screen flags shows the support lines at once; a third very
 * low check-in in a row brings a gentle card with them (never a pop-up), whose offer to talk opens
 * the chat on this check-in like "Talk about it". Once the user has checked in today, the card
 * opens folded to one line (issue 36: the sessions stay on a phone's first screen), unless a
 * reminder brought them here to check in.
 *
 * Without a connection the check-in is kept on this device and sent when the connection
 * returns (see offlineQueue); its details can still be added, and Undo forgets it. While it is
 * kept, the card shows it, even over a check-in made today on another device. One the server
 * refuses shows on the card (folded or not) until the user keeps or discards it.
 */
export function CheckinCard() {
  const id = useId();
  const userId = useAuth().user?.id ?? '';
  // Offline, React Query would hold the request until the browser says it is online again
  // (and forget it on a reload): it is sent at once, and kept here when it cannot go.
  const create = useCreateCheckin({ mutation: { networkMode: 'always' } });
  const update = useUpdateCheckin();
  const remove = useDeleteCheckin();
  const talk = useStartNewChat();
  // A check-in kept offline (this one, or the last one kept before the app was closed): its
  // clientId and mood, until it is sent.
  const [last] = useState(() => keptNow(userId).filter((k) => !k.refused).at(-1));
  // Or one the app sent as it opened, before this card was there to say so.
  const [sentBefore] = useState(() => (last ? undefined : unseenSent(userId)));
  const [saved, setSaved] = useState<Checkin | null>(sentBefore?.created.checkin ?? null);
  const [safety, setSafety] = useState<string | null>(sentBefore?.created.safety?.category ?? null);
  const [lowStreak, setLowStreak] = useState(Boolean(sentBefore?.created.lowStreak));
  useEffect(() => {
    if (sentBefore) seen(userId, sentBefore.clientId);
  }, [userId, sentBefore]);
  const [canUndo, setCanUndo] = useState(false);
  const [chosenEmotions, setEmotions] = useState<string[]>([]);
  const [chosenTags, setTags] = useState<string[]>([]);
  const [note, setNote] = useState('');
  const [detailsSaved, setDetailsSaved] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [keptId, setKeptId] = useState(last?.data.clientId ?? null);
  const [keptMood, setKeptMood] = useState<Mood | null>(last?.data.mood ?? null);
  const isKept = useIsKept(userId, keptId);
  // (Kept until sent: a check-in that another tab sent is no longer this card's.)
  const kept = keptId !== null && isKept;
  const cardRef = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  const queryClient = useQueryClient();
  const today = localDate();
  const todays = useListCheckins({ from: today, to: today, limit: 1 });
  const [unfolded, setUnfolded] = useState(false);
  // A reminder's notification opens /dashboard#checkin: the card comes into view, unfolded, with
  // its first mood focused, one tap from a check-in. A check-in kept on this device is not
  // folded away under one made today on another device.
  const earlier = saved || kept || unfolded || hash === '#checkin' ? undefined : todays.data?.[0];
  // Today's check-ins as the dashboard shows them next time (folded or not).
  const changed = useCallback(() => void queryClient.invalidateQueries({ queryKey: getListCheckinsQueryKey() }), [queryClient]);

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

  const took = useCallback((res: CheckinCreated) => {
    setSaved(res.checkin);
    if (res.safety) setSafety(res.safety.category);
    if (res.lowStreak) setLowStreak(true);
  }, []);

  const reset = useCallback(() => {
    setSaved(null);
    setKeptId(null);
    setKeptMood(null);
    setCanUndo(false);
    setSafety(null);
    setLowStreak(false);
    setDetailsSaved(false);
  }, []);

  // The kept check-in was sent (its note screened then: the support lines show now), or refused.
  useEffect(() => {
    if (!keptId) return;
    return whenSent(keptId, (o) => {
      if ('sent' in o) {
        seen(userId, keptId);
        took(o.sent);
        setKeptId(null);
        changed();
      } else {
        // It stays on this device, with the reason, for the user to keep or discard.
        reset();
      }
    });
  }, [userId, keptId, took, reset, changed]);

  async function choose(mood: Mood) {
    if (create.isPending || saved || kept) return;
    setError(null);
    const data = { mood, localDate: localDate(), clientId: crypto.randomUUID() };
    try {
      took(await create.mutateAsync({ data }));
      setCanUndo(true);
      changed();
    } catch (e) {
      if (isOffline(e) && keep(userId, data)) {
        setKeptId(data.clientId);
        setKeptMood(mood);
        setCanUndo(true);
        return;
      }
      setError(errorText(e));
    }
  }

  async function undo() {
    setError(null);
    if (keptId) {
      if (forget(userId, keptId)) reset();
      else setError('It is being sent right now. You can undo it in a moment.');
      return;
    }
    if (!saved) return;
    try {
      await remove.mutateAsync({ checkinId: saved.id });
      changed();
      reset();
    } catch {
      setError('Undo did not work. Please try again.');
    }
  }

  /** Saves the chosen details; the answer, or null when it failed (the card says why). */
  async function saveDetails(): Promise<CheckinCreated | null> {
    setError(null);
    if (keptId) {
      const details = { emotions: chosenEmotions as Emotion[], tags: chosenTags as CheckinTag[], note };
      if (change(userId, keptId, details)) setDetailsSaved(true);
      else setError('It is being sent right now. You can add these in a moment.');
      return null;
    }
    if (!saved) return null;
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

  /** A refused check-in kept after all: the card follows it again until it is sent. */
  const keepAgain = useCallback(
    (k: Kept) => {
      reset();
      setError(null);
      setKeptId(k.data.clientId);
      setKeptMood(k.data.mood);
    },
    [reset],
  );

  const chosenMood = saved?.mood ?? (kept ? keptMood : null);
  const chosenLabel = moods.find((m) => m.value === chosenMood)?.label;
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
        <RefusedCheckins userId={userId} onKeep={keepAgain} pb="sm" />
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
            const chosen = chosenMood === m.value;
            return (
              <UnstyledButton
                key={m.value}
                className={classes.mood}
                data-chosen={chosen || undefined}
                aria-pressed={chosen}
                disabled={create.isPending || (chosenMood !== null && !chosen)}
                onClick={() => void choose(m.value)}
              >
                <Icon size={20} aria-hidden />
                {m.label}
              </UnstyledButton>
            );
          })}
        </div>
        {saved || kept ? (
          <Group gap="xs" role="status">
            <Text size="sm">
              {kept
                ? `Saved on this device: ${chosenLabel?.toLowerCase()}. It will be sent when you're back online.`
                : `Saved: ${chosenLabel?.toLowerCase()}. Thanks for checking in.`}
            </Text>
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
                <Button
                  size="sm"
                  variant="light"
                  color="clay"
                  onClick={() => void talkAboutIt()}
                  loading={talk.creating || update.isPending}
                >
                  Talk it through with Percolate
                </Button>
              </Group>
            </Stack>
          </Alert>
        ) : null}
        {(saved || kept) && !detailsSaved ? (
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
        <RefusedCheckins userId={userId} onKeep={keepAgain} />
        {error ? (
          <Alert color="clay" role="alert">
            {error}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
