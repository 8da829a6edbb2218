import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { endChatSession, getListChatSessionsQueryKey, sendVoiceMessage, useGetChatSession } from '../../../api/gen/chat/chat';
import type { SendMessageResponse, Voice, VoiceResponse } from '../../../api/gen/model';
import { MIC_PREFIX, SPEAKER_PREFIX, VOICE_SEND_FAILED } from '../../voice/speech';
import { ApiError } from '../../../api/mutator';
import { streamChatMessage } from '../api/streamChatMessage';
import { isSessionActive, sendErrorText } from '../sessions';
import type { ChatMessage } from '../types';

export const DEFAULT_TITLE = 'New Chat';
/** Spec §9: the counter of a new chat before the server answers. */
export const DEFAULT_TOKEN_LIMIT = 1000;
export const ENDED_REFUSAL = 'This session has ended. You cannot send new messages.';
export const TROUBLE_CONNECTING = "I'm having trouble connecting. Please check your connection or try again later.";
export const WELCOME_MESSAGE = "Welcome. This is a quiet place to think out loud. What's on your mind today?";

let localIds = 0;
function localId(prefix: string): string {
  localIds += 1;
  return `${prefix}-${Date.now()}-${localIds}`;
}

/** The server's own words for a refused voice message (a limit, a plan), else spec §8's. */
function voiceErrorText(err: unknown): string {
  return (err instanceof ApiError && err.serverMessage) || VOICE_SEND_FAILED;
}

function sessionEndedMessage(endReason: string | null | undefined): string {
  return `Session ended: ${endReason || 'Session limit reached'}. A summary has been generated for your records.`;
}

interface Options {
  /** The session of the address, or undefined for a new chat. */
  initialSessionId?: string;
  /** A new chat got its id from the server (the page replaces the address). */
  onSessionCreated: (sessionId: string) => void;
  /** The user ended the session (the page goes to /dashboard). */
  onEnded: () => void;
}

/**
 * The state of one chat screen: the loaded session, the messages added since,
 * sending with a streamed reply, and ending (spec §4, chat session; §8, Chat).
 */
export function useChatConversation({ initialSessionId, onSessionCreated, onEnded }: Options) {
  const queryClient = useQueryClient();
  // Only the session the screen opened with is loaded: when a new chat gets
  // its id, the address changes but the screen keeps what it shows.
  const [loadId] = useState(initialSessionId);
  const detail = useGetChatSession(loadId ?? '', {
    query: { enabled: Boolean(loadId), retry: false, refetchOnWindowFocus: false, staleTime: Infinity, gcTime: 0 },
  });

  const [sessionId, setSessionId] = useState(loadId);
  const [added, setAdded] = useState<ChatMessage[]>([]);
  const [title, setTitle] = useState<string | null>(null);
  const [tokens, setTokens] = useState<{ used: number; limit: number } | null>(null);
  const [endedHere, setEndedHere] = useState(false);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sessionIdRef = useRef(loadId);

  const loaded = detail.data;
  const history = useMemo<ChatMessage[]>(() => {
    if (!loadId) return [{ id: 'welcome', role: 'assistant', content: WELCOME_MESSAGE }];
    return (loaded?.messages ?? []).map((m) => ({ id: m.id, role: m.role, content: m.content, timestamp: m.timestamp }));
  }, [loadId, loaded]);
  const messages = useMemo(() => [...history, ...added], [history, added]);

  const loading = Boolean(loadId) && detail.isPending;
  const loadError = Boolean(loadId) && detail.isError;
  // A session that failed to load is treated as inactive (spec §8).
  const active =
    !endedHere && (loadId ? Boolean(loaded) && isSessionActive(loaded!) : true) && !loadError;
  const readOnly = !loading && !active;

  const update = (id: string, change: (message: ChatMessage) => ChatMessage) =>
    setAdded((list) => list.map((message) => (message.id === id ? change(message) : message)));

  const applyResponse = (response: SendMessageResponse, replyId: string, streamed: boolean, prefix = '') => {
    if (response.sessionId && !sessionIdRef.current) {
      sessionIdRef.current = response.sessionId;
      setSessionId(response.sessionId);
      onSessionCreated(response.sessionId);
    }
    void queryClient.invalidateQueries({ queryKey: getListChatSessionsQueryKey() });

    if (!response.success) {
      // Keep any text that did stream in; drop an empty placeholder.
      setAdded((list) =>
        list.filter((m) => m.id !== replyId || m.content !== '').map((m) => (m.id === replyId ? { ...m, streaming: false } : m)),
      );
      setError(response.error || 'Unknown error occurred.');
      return;
    }
    setAdded((list) => {
      const reply: ChatMessage = {
        id: replyId,
        role: 'assistant',
        content: prefix + response.aiResponse,
        timestamp: new Date().toISOString(),
        // Streamed text is already on screen; a reply that arrived whole is revealed word by word.
        reveal: !streamed,
      };
      const exists = list.some((m) => m.id === replyId);
      const next = exists ? list.map((m) => (m.id === replyId ? reply : m)) : [...list, reply];
      if (response.sessionEnded) {
        next.push({ id: localId('ended'), role: 'assistant', content: sessionEndedMessage(response.endReason) });
      }
      return next;
    });
    setTokens({ used: response.sessionTokensUsed, limit: response.sessionTokenLimit });
    if (response.title) setTitle(response.title);
    if (response.sessionEnded) setEndedHere(true);
  };

  /**
   * Sends a typed message with a streamed reply, or — with a voice — a spoken one through
   * POST /api/chat/voice (shown with 🎤 and 🔊, spec §4); the voice reply is returned so the
   * caller can play its audio.
   */
  const send = async (text: string, voice?: Voice): Promise<VoiceResponse | undefined> => {
    if (!active) {
      setError(ENDED_REFUSAL);
      return undefined;
    }
    const message = text.trim();
    if (message === '' || sending) return undefined;

    setError(null);
    setSending(true);
    const replyId = localId('ai');
    const shown = voice ? MIC_PREFIX + message : message;
    setAdded((list) => [...list, { id: localId('user'), role: 'user', content: shown, timestamp: new Date().toISOString() }]);

    if (voice) {
      try {
        const response = await sendVoiceMessage({ message, sessionId: sessionIdRef.current ?? null, voice });
        applyResponse(response, replyId, false, SPEAKER_PREFIX);
        return response;
      } catch (err) {
        setError(voiceErrorText(err));
        setAdded((list) => [...list, { id: localId('trouble'), role: 'assistant', content: TROUBLE_CONNECTING }]);
        return undefined;
      } finally {
        setSending(false);
      }
    }

    let streamed = false;
    try {
      const response = await streamChatMessage(
        { message, sessionId: sessionIdRef.current ?? null },
        {
          onDelta: (delta) => {
            if (!streamed) {
              streamed = true;
              setAdded((list) => [...list, { id: replyId, role: 'assistant', content: delta, streaming: true }]);
            } else {
              update(replyId, (m) => ({ ...m, content: m.content + delta }));
            }
          },
        },
      );
      applyResponse(response, replyId, streamed);
      return undefined;
    } catch (err) {
      setError(sendErrorText(err));
      setAdded((list) => [
        ...list.map((m) => (m.id === replyId ? { ...m, streaming: false } : m)),
        { id: localId('trouble'), role: 'assistant', content: TROUBLE_CONNECTING },
      ]);
      return undefined;
    } finally {
      setSending(false);
    }
  };

  const end = useMutation({
    mutationFn: () => endChatSession(sessionIdRef.current!),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: getListChatSessionsQueryKey() });
      onEnded();
    },
    onError: () => setError('Failed to end session'),
  });

  const markRevealed = useCallback(
    (id: string) => setAdded((list) => list.map((m) => (m.id === id && m.reveal ? { ...m, reveal: false } : m))),
    [],
  );

  return {
    sessionId,
    messages,
    title: title ?? (loaded?.title || DEFAULT_TITLE),
    tokensUsed: tokens?.used ?? loaded?.sessionTokensUsed ?? 0,
    tokenLimit: tokens?.limit ?? loaded?.sessionTokenLimit ?? DEFAULT_TOKEN_LIMIT,
    loading,
    loadError: loadError ? 'Failed to load session. Please try again.' : null,
    active,
    readOnly,
    sending,
    error,
    send,
    endSession: () => end.mutate(),
    ending: end.isPending,
    markRevealed,
  };
}
