import { Alert, Anchor, Button, Container, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBrandGoogle } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams, type Location } from 'react-router';
import { useExchangeOidcCode, useLogin, useRedeemLoginLink, useRequestLoginLink, useResendVerification } from '../../api/gen/auth/auth';
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

/** Where a sign-in with Google returns to: the page is left for the provider, so the
 * destination waits in sessionStorage (this tab only) until the code comes back. */
const AFTER_OIDC_KEY = 'percolate-after-sign-in';

function rememberDestination(to: string) {
  try {
    window.sessionStorage.setItem(AFTER_OIDC_KEY, to);
  } catch {
    // Without storage, the sign-in ends on the dashboard.
  }
}

function takeRememberedDestination(): string | null {
  try {
    const to = window.sessionStorage.getItem(AFTER_OIDC_KEY);
    window.sessionStorage.removeItem(AFTER_OIDC_KEY);
    // Only a path of this site: never another origin.
    return to && to.startsWith('/') && !to.startsWith('//') ? to : null;
  } catch {
    return null;
  }
}

/** The address a registration just mailed, when the login page follows it. */
function registeredEmailOf(state: unknown): string | null {
  const email = (state as { registeredEmail?: unknown } | null)?.registeredEmail;
  return typeof email === 'string' && email !== '' ? email : null;
}

/** "Didn't get the e-mail?": mails a new verification link to the address. */
function ResendLink({ email }: { email: string }) {
  const resend = useResendVerification();
  const [said, setSaid] = useState<string | null>(null);
  async function send() {
    setSaid(null);
    try {
      setSaid((await resend.mutateAsync({ data: { email } })).message);
    } catch (error) {
      setSaid(
        isApiError(error)
          ? (error.serverError ?? error.serverMessage ?? 'Could not send the link. Please try again.')
          : 'Could not send the link. Please try again.',
      );
    }
  }
  return (
    <Stack gap={4} align="center">
      <Text size="sm" ta="center">
        Didn&apos;t get the e-mail for {email}?{' '}
        <Anchor component="button" type="button" size="sm" onClick={send} disabled={resend.isPending}>
          {resend.isPending ? 'Sending...' : 'Resend the link'}
        </Anchor>
      </Text>
      {said ? (
        <Text size="sm" ta="center" role="status">
          {said}
        </Text>
      ) : null}
    </Stack>
  );
}

/** A failed sign-in that the account's lock refused (too many wrong passwords). */
function isLockout(error: unknown): boolean {
  return isApiError(error) && error.status === 429;
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
  const [unverified, setUnverified] = useState<string | null>(null);
  const [lockedOut, setLockedOut] = useState(false);
  const [linkNote, setLinkNote] = useState<{ ok: boolean; text: string } | null>(null);

  const login = useLogin();
  const exchange = useExchangeOidcCode();
  const requestLink = useRequestLoginLink();
  const redeemLink = useRedeemLoginLink();
  const config = useGetClientConfig({ query: { staleTime: 5 * 60 * 1000 } });
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const exchangedCode = useRef<string | null>(null);
  const redeemedToken = useRef<string | null>(null);
  const destination = originOf(location.state);

  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  function succeed(session: LoginResponse, to: string = destination) {
    signIn(session);
    setSuccess(true);
    redirectTimer.current = setTimeout(() => navigate(to, { replace: true }), REDIRECT_DELAY_MS);
  }

  function fail(error: unknown) {
    if (isApiError(error) && error.code === 'EMAIL_NOT_VERIFIED') setUnverified(email.trim());
    const { banner: text, fields } = describeLoginError(error);
    setBanner(text);
    setFieldErrors(fields);
    setLockedOut(isLockout(error));
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
    const to = takeRememberedDestination() ?? destination;
    exchange.mutateAsync({ data: { code: oauthCode } }).then((session) => succeed(session, to), fail);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per code
  }, [oauthCode]);

  // From a sign-in link: redeem its one-time token, as the code above.
  const loginToken = searchParams.get('loginToken');
  useEffect(() => {
    if (!loginToken || redeemedToken.current === loginToken) return;
    redeemedToken.current = loginToken;
    setSearchParams(
      (params) => {
        params.delete('loginToken');
        return params;
      },
      { replace: true, state: location.state },
    );
    redeemLink.mutateAsync({ data: { token: loginToken } }).then(succeed, fail);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once per token
  }, [loginToken]);

  async function sendLink() {
    setLinkNote(null);
    try {
      const answer = await requestLink.mutateAsync({ data: { email } });
      setLinkNote({ ok: true, text: answer.message });
    } catch (error) {
      const { banner: text, fields } = describeLoginError(error);
      setLinkNote({ ok: false, text });
      setFieldErrors(fields);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBanner(null);
    setFieldErrors({});
    setLockedOut(false);
    setLinkNote(null);
    try {
      succeed(await login.mutateAsync({ data: { email, password } }));
    } catch (error) {
      fail(error);
    }
  }

  const busy = login.isPending || exchange.isPending || redeemLink.isPending || success;
  const oidcAvailable = config.data?.oidcSignIn === true;
  const shownBanner = banner ?? oauthError;
  const resendTo = unverified ?? registeredEmailOf(location.state);

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
            {lockedOut && !success ? (
              <Stack gap="xs">
                <Text size="sm">Can&apos;t wait? We can email you a link that signs you in once.</Text>
                <Button variant="light" onClick={sendLink} loading={requestLink.isPending} disabled={busy} fullWidth>
                  Email me a sign-in link
                </Button>
                {linkNote ? (
                  <Alert color={linkNote.ok ? 'green' : 'red'} role={linkNote.ok ? 'status' : 'alert'}>
                    {linkNote.text}
                  </Alert>
                ) : null}
              </Stack>
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
            {resendTo && !success ? <ResendLink email={resendTo} /> : null}
            <Anchor component="button" type="button" size="sm" ta="right" onClick={() => setResetOpen(true)}>
              Forgot password
            </Anchor>
            <Button type="submit" loading={login.isPending} disabled={busy} fullWidth>
              Sign In
            </Button>
            <Button
              component={RouterLink}
              to="/register"
              state={location.state}
              variant="subtle"
              fullWidth
              // On a narrow phone the label wraps rather than being cut off.
              h="auto"
              mih={36}
              py={6}
              styles={{ label: { whiteSpace: 'normal', textAlign: 'center' } }}
            >
              New here? Create an account
            </Button>
            <Divider label="or" labelPosition="center" />
            <Button
              variant="default"
              leftSection={<IconBrandGoogle size={18} aria-hidden />}
              disabled={!oidcAvailable || busy}
              onClick={() => {
                rememberDestination(destination);
                browser.assign(OIDC_START_PATH);
              }}
              fullWidth
            >
              Sign in with Google
            </Button>
            {config.data && !oidcAvailable ? (
              <Text size="sm" c="dimmed" ta="center">
                Sign-in with Google isn't available right now. Use your e-mail and password.
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
