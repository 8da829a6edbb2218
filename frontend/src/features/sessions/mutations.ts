/**
 * Every change the app makes to the caller's sessions, and what the query cache does after it:
 * the one place that says a session was created, answered, ended or deleted. A mutation that
 * touches sessions goes through these hooks (or, for a reply read from a stream, calls
 * invalidateSessions), so no screen edits the cached lists itself.
 */
import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import {
  getListChatSessionsQueryKey,
  useDeleteChatSession,
  useEndChatSession,
  useSendChatMessage,
} from '../../api/gen/chat/chat';
import type { SessionPage } from '../dashboard/sessionPages';

/** Every cached list of sessions (the generated list's key and the dashboard's pages under it) is fetched again. */
export function invalidateSessions(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: getListChatSessionsQueryKey() });
}

/** Starts a session with a first message sent without a stream (the dashboard's new chat). */
export function useCreateSession() {
  const queryClient = useQueryClient();
  return useSendChatMessage({ mutation: { onSuccess: () => void invalidateSessions(queryClient) } });
}

/** Ends a session (spec §4), with how the user feels as it ends. */
export function useEndSession() {
  const queryClient = useQueryClient();
  return useEndChatSession({ mutation: { onSuccess: () => void invalidateSessions(queryClient) } });
}

/**
 * Deletes one session (spec §4, session delete): it leaves every cached page at once, so its
 * card goes without waiting for the list, and then the list is fetched again.
 */
export function useDeleteSession() {
  const queryClient = useQueryClient();
  return useDeleteChatSession({
    mutation: {
      onSuccess: (_, { id }) => {
        queryClient.setQueriesData<InfiniteData<SessionPage>>(
          { queryKey: [...getListChatSessionsQueryKey(), 'pages'] },
          (data) =>
            data && { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== id) })) },
        );
        void invalidateSessions(queryClient);
      },
    },
  });
}
