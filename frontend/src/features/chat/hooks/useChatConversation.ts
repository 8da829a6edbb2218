import { useMutation, useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { endChatSession, getListChatSessionsQueryKey, stopChatReply, useGetChatSession } from '../../../api/gen/chat/chat';
import type { ClosingFeeling, Message, SendMessageResponse, SessionDetail } from '../../../api/gen/model';
import {
  attachToReply,
  ReplyFailedError,
  streamChatMessage,
  streamRetriedReply,
  type StreamHandlers,
} from '../api/streamChatMessage';
import { createLiveText } from '../liveText';
import { isSessionActive, sendErrorText } from '../sessions';
import type { ChatMessage, ReplyMark } from '../types';
import { NEW_CHAT_MESSAGE } from './useStartNewChat';

export const DEFAULT_TITLE = 'New Chat';
/** Spec §9: the counter of a new chat before the server answers. */
export const DEFAULT_TOKEN_LIMIT = 1000;
export const ENDED_REFUSAL = 'This session has ended. You cannot send new messages.';
export const TROUBLE_CONNECTING = "I'm having trouble connecting. Please check your connection or try again later.";
export const WELCOME_MESSAGE = "Welcome. This is a quiet place to think out loud. What's on your mind today?";
/** The notice of a reply the user stopped before it wrote anything. */
export const STOPPED_NOTICE = 'You stopped this reply.';
/** The notice of a stored message whose reply never came (seen when the chat is opened again). */
export const UNANSWERED_NOTICE = "Your message was saved, but the reply didn't come through.";

let localIds = 0;
function localId(prefix: string): string {
  localIds += 1;
  return `${prefix}-${Date.now()}-${localIds}`;
}

function sessionEndedMessage(endReason: string | null | undefined): string {
  return `Session ended: ${endReason || 'Session limit reached'}. A summary has been generated for your records.`;
}

function markOf(status: Message['status']): ReplyMark | undefined {
  return status === 'stopped' || status === 'interrupted' ? status : undefined;
}

/**
 * The stored conversation as the screen shows it. The fixed starter message a
 * new chat is opened with (spec §7) is the app's, not the user's: it is never
 * shown, so the chat opens with the companion's welcome. A last message left
 * without a reply (and none being written) gets a notice with Retry.
 */
export function storedMessages(detail: SessionDetail): ChatMessage[] {
  // Only the session's first user message can be the starter; the same words later are the user's own.
  const first = detail.messages.find((m) => m.role === 'user');
  const starter = first?.content === NEW_CHAT_MESSAGE ? first : undefined;
  const shown: ChatMessage[] = detail.messages
    .filter((m) => m !== starter)
    .map((m) => ({ id: m.id, role: m.role, content: m.content, timestamp: m.timestamp, status: markOf(m.status) }));
  const last = detail.messages[detail.messages.length - 1];
  if (last?.role === 'user' && !detail.replyInProgress && isSessionActive(detail)) {
    shown.push({ id: `unanswered-${last.id}`, role: 'assistant', content: UNANSWERED_NOTICE, notice: 'failed' });
  }
  return shown;
}

/** Whether the last turn can be answered again: its reply failed, was cut off or was stopped. */
function needsRetry(last: ChatMessage | undefined): boolean {
  return Boolean(last && (last.notice || (last.role === 'assistant' && last.status)));
}

interface Options {
  /** The session of the address, or undefined for a new chat. */
  initialSessionId?: string;
  /** A new chat got its id from the server (the page replaces the address). */
  onSessionCreated: (sessionId: string) => void;
  /** The user ended the session (the page goes to /dashboard). */
  onEnded: () => void;
}

/** The reply being streamed, so that Stop can end it. */
interface LiveReply {
  replyId: string;
  controller: AbortController;
  /** Stop was pressed; what the server kept, once it said. */
  stopping: boolean;
  stored?: Message;
}

type Opener = (handlers: StreamHandlers) => Promise<SendMessageResponse | null>;

/**
 * One turn sent some other way than the streamed endpoint (a voice message: see useVoiceSend),
 * in the thread of this conversation: the same checks and bubbles as a typed message.
 */
export interface ConversationTurn {
  /** The session to send into, or null for a new chat. */
  sessionId: () => string | null;
  /** Refuses an ended or busy chat or an empty message; else shows the user's line and says true. */
  begin: (message: string, shown: string) => boolean;
  setSending: (on: boolean) => void;
  /** The server's answer, its text shown after `prefix`. */
  reply: (response: SendMessageResponse, prefix: string) => void;
  /** The answer never came: `why` under the thread, and the connection bubble (spec §8). */
  fail: (why: string) => void;
}

/**
 * The state of one chat screen: the loaded session, the messages added since,
 * sending with a streamed reply, stopping and retrying it, following a reply
 * still being written when the chat opens, and ending (spec §4, chat session;
 * §8, Chat).
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
  // Stored messages replaced by a retry (an interrupted reply, a notice).
  const [dropped, setDropped] = useState<ReadonlySet<string>>(new Set());
  const [title, setTitle] = useState<string | null>(null);
  const [tokens, setTokens] = useState<{ used: number; limit: number } | null>(null);
  const [endedHere, setEndedHere] = useState(false);
  const [sending, setSending] = useState(false);
  const [streaming, setStreaming] = useState(false);
  const [stopping, setStopping] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sessionIdRef = useRef(loadId);
  const liveRef = useRef<LiveReply | null>(null);
  // The streamed reply's text, shown by its bubble alone (see liveText.ts).
  const [liveText] = useState(createLiveText);

  // The session as the screen shows it. Its first render (a long chat: the screen, then 2,000
  // messages mapped) is a transition, rendered in slices between which the browser can paint and
  // take input; until it is ready the screen stays on its loader.
  const loaded = useDeferredValue(detail.data);
  const history = useMemo<ChatMessage[]>(() => {
    if (!loadId) return [{ id: 'welcome', role: 'assistant', content: WELCOME_MESSAGE }];
    return loaded ? storedMessages(loaded) : [];
  }, [loadId, loaded]);
  const messages = useMemo(
    () => [...history.filter((m) => !dropped.has(m.id)), ...added],
    [history, dropped, added],
  );

  const loading = Boolean(loadId) && !loaded && !detail.isError;
  const loadError = Boolean(loadId) && detail.isError;
  // A session that failed to load is treated as inactive (spec §8).
  const active =
    !endedHere && (loadId ? Boolean(loaded) && isSessionActive(loaded!) : true) && !loadError;
  const readOnly = !loading && !active;

  const update = (id: string, change: (message: ChatMessage) => ChatMessage) =>
    setAdded((list) => list.map((message) => (message.id === id ? change(message) : message)));

  const adoptSession = (id: string | undefined) => {
    if (id && !sessionIdRef.current) {
      sessionIdRef.current = id;
      setSessionId(id);
      onSessionCreated(id);
    }
  };

  /** Ends a reply that will not complete: keeps any text that arrived (marked), drops an empty placeholder. */
  const settleReply = (replyId: string, mark: ReplyMark, stored?: Message) =>
    setAdded((list) =>
      list
        .map((m) => {
          if (m.id !== replyId) return m;
          const content = stored ? stored.content : m.content;
          const status = stored ? markOf(stored.status) : mark;
          return { ...m, content, status, streaming: false };
        })
        .filter((m) => m.id !== replyId || m.content !== ''),
    );

  /** The server stored the message and says the companion could not answer: its words, once, with Retry. */
  const addNotice = (content: string, notice: 'failed' | 'stopped' = 'failed') =>
    setAdded((list) => [...list, { id: localId('notice'), role: 'assistant', content, notice }]);

  const applyResponse = (response: SendMessageResponse, replyId: string, streamed: boolean, prefix = '') => {
    adoptSession(response.sessionId);
    void queryClient.invalidateQueries({ queryKey: getListChatSessionsQueryKey() });

    if (!response.success) {
      settleReply(replyId, 'interrupted');
      addNotice(response.error || 'Unknown error occurred.');
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
        status: markOf(response.replyStatus),
      };
      const exists = list.some((m) => m.id === replyId);
      const next = exists ? list.map((m) => (m.id === replyId ? reply : m)) : [...list, reply];
      if (reply.content === '' && reply.status) return next.filter((m) => m.id !== replyId);
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
   * Streams one reply (to a new message, a retry, or one already being
   * written) into the thread. `onFailure` handles an answer that never came:
   * the request failed or was refused.
   */
  const streamReply = async (open: Opener, onFailure: (err: unknown) => void, fromTap = false) => {
    const live: LiveReply = { replyId: localId('ai'), controller: new AbortController(), stopping: false };
    liveRef.current = live;
    const showSending = () => {
      setSending(true);
      setStreaming(true);
    };
    // A tap's send shows itself in a transition, rendered in slices, so that the tap is not one
    // long task with a long chat on screen; liveRef refuses a second send meanwhile.
    if (fromTap) startTransition(showSending);
    else showSending();
    let streamed = false;
    /** The stream has ended, however: every word that arrived is in the reply's message. */
    const keepStreamed = () => {
      if (!streamed) return;
      const text = liveText.flush();
      update(live.replyId, (m) => ({ ...m, content: text }));
    };
    try {
      const response = await open({
        signal: live.controller.signal,
        onDelta: (delta) => {
          if (!streamed) {
            // The reply's bubble joins the thread (one render of the screen); later words go to it alone.
            streamed = true;
            liveText.start(live.replyId, delta);
            setAdded((list) => [...list, { id: live.replyId, role: 'assistant', content: delta, streaming: true }]);
          } else {
            liveText.append(delta);
          }
        },
      });
      keepStreamed();
      if (response === null) {
        // Nothing in progress any more: the reply is stored, so load it.
        void detail.refetch();
        return;
      }
      applyResponse(response, live.replyId, streamed);
    } catch (err) {
      keepStreamed();
      if (live.controller.signal.aborted) {
        if (live.stopping) settleReply(live.replyId, 'stopped', live.stored);
        return;
      }
      if (err instanceof ReplyFailedError) {
        // Not a connection problem: the message is stored and the reply can be retried.
        adoptSession(err.sessionId);
        if (err.stopped) {
          settleReply(live.replyId, 'stopped');
          if (!streamed) addNotice(STOPPED_NOTICE, 'stopped');
        } else {
          settleReply(live.replyId, 'interrupted');
          addNotice(err.serverMessage ?? err.message);
        }
        return;
      }
      setAdded((list) => list.map((m) => (m.id === live.replyId ? { ...m, streaming: false } : m)));
      onFailure(err);
    } finally {
      if (liveRef.current === live) {
        liveRef.current = null;
        setSending(false);
        setStreaming(false);
        setStopping(false);
      }
    }
  };

  /** Refuses an ended or busy chat or an empty message; else shows the user's line. */
  const begin = (message: string, shown: string): boolean => {
    if (!active) {
      setError(ENDED_REFUSAL);
      return false;
    }
    if (message === '' || sending) return false;
    setError(null);
    setAdded((list) => [...list, { id: localId('user'), role: 'user', content: shown, timestamp: new Date().toISOString() }]);
    return true;
  };

  /** Spec §8: a send that failed keeps the message, says why and adds the connection bubble. */
  const failSend = (why: string) => {
    setError(why);
    setAdded((list) => [...list, { id: localId('trouble'), role: 'assistant', content: TROUBLE_CONNECTING }]);
  };

  /** Sends a typed message with a streamed reply. */
  const send = async (text: string): Promise<void> => {
    const message = text.trim();
    if (liveRef.current) return; // a reply is on its way, though the screen may not show it yet
    let begun = false;
    startTransition(() => {
      begun = begin(message, message);
    });
    if (!begun) return;
    await streamReply(
      (handlers) => streamChatMessage({ message, sessionId: sessionIdRef.current ?? null }, handlers),
      (err) => failSend(sendErrorText(err)),
      true,
    );
  };

  const turn: ConversationTurn = {
    sessionId: () => sessionIdRef.current ?? null,
    begin,
    setSending,
    reply: (response, prefix) => applyResponse(response, localId('ai'), false, prefix),
    fail: failSend,
  };

  /**
   * Stops the reply being written: the server keeps what was written (marked
   * stopped) and the stream ends. A new chat that has no id yet can only stop
   * listening.
   */
  const stop = async () => {
    const live = liveRef.current;
    if (!live || live.stopping) return;
    live.stopping = true;
    setStopping(true);
    const id = sessionIdRef.current;
    if (id) {
      try {
        const answer = await stopChatReply(id);
        live.stored = answer?.reply;
      } catch {
        // The reply may go on being written on the server; the screen stops following it.
      }
    }
    // The stream ends by itself once the server has stopped; if it has not, stop reading it.
    if (liveRef.current === live) live.controller.abort();
  };

  /** Answers the last message again; an interrupted or stopped reply and any notice give way to the new one. */
  const retry = async () => {
    const id = sessionIdRef.current;
    if (!id || sending || !active) return;
    setError(null);
    const trailing: string[] = [];
    for (let i = messages.length - 1; i >= 0 && messages[i].role === 'assistant'; i -= 1) {
      if (!needsRetry(messages[i])) break;
      trailing.push(messages[i].id);
    }
    setDropped((set) => new Set([...set, ...trailing]));
    setAdded((list) => list.filter((m) => !trailing.includes(m.id)));
    await streamReply(
      (handlers) => streamRetriedReply(id, handlers),
      (err) => addNotice(sendErrorText(err)),
    );
  };

  // Opening (or refreshing) a chat whose reply is still being written follows it.
  const attached = useRef(false);
  useEffect(() => {
    if (!loaded?.replyInProgress || !loadId || attached.current) return;
    attached.current = true;
    void streamReply(
      (handlers) => attachToReply(loadId, handlers),
      (err) => setError(sendErrorText(err)),
    );
    // streamReply is recreated each render; a screen follows a reply in progress once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, loadId]);

  // Leaving the screen stops reading the stream (the server goes on writing and stores the reply).
  useEffect(() => () => liveRef.current?.controller.abort(), []);

  const end = useMutation({
    mutationFn: (feeling?: ClosingFeeling) => endChatSession(sessionIdRef.current!, feeling ? { feeling } : undefined),
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

  const last = messages[messages.length - 1];
  const canRetry = active && !sending && Boolean(sessionId) && needsRetry(last);

  return {
    sessionId,
    messages,
    /** The text of the reply being streamed, for its bubble (MessageList). */
    live: liveText,
    /** Nothing said yet by the user: the starter chips are offered. */
    empty: !loading && !messages.some((m) => m.role === 'user'),
    title: title ?? (loaded?.title || DEFAULT_TITLE),
    tokensUsed: tokens?.used ?? loaded?.sessionTokensUsed ?? 0,
    tokenLimit: tokens?.limit ?? loaded?.sessionTokenLimit ?? DEFAULT_TOKEN_LIMIT,
    loading,
    loadError: loadError ? 'Failed to load session. Please try again.' : null,
    active,
    readOnly,
    sending,
    /** A streamed reply is being written (Stop is offered). */
    streaming,
    stopping,
    error,
    send,
    /** For sends of another kind (voice: useVoiceSend) into this thread. */
    turn,
    stop: () => void stop(),
    retry: () => void retry(),
    /** The message that carries the Retry button, if any. */
    retryId: canRetry ? last!.id : null,
    /** The loaded session had already ended when the chat was opened. */
    endedBefore: Boolean(loaded) && !isSessionActive(loaded!),
    summary: loaded?.sessionSummary ?? null,
    emotions: loaded?.sessionEmotions ?? [],
    endSession: (feeling?: ClosingFeeling) => end.mutate(feeling),
    ending: end.isPending,
    markRevealed,
  };
}
