import { Loader, Stack, Text } from '@mantine/core';
import { SignInChoice } from './SignInChoice';
import type { LinkSignIn } from './useLinkSignIn';

/** A sign-in link's step: its account once looked up, and a click to sign in as it. */
export function LinkSignInChoice({ link, busy }: { link: LinkSignIn; busy: boolean }) {
  if (link.maskedEmail === null) {
    return (
      <Stack align="center" py="md" role="status">
        <Loader size="sm" aria-hidden />
        <Text size="sm" c="dimmed">
          Checking the sign-in link...
        </Text>
      </Stack>
    );
  }
  return (
    <SignInChoice
      account={link.maskedEmail}
      signInLabel={`Sign in as ${link.maskedEmail}`}
      onContinue={link.proceed}
      onCancel={link.decline}
      cancelLabel="Use another account"
      busy={busy}
    />
  );
}
