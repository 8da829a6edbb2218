import type { ChatRole } from '../../api/gen/model';

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
