import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useDeferredValue, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { stopChatReply, useGetChatSession } from '../../../api/gen/chat/chat';
import type { ClosingFeeling, Message, SendMessageResponse, SessionDetail } from '../../../api/gen/model';
import {
  attachToReply,
  ConnectionLostError,
  ReplyFailedError,
  streamChatMessage,
  streamRetriedReply,
  type StreamHandlers,
} from '../api/streamChatMessage';
import { createLiveText } from '../liveText';
import { invalidateSessions, useEndSession } from '../../sessions/mutations';
import { isSessionActive, sendErrorText } from '../sessions';
import type { ChatMessage, ConversationTurn } from '../types';
import {
  chatReducer,
  DEFAULT_TITLE,
  DEFAULT_TOKEN_LIMIT,
  initialChatState,
  needsRetry,
  newChatOpening,
  retriedIds,
  storedMessages,
  type Thread,
} from './chatState';
import { useReconnect } from './useReconnect';

let localIds = 0;
function localId(prefix: string): string {
  localIds += 1;
  return `${prefix}-${Date.now()}-${localIds}`;
}

interface Options {
  /** The session of the address, or undefined for a new chat. */
  initialSessionId?: string;
  /** A new chat opened with a journaling prompt: the companion asks it after the welcome. */
  prompt?: string;
  /** A new chat that continues an ended session: its title, picked up after the welcome, and its id, sent with the first message. */
  thread?: Thread;
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
 * The state of one chat screen: the loaded session, the messages added since,
 * sending with a streamed reply, stopping and retrying it, following a reply
 * still being written when the chat opens, and ending (spec §4, chat session;
 * §8, Chat).
 */
export function useChatConversation({ initialSessionId, prompt, thread, onSessionCreated, onEnded }: Options) {
  const queryClient = useQueryClient();
  // Only the session the screen opened with is loaded: when a new chat gets
  // its id, the address changes but the screen keeps what it shows.
  const [loadId] = useState(initialSessionId);
  const detail = useGetChatSession(loadId ?? '', {
    query: { enabled: Boolean(loadId), retry: false, refetchOnWindowFocus: false, staleTime: Infinity, gcTime: 0 },
  });

  // What the screen shows changes only through chatReducer's events (chatState.ts); this hook
  // makes the requests, reads the streams and tells the reducer what happened.
  const [state, dispatch] = useReducer(chatReducer, loadId, initialChatState);
  const { sessionId, added, dropped, title, tokens, endedHere, sending, streaming, stopping, error, synced, reconnecting, pinned } =
    state;
  const sessionIdRef = useRef(loadId);
  // The user's line of the send in flight, marked unsent if the request never reached the server.
  const userLineRef = useRef<string | undefined>(undefined);
  const liveRef = useRef<LiveReply | null>(null);
  // The streamed reply's text, shown by its bubble alone (see liveText.ts).
  const [liveText] = useState(createLiveText);

  // The session as the screen shows it. Its first render (a long chat: the screen, then 2,000
  // messages mapped) is a transition, rendered in slices between which the browser can paint and
  // take input; until it is ready the screen stays on its loader.
  const loaded = useDeferredValue(detail.data);
  // The prompt or thread the chat opened with stays when the address changes to the new session's.
  const [opening] = useState(() => newChatOpening(prompt, thread?.title));
  const history = useMemo<ChatMessage[]>(() => {
    if (!loadId) return opening;
    return loaded ? storedMessages(loaded) : [];
  }, [loadId, loaded, opening]);
  const base = useMemo<ChatMessage[]>(() => {
    if (!synced) return history;
    return loadId ? synced : [...opening, ...synced];
  }, [synced, history, loadId, opening]);
  const messages = useMemo(
    () => [...base.filter((m) => !dropped.has(m.id)), ...added],
    [base, dropped, added],
  );

  const loading = Boolean(loadId) && !loaded && !detail.isError;
  const loadError = Boolean(loadId) && detail.isError;
  // A session that failed to load is treated as inactive (spec §8).
  const active =
    !endedHere && (loadId ? Boolean(loaded) && isSessionActive(loaded!) : true) && !loadError;
  const readOnly = !loading && !active;

  const adoptSession = (id: string | undefined) => {
    if (id && !sessionIdRef.current) {
      sessionIdRef.current = id;
      dispatch({ type: 'sessionCreated', sessionId: id });
      onSessionCreated(id);
    }
  };

  const applyResponse = (response: SendMessageResponse, replyId: string, streamed: boolean, prefix = '') => {
    adoptSession(response.sessionId);
    void invalidateSessions(queryClient);
    dispatch({
      type: 'replyFinished',
      response,
      replyId,
      streamed,
      prefix,
      timestamp: new Date().toISOString(),
      endedId: localId('ended'),
      noticeId: localId('notice'),
    });
  };

  /**
   * Streams one reply (to a new message, a retry, or one already being
   * written) into the thread. `onFailure` handles an answer that never came:
   * the request failed or was refused.
   */
  const streamReply = async (open: Opener, onFailure: (replyId: string, err: unknown) => void, fromTap = false) => {
    const live: LiveReply = { replyId: localId('ai'), controller: new AbortController(), stopping: false };
    liveRef.current = live;
    const showSending = () => dispatch({ type: 'replyStarted' });
    // A tap's send shows itself in a transition, rendered in slices, so that the tap is not one
    // long task with a long chat on screen; liveRef refuses a second send meanwhile.
    if (fromTap) startTransition(showSending);
    else showSending();
    let streamed = false;
    /** The stream has ended, however: every word that arrived is in the reply's message. */
    const keepStreamed = () => {
      if (!streamed) return;
      dispatch({ type: 'streamEnded', replyId: live.replyId, text: liveText.flush() });
    };
    try {
      const response = await open({
        signal: live.controller.signal,
        onDelta: (delta) => {
          if (!streamed) {
            // The reply's bubble joins the thread (one render of the screen); later words go to it alone.
            streamed = true;
            liveText.start(live.replyId, delta);
            dispatch({ type: 'tokenReceived', replyId: live.replyId, text: delta });
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
        if (live.stopping) dispatch({ type: 'stopped', replyId: live.replyId, stored: live.stored });
        return;
      }
      if (err instanceof ReplyFailedError) {
        // Not a connection problem: the message is stored and the reply can be retried.
        adoptSession(err.sessionId);
        if (err.stopped) {
          dispatch({ type: 'stopped', replyId: live.replyId, noticeId: streamed ? undefined : localId('notice') });
        } else {
          dispatch({
            type: 'replyFailed',
            replyId: live.replyId,
            noticeId: localId('notice'),
            message: err.serverMessage ?? err.message,
          });
        }
        return;
      }
      onFailure(live.replyId, err);
    } finally {
      if (liveRef.current === live) {
        liveRef.current = null;
        dispatch({ type: 'replyEnded' });
      }
    }
  };

  /** Refuses an ended or busy chat or an empty message; else shows the user's line. */
  const begin = (message: string, shown: string): boolean => {
    if (!active) {
      dispatch({ type: 'sendRefused' });
      return false;
    }
    if (message === '' || sending) return false;
    const id = localId('user');
    userLineRef.current = id;
    dispatch({
      type: 'messageShown',
      message: { id, role: 'user', content: shown, timestamp: new Date().toISOString() },
    });
    return true;
  };

  /**
   * Spec §8: a send that failed keeps the message, says why and adds the connection bubble.
   * A dropped connection marks what it cut off, and the screen reconnects by itself when the
   * server knows the session.
   */
  const failSend = (why: string, replyId?: string, err?: unknown) => {
    const dropped = err instanceof ConnectionLostError || err instanceof TypeError;
    const reached = err instanceof ConnectionLostError && err.started;
    dispatch({
      type: 'sendFailed',
      replyId,
      troubleId: localId('trouble'),
      error: why,
      lost: dropped ? { userId: userLineRef.current, reached, reconnect: Boolean(sessionIdRef.current) } : undefined,
    });
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
      (handlers) =>
        streamChatMessage(
          // A new chat that continues a thread names it with its first message; the server's prompt then carries it.
          sessionIdRef.current || !thread
            ? { message, sessionId: sessionIdRef.current ?? null }
            : { message, sessionId: null, continuesSessionId: thread.sessionId },
          handlers,
        ),
      (replyId, err) => failSend(sendErrorText(err), replyId, err),
      true,
    );
  };

  const turn: ConversationTurn = {
    sessionId: () => sessionIdRef.current ?? null,
    begin,
    setSending: (on) => dispatch({ type: on ? 'voiceSendStarted' : 'voiceSendFinished' }),
    reply: (response, prefix) => applyResponse(response, localId('ai'), false, prefix),
    fail: (why) => {
      userLineRef.current = undefined; // a voice send's line is not marked: it may have been stored
      failSend(why);
    },
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
    dispatch({ type: 'stopRequested' });
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
    dispatch({ type: 'retried', replacedIds: retriedIds(messages) });
    userLineRef.current = undefined;
    await streamReply(
      (handlers) => streamRetriedReply(id, handlers),
      (replyId, err) => {
        if (err instanceof ConnectionLostError) failSend(sendErrorText(err), replyId, err);
        else dispatch({ type: 'retryFailed', replyId, noticeId: localId('notice'), error: sendErrorText(err) });
      },
    );
  };

  /** Follows the reply the server is still writing (opening the chat, or once reconnected). */
  const follow = (id: string) =>
    streamReply(
      (handlers) => attachToReply(id, handlers),
      (replyId, err) => {
        userLineRef.current = undefined;
        if (err instanceof ConnectionLostError) failSend(sendErrorText(err), replyId, err);
        else dispatch({ type: 'followFailed', replyId, error: sendErrorText(err) });
      },
    );

  // Once the server answers again, the thread shows what it stored, and a reply it is still
  // writing is followed (GET /api/chat/sessions/{id}/stream).
  useReconnect(reconnecting, sessionId, (stored: SessionDetail, id: string) => {
    dispatch({
      type: 'synced',
      messages: storedMessages(stored),
      tokens: { used: stored.sessionTokensUsed, limit: stored.sessionTokenLimit },
      title: stored.title || null,
      ended: !isSessionActive(stored),
    });
    void invalidateSessions(queryClient);
    if (stored.replyInProgress && !liveRef.current) void follow(id);
  });

  // Opening (or refreshing) a chat whose reply is still being written follows it.
  const attached = useRef(false);
  useEffect(() => {
    if (!loaded?.replyInProgress || !loadId || attached.current) return;
    attached.current = true;
    void follow(loadId);
    // streamReply is recreated each render; a screen follows a reply in progress once.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, loadId]);

  // Leaving the screen stops reading the stream (the server goes on writing and stores the reply).
  useEffect(() => () => liveRef.current?.controller.abort(), []);

  const end = useEndSession();
  const endSession = (feeling?: ClosingFeeling) =>
    end.mutate(
      { id: sessionIdRef.current!, data: feeling ? { feeling } : {} },
      { onSuccess: onEnded, onError: () => dispatch({ type: 'endFailed' }) },
    );

  const markRevealed = useCallback((id: string) => dispatch({ type: 'revealed', id }), []);

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
    /** The connection dropped and the screen is reaching the server again. */
    reconnecting,
    send,
    /** For sends of another kind (voice: useVoiceSend) into this thread. */
    turn,
    stop: () => void stop(),
    retry: () => void retry(),
    /** The message that carries the Retry button, if any. */
    retryId: canRetry ? last!.id : null,
    /** The loaded session had already ended when the chat was opened. */
    endedBefore: Boolean(loaded) && !isSessionActive(loaded!),
    /** The session's support lines are pinned above the composer (issue 32), or null. */
    safetyPinned: pinned ?? loaded?.safetyPinned ?? null,
    summary: loaded?.sessionSummary ?? null,
    emotions: loaded?.sessionEmotions ?? [],
    endSession,
    ending: end.isPending,
    markRevealed,
  };
}
