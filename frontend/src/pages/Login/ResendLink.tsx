import { Anchor, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useResendVerification } from '../../api/gen/auth/auth';
import { isApiError } from '../../api/mutator';

/** "Didn't get the e-mail?": mails a new verification link to the address. */
export function ResendLink({ email }: { email: string }) {
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
