import { getGetCurrentUserQueryKey, useGetCurrentUser } from '../api/gen/auth/auth';
import type { Entitlements } from '../api/gen/model';

/** What a pending or failed lookup means: nothing beyond the free tier (spec §6: the role defaults to USER). */
const NOTHING_EXTRA: Entitlements = {
  messagesPerDay: 0,
  sessionTokens: 0,
  voice: false,
  voicePerDay: 0,
  summaries: false,
  insights: false,
  community: false,
  memory: false,
  moodPatterns: false,
};

/**
 * What the caller's tier includes, from GET /api/auth/me (the server's one entitlement table),
 * in its own cache entry (so the dashboard, the insights page and the chat ask once). A failed
 * lookup means USER; `pending` until it answers, so no upgrade text flashes before a Premium
 * user's cards.
 */
export function useEntitlements(): { entitlements: Entitlements; pending: boolean } {
  const me = useGetCurrentUser({
    query: { queryKey: [...getGetCurrentUserQueryKey(), 'entitlements'], retry: false, staleTime: 5 * 60 * 1000 },
  });
  const entitlements = (!me.isError && me.data?.entitlements) || NOTHING_EXTRA;
  return { entitlements, pending: me.isPending };
}
