import { useQueryClient } from '@tanstack/react-query';
import { getGetRemindersQueryKey, useUpdateReminders } from '../../api/gen/profile/profile';

/** Saves the reminder settings; the cached reminders then hold the server's answer. */
export function useSaveReminders() {
  const client = useQueryClient();
  return useUpdateReminders({ mutation: { onSuccess: (r) => client.setQueryData(getGetRemindersQueryKey(), r) } });
}
