import { Button, Container, Paper, PasswordInput, SimpleGrid, Stack, Title } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useResetPassword } from '../../api/gen/public/public';
import { isApiError } from '../../api/mutator';
import { FormMessages } from '../../components/FormMessages/FormMessages';

const REDIRECT_DELAY_MS = 3000;
const MISSING_TOKEN = 'Invalid or missing reset token. Please request a new password reset.';

/** Message of a failed reset (spec §8 Reset password). */
function resetError(error: unknown): string {
  if (isApiError(error)) return error.text ?? 'Failed to reset password';
  return 'Failed to reset password. Please try again.';
}

/** /reset?token=…: sets a new password with the token from the e-mailed link. */
export function ResetPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const reset = useResetPassword();
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(token ? null : MISSING_TOKEN);
  const [success, setSuccess] = useState<string | null>(null);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSuccess(null);
    if (!token) {
      setError(MISSING_TOKEN);
      return;
    }
    if (password === '' || confirmPassword === '') {
      setError('Please fill in both password fields.');
      return;
    }
    setError(null);
    try {
      const text = await reset.mutateAsync({ data: { password, confirmPassword }, params: { token } });
      setSuccess(typeof text === 'string' ? text : '');
      redirectTimer.current = setTimeout(() => navigate('/login'), REDIRECT_DELAY_MS);
    } catch (e) {
      setError(resetError(e));
    }
  }

  const busy = reset.isPending || success !== null;

  return (
    <Container size={460} py="xl">
      <Paper withBorder radius="md" p={{ base: 'lg', xs: 'xl' }}>
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Title order={1} ta="center">
              Reset Password
            </Title>
            <FormMessages error={error} success={success} />
            <PasswordInput
              label="New Password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              disabled={busy}
            />
            <PasswordInput
              label="Confirm New Password"
              autoComplete="new-password"
              value={confirmPassword}
              onChange={(event) => setConfirmPassword(event.currentTarget.value)}
              disabled={busy}
            />
            {/* Side by side from 576 px; one above the other on a phone, so each label is whole at 360 px. */}
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Button variant="default" onClick={() => navigate('/login')}>
                Back to Login
              </Button>
              <Button type="submit" disabled={!token || busy} loading={reset.isPending}>
                Reset Password
              </Button>
            </SimpleGrid>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
