import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { sendChatMessage } from '../../../api/gen/chat/chat';
import { CreateSessionError, newSessionErrorText } from '../sessions';

/** The fixed opening message of a new chat (spec §7). */
export const NEW_CHAT_MESSAGE = "Hello! I'd like to start a new conversation.";

/**
 * Dashboard "new chat": sends the fixed opening message with no sessionId and
 * opens the session the server created (spec §4, new chat).
 */
export function useStartNewChat() {
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: async () => {
      const response = await sendChatMessage({ message: NEW_CHAT_MESSAGE });
      if (!response?.success || !response.sessionId) {
        throw new CreateSessionError(response?.error || undefined);
      }
      return response;
    },
    onSuccess: (response) => navigate(`/chat/${response.sessionId}`),
  });

  return {
    start: () => mutation.mutate(),
    creating: mutation.isPending,
    error: mutation.isError ? newSessionErrorText(mutation.error) : null,
  };
}
