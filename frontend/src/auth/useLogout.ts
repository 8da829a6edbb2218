import { useState } from 'react';
import { useNavigate } from 'react-router';
import { clearKept, kept, send } from '../features/checkins/offlineQueue';
import type { Unsent } from '../features/checkins/UnsentCheckinsModal';
import { useAuth } from './AuthContext';

/**
 * Logout as the app's buttons offer it: signs out and goes to the home page; when the server
 * could not be told, says so in `error` and lets the button be pressed again.
 *
 * Check-ins kept on this device (made offline) are personal and per user: the next person on a
 * shared device must not inherit them. They are sent first when they can go; any that cannot
 * (offline, or refused) are counted in `unsent`, by which, and logout waits for the user to
 * stay signed in (`stay`) or to log out anyway (`discard`), which removes them from the device.
 * `logOut` and `discard` resolve to whether the user was signed out.
 */
export function useLogout() {
  const { logout, user } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [unsent, setUnsent] = useState<Unsent | null>(null);
  const userId = user?.id ?? '';

  async function signOut(): Promise<boolean> {
    // Like the stored tokens, the kept check-ins go before the server is told.
    clearKept(userId);
    try {
      await logout(() => navigate('/', { replace: true }));
      return true;
    } catch {
      setError('Failed to logout');
      setBusy(false);
      return false;
    }
  }

  async function logOut(): Promise<boolean> {
    setError(null);
    setBusy(true);
    if (kept(userId).length > 0) {
      await send(userId);
      const left = kept(userId);
      if (left.length > 0) {
        const refused = left.filter((k) => k.refused).length;
        setUnsent({ waiting: left.length - refused, refused });
        setBusy(false);
        return false;
      }
    }
    return signOut();
  }

  function stay() {
    setUnsent(null);
  }

  async function discard(): Promise<boolean> {
    setUnsent(null);
    setBusy(true);
    return signOut();
  }

  return { logOut, busy, error, unsent, stay, discard };
}

/** What useLogout gives: the buttons' actions and state, and the dialog's. */
export type Logout = ReturnType<typeof useLogout>;
