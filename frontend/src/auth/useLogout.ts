import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from './AuthContext';

/**
 * Logout as the app's buttons offer it: signs out and goes to the home page; when the server
 * could not be told, says so in `error` and lets the button be pressed again.
 */
export function useLogout() {
  const { logout } = useAuth();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function logOut() {
    setError(null);
    setBusy(true);
    try {
      await logout(() => navigate('/', { replace: true }));
    } catch {
      setError('Failed to logout');
      setBusy(false);
    }
  }

  return { logOut, busy, error };
}
