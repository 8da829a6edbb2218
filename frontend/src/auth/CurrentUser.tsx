import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getCurrentUser, getGetCurrentUserQueryKey } from '../api/gen/auth/auth';
import type { User } from '../api/gen/model';
import { isTryAgainFailure } from '../api/authorizedFetch';
import { retryDelay } from '../app/queryClient';
import * as storage from './storage';

/** What GET /api/auth/me said: the user, or that the lookup failed. */
export interface CurrentUserResult {
  user?: User;
  failed: boolean;
  /** No user yet, and the lookup cannot reach the server (no network): it keeps trying. */
  offline?: boolean;
}

/**
 * GET /api/auth/me. A lookup the server refused means the stored session is
 * unusable, so every stored auth item is cleared (spec §4). A request that was
 * merely cancelled (e.g. React unmounting in StrictMode), or one that met an
 * outage (5xx, 503, 408, 429, no network), says nothing about the session:
 * it clears nothing and is tried again.
 */
async function loadCurrentUser({ signal }: { signal: AbortSignal }): Promise<User> {
  try {
    return await getCurrentUser({ signal });
  } catch (error) {
    if (!signal.aborted && !isTryAgainFailure(error)) storage.clearSession();
    throw error;
  }
}

/** An outage is waited out (honouring Retry-After) while the app shows it is loading. */
function retryOutage(_failureCount: number, error: unknown): boolean {
  return isTryAgainFailure(error);
}

interface CurrentUserProps {
  /** The user a sign-in brought along: the cache starts from it instead of asking. */
  initialUser?: User;
  onChange: (result: CurrentUserResult) => void;
  /** Hands the cache to the AuthProvider, which updates it on sign-in and sign-out. */
  onQueryClient: (client: QueryClient) => void;
}

/**
 * Watches the signed-in user in React Query's cache and reports it to the
 * AuthProvider. Rendered only while a token is stored, and loaded on demand:
 * a signed-out visitor never downloads the API client for it.
 */
export default function CurrentUser({ initialUser, onChange, onQueryClient }: CurrentUserProps) {
  const queryClient = useQueryClient();
  useEffect(() => onQueryClient(queryClient), [onQueryClient, queryClient]);

  // The generated hook's query with its key, typed as the User a sign-in also brings (the
  // answer of /me carries entitlements besides; the dashboard reads those from its own entry).
  const me = useQuery<User>({
    queryKey: getGetCurrentUserQueryKey(),
    queryFn: loadCurrentUser,
    retry: retryOutage,
    retryDelay,
    staleTime: 5 * 60 * 1000,
    initialData: initialUser,
  });
  const { data: user, isError: failed } = me;
  // Without a network, React Query pauses the lookup (the browser says it is offline) or
  // fetch fails (it thinks it is online): either way the session is not in question.
  const offline = user === undefined && (me.fetchStatus === 'paused' || me.failureReason instanceof TypeError);
  useEffect(() => onChange({ user, failed, offline }), [onChange, user, failed, offline]);
  return null;
}
