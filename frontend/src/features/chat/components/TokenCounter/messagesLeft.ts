/** From this many messages left on, the chat says so in words (the counter stays). */
export const FEW_LEFT = 5;

/**
 * About how many more messages fit in the session, from what its exchanges so far have used on
 * average; null until two have been answered, or while more than FEW_LEFT are left.
 */
export function messagesLeft(used: number, limit: number, exchanges: number): number | null {
  if (exchanges < 2 || used <= 0 || limit <= 0) return null;
  const left = Math.max(0, Math.floor((limit - used) / (used / exchanges)));
  return left <= FEW_LEFT ? left : null;
}

/** The words for messagesLeft (issue 36: the end of a free session never comes unannounced). */
export function messagesLeftText(left: number): string {
  if (left === 0) return 'This session is about to reach its limit. You can start a new session that picks up where you left off.';
  return `About ${left} ${left === 1 ? 'message' : 'messages'} left in this session. After that you can start a new one that picks up where you left off.`;
}
