import { useEffect, useSyncExternalStore } from 'react';
import { useAuth } from '../../auth/AuthContext';
import { kept, send, subscribe } from './offlineQueue';

/**
 * Sends the signed-in user's kept check-ins (made offline) when the app starts, when the
 * connection returns (the browser says so, or the sign-in lookup reaches the server again) and
 * when the app comes back to the front. Mounted once, in the signed-in layout.
 */
export function useSendKeptCheckins(): void {
  const { user, offline } = useAuth();
  const userId = user?.id ?? '';
  useEffect(() => {
    if (!userId) return;
    const go = () => void send(userId);
    const onVisible = () => {
      if (document.visibilityState === 'visible') go();
    };
    go();
    window.addEventListener('online', go);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('online', go);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [userId, offline]);
}

/** Whether a check-in is still kept on this device (not yet sent). */
export function useIsKept(userId: string, clientId: string | null): boolean {
  return useSyncExternalStore(subscribe, () => (clientId ? kept(userId).some((k) => k.data.clientId === clientId) : false));
}
