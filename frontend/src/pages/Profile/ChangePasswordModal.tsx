import { Button, Group, Modal, PasswordInput, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useChangePassword } from '../../api/gen/profile/profile';
import { isApiError } from '../../api/mutator';
import { FormMessages } from '../../components/FormMessages/FormMessages';

type Field = 'currentPassword' | 'newPassword' | 'confirmNewPassword';
const emptyForm: Record<Field, string> = { currentPassword: '', newPassword: '', confirmNewPassword: '' };

/** Message of a failed password change (spec §8 Password change). */
function changeError(error: unknown): string {
  if (isApiError(error)) return error.serverMessage ?? error.text ?? 'Password change failed. Please try again.';
  return 'Password change failed. Please try again.';
}

export function ChangePasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [form, setForm] = useState(emptyForm);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const change = useChangePassword();
  const busy = change.isPending;

  function close() {
    setForm(emptyForm);
    setFieldErrors({});
    setError(null);
    setSuccess(null);
    onClose();
  }

  function input(name: Field, label: string, autoComplete: string) {
    return (
      <PasswordInput
        label={label}
        autoComplete={autoComplete}
        value={form[name]}
        onChange={(event) => {
          const value = event.currentTarget.value;
          setForm((current) => ({ ...current, [name]: value }));
        }}
        error={fieldErrors[name]}
        disabled={busy}
      />
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setSuccess(null);
    setFieldErrors({});
    try {
      await change.mutateAsync({ data: form });
      setSuccess('Password changed successfully!');
      setForm(emptyForm);
    } catch (e) {
      if (isApiError(e) && e.details) setFieldErrors(e.details);
      setError(changeError(e));
    }
  }

  return (
    <Modal opened={opened} onClose={close} title="Change Password" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <FormMessages error={error} success={success} />
          {input('currentPassword', 'Current Password', 'current-password')}
          {input('newPassword', 'New Password', 'new-password')}
          {input('confirmNewPassword', 'Confirm New Password', 'new-password')}
          <Group justify="flex-end">
            <Button type="submit" disabled={busy}>
              {busy ? 'Changing...' : 'Save changes'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
