import { Anchor, Button, Container, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useVerifyEmail } from '../../api/gen/auth/auth';
import { isApiError } from '../../api/mutator';
import { PageLoader } from '../../components/PageLoader/PageLoader';

const COUNTDOWN_SECONDS = 10;

/** Message of a failed verification (spec §8 Verification). */
function verificationError(error: unknown): string {
  if (isApiError(error)) return error.text ?? 'Email verification failed';
  return 'An error occurred during verification. Please try again.';
}

function Countdown({ onDone }: { onDone: () => void }) {
  const [seconds, setSeconds] = useState(COUNTDOWN_SECONDS);

  useEffect(() => {
    const timer = setInterval(() => setSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => {
    if (seconds === 0) onDone();
  }, [seconds, onDone]);

  return (
    <Text c="dimmed" aria-live="polite">
      Redirecting to login in {seconds} {seconds === 1 ? 'second' : 'seconds'}...
    </Text>
  );
}

/** /email-verified?t=…: the landing page of the verification link (spec §2, §4). */
export function EmailVerifiedPage() {
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get('t') ?? '';
  // The link names the address it verified: the login page then has it filled in.
  const email = searchParams.get('email') ?? '';
  const toLogin = () => navigate('/login', email ? { state: { verifiedEmail: email } } : undefined);
  const verify = useVerifyEmail(
    { t: token },
    // The token is single-use: ask exactly once.
    { query: { enabled: token !== '', retry: false, staleTime: Infinity, refetchOnWindowFocus: false } },
  );

  if (token && verify.isPending) {
    return <PageLoader label="Verifying your email..." />;
  }

  const failed = !token || verify.isError;
  const message = !token ? 'Invalid verification link' : verify.isError ? verificationError(verify.error) : verify.data;

  return (
    <Container size={520} py="xl">
      <Paper withBorder radius="md" p="xl">
        <Stack align="center" gap="md" ta="center">
          {failed ? (
            <>
              <ThemeIcon color="red" variant="light" size={56} radius="xl">
                <IconCircleX size={32} aria-hidden />
              </ThemeIcon>
              <Title order={1}>Verification Failed</Title>
              <Text role="alert">{message}</Text>
              <Button onClick={() => navigate('/login')}>Go to Login</Button>
              <Anchor component={RouterLink} to="/team#contact" size="sm">
                Contact Support
              </Anchor>
            </>
          ) : (
            <>
              <ThemeIcon color="green" variant="light" size={56} radius="xl">
                <IconCircleCheck size={32} aria-hidden />
              </ThemeIcon>
              <Title order={1}>Email Verified!</Title>
              {message ? <Text role="status">{message}</Text> : null}
              <Countdown onDone={toLogin} />
              <Button onClick={toLogin}>Continue to Login</Button>
              <Anchor component={RouterLink} to="/dashboard" size="sm">
                Go to Dashboard
              </Anchor>
            </>
          )}
        </Stack>
      </Paper>
    </Container>
  );
}
