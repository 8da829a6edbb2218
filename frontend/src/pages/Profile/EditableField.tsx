import { Alert, Button, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import type { Profile, ProfileUpdate } from '../../api/gen/model';
import { isApiError } from '../../api/mutator';
import { updateProfileBodyFocusAreasMax } from '../../api/gen/zod/schemas';
import { useSaveProfile } from '../../features/profile/mutations';
import { parseAge } from './profileFields';

export type EditableKey = 'age' | 'focusAreas' | 'primaryConcerns' | 'sensitiveTopics';

/** Cap of the three free-text profile fields (spec §5: 250), the contract's (api/limits.test.ts holds the three equal). */
export const TEXT_FIELD_MAX = updateProfileBodyFocusAreasMax;

interface EditableFieldProps {
  label: string;
  field: EditableKey;
  profile: Profile;
  /** Called with the saved profile the server answered (the cached profile holds it already). */
  onSaved?: (profile: Profile) => void;
}

type Mode = 'display' | 'editing';

function displayValue(profile: Profile, field: EditableKey): string {
  const value = profile[field];
  return value === null || value === undefined ? '' : String(value);
}

/**
 * One inline-editable profile field (spec §4 "Profile field edit"): display,
 * Edit → editing, Save → saving (spinner) → display; on failure it stays in
 * editing with the error. Saving sends only this field.
 */
export function EditableField({ label, field, profile, onSaved }: EditableFieldProps) {
  const [mode, setMode] = useState<Mode>('display');
  const [draft, setDraft] = useState('');
  const [error, setError] = useState<string | null>(null);
  const update = useSaveProfile();
  const isNumber = field === 'age';
  const saving = update.isPending;

  function edit() {
    setDraft(displayValue(profile, field));
    setError(null);
    setMode('editing');
  }

  async function save() {
    setError(null);
    const data: ProfileUpdate = isNumber ? { age: parseAge(draft) } : { [field]: draft };
    try {
      const saved = await update.mutateAsync({ data });
      onSaved?.(saved);
      setMode('display');
    } catch (e) {
      setError((isApiError(e) && e.details?.[field]) || 'Failed to save changes');
    }
  }

  const current = displayValue(profile, field);

  return (
    <Stack gap={6} role="group" aria-label={label}>
      <Group justify="space-between" align="center" wrap="nowrap">
        <Text fw={600} component="span" id={`profile-${field}-label`}>
          {label}
        </Text>
        {mode === 'display' ? (
          <Button size="xs" variant="light" onClick={edit}>
            Edit
          </Button>
        ) : (
          <Button size="xs" onClick={save} loading={saving}>
            Save
          </Button>
        )}
      </Group>
      {mode === 'display' ? (
        <Text c={current ? undefined : 'dimmed'} style={{ whiteSpace: 'pre-wrap' }}>
          {current || 'Not set'}
        </Text>
      ) : isNumber ? (
        <TextInput
          type="number"
          inputMode="numeric"
          aria-labelledby={`profile-${field}-label`}
          value={draft}
          onChange={(event) => setDraft(event.currentTarget.value)}
          disabled={saving}
        />
      ) : (
        <>
          <Textarea
            aria-labelledby={`profile-${field}-label`}
            value={draft}
            onChange={(event) => setDraft(event.currentTarget.value.slice(0, TEXT_FIELD_MAX))}
            maxLength={TEXT_FIELD_MAX}
            rows={3}
            disabled={saving}
          />
          <Text size="xs" c="dimmed" ta="right">
            {draft.length}/{TEXT_FIELD_MAX} characters
          </Text>
        </>
      )}
      {error ? (
        <Alert color="red" role="alert" py="xs">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
