import { Alert, Button, Text } from '@mantine/core';
import { IconLogout, IconPlus, IconWifiOff } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef, type RefObject } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../../auth/AuthContext';
import { useLogout, type Logout } from '../../auth/useLogout';
import { UnsentCheckinsModal } from '../../features/checkins/UnsentCheckinsModal';
import { useSendKeptCheckins } from '../../features/checkins/useKeptCheckins';
import { registerServiceWorker } from '../../pwa/serviceWorker';
import { SiteShell } from '../SiteShell/SiteShell';
import { useSiteMenu } from '../SiteShell/useSiteMenu';

const items = [
  { label: 'Dashboard', to: '/dashboard' },
  { label: 'Your insights', to: '/insights' },
  { label: 'Profile', to: '/profile' },
];

/** What the small-screen menu adds under the links: a new chat, and Logout. */
function MenuActions({ logout, logoutButton }: { logout: Logout; logoutButton: RefObject<HTMLButtonElement | null> }) {
  const { logOut, busy, error } = logout;

  return (
    <>
      <Button component={Link} to="/chat" leftSection={<IconPlus size={18} aria-hidden />} justify="flex-start" fullWidth size="md">
        New chat
      </Button>
      <Button
        ref={logoutButton}
        variant="subtle"
        leftSection={<IconLogout size={18} aria-hidden />}
        justify="flex-start"
        fullWidth
        size="md"
        onClick={() => void logOut()}
        disabled={busy}
      >
        {busy ? 'Logging out...' : 'Logout'}
      </Button>
      {error ? (
        <Text role="alert" size="sm" c="clay">
          {error}
        </Text>
      ) : null}
    </>
  );
}

// A page that the installed app's service worker serves watches for a new version of the app
// ("A new version is ready"). Only such a page downloads that code: the first signed-in page,
// which installs the worker, is not yet served by it.
const InstalledAppUpdates = lazy(() =>
  import('../../pwa/UpdatePrompt').then((m) => ({ default: m.InstalledAppUpdates })),
);
/** The signed-in pages while the server cannot be reached: what still works. */
function OfflineNote() {
  return (
    <Alert role="status" color="gray" variant="light" icon={<IconWifiOff size={18} aria-hidden />} mb="md">
      You're offline right now. You can still check in: it's kept on this device and sent when you're back online.
    </Alert>
  );
}

const installed = typeof navigator !== 'undefined' && !!navigator.serviceWorker?.controller;

/**
 * The signed-in pages' navigation bar (spec §2): the brand links home, and
 * Dashboard, Your insights (issue 36) and Profile sit in the header on wide screens and behind a menu
 * button on small ones, the current one highlighted; the small-screen menu
 * also starts a new chat and logs out. The first signed-in page installs the app's service
 * worker.
 *
 * The dialog that Logout may ask first ("Log out?", check-ins kept on this device) takes the
 * menu's place: the menu closes as it opens, "Stay signed in" leaves the focus on the menu
 * button, and a logout that fails after "Log out anyway" opens the menu again on its message,
 * with the focus on Logout.
 */
export function AppLayout() {
  // The installable app: its shell is precached from the first signed-in page on.
  useEffect(registerServiceWorker, []);
  // Check-ins kept while offline go as soon as they can.
  useSendKeptCheckins();
  const { offline } = useAuth();
  const menu = useSiteMenu();
  const logout = useLogout();
  const logoutButton = useRef<HTMLButtonElement>(null);
  const focusLogout = useRef(false);
  const { unsent, stay, discard } = logout;
  const { opened, open, close } = menu;

  useEffect(() => {
    if (unsent) close();
  }, [unsent, close]);
  // Logout takes the focus once the menu it is in shows again.
  useEffect(() => {
    if (opened && focusLogout.current) {
      focusLogout.current = false;
      logoutButton.current?.focus();
    }
  }, [opened]);

  async function logOutAnyway() {
    if (await discard()) return;
    focusLogout.current = true;
    open();
  }

  return (
    <>
      <SiteShell
        label="Account"
        items={items}
        menu={menu}
        menuExtra={<MenuActions logout={logout} logoutButton={logoutButton} />}
        notice={offline ? <OfflineNote /> : null}
      />
      <UnsentCheckinsModal unsent={unsent} onStay={stay} onDiscard={() => void logOutAnyway()} returnFocusTo={menu.button} />
      {installed && (
        <Suspense fallback={null}>
          <InstalledAppUpdates />
        </Suspense>
      )}
    </>
  );
}
