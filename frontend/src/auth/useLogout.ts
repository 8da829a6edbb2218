import { useState } from 'react';
import { useNavigate } from 'react-router';
import { clearKept, kept, send } from '../features/checkins/offlineQueue';
import { useAuth } from './AuthContext';

/**
 * Logout as the app's buttons offer it: signs out and goes to the home page; when the server
 * could not be told, says so in `error` and lets the button be pressed again.
 *
 * Check-ins kept on this device (made offline) are personal and per user: the next person on a
 * shared device must not inherit them. They are sent first when they can go; any that cannot
 * (offline, or refused) are counted in `unsent`, and logout waits for the user to stay signed
 * in (`stay`) or to log out anyway (`discard`), which removes them from the device.
 */
export function useLogout() {
  const { logout, user } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [unsent, setUnsent] = useState(0);
  const userId = user?.id ?? '';

  async function signOut() {
    // Like the stored tokens, the kept check-ins go before the server is told.
    clearKept(userId);
    try {
      await logout(() => navigate('/', { replace: true }));
    } catch {
      setError('Failed to logout');
      setBusy(false);
    }
  }

  async function logOut() {
    setError(null);
    setBusy(true);
    if (kept(userId).length > 0) {
      await send(userId);
      const left = kept(userId).length;
      if (left > 0) {
        setUnsent(left);
        setBusy(false);
        return;
      }
    }
    await signOut();
  }

  function stay() {
    setUnsent(0);
  }

  async function discard() {
    setUnsent(0);
    setBusy(true);
    await signOut();
  }

  return { logOut, busy, error, unsent, stay, discard };
}
