import {
  Anchor,
  Button,
  Checkbox,
  Container,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useRegister } from '../../api/gen/auth/auth';
import { isApiError } from '../../api/mutator';
import { FormMessages } from '../../components/FormMessages/FormMessages';

const REDIRECT_DELAY_MS = 3000;

type Field = 'name' | 'email' | 'password' | 'confirmPassword';
type FieldErrors = Partial<Record<Field, string>>;

const emptyForm: Record<Field, string> = { name: '', email: '', password: '', confirmPassword: '' };

/** Banner of a failed registration (spec §8 Register). */
function registrationError(error: unknown): string {
  if (isApiError(error) && error.serverError) return error.serverError;
  if (error instanceof Error && error.message) return error.message;
  return 'Registration failed. Please try again.';
}

export function RegisterPage() {
  const navigate = useNavigate();
  const register = useRegister();
  const [form, setForm] = useState(emptyForm);
  const [agreed, setAgreed] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  function field(name: Field) {
    return {
      value: form[name],
      onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
        const value = event.currentTarget.value;
        setForm((current) => ({ ...current, [name]: value }));
      },
      error: fieldErrors[name],
      disabled: register.isPending,
    };
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setSuccess(null);
    setFieldErrors({});
    if (!agreed) {
      setError('You must agree to the Privacy Policy');
      return;
    }
    try {
      const response = await register.mutateAsync({ data: form });
      const email = form.email.trim();
      setSuccess(response?.message ?? '');
      setSentTo(email);
      setForm(emptyForm);
      setAgreed(false);
      // The login page offers to resend the link to this address.
      redirectTimer.current = setTimeout(() => navigate('/login', { state: { registeredEmail: email } }), REDIRECT_DELAY_MS);
    } catch (e) {
      if (isApiError(e) && e.details) setFieldErrors(e.details);
      setError(registrationError(e));
    }
  }

  return (
    <Container size={480} py="xl">
      <Paper withBorder radius="md" p="xl">
        <form onSubmit={submit} noValidate aria-label="Create Account">
          <Stack gap="md">
            <Title order={1} ta="center">
              Create Account
            </Title>
            <FormMessages error={error} success={success} />
            {sentTo && success !== null ? (
              <Text size="sm" ta="center" role="status">
                We sent a link to <strong>{sentTo}</strong> — check your inbox.
              </Text>
            ) : null}
            <TextInput label="Full Name" autoComplete="name" {...field('name')} />
            <TextInput label="Email Address" type="email" autoComplete="email" {...field('email')} />
            <PasswordInput label="Password" autoComplete="new-password" {...field('password')} />
            <PasswordInput label="Confirm Password" autoComplete="new-password" {...field('confirmPassword')} />
            <Checkbox
              checked={agreed}
              onChange={(event) => setAgreed(event.currentTarget.checked)}
              disabled={register.isPending}
              label={
                <>
                  I agree to the{' '}
                  <Anchor href="/privacy" target="_blank" rel="noopener noreferrer">
                    Privacy Policy
                  </Anchor>
                </>
              }
            />
            <Button type="submit" disabled={!agreed} loading={register.isPending} fullWidth>
              Create Account
            </Button>
            <Text size="sm" ta="center">
              Already have an account?{' '}
              <Anchor component={RouterLink} to="/login">
                Sign in
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
    </Container>
  );
}
