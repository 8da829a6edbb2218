import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { Link as RouterLink, useLocation } from 'react-router';
import { ResendLink } from './ResendLink';
import type { SignInOutcome } from './useSignInOutcome';
import type { PasswordSignIn } from './usePasswordSignIn';

interface PasswordFieldsProps {
  form: PasswordSignIn;
  outcome: SignInOutcome;
  busy: boolean;
  onForgotPassword: () => void;
}

/** The password sign-in's fields and buttons; the page's form submits them. */
export function PasswordFields({ form, outcome, busy, onForgotPassword }: PasswordFieldsProps) {
  const location = useLocation();
  return (
    <>
      {outcome.lockedOut && !outcome.success ? (
        <Stack gap="xs">
          <Text size="sm">Can&apos;t wait? We can email you a link that signs you in once.</Text>
          <Button variant="light" onClick={form.sendLink} loading={form.sendingLink} disabled={busy} fullWidth>
            Email me a sign-in link
          </Button>
          {form.linkNote ? (
            <Alert color={form.linkNote.ok ? 'green' : 'red'} role={form.linkNote.ok ? 'status' : 'alert'}>
              {form.linkNote.text}
            </Alert>
          ) : null}
        </Stack>
      ) : null}
      <TextInput
        label="Email Address"
        type="email"
        autoComplete="email"
        value={form.email}
        onChange={(event) => form.setEmail(event.currentTarget.value)}
        error={outcome.fieldErrors.email}
        disabled={busy}
      />
      <PasswordInput
        label="Password"
        autoComplete="current-password"
        value={form.password}
        onChange={(event) => form.setPassword(event.currentTarget.value)}
        error={outcome.fieldErrors.password}
        disabled={busy}
      />
      {form.resendTo && !outcome.success ? <ResendLink email={form.resendTo} /> : null}
      <Anchor component="button" type="button" size="sm" ta="right" onClick={onForgotPassword}>
        Forgot password
      </Anchor>
      <Button type="submit" loading={form.pending} disabled={busy} fullWidth>
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
    </>
  );
}
