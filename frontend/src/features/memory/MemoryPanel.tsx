import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  Paper,
  Stack,
  Switch,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import type { Memory, Profile } from '../../api/gen/model';
import { useListMemories } from '../../api/gen/profile/profile';
import { isApiError } from '../../api/mutator';
import { updateMemoryBodyTextMax } from '../../api/gen/zod/schemas';
import { useSaveProfile } from '../profile/mutations';
import { useEditMemory, useForgetAllMemories, useForgetMemory } from './mutations';

/** Longest remembered sentence: the contract's MemoryUpdate.text. */
export const MEMORY_MAX = updateMemoryBodyTextMax;

interface MemoryPanelProps {
  profile: Profile;
  /** Called with the profile the server answered after the switch changed (the cached profile holds it already). */
  onProfileSaved?: (profile: Profile) => void;
}

/**
 * "What Percolate remembers": the short sentences learnt from ended sessions,
 * each editable and deletable, "Forget everything" behind a confirmation, and
 * the switch that turns memory off (then nothing is learnt or used).
 */
export function MemoryPanel({ profile, onProfileSaved }: MemoryPanelProps) {
  const memories = useListMemories({ query: { retry: false } });
  const updateProfile = useSaveProfile();
  const forgetAll = useForgetAllMemories();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function toggle(enabled: boolean) {
    setError(null);
    try {
      const saved = await updateProfile.mutateAsync({ data: { memoryEnabled: enabled } });
      onProfileSaved?.(saved);
    } catch {
      setError('Failed to change the memory setting. Please try again.');
    }
  }

  async function forget() {
    setError(null);
    try {
      await forgetAll.mutateAsync();
      setConfirmOpen(false);
    } catch {
      setError('Failed to forget. Please try again.');
    }
  }

  const list = memories.data ?? [];

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="memory-title">
      <Stack gap="md">
        <Title order={2} size="h3" id="memory-title">
          What Percolate remembers
        </Title>
        <Switch
          checked={profile.memoryEnabled}
          onChange={(e) => void toggle(e.currentTarget.checked)}
          disabled={updateProfile.isPending}
          label="Remember things between sessions"
          description={
            profile.memoryEnabled
              ? 'When a session ends, Percolate keeps a few short notes to pick up where you left off.'
              : 'Memory is off: nothing new is remembered, and nothing below is used.'
          }
        />
        {error ? (
          <Alert color="clay" role="alert">
            {error}
          </Alert>
        ) : null}
        {memories.isPending ? (
          <Text c="dimmed">Loading what Percolate remembers...</Text>
        ) : memories.isError ? (
          <Alert color="clay" role="alert" title="Failed to load what Percolate remembers">
            <Button mt="sm" variant="light" color="clay" onClick={() => void memories.refetch()}>
              Retry
            </Button>
          </Alert>
        ) : list.length === 0 ? (
          <Text c="dimmed">
            Nothing yet. When you end a session, Percolate notes a few things worth remembering, like an exam
            coming up or a friend you mentioned, so next time it can ask how things went. You can edit or delete
            every note here, and nothing is kept from sensitive topics or hard moments.
          </Text>
        ) : (
          <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Memories">
            {list.map((m) => (
              <MemoryItem key={m.id} memory={m} />
            ))}
          </Stack>
        )}
        {list.length > 0 ? (
          <Group>
            <Button variant="outline" color="clay" onClick={() => setConfirmOpen(true)}>
              Forget everything
            </Button>
          </Group>
        ) : null}
      </Stack>
      <Modal
        opened={confirmOpen}
        onClose={() => !forgetAll.isPending && setConfirmOpen(false)}
        title="Forget everything?"
        centered
      >
        <Stack gap="md">
          <Text>
            Percolate will forget everything it remembers about you. Your sessions stay. This cannot be undone.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmOpen(false)} disabled={forgetAll.isPending}>
              Cancel
            </Button>
            <Button color="clay" onClick={() => void forget()} disabled={forgetAll.isPending}>
              {forgetAll.isPending ? 'Forgetting...' : 'Forget everything'}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}

interface MemoryItemProps {
  memory: Memory;
}

/** One remembered sentence: shown, or edited in place. */
function MemoryItem({ memory }: MemoryItemProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(memory.text);
  const [error, setError] = useState<string | null>(null);
  const update = useEditMemory();
  const remove = useForgetMemory();

  async function save() {
    setError(null);
    try {
      await update.mutateAsync({ memoryId: memory.id, data: { text: draft } });
      setEditing(false);
    } catch (e) {
      setError((isApiError(e) && e.details?.text) || 'Failed to save changes');
    }
  }

  async function del() {
    setError(null);
    try {
      await remove.mutateAsync({ memoryId: memory.id });
    } catch {
      setError('Failed to delete. Please try again.');
    }
  }

  if (editing) {
    return (
      <li>
        <Stack gap="xs">
          <Textarea
            label="Edit memory"
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            maxLength={MEMORY_MAX}
            autosize
            minRows={1}
            error={error}
            description={`${draft.length}/${MEMORY_MAX} characters`}
            autoFocus
          />
          <Group gap="xs">
            <Button size="xs" onClick={() => void save()} loading={update.isPending} disabled={draft.trim() === ''}>
              Save
            </Button>
            <Button size="xs" variant="default" onClick={() => setEditing(false)} disabled={update.isPending}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </li>
    );
  }

  return (
    <li>
      <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
        <Text style={{ overflowWrap: 'anywhere' }}>{memory.text}</Text>
        <Group gap={4} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            aria-label={`Edit “${memory.text}”`}
            onClick={() => {
              setDraft(memory.text);
              setError(null);
              setEditing(true);
            }}
          >
            <IconPencil size={18} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="clay"
            aria-label={`Delete “${memory.text}”`}
            onClick={() => void del()}
            loading={remove.isPending}
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
      </Group>
      {error ? (
        <Text c="clay" size="sm" role="alert">
          {error}
        </Text>
      ) : null}
    </li>
  );
}
