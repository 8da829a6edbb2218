import { useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ChatScreen } from '../../features/chat/components/ChatScreen/ChatScreen';
import type { Thread } from '../../features/chat/hooks/chatState';

/**
 * /chat/:sessionId? — a new chat without an id. When a new chat gets its id
 * the address is replaced with /chat/{sessionId} (spec §4) while the screen
 * keeps its state; any other change of address starts a fresh screen.
 */
export function ChatPage() {
  const { sessionId } = useParams();
  const { key: locationKey, state } = useLocation();
  // The dashboard's prompt of the day opens a new chat with it.
  const prompt = sessionId ? undefined : (state as { prompt?: unknown } | null)?.prompt;
  // A session that ended opens a new one that continues its thread (issue 36).
  const thread = sessionId ? undefined : (state as { thread?: Partial<Thread> } | null)?.thread;
  const navigate = useNavigate();
  const [adopted, setAdopted] = useState<{ id: string; key: string } | null>(null);

  const freshKey = sessionId ?? `new:${locationKey}`;
  const screenKey = adopted && adopted.id === sessionId ? adopted.key : freshKey;

  return (
    <ChatScreen
      key={screenKey}
      initialSessionId={sessionId}
      prompt={typeof prompt === 'string' ? prompt : undefined}
      thread={typeof thread?.title === 'string' && typeof thread.sessionId === 'string' ? (thread as Thread) : undefined}
      onSessionCreated={(id) => {
        setAdopted({ id, key: screenKey });
        navigate(`/chat/${id}`, { replace: true });
      }}
      onEnded={() => navigate('/dashboard', { state: { endedSessionId: sessionId ?? adopted?.id } })}
    />
  );
}
