import { useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { useLogin, useRequestLoginLink } from '../../api/gen/auth/auth';
import { isApiError } from '../../api/mutator';
import { describeLoginError } from './loginErrors';
import type { SignInOutcome } from './useSignInOutcome';

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

/**
 * Sign-in with e-mail and password (spec §2 Login), and what follows a refusal: a new
 * verification mail for an unverified address, and a one-time sign-in link after a lockout.
 */
export function usePasswordSignIn(outcome: SignInOutcome) {
  const location = useLocation();
  const [email, setEmail] = useState(() => verifiedEmailOf(location.state));
  const [password, setPassword] = useState('');
  const [unverified, setUnverified] = useState<string | null>(null);
  const [linkNote, setLinkNote] = useState<{ ok: boolean; text: string } | null>(null);
  const login = useLogin();
  const requestLink = useRequestLoginLink();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    outcome.clear({ lockout: true });
    setLinkNote(null);
    try {
      outcome.succeed(await login.mutateAsync({ data: { email, password } }));
    } catch (error) {
      if (isApiError(error) && error.code === 'EMAIL_NOT_VERIFIED') setUnverified(email.trim());
      outcome.fail(error);
    }
  }

  async function sendLink() {
    setLinkNote(null);
    try {
      const answer = await requestLink.mutateAsync({ data: { email } });
      setLinkNote({ ok: true, text: answer.message });
    } catch (error) {
      const { banner: text, fields } = describeLoginError(error);
      setLinkNote({ ok: false, text });
      outcome.showFieldErrors(fields);
    }
  }

  return {
    email,
    setEmail,
    password,
    setPassword,
    submit,
    pending: login.isPending,
    sendLink,
    sendingLink: requestLink.isPending,
    linkNote,
    /** The address offered a new verification mail, if any. */
    resendTo: unverified ?? registeredEmailOf(location.state),
  };
}

export type PasswordSignIn = ReturnType<typeof usePasswordSignIn>;
