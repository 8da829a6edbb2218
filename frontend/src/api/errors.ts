/**
 * The API's error type, apart from the fetch logic in mutator.ts so that the
 * first page can recognise API errors without downloading the client.
 */

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
  /** Seconds the server asked us to wait (its Retry-After header), when it said. */
  readonly retryAfter?: number;

  constructor(status: number, data: unknown, statusText = '', retryAfter?: number) {
    super(ApiError.summarise(status, data, statusText));
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
    this.retryAfter = retryAfter;
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

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
