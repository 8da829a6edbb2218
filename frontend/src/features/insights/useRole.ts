import { getGetCurrentUserQueryKey, useGetCurrentUser } from '../../api/gen/auth/auth';

/**
 * The caller's role from GET /api/auth/me, in the dashboard's own cache entry (so the
 * dashboard and the insights page ask once): USER when the lookup fails (spec §6), and
 * `pending` until it answers, so no upgrade text flashes before a Premium user's cards.
 */
export function useRoleLookup(): { role: string; pending: boolean } {
  const me = useGetCurrentUser({
    query: { queryKey: [...getGetCurrentUserQueryKey(), 'dashboard-role'], retry: false, staleTime: 5 * 60 * 1000 },
  });
  return { role: me.isError ? 'USER' : (me.data?.role ?? 'USER'), pending: me.isPending };
}

/** Weekly insight reports and the community are Premium's (and operators'). */
export function hasPremiumExtras(role: string): boolean {
  return role === 'PREMIUM' || role === 'ADMIN';
}
