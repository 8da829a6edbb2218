import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Profile } from '../../api/gen/model';
import { useGetSafetyResources } from '../../api/gen/public/public';
import { isApiError } from '../../api/mutator';
import { useSaveProfile } from '../../features/profile/mutations';
import { browserCountry } from '../../features/safety/proposeCountry';

interface CountryFieldProps {
  profile: Profile;
  /** Called with the saved profile the server answered (the cached profile holds it already). */
  onSaved?: (profile: Profile) => void;
  /** Inside a modal: the list opens in place, not in a portal under the modal. */
  inModal?: boolean;
}

/**
 * The country whose helplines Percolate gives in a hard moment. Unset, it proposes the
 * browser's (language and time zone); choosing saves it at once.
 */
export function CountryField({ profile, onSaved, inModal = false }: CountryFieldProps) {
  const list = useGetSafetyResources(undefined, { query: { staleTime: 60 * 60_000 } });
  const update = useSaveProfile();
  const [error, setError] = useState<string | null>(null);
  const [proposal] = useState(browserCountry);
  const countries = list.data?.countries ?? [];
  const options = countries.map((c) => ({ value: c.code, label: c.name }));
  const current = profile.country ?? null;
  if (current && !options.some((o) => o.value === current)) options.push({ value: current, label: current });
  const proposed = !current && proposal ? countries.find((c) => c.code === proposal) : undefined;

  function save(country: string) {
    setError(null);
    update.mutate(
      { data: { country } },
      {
        onSuccess: (saved) => onSaved?.(saved),
        onError: (e) => setError((isApiError(e) && e.details?.country) || 'Failed to save changes'),
      },
    );
  }

  return (
    <Stack gap="xs">
      <Select
        label="Country"
        description="Where you are now: crisis replies and the safety page give the helplines that work there."
        placeholder={proposed ? `Suggested: ${proposed.name}` : 'Choose a country'}
        data={options}
        value={current}
        onChange={(v) => save(v ?? '')}
        searchable
        clearable
        comboboxProps={inModal ? { withinPortal: false } : undefined}
        disabled={update.isPending}
        nothingFoundMessage="Not listed: findahelpline.com covers every country"
      />
      {proposed ? (
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            Your browser suggests {proposed.name}.
          </Text>
          <Button size="compact-sm" variant="light" onClick={() => save(proposed.code)} loading={update.isPending}>
            Use {proposed.name}
          </Button>
        </Group>
      ) : null}
      {error ? (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      ) : null}
    </Stack>
  );
}
