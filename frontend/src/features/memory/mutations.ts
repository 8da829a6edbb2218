/**
 * Every change to what Percolate remembers, and what the query cache does after it: the list
 * is fetched again, and the change's promise settles once it has been (so an edited line never
 * shows its old words after Save).
 */
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  getListMemoriesQueryKey,
  useDeleteAllMemories,
  useDeleteMemory,
  useUpdateMemory,
} from '../../api/gen/profile/profile';

function refetchMemories(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: getListMemoriesQueryKey() });
}

export function useEditMemory() {
  const queryClient = useQueryClient();
  return useUpdateMemory({ mutation: { onSuccess: () => refetchMemories(queryClient) } });
}

export function useForgetMemory() {
  const queryClient = useQueryClient();
  return useDeleteMemory({ mutation: { onSuccess: () => refetchMemories(queryClient) } });
}

export function useForgetAllMemories() {
  const queryClient = useQueryClient();
  return useDeleteAllMemories({ mutation: { onSuccess: () => refetchMemories(queryClient) } });
}
