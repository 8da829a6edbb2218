import type { ChatRole } from '../../api/gen/model';

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
}
