import { QueryClient } from '@tanstack/react-query';
import { isApiError } from '../api/errors';

/** Client errors (4xx but 408) will not get better by asking again; other failures retry once. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500 && error.status !== 408) return false;
  return failureCount < 1;
}

/** The longest wait a Retry-After can impose on a query before it is simply reported. */
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * Waits as long as the server asked (Retry-After, e.g. on a 503 while the
 * database is away), else React Query's usual backoff.
 */
export function retryDelay(failureCount: number, error: unknown): number {
  if (isApiError(error) && error.retryAfter !== undefined) {
    return Math.min(error.retryAfter * 1000, MAX_RETRY_AFTER_MS);
  }
  return Math.min(1000 * 2 ** failureCount, MAX_RETRY_AFTER_MS);
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay,
        staleTime: 30 * 1000,
        refetchOnWindowFocus: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
