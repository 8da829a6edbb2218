import { useNavigate } from 'react-router';
import { useCreateSession } from '../../sessions/mutations';
import { CreateSessionError, newSessionErrorText } from '../sessions';

/** The fixed opening message of a new chat (spec §7). */
export const NEW_CHAT_MESSAGE = "Hello! I'd like to start a new conversation.";

/**
 * Dashboard "new chat": sends the fixed opening message with no sessionId and
 * opens the session the server created (spec §4, new chat).
 */
export function useStartNewChat() {
  const navigate = useNavigate();
  const create = useCreateSession();
  const answer = create.data;
  // An answer without a session (success false) is a refusal in the server's words.
  const refused = answer && !(answer.success && answer.sessionId) ? new CreateSessionError(answer.error || undefined) : null;
  const failure = create.isError ? create.error : refused;

  return {
    start: () =>
      create.mutate(
        { data: { message: NEW_CHAT_MESSAGE } },
        {
          onSuccess: (response) => {
            if (response?.success && response.sessionId) void navigate(`/chat/${response.sessionId}`);
          },
        },
      ),
    creating: create.isPending,
    error: failure ? newSessionErrorText(failure) : null,
  };
}
