import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../../api/mutator';
import { useRequestPasswordReset } from '../../api/gen/public/public';
import { FormMessages } from '../../components/FormMessages/FormMessages';

interface ResetPasswordModalProps {
  opened: boolean;
  onClose: () => void;
}

function resetEmailError(error: unknown): string {
  if (isApiError(error)) return error.text ?? error.serverError ?? 'Failed to send reset email';
  return 'Failed to send reset email. Please try again.';
}

/**
 * "Forgot password" (spec §2 Login, §8 Reset e-mail): asks the server to mail
 * a reset link. Static backdrop: only Cancel closes it.
 */
export function ResetPasswordModal({ opened, onClose }: ResetPasswordModalProps) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const request = useRequestPasswordReset();

  function close() {
    setEmail('');
    setError(null);
    setSuccess(null);
    request.reset();
    onClose();
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setSuccess(null);
    if (email.trim() === '') {
      setError('Please enter your email address');
      return;
    }
    try {
      const text = await request.mutateAsync({ params: { email: email.trim() } });
      setSuccess(typeof text === 'string' ? text : '');
    } catch (e) {
      setError(resetEmailError(e));
    }
  }

  const sending = request.isPending;

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="Reset Password"
      centered
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormMessages error={error} success={success} />
          <TextInput
            label="Email Address"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            disabled={sending}
          />
          <Text size="sm" c="dimmed">
            We&apos;ll send you a link to reset your password.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={sending}>
              Cancel
            </Button>
            <Button type="submit" disabled={sending}>
              {sending ? 'Sending...' : 'Send Reset Link'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
