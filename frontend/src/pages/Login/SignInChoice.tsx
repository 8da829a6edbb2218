import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { useAuth } from '../../auth/AuthContext';

interface SignInChoiceProps {
  /** Whose account the sign-in opens, as the page may name it (a masked address). */
  account: string;
  /** The button that signs in when nobody is signed in. */
  signInLabel: string;
  /** Signs in, after signing out whoever is signed in in this browser. */
  onContinue: () => void;
  /** Leaves things as they are. */
  onCancel: () => void;
  /** Says what the cancel button does when nobody is signed in. */
  cancelLabel: string;
  busy: boolean;
}

/**
 * The step before a sign-in that arrived with a link (a sign-in link or a code from Google):
 * it names the account and waits for a click. Someone already signed in is asked first
 * whether to sign out and continue as that account, so a link cannot switch accounts behind
 * their back, after which what they write would go to another account (issue 33, item 2).
 */
export function SignInChoice({ account, signInLabel, onContinue, onCancel, cancelLabel, busy }: SignInChoiceProps) {
  const { status, user } = useAuth();

  if (status === 'loading') {
    return (
      <Stack align="center" gap="xs" py="md" role="status">
        <Loader size="sm" aria-hidden />
        <Text size="sm" c="dimmed">
          Checking authentication...
        </Text>
      </Stack>
    );
  }

  if (status === 'authenticated' && user) {
    return (
      <Stack gap="sm">
        <Alert color="coffee" title="You're already signed in" role="region">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            You&apos;re signed in as <strong>{user.email}</strong>. Sign out and continue as{' '}
            <strong>{account}</strong>?
          </Text>
        </Alert>
        <Button onClick={onContinue} loading={busy} fullWidth>
          Sign out and continue
        </Button>
        <Button variant="default" onClick={onCancel} disabled={busy} fullWidth>
          Stay signed in
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="sm">
      <Text ta="center" style={{ overflowWrap: 'anywhere' }}>
        This link signs you in as <strong>{account}</strong>.
      </Text>
      <Button
        onClick={onContinue}
        loading={busy}
        fullWidth
        // A long address wraps on a narrow phone rather than being cut off.
        h="auto"
        mih={36}
        py={8}
        styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.35 } }}
      >
        {signInLabel}
      </Button>
      <Button variant="subtle" onClick={onCancel} disabled={busy} fullWidth>
        {cancelLabel}
      </Button>
    </Stack>
  );
}
