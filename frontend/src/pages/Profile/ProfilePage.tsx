import { Alert, Button, Container, Divider, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { startTransition, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useGetProfile } from '../../api/gen/profile/profile';
import { createPortalSession } from '../../api/gen/subscription/subscription';
import { useAuth } from '../../auth/AuthContext';
import { useLogout } from '../../auth/useLogout';
import { browser } from '../../auth/browser';
import { PageLoader } from '../../components/PageLoader/PageLoader';
import { ChangePasswordModal } from './ChangePasswordModal';
import { DeleteAccountModal } from './DeleteAccountModal';
import { CountryField } from './CountryField';
import { EditableField } from './EditableField';
import { tierLabel } from './profileFields';
import { MemoryPanel } from '../../features/memory/MemoryPanel';
import { DownloadDataButton } from '../../features/export/DownloadDataButton';
import { RemindersSection } from '../../features/reminders/RemindersSection';
import { clearKept } from '../../features/checkins/offlineQueue';
import { UnsentCheckinsModal } from '../../features/checkins/UnsentCheckinsModal';

/**
 * Opens the Stripe customer portal in a new tab: the blank tab is opened
 * inside the click (so pop-up blockers allow it) and pointed at the portal
 * once the server answers.
 */
async function openPortal() {
  const tab = browser.openBlankTab();
  try {
    const { url } = await createPortalSession();
    if (tab) {
      tab.opener = null;
      tab.location.href = url;
    } else {
      window.open(url, '_blank', 'noopener,noreferrer');
    }
  } catch {
    tab?.close();
    window.alert('Failed to open Stripe portal. Please try again.');
  }
}

export function ProfilePage() {
  const navigate = useNavigate();
  const { clearSession, user } = useAuth();
  const profile = useGetProfile({ query: { retry: false } });
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const { logOut, busy: loggingOut, error: logoutError, unsent, stay, discard } = useLogout();
  const logoutButton = useRef<HTMLButtonElement>(null);
  // A failed logout (after "Log out anyway" too, whose dialog is gone): Logout, to try again.
  useEffect(() => {
    if (logoutError) logoutButton.current?.focus();
  }, [logoutError]);

  if (profile.isPending) {
    return <PageLoader label="Loading your profile..." />;
  }

  if (profile.isError) {
    return (
      <Container size="sm" py="xl">
        <Alert color="red" role="alert" title="Failed to load profile information">
          <Button mt="sm" variant="light" color="red" onClick={() => browser.reload()}>
            Retry
          </Button>
        </Alert>
      </Container>
    );
  }

  const data = profile.data;

  function handleDeleted() {
    // Check-ins kept on this device, unsent, go with the account.
    clearKept(user?.id ?? '');
    // Leave the protected page and forget the session in one transition (the
    // server already revoked every token with the account).
    startTransition(() => {
      navigate('/', { replace: true });
      clearSession();
    });
  }

  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>Your Profile</Title>
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <TextInput label="Full Name" value={data.name} readOnly />
            <TextInput label="Email Address" value={data.email} readOnly />
            <Group align="flex-end" wrap="nowrap">
              <TextInput label="Tier" value={tierLabel(data.role)} readOnly style={{ flex: 1 }} />
              {data.role === 'USER' ? (
                <Button onClick={() => navigate('/about')}>Upgrade</Button>
              ) : (
                <Button variant="light" onClick={() => void openPortal()}>
                  Manage
                </Button>
              )}
            </Group>
          </Stack>
        </Paper>

        <Paper withBorder radius="md" p="lg">
          <Stack gap="lg">
            <EditableField label="Age" field="age" profile={data} />
            <EditableField label="Focus Areas" field="focusAreas" profile={data} />
            <EditableField label="Primary Concerns" field="primaryConcerns" profile={data} />
            <EditableField label="Sensitive Topics" field="sensitiveTopics" profile={data} />
            <CountryField profile={data} />
          </Stack>
        </Paper>

        <MemoryPanel profile={data} />

        <RemindersSection />

        <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="data-title">
          <Stack gap="sm">
            <Title order={2} size="h3" id="data-title">
              Your data
            </Title>
            <DownloadDataButton />
          </Stack>
        </Paper>

        {logoutError ? (
          <Alert color="red" role="alert">
            {logoutError}
          </Alert>
        ) : null}
        <Group>
          <Button variant="default" onClick={() => setPasswordOpen(true)}>
            Change Password
          </Button>
          <Button ref={logoutButton} variant="default" onClick={() => void logOut()} disabled={loggingOut}>
            {loggingOut ? 'Logging out...' : 'Logout'}
          </Button>
        </Group>
        <Divider />
        <Group>
          <Button color="clay" variant="outline" onClick={() => setDeleteOpen(true)}>
            Delete Account
          </Button>
        </Group>
      </Stack>
      <ChangePasswordModal opened={passwordOpen} onClose={() => setPasswordOpen(false)} />
      <DeleteAccountModal opened={deleteOpen} onClose={() => setDeleteOpen(false)} onDeleted={handleDeleted} />
      <UnsentCheckinsModal unsent={unsent} onStay={stay} onDiscard={() => void discard()} returnFocusTo={logoutButton} />
    </Container>
  );
}
