import { Alert, Anchor, Button, Container, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBrandGoogle } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams, type Location } from 'react-router';
import { useExchangeOidcCode, useLogin } from '../../api/gen/auth/auth';
import type { LoginResponse } from '../../api/gen/model';
import { useGetClientConfig } from '../../api/gen/public/public';
import { isApiError } from '../../api/mutator';
import { useAuth } from '../../auth/AuthContext';
import { browser } from '../../auth/browser';
import { ResetPasswordModal } from './ResetPasswordModal';

/** The server's start path of third-party sign-in (spec §7: on the server root). */
export const OIDC_START_PATH = '/oauth2/authorization/google';
const REDIRECT_DELAY_MS = 1000;

type FieldErrors = Partial<Record<'email' | 'password', string>>;

/** Banner and field errors of a failed login (spec §8 Login). */
function describeLoginError(error: unknown): { banner: string; fields: FieldErrors } {
  if (isApiError(error)) {
    if (error.code === 'VALIDATION_ERROR' && error.details) {
      return { banner: 'Please fix the errors below.', fields: error.details };
    }
    const banner = error.serverError ?? error.text ?? error.serverMessage ?? 'Login failed. Please try again.';
    return { banner, fields: {} };
  }
  const message = error instanceof Error && error.message ? error.message : 'Login failed. Please try again.';
  return { banner: message, fields: {} };
}

function originOf(state: unknown): string {
  const from = (state as { from?: Partial<Location> } | null)?.from;
  if (!from?.pathname) return '/dashboard';
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

export function LoginPage() {
  const { signIn } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [banner, setBanner] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [success, setSuccess] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);

  const login = useLogin();
  const exchange = useExchangeOidcCode();
  const config = useGetClientConfig({ query: { staleTime: 5 * 60 * 1000 } });
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const exchangedCode = useRef<string | null>(null);
  const destination = originOf(location.state);

  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  function succeed(session: LoginResponse) {
    signIn(session);
    setSuccess(true);
    redirectTimer.current = setTimeout(() => navigate(destination, { replace: true }), REDIRECT_DELAY_MS);
  }

  function fail(error: unknown) {
    const { banner: text, fields } = describeLoginError(error);
    setBanner(text);
    setFieldErrors(fields);
  }

  // Back from the identity provider: exchange the one-time code for tokens
  // (once, also under StrictMode) and take it out of the address bar.
  const oauthCode = searchParams.get('oauthCode');
  const oauthError = searchParams.get('oauthError');
  useEffect(() => {
    if (!oauthCode || exchangedCode.current === oauthCode) return;
    exchangedCode.current = oauthCode;
    setSearchParams(
      (params) => {
        params.delete('oauthCode');
        return params;
      },
      { replace: true, state: location.state },
    );
    exchange.mutateAsync({ data: { code: oauthCode } }).then(succeed, fail);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per code
  }, [oauthCode]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBanner(null);
    setFieldErrors({});
    try {
      succeed(await login.mutateAsync({ data: { email, password } }));
    } catch (error) {
      fail(error);
    }
  }

  const busy = login.isPending || exchange.isPending || success;
  const oidcAvailable = config.data?.oidcSignIn === true;
  const shownBanner = banner ?? oauthError;

  return (
    <Container size={460} py="xl">
      <Paper withBorder radius="md" p="xl">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Title order={1} ta="center">
              Sign In
            </Title>
            {success ? (
              <Alert color="green" role="status">
                Login successful! Redirecting...
              </Alert>
            ) : null}
            {shownBanner && !success ? (
              <Alert color="red" role="alert">
                {shownBanner}
              </Alert>
            ) : null}
            <TextInput
              label="Email Address"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={fieldErrors.email}
              disabled={busy}
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={fieldErrors.password}
              disabled={busy}
            />
            <Anchor component="button" type="button" size="sm" ta="right" onClick={() => setResetOpen(true)}>
              Forgot password
            </Anchor>
            <Button type="submit" loading={login.isPending} disabled={busy} fullWidth>
              Sign In
            </Button>
            <Divider label="or" labelPosition="center" />
            <Button
              variant="default"
              leftSection={<IconBrandGoogle size={18} aria-hidden />}
              disabled={!oidcAvailable || busy}
              onClick={() => browser.assign(OIDC_START_PATH)}
              fullWidth
            >
              Sign in with Google
            </Button>
            {config.data && !oidcAvailable ? (
              <Text size="sm" c="dimmed" ta="center">
                Sign-in with Google is not available on this server.
              </Text>
            ) : null}
            <Text size="sm" ta="center">
              Don&apos;t have an account?{' '}
              <Anchor component={RouterLink} to="/register">
                Register
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
      <ResetPasswordModal opened={resetOpen} onClose={() => setResetOpen(false)} />
    </Container>
  );
}
