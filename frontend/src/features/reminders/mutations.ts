/**
 * Every change to the reminder settings and their devices, and what the query cache does after
 * it: the cached reminders hold the server's answer, or are fetched again when it has none.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { Reminders } from '../../api/gen/model';
import {
  getGetRemindersQueryKey,
  useAddPushSubscription,
  useDeletePushSubscription,
  useUpdateReminders,
} from '../../api/gen/profile/profile';

/** Saves the reminder settings. */
export function useSaveReminders() {
  const client = useQueryClient();
  return useUpdateReminders({ mutation: { onSuccess: (r) => client.setQueryData(getGetRemindersQueryKey(), r) } });
}

/** Adds this browser's push subscription: it joins the cached devices (replacing its earlier self). */
export function useAddDevice() {
  const client = useQueryClient();
  return useAddPushSubscription({
    mutation: {
      onSuccess: (device) =>
        client.setQueryData<Reminders>(
          getGetRemindersQueryKey(),
          (r) => r && { ...r, devices: [...r.devices.filter((d) => d.id !== device.id), device] },
        ),
    },
  });
}

/** Removes a device's push subscription; the reminders are fetched again. */
export function useRemoveDevice() {
  const client = useQueryClient();
  return useDeletePushSubscription({
    mutation: { onSuccess: () => void client.invalidateQueries({ queryKey: getGetRemindersQueryKey() }) },
  });
}
