/**
 * The one hand-written piece of the API client: every orval-generated hook
 * calls customFetch. It attaches the bearer token, reads the body by its
 * content type (several endpoints answer text/plain) and turns any non-2xx
 * answer into an ApiError that screens can inspect.
 */
import { getAccessToken } from '../auth/storage';

/** The JSON error envelope of the API (architecture §3). */
export interface ApiErrorBody {
  code?: string;
  error?: string;
  message?: string;
  details?: Record<string, string>;
}

/** A non-2xx response. `data` is the parsed JSON body, the text body, or undefined. */
export class ApiError extends Error {
  readonly status: number;
  readonly data: unknown;

  constructor(status: number, data: unknown, statusText = '') {
    super(ApiError.summarise(status, data, statusText));
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }

  /** The JSON error envelope, when the server sent one. */
  get body(): ApiErrorBody | undefined {
    return isObject(this.data) ? (this.data as ApiErrorBody) : undefined;
  }

  /** The body when the server answered with plain text. */
  get text(): string | undefined {
    return typeof this.data === 'string' && this.data !== '' ? this.data : undefined;
  }

  get code(): string | undefined {
    return stringField(this.body?.code);
  }

  /** The envelope's `error` field (a human message). */
  get serverError(): string | undefined {
    return stringField(this.body?.error);
  }

  /** The envelope's `message` field (a human message). */
  get serverMessage(): string | undefined {
    return stringField(this.body?.message);
  }

  /** Field → message map of a VALIDATION_ERROR. */
  get details(): Record<string, string> | undefined {
    const details = this.body?.details;
    return isObject(details) ? details : undefined;
  }

  private static summarise(status: number, data: unknown, statusText: string): string {
    if (typeof data === 'string' && data.trim() !== '') return data;
    if (isObject(data)) {
      const body = data as ApiErrorBody;
      const text = stringField(body.error) ?? stringField(body.message);
      if (text) return text;
    }
    return `Request failed with status ${status}${statusText ? ` ${statusText}` : ''}`;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function isJsonContentType(contentType: string | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0].trim().toLowerCase();
  return type === 'application/json' || type.endsWith('+json');
}

/** Reads a body as JSON when the server says it is JSON, otherwise as text. */
async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205 || response.status === 304) {
    return undefined;
  }
  const text = await response.text();
  if (text === '') return undefined;
  if (isJsonContentType(response.headers.get('content-type'))) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // A server bug, not a reason to lose the body: hand over the raw text.
      return text;
    }
  }
  return text;
}

function withAuthorization(init: RequestInit): RequestInit {
  const headers = new Headers(init.headers);
  const token = getAccessToken();
  if (token && !headers.has('Authorization')) {
    headers.set('Authorization', `Bearer ${token}`);
  }
  if (!headers.has('Accept')) {
    headers.set('Accept', 'application/json, text/plain;q=0.9, */*;q=0.8');
  }
  return { ...init, headers };
}

/**
 * Used by the generated client (orval `override.mutator`). URLs are relative
 * to the page origin: the SPA is served by the same binary as the API, and the
 * Vite dev server proxies /api to it.
 */
// Note: no default value on `init`. orval counts the declared parameters to
// decide whether hooks get a `request` option and pass `{ signal, ...request }`.
export async function customFetch<T>(url: string, init?: RequestInit): Promise<T> {
  const response = await fetch(url, withAuthorization(init ?? {}));

  // TODO(accounts issue): on a 401 for a request not yet retried, post the
  // stored refresh token to /api/auth/refresh (one shared in-flight refresh
  // for concurrent requests), store the new tokens and repeat the request
  // once; if refreshing fails, clear the stored session and send the browser
  // to /login (spec §8). Until then a 401 is an ordinary ApiError.

  const data = await readBody(response);
  if (!response.ok) {
    throw new ApiError(response.status, data, response.statusText);
  }
  return data as T;
}

export default customFetch;

/** orval reads these to type the `error` of generated hooks. */
export type ErrorType<E> = ApiError & { data: E };
export type BodyType<B> = B;
