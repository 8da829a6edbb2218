import { Alert, Anchor, Container, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { GoogleReturnChoice, GoogleSignInButton } from './GoogleSignIn';
import { LinkSignInChoice } from './LinkSignInChoice';
import { PasswordFields } from './PasswordFields';
import { ResetPasswordModal } from './ResetPasswordModal';
import { useLinkSignIn } from './useLinkSignIn';
import { useOidcReturn } from './useOidcReturn';
import { usePasswordSignIn } from './usePasswordSignIn';
import { useSignInOutcome } from './useSignInOutcome';

export { OIDC_START_PATH } from './oidcFlow';

/**
 * /login (spec §2 Login) composes three ways in, each its own hook: the password form
 * (usePasswordSignIn), a sign-in link (useLinkSignIn) and the return from Google
 * (useOidcReturn). They share one outcome (useSignInOutcome): the success message and its
 * redirect, or the banner of a failure.
 */
export function LoginPage() {
  const outcome = useSignInOutcome();
  const form = usePasswordSignIn(outcome);
  const oidc = useOidcReturn(outcome);
  const link = useLinkSignIn(outcome);
  const [resetOpen, setResetOpen] = useState(false);

  const busy = form.pending || oidc.pending || link.pending || outcome.switching || outcome.success;
  const banner = outcome.banner ?? link.problem ?? oidc.problem;

  // A sign-in that came with a link or a code waits for the user's choice in place of the form.
  let choice = null;
  if (link.awaitingChoice) choice = <LinkSignInChoice link={link} busy={busy} />;
  else if (oidc.awaitingChoice) choice = <GoogleReturnChoice oidc={oidc} busy={busy} />;

  return (
    <Container size={460} py="xl">
      <Paper withBorder radius="md" p="xl">
        <form onSubmit={form.submit} noValidate>
          <Stack gap="md">
            <Title order={1} ta="center">
              Sign In
            </Title>
            {outcome.success ? (
              <Alert color="green" role="status">
                Login successful! Redirecting...
              </Alert>
            ) : null}
            {banner && !outcome.success ? (
              <Alert color="red" role="alert">
                {banner}
              </Alert>
            ) : null}
            {choice ?? (
              <>
                <PasswordFields form={form} outcome={outcome} busy={busy} onForgotPassword={() => setResetOpen(true)} />
                <Divider label="or" labelPosition="center" />
                <GoogleSignInButton destination={outcome.destination} busy={busy} onFailure={outcome.showBanner} />
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
