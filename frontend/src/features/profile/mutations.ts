/**
 * Every change to the caller's profile, and what the query cache does after it: the cached
 * profile holds the server's answer, so every screen that reads it (the profile page, the
 * onboarding) shows what was saved. No component writes the cached profile itself.
 */
import { useQueryClient } from '@tanstack/react-query';
import { getGetProfileQueryKey, useUpdateProfile } from '../../api/gen/profile/profile';

/** Saves some of the profile's fields (PATCH /api/profile). */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useUpdateProfile({ mutation: { onSuccess: (profile) => queryClient.setQueryData(getGetProfileQueryKey(), profile) } });
}
