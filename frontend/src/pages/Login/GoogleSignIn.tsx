import { Button, Text } from '@mantine/core';
import { IconBrandGoogle } from '@tabler/icons-react';
import { useGetClientConfig } from '../../api/gen/public/public';
import { browser } from '../../auth/browser';
import { oauthErrorMessage } from './oauthErrors';
import { beginOidcFlow } from './oidcFlow';
import { SignInChoice } from './SignInChoice';
import type { OidcReturn } from './useOidcReturn';

interface GoogleSignInButtonProps {
  /** Where the sign-in goes once Google sends the user back. */
  destination: string;
  busy: boolean;
  /** Says why the sign-in could not begin. */
  onFailure: (message: string) => void;
}

/** Starts a sign-in with Google (spec §2 Login), when the server offers one. */
export function GoogleSignInButton({ destination, busy, onFailure }: GoogleSignInButtonProps) {
  const config = useGetClientConfig({ query: { staleTime: 5 * 60 * 1000 } });
  const available = config.data?.oidcSignIn === true;
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconBrandGoogle size={18} aria-hidden />}
        disabled={!available || busy}
        onClick={() => {
          const start = beginOidcFlow(destination);
          if (start) browser.assign(start);
          else onFailure(oauthErrorMessage('failed'));
        }}
        fullWidth
      >
        Sign in with Google
      </Button>
      {config.data && !available ? (
        <Text size="sm" c="dimmed" ta="center">
          Sign-in with Google isn't available right now. Use your e-mail and password.
        </Text>
      ) : null}
    </>
  );
}

/** Back from Google while someone is signed in here: asks before switching accounts. */
export function GoogleReturnChoice({ oidc, busy }: { oidc: OidcReturn; busy: boolean }) {
  return (
    <SignInChoice
      account="the Google account you chose"
      signInLabel="Continue with Google"
      onContinue={oidc.proceed}
      onCancel={oidc.decline}
      cancelLabel="Stay signed in"
      busy={busy}
    />
  );
}
