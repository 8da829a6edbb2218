import { useNavigate } from 'react-router';
import { useCreateSession } from '../../sessions/mutations';
import { CreateSessionError, newSessionErrorText } from '../sessions';

/** The fixed opening message of a new chat (spec §7). */
export const NEW_CHAT_MESSAGE = "Hello! I'd like to start a new conversation.";

/**
 * Dashboard "new chat": sends the fixed opening message with no sessionId and
 * opens the session the server created (spec §4, new chat); talkAbout does the same from a
 * saved check-in (issue 31).
 */
export function useStartNewChat() {
  const navigate = useNavigate();
  const create = useCreateSession();
  const answer = create.data;
  // An answer without a session (success false) is a refusal in the server's words.
  const refused = answer && !(answer.success && answer.sessionId) ? new CreateSessionError(answer.error || undefined) : null;
  const failure = create.isError ? create.error : refused;

  // With a check-in ("Talk about it") the companion's welcome acknowledges it; the starter stays
  // the only message on the user's side, and the chat screen never shows it.
  const open = (checkinId?: string) =>
    create.mutate(
      { data: checkinId ? { message: NEW_CHAT_MESSAGE, checkinId } : { message: NEW_CHAT_MESSAGE } },
      {
        onSuccess: (response) => {
          if (response?.success && response.sessionId) void navigate(`/chat/${response.sessionId}`);
        },
      },
    );

  return {
    start: () => open(),
    /** "Talk about it": a new chat that opens on one of the user's check-ins. */
    talkAbout: (checkinId: string) => open(checkinId),
    creating: create.isPending,
    error: failure ? newSessionErrorText(failure) : null,
  };
}
