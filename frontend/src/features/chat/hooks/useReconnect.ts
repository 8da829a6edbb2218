import { useEffect, useRef } from 'react';
import { getChatSession } from '../../../api/gen/chat/chat';
import type { SessionDetail } from '../../../api/gen/model';

/** How soon the screen first tries to reach the server again after the connection dropped, and the longest wait between tries. */
export const RECONNECT_FIRST_MS = 1000;
export const RECONNECT_MAX_MS = 8000;

/**
 * After the connection dropped, the server is asked again (sooner when the browser says it is
 * back online) until it answers; `onBack` then gets the session as the server stored it. One
 * reconnection runs per drop: while `reconnecting` stays true for the same session.
 */
export function useReconnect(reconnecting: boolean, sessionId: string | undefined, onBack: (stored: SessionDetail, sessionId: string) => void) {
  // The latest callback, so that a render in between neither restarts the tries nor calls an old one.
  const onBackRef = useRef(onBack);
  useEffect(() => {
    onBackRef.current = onBack;
  });

  useEffect(() => {
    if (!reconnecting || !sessionId) return;
    let over = false;
    let delay = RECONNECT_FIRST_MS;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = async () => {
      clearTimeout(timer);
      try {
        const stored = await getChatSession(sessionId);
        if (over) return;
        over = true;
        onBackRef.current(stored, sessionId);
      } catch {
        if (over) return;
        timer = setTimeout(() => void attempt(), delay);
        delay = Math.min(delay * 2, RECONNECT_MAX_MS);
      }
    };
    const online = () => void attempt();
    timer = setTimeout(online, delay);
    window.addEventListener('online', online);
    return () => {
      over = true;
      clearTimeout(timer);
      window.removeEventListener('online', online);
    };
  }, [reconnecting, sessionId]);
}
