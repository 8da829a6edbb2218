import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useDeleteAccount } from '../../api/gen/profile/profile';
import { isApiError } from '../../api/mutator';

interface DeleteAccountModalProps {
  opened: boolean;
  onClose: () => void;
  /** Runs after the server deleted the account. */
  onDeleted: () => void;
}

/**
 * Confirms account deletion and calls DELETE /api/profile. The spec's dialog
 * only logged; the privacy policy promises erasure, so this one really deletes
 * (issue 3).
 */
export function DeleteAccountModal({ opened, onClose, onDeleted }: DeleteAccountModalProps) {
  const remove = useDeleteAccount();
  const [error, setError] = useState<string | null>(null);
  const busy = remove.isPending;

  function close() {
    if (busy) return;
    setError(null);
    onClose();
  }

  async function confirm() {
    setError(null);
    try {
      await remove.mutateAsync();
      onDeleted();
    } catch (e) {
      setError(
        (isApiError(e) && (e.serverMessage ?? e.text ?? e.serverError)) || 'Failed to delete account. Please try again.',
      );
    }
  }

  return (
    <Modal opened={opened} onClose={close} title="Delete Account" centered>
      <Stack gap="md">
        <Text fw={600}>Are you absolutely sure?</Text>
        <Text>
          This action cannot be undone. All your chat sessions, messages and profile data will be permanently lost.
        </Text>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button color="red" onClick={confirm} disabled={busy}>
            {busy ? 'Deleting...' : 'Delete Account'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
