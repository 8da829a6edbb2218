import { Alert, Anchor, Button, Container, Divider, Loader, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconBrandGoogle } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams, type Location } from 'react-router';
import { useExchangeOidcCode, useLogin, useLookUpLoginLink, useRedeemLoginLink, useRequestLoginLink } from '../../api/gen/auth/auth';
import type { LoginResponse } from '../../api/gen/model';
import { useGetClientConfig } from '../../api/gen/public/public';
import { isApiError } from '../../api/mutator';
import { useAuth } from '../../auth/AuthContext';
import { browser } from '../../auth/browser';
import { MSG_OIDC_OTHER_TAB, oauthErrorMessage } from './oauthErrors';
import { beginOidcFlow, forgetOidcFlow, peekOidcFlow } from './oidcFlow';
import { ResendLink } from './ResendLink';
import { ResetPasswordModal } from './ResetPasswordModal';
import { SignInChoice } from './SignInChoice';

export { OIDC_START_PATH } from './oidcFlow';
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

/** A code from Google, with what this tab kept when it began the sign-in (no nonce: it did not). */
interface GoogleSignIn {
  code: string;
  nonce: string | null;
  to: string;
}

/** The address a registration just mailed, when the login page follows it. */
function registeredEmailOf(state: unknown): string | null {
  const email = (state as { registeredEmail?: unknown } | null)?.registeredEmail;
  return typeof email === 'string' && email !== '' ? email : null;
}

/** The address a verification link just verified, when the login page follows its landing. */
function verifiedEmailOf(state: unknown): string {
  const email = (state as { verifiedEmail?: unknown } | null)?.verifiedEmail;
  return typeof email === 'string' ? email : '';
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
  const { signIn, status: authStatus, logout } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();

  const [email, setEmail] = useState(() => verifiedEmailOf(location.state));
  const [password, setPassword] = useState('');
  const [banner, setBanner] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [success, setSuccess] = useState(false);
  const [resetOpen, setResetOpen] = useState(false);
  const [unverified, setUnverified] = useState<string | null>(null);
  const [lockedOut, setLockedOut] = useState(false);
  const [linkNote, setLinkNote] = useState<{ ok: boolean; text: string } | null>(null);
  // Back from the identity provider (a full page load, so a fresh page) with a one-time code.
  const [google] = useState<GoogleSignIn | null>(() => {
    const code = searchParams.get('oauthCode');
    if (!code) return null;
    const flow = peekOidcFlow();
    return { code, nonce: flow.nonce, to: flow.destination ?? originOf(location.state) };
  });
  const [googleDone, setGoogleDone] = useState(false);
  const [switching, setSwitching] = useState(false);

  const login = useLogin();
  const exchange = useExchangeOidcCode();
  const requestLink = useRequestLoginLink();
  const redeemLink = useRedeemLoginLink();
  const config = useGetClientConfig({ query: { staleTime: 5 * 60 * 1000 } });
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const exchanging = useRef(false);
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

  /**
   * Signs in with a session from redeem (a sign-in link or a code from Google). Whoever is
   * signed in in this browser is signed out first: the user has just said so (SignInChoice).
   */
  async function continueAs(redeem: () => Promise<LoginResponse>, to: string = destination) {
    setBanner(null);
    setFieldErrors({});
    setSwitching(true);
    try {
      if (authStatus !== 'unauthenticated') {
        // Locally the session is gone even when the server cannot be told; go on.
        await logout().catch(() => undefined);
      }
      succeed(await redeem(), to);
    } catch (error) {
      fail(error);
    } finally {
      setSwitching(false);
    }
  }

  function dropParam(name: string) {
    setSearchParams(
      (params) => {
        params.delete(name);
        return params;
      },
      { replace: true, state: location.state },
    );
  }

  // The code leaves the address bar, and the tab's nonce serves once. A code this tab did
  // not begin (no nonce) came from somewhere else, such as a link someone sent: it is not
  // even tried (the server would refuse it too).
  const oauthError = searchParams.get('oauthError');
  const otherTab = google !== null && google.nonce === null;
  useEffect(() => {
    if (!google) return;
    dropParam('oauthCode');
    forgetOidcFlow();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, for the code the page opened with
  }, [google]);

  function exchangeGoogle(g: GoogleSignIn) {
    if (exchanging.current || !g.nonce) return;
    exchanging.current = true;
    const browserNonce = g.nonce;
    void continueAs(() => exchange.mutateAsync({ data: { code: g.code, browserNonce } }), g.to).finally(() =>
      setGoogleDone(true),
    );
  }
  // Nobody signed in: this tab began the sign-in a moment ago, so the code is exchanged at
  // once. Someone signed in is asked first (below).
  useEffect(() => {
    if (google && !googleDone && authStatus === 'unauthenticated') exchangeGoogle(google);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once the auth state is known
  }, [google, authStatus]);

  // From a sign-in link: nothing is redeemed on load. The page names the link's account
  // (masked) and signs in only on a click, after asking anyone signed in (issue 33, item 2).
  const loginToken = success ? null : searchParams.get('loginToken');
  const linkAccount = useLookUpLoginLink(
    { token: loginToken ?? '' },
    { query: { enabled: !!loginToken, retry: false, staleTime: Infinity } },
  );
  const linkProblem = loginToken && linkAccount.error ? describeLoginError(linkAccount.error).banner : null;

  // The token leaves the address bar once it is used (or refused).
  function redeemToken(token: string) {
    void continueAs(() => redeemLink.mutateAsync({ data: { token } })).finally(() => dropParam('loginToken'));
  }

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

  const busy = login.isPending || exchange.isPending || redeemLink.isPending || switching || success;
  const oidcAvailable = config.data?.oidcSignIn === true;
  const shownBanner =
    banner ?? linkProblem ?? (otherTab ? MSG_OIDC_OTHER_TAB : null) ?? (oauthError ? oauthErrorMessage(oauthError) : null);
  const resendTo = unverified ?? registeredEmailOf(location.state);
  const leave = () => navigate('/dashboard', { replace: true });

  // A sign-in that came with a link waits for the user's choice in place of the form.
  let choice = null;
  if (!success && loginToken && !linkProblem) {
    choice = linkAccount.data ? (
      <SignInChoice
        account={linkAccount.data.maskedEmail}
        signInLabel={`Sign in as ${linkAccount.data.maskedEmail}`}
        onContinue={() => redeemToken(loginToken)}
        onCancel={() => (authStatus === 'authenticated' ? leave() : dropParam('loginToken'))}
        cancelLabel="Use another account"
        busy={busy}
      />
    ) : (
      <Stack align="center" py="md" role="status">
        <Loader size="sm" aria-hidden />
        <Text size="sm" c="dimmed">
          Checking the sign-in link...
        </Text>
      </Stack>
    );
  } else if (!success && google?.nonce && !googleDone && authStatus !== 'unauthenticated') {
    choice = (
      <SignInChoice
        account="the Google account you chose"
        signInLabel="Continue with Google"
        onContinue={() => exchangeGoogle(google)}
        onCancel={() => {
          setGoogleDone(true);
          leave();
        }}
        cancelLabel="Stay signed in"
        busy={busy}
      />
    );
  }

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
            {choice}
            {choice ? null : (
              <>
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
                    const start = beginOidcFlow(destination);
                    if (start) browser.assign(start);
                    else setBanner(oauthErrorMessage('failed'));
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
              </>
            )}
          </Stack>
        </form>
      </Paper>
      <ResetPasswordModal opened={resetOpen} onClose={() => setResetOpen(false)} />
    </Container>
  );
}
