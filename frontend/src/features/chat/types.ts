import type { ChatRole, SendMessageResponse } from '../../api/gen/model';

/** How a reply ended when it did not end complete (Message.status). */
export type ReplyMark = 'stopped' | 'interrupted';

/** A message as the chat screen shows it. */
export interface ChatMessage {
  id: string;
  role: ChatRole;
  content: string;
  timestamp?: string;
  /** A reply that arrived whole: reveal it one word every 100 ms. */
  reveal?: boolean;
  /** Tokens are still arriving. */
  streaming?: boolean;
  /** The reply was stopped by the user or cut off by a model failure. */
  status?: ReplyMark;
  /**
   * Not a message but a line in the thread about the last message: the
   * companion could not answer it (`failed`, with the server's words) or the
   * user stopped the reply before any text (`stopped`).
   */
  notice?: 'failed' | 'stopped';
  /** The connection bubble (spec §8): the last send or reply never got its answer through. */
  trouble?: boolean;
  /** The user's line never reached the server (the connection was down). */
  unsent?: boolean;
}

/**
 * One turn sent some other way than the streamed endpoint (a voice message: see useVoiceSend),
 * in the thread of the conversation (useChatConversation's `turn`): the same checks and
 * bubbles as a typed message.
 */
export interface ConversationTurn {
  /** The session to send into, or null for a new chat. */
  sessionId: () => string | null;
  /** Refuses an ended or busy chat or an empty message; else shows the user's line and says true. */
  begin: (message: string, shown: string) => boolean;
  /** The message is on its way (true) or answered or failed (false). */
  setSending: (on: boolean) => void;
  /** The server's answer, its text shown after `prefix`. */
  reply: (response: SendMessageResponse, prefix: string) => void;
  /** The answer never came: `why` under the thread, and the connection bubble (spec §8). */
  fail: (why: string) => void;
}
