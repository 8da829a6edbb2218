import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useAuth } from '../../auth/AuthContext';
import { kept, parse, send, stored, subscribe, type Kept } from './offlineQueue';

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

/** Whether a check-in is still kept on this device to be sent (not yet sent, nor refused). */
export function useIsKept(userId: string, clientId: string | null): boolean {
  return useSyncExternalStore(subscribe, () =>
    clientId ? kept(userId).some((k) => k.data.clientId === clientId && !k.refused) : false,
  );
}

/** The user's kept check-ins that the server refused, for the user to keep or discard. */
export function useRefusedCheckins(userId: string): Kept[] {
  const raw = useSyncExternalStore(subscribe, () => stored(userId));
  return useMemo(() => parse(raw).filter((k) => k.refused), [raw]);
}
