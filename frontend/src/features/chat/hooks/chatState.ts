/**
 * The chat screen's state as one pure reducer: every change is an event that says what
 * happened (a reply started, a token arrived, the send failed, the user stopped or retried it).
 * Ids and times come in on the events, so the reducer is the same function of its inputs every
 * time; fetching, streaming and cache invalidation stay in useChatConversation.
 */
import type { Message, SafetyPinned, SendMessageResponse, SessionDetail } from '../../../api/gen/model';
import { isSessionActive } from '../sessions';
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
/** Said while the connection is down and the chat reaches the server again by itself. */
export const RECONNECTING = 'Reconnecting… your chat will pick up where it left off.';
/** Spec §8: a reply that failed on the server without saying why. */
export const UNKNOWN_ERROR = 'Unknown error occurred.';
/** Spec §8: the end of a session failed. */
export const END_FAILED = 'Failed to end session';

export function sessionEndedMessage(endReason: string | null | undefined): string {
  return `Session ended: ${endReason || 'Session limit reached'}. A summary has been generated for your records.`;
}

/** What a new chat shows before the first message: the welcome, and the prompt or thread it was opened with. */
export function newChatOpening(prompt: string | undefined, thread?: string): ChatMessage[] {
  const welcome: ChatMessage = { id: 'welcome', role: 'assistant', content: WELCOME_MESSAGE };
  const asked = prompt?.trim();
  if (asked) return [welcome, { id: 'prompt', role: 'assistant', content: `Today's prompt: ${asked}` }];
  const picked = thread?.trim();
  return picked ? [welcome, { id: 'thread', role: 'assistant', content: threadOpening(picked) }] : [welcome];
}

/** A new chat that continues an ended session: the server gives its prompt that session's thread. */
export interface Thread {
  title: string;
  sessionId: string;
}

/** How a new session picks up the thread of the one that ended. */
export function threadOpening(title: string): string {
  return `Last time we were talking about "${title}". Would you like to pick up where we left off?`;
}

export function markOf(status: Message['status']): ReplyMark | undefined {
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

/** Whether the last turn can be answered again: its reply failed, was cut off, was stopped or never came through. */
export function needsRetry(last: ChatMessage | undefined): boolean {
  return Boolean(last && (last.notice || last.trouble || (last.role === 'assistant' && last.status)));
}

/** The messages a retry replaces: the trailing failed, cut-off or stopped replies and notices. */
export function retriedIds(messages: readonly ChatMessage[]): string[] {
  const trailing: string[] = [];
  for (let i = messages.length - 1; i >= 0 && messages[i].role === 'assistant'; i -= 1) {
    if (!needsRetry(messages[i])) break;
    trailing.push(messages[i].id);
  }
  return trailing;
}

export interface ChatState {
  /** The session the thread belongs to; undefined for a new chat until the server names it. */
  sessionId: string | undefined;
  /** Messages added on this screen since the session loaded. */
  added: ChatMessage[];
  /** Stored messages replaced by a retry (an interrupted reply, a notice). */
  dropped: ReadonlySet<string>;
  /** The title the server gave in a reply, over the loaded one. */
  title: string | null;
  /** The counter from the last reply, over the loaded one. */
  tokens: { used: number; limit: number } | null;
  /** The session ended here (a reply said so). */
  endedHere: boolean;
  /** A message is on its way and its reply not yet settled. */
  sending: boolean;
  /** A streamed reply is being written (Stop is offered). */
  streaming: boolean;
  /** Stop was pressed and the stream has not ended yet. */
  stopping: boolean;
  /** The line under the thread: why a send or the end failed, or that the chat has ended. */
  error: string | null;
  /**
   * The server's record of the thread, read again after the connection came back: it stands
   * in for the loaded messages (and those added before it) until the screen is left.
   */
  synced: ChatMessage[] | null;
  /** The connection dropped in a session the server knows: the screen is trying to reach it again. */
  reconnecting: boolean;
  /**
   * The support lines a reply pinned since the screen opened (the loaded session says whether
   * they were pinned before); they stay for the rest of the session.
   */
  pinned: SafetyPinned | null;
}

export type ChatEvent =
  /** A new chat got its id from the server (only the first id counts). */
  | { type: 'sessionCreated'; sessionId: string }
  /** The user's line joined the thread; an earlier error line goes. */
  | { type: 'messageShown'; message: ChatMessage }
  /** A message was refused because the chat has ended. */
  | { type: 'sendRefused' }
  /** A streamed reply (to a message, a retry, or one already being written) is awaited. */
  | { type: 'replyStarted' }
  /** A message sent without a stream (voice) is on its way. */
  | { type: 'voiceSendStarted' }
  /** The message sent without a stream has been answered or failed. */
  | { type: 'voiceSendFinished' }
  /** The first words of the reply arrived: its bubble joins the thread (later words go to liveText). */
  | { type: 'tokenReceived'; replyId: string; text: string }
  /** The stream ended, however: the reply's bubble holds every word that arrived. */
  | { type: 'streamEnded'; replyId: string; text: string }
  /** The server answered (streamed, or whole after `prefix`). */
  | {
      type: 'replyFinished';
      response: SendMessageResponse;
      replyId: string;
      streamed: boolean;
      prefix: string;
      timestamp: string;
      /** The id of the "Session ended" line, used if the reply ended the session. */
      endedId: string;
      /** The id of the notice, used if the server says the reply did not succeed. */
      noticeId: string;
    }
  /** The message is stored but the companion could not answer: its words, once, as a notice with Retry. */
  | { type: 'replyFailed'; replyId: string; noticeId: string; message: string }
  /**
   * The request never got an answer (spec §8): the reason under the thread and the connection
   * bubble, only ever one. With `lost`, the connection dropped: a reply cut off part-way is
   * marked interrupted, the user's line is marked unsent when the request never reached the
   * server, and the screen reconnects when `reconnect` (the session is known).
   */
  | {
      type: 'sendFailed';
      replyId?: string;
      troubleId: string;
      error: string;
      lost?: { userId?: string; reached: boolean; reconnect: boolean };
    }
  /** The connection is back: the thread as the server has it, and its counter, title and state. */
  | {
      type: 'synced';
      messages: ChatMessage[];
      tokens: { used: number; limit: number };
      title: string | null;
      ended: boolean;
    }
  /** A retry never got an answer: the reason as a notice, so it can be retried again. */
  | { type: 'retryFailed'; replyId: string; noticeId: string; error: string }
  /** Following a reply already being written failed: the reason under the thread. */
  | { type: 'followFailed'; replyId: string; error: string }
  /** The user pressed Stop. */
  | { type: 'stopRequested' }
  /**
   * The reply ended stopped: what arrived (or what the server kept, `stored`) stays, marked;
   * with `noticeId`, nothing had arrived and a notice says the user stopped it.
   */
  | { type: 'stopped'; replyId: string; stored?: Message; noticeId?: string }
  /** The stream is over, however it ended: nothing is being sent any more. */
  | { type: 'replyEnded' }
  /** The last message is answered again: the replies and notices it replaces go. */
  | { type: 'retried'; replacedIds: readonly string[] }
  /** Ending the session failed. */
  | { type: 'endFailed' }
  /** A reply that arrived whole has been revealed word by word. */
  | { type: 'revealed'; id: string };

export function initialChatState(sessionId: string | undefined): ChatState {
  return {
    sessionId,
    added: [],
    dropped: new Set(),
    title: null,
    tokens: null,
    endedHere: false,
    sending: false,
    streaming: false,
    stopping: false,
    error: null,
    synced: null,
    reconnecting: false,
    pinned: null,
  };
}

function notice(id: string, content: string, kind: 'failed' | 'stopped' = 'failed'): ChatMessage {
  return { id, role: 'assistant', content, notice: kind };
}

/** Ends a reply that will not complete: keeps any text that arrived (marked), drops an empty bubble. */
function settle(list: ChatMessage[], replyId: string, mark: ReplyMark, stored?: Message): ChatMessage[] {
  return list
    .map((m) => {
      if (m.id !== replyId) return m;
      const content = stored ? stored.content : m.content;
      const status = stored ? markOf(stored.status) : mark;
      return { ...m, content, status, streaming: false };
    })
    .filter((m) => m.id !== replyId || m.content !== '');
}

/** The reply's bubble, if any, no longer shows as being written. */
function unstream(list: ChatMessage[], replyId: string | undefined): ChatMessage[] {
  return list.map((m) => (m.id === replyId ? { ...m, streaming: false } : m));
}

/** The server's answer joins the thread; an unsuccessful one settles the reply and says why. */
function finish(state: ChatState, event: Extract<ChatEvent, { type: 'replyFinished' }>): ChatState {
  const { response, replyId } = event;
  const pinned = response.safetyPinned ?? state.pinned;
  if (!response.success) {
    const message = response.error || UNKNOWN_ERROR;
    return { ...state, pinned, added: [...settle(state.added, replyId, 'interrupted'), notice(event.noticeId, message)] };
  }
  const reply: ChatMessage = {
    id: replyId,
    role: 'assistant',
    content: event.prefix + response.aiResponse,
    timestamp: event.timestamp,
    // Streamed text is already on screen; a reply that arrived whole is revealed word by word.
    reveal: !event.streamed,
    status: markOf(response.replyStatus),
  };
  const exists = state.added.some((m) => m.id === replyId);
  let added = exists ? state.added.map((m) => (m.id === replyId ? reply : m)) : [...state.added, reply];
  if (reply.content === '' && reply.status) {
    // A reply stopped or cut off before any text leaves no empty bubble.
    added = added.filter((m) => m.id !== replyId);
  } else if (response.sessionEnded) {
    added = [...added, { id: event.endedId, role: 'assistant', content: sessionEndedMessage(response.endReason) }];
  }
  return {
    ...state,
    added,
    pinned,
    tokens: { used: response.sessionTokensUsed, limit: response.sessionTokenLimit },
    title: response.title ? response.title : state.title,
    endedHere: state.endedHere || Boolean(response.sessionEnded),
  };
}

export function chatReducer(state: ChatState, event: ChatEvent): ChatState {
  switch (event.type) {
    case 'sessionCreated':
      return state.sessionId ? state : { ...state, sessionId: event.sessionId };
    case 'messageShown':
      return { ...state, error: null, added: [...state.added, event.message] };
    case 'sendRefused':
      return { ...state, error: ENDED_REFUSAL };
    case 'replyStarted':
      // A new send or retry reaches the server by itself, or fails and reconnects again.
      return { ...state, sending: true, streaming: true, reconnecting: false };
    case 'voiceSendStarted':
      return { ...state, sending: true };
    case 'voiceSendFinished':
      return { ...state, sending: false };
    case 'tokenReceived':
      return {
        ...state,
        added: [...state.added, { id: event.replyId, role: 'assistant', content: event.text, streaming: true }],
      };
    case 'streamEnded':
      return {
        ...state,
        added: state.added.map((m) => (m.id === event.replyId ? { ...m, content: event.text } : m)),
      };
    case 'replyFinished':
      return finish(state, event);
    case 'replyFailed':
      return {
        ...state,
        added: [...settle(state.added, event.replyId, 'interrupted'), notice(event.noticeId, event.message)],
      };
    case 'sendFailed': {
      const { lost } = event;
      // One connection bubble, however often a send fails: an earlier one gives way to this one.
      let added = state.added.filter((m) => !m.trouble);
      if (lost && event.replyId) added = settle(added, event.replyId, 'interrupted');
      else added = unstream(added, event.replyId);
      if (lost && !lost.reached && lost.userId) {
        added = added.map((m) => (m.id === lost.userId ? { ...m, unsent: true } : m));
      }
      return {
        ...state,
        error: event.error,
        reconnecting: state.reconnecting || Boolean(lost?.reconnect),
        added: [...added, { id: event.troubleId, role: 'assistant', content: TROUBLE_CONNECTING, trouble: true }],
      };
    }
    case 'synced': {
      // Lines the server never had stay, after its record, with the connection bubble.
      const unsent = state.added.filter((m) => m.unsent);
      const trouble = unsent.length > 0 ? state.added.filter((m) => m.trouble) : [];
      return {
        ...state,
        synced: event.messages,
        added: [...unsent, ...trouble],
        dropped: new Set(),
        tokens: event.tokens,
        title: event.title ?? state.title,
        endedHere: state.endedHere || event.ended,
        error: unsent.length > 0 ? state.error : null,
        reconnecting: false,
      };
    }
    case 'retryFailed':
      return { ...state, added: [...unstream(state.added, event.replyId), notice(event.noticeId, event.error)] };
    case 'followFailed':
      return { ...state, error: event.error, added: unstream(state.added, event.replyId) };
    case 'stopRequested':
      return { ...state, stopping: true };
    case 'stopped': {
      const added = settle(state.added, event.replyId, 'stopped', event.stored);
      return { ...state, added: event.noticeId ? [...added, notice(event.noticeId, STOPPED_NOTICE, 'stopped')] : added };
    }
    case 'replyEnded':
      return { ...state, sending: false, streaming: false, stopping: false };
    case 'retried':
      return {
        ...state,
        error: null,
        dropped: new Set([...state.dropped, ...event.replacedIds]),
        added: state.added.filter((m) => !event.replacedIds.includes(m.id)),
      };
    case 'endFailed':
      return { ...state, error: END_FAILED };
    case 'revealed':
      return {
        ...state,
        added: state.added.map((m) => (m.id === event.id && m.reveal ? { ...m, reveal: false } : m)),
      };
  }
}
