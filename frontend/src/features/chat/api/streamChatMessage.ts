/**
 * A small reader for POST /api/chat/message/stream (server-sent events).
 *
 * EventSource cannot POST or send an Authorization header, so this reads the
 * response body with fetch. It sends the bearer token from the same storage
 * the generated client's mutator uses, refreshes once on a 401 as the mutator
 * does, and reports failures the way the mutator does: an answer that is not 2xx before the stream starts becomes an
 * ApiError with the parsed body, and an `error` event becomes an ApiError
 * carrying the event's ErrorResponse.
 */
import type { SendMessageRequest, SendMessageResponse, StreamDelta } from '../../../api/gen/model';
import { getStreamChatMessageUrl } from '../../../api/gen/chat/chat';
import { ApiError, refreshAccessToken } from '../../../api/mutator';
import { browser } from '../../../auth/browser';
import { clearSession, getAccessToken } from '../../../auth/storage';

export interface StreamHandlers {
  /** Called once per `delta` event with the text of that chunk. */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

interface ServerSentEvent {
  event: string;
  data: string;
}

/** Parses one SSE block ("event: x\ndata: y"); comments and ids are ignored. */
function parseBlock(block: string): ServerSentEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const rawLine of block.split('\n')) {
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  return { event, data: data.join('\n') };
}

async function readErrorBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Sends a message and streams the reply. Resolves with the final `done`
 * payload (every field of the non-streamed send-message response).
 */
export async function streamChatMessage(
  request: SendMessageRequest,
  { onDelta, signal }: StreamHandlers = {},
): Promise<SendMessageResponse> {
  const post = (token: string | null) => {
    const headers = new Headers({ 'Content-Type': 'application/json', Accept: 'text/event-stream' });
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return fetch(getStreamChatMessageUrl(), { method: 'POST', headers, body: JSON.stringify(request), signal });
  };

  const token = getAccessToken();
  let response = await post(token);
  // Like the generated client (spec §8): on a 401 refresh once and repeat;
  // if refreshing fails the stored session is cleared and the browser goes to /login.
  if (response.status === 401 && token) {
    let fresh: string;
    try {
      fresh = await refreshAccessToken();
    } catch (error) {
      clearSession();
      browser.redirectToLogin();
      throw error;
    }
    response = await post(fresh);
  }
  if (!response.ok) {
    throw new ApiError(response.status, await readErrorBody(response), response.statusText);
  }
  if (!response.body) {
    throw new Error('The server sent no reply.');
  }

  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';

  const handle = (block: string): SendMessageResponse | undefined => {
    const sse = parseBlock(block);
    if (!sse) return undefined;
    const payload: unknown = JSON.parse(sse.data);
    switch (sse.event) {
      case 'delta':
        onDelta?.((payload as StreamDelta).text ?? '');
        return undefined;
      case 'done':
        return payload as SendMessageResponse;
      case 'error':
        throw new ApiError(response.status, payload);
      default:
        return undefined;
    }
  };

  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (value) buffer += decoder.decode(value, { stream: !done }).replace(/\r\n/g, '\n');
      let boundary = buffer.indexOf('\n\n');
      while (boundary !== -1) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const result = handle(block);
        if (result) return result;
        boundary = buffer.indexOf('\n\n');
      }
      if (done) {
        const result = buffer.trim() === '' ? undefined : handle(buffer);
        if (result) return result;
        throw new Error('The reply stream ended early.');
      }
    }
  } finally {
    // Stops the download if we returned or failed before the server closed.
    reader.cancel().catch(() => {});
  }
}
