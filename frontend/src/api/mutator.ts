/**
 * The one hand-written piece of the generated API client: every orval hook
 * calls customFetch. It sends the request through authorizedFetch (bearer
 * token, one refresh on a 401, "signed out" only when the refresh is
 * refused), reads the body by its content type (several endpoints answer
 * text/plain) and turns any non-2xx answer into an ApiError that screens can
 * inspect.
 */
import { authorizedFetch, errorFromResponse, readBody } from './authorizedFetch';
import type { ApiError } from './errors';

export { ApiError, isApiError, type ApiErrorBody } from './errors';
export { refreshAccessToken, isTryAgainFailure, SignedOutError } from './authorizedFetch';

/**
 * Used by the generated client (orval `override.mutator`). URLs are relative
 * to the page origin: the SPA is served by the same binary as the API, and the
 * Vite dev server proxies /api to it.
 */
// Note: no default value on `init`. orval counts the declared parameters to
// decide whether hooks get a `request` option and pass `{ signal, ...request }`.
export async function customFetch<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await authorizedFetch(url, init ?? {});
  if (!response.ok) throw await errorFromResponse(response);
  return (await readBody(response)) as T;
}

export default customFetch;

/** orval reads these to type the `error` of generated hooks. */
export type ErrorType<E> = ApiError & { data: E };
export type BodyType<B> = B;
