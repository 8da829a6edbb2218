/**
 * A small reader for the chat's server-sent event streams: POST
 * /api/chat/message/stream, POST /api/chat/sessions/{id}/retry and GET
 * /api/chat/sessions/{id}/stream (re-attach to a reply in progress).
 *
 * EventSource cannot POST or send an Authorization header, so this reads the
 * response body with fetch, through the client's one authorizedFetch (bearer
 * token, one refresh on a 401, signed out only when the refresh is refused).
 * An answer that is not 2xx before the stream starts becomes an ApiError with
 * the parsed body, like the generated client's; an `error` event becomes a
 * ReplyFailedError: the server stored the message and says the reply failed.
 */
import type { SendMessageRequest, SendMessageResponse, StreamDelta, StreamError } from '../../../api/gen/model';
import { getAttachChatReplyUrl, getRetryChatReplyUrl, getStreamChatMessageUrl } from '../../../api/gen/chat/chat';
import { authorizedFetch, errorFromResponse } from '../../../api/authorizedFetch';
import { ApiError } from '../../../api/errors';

export interface StreamHandlers {
  /** Called once per `delta` event with the text of that chunk. */
  onDelta?: (text: string) => void;
  signal?: AbortSignal;
}

/**
 * The `error` event of a reply stream: the message is stored (in the session
 * named by `sessionId`) but the companion could not answer it, or the reply
 * was stopped before any text (code REPLY_STOPPED). Not a connection problem.
 */
export class ReplyFailedError extends ApiError {
  readonly event: Partial<StreamError>;

  constructor(status: number, event: Partial<StreamError>) {
    super(status, event);
    this.name = 'ReplyFailedError';
    this.event = event;
  }

  get sessionId(): string | undefined {
    return this.event.sessionId || undefined;
  }

  get stopped(): boolean {
    return this.event.code === 'REPLY_STOPPED';
  }
}

/**
 * The connection dropped: the request never reached the server (`started` false) or the
 * stream broke before its last event (`started` true: the server has the message and goes on
 * writing and storing the reply). The browser's own words for it ("Failed to fetch",
 * "network error") never reach the page.
 */
export class ConnectionLostError extends Error {
  readonly started: boolean;

  constructor(started: boolean, options?: { cause?: unknown }) {
    super('Failed to send message', options);
    this.name = 'ConnectionLostError';
    this.started = started;
  }
}

/** A fetch or a read that failed in the network (not an abort, not an answer). */
function lost(err: unknown, started: boolean): unknown {
  return err instanceof TypeError ? new ConnectionLostError(started, { cause: err }) : err;
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

/**
 * Sends a message and streams the reply. Resolves with the final `done`
 * payload (every field of the non-streamed send-message response).
 */
export function streamChatMessage(request: SendMessageRequest, handlers: StreamHandlers = {}): Promise<SendMessageResponse> {
  return openReplyStream(
    getStreamChatMessageUrl(),
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request) },
    handlers,
  ) as Promise<SendMessageResponse>;
}

/** Answers the session's last message again (its reply failed, was interrupted or stopped). */
export function streamRetriedReply(sessionId: string, handlers: StreamHandlers = {}): Promise<SendMessageResponse> {
  return openReplyStream(getRetryChatReplyUrl(sessionId), { method: 'POST' }, handlers) as Promise<SendMessageResponse>;
}

/**
 * Follows the reply in progress of a session again: the text so far arrives
 * as the first delta. Resolves with `done`, or null when nothing is in
 * progress any more (204).
 */
export function attachToReply(sessionId: string, handlers: StreamHandlers = {}): Promise<SendMessageResponse | null> {
  return openReplyStream(getAttachChatReplyUrl(sessionId), { method: 'GET' }, handlers);
}

async function openReplyStream(
  url: string,
  init: RequestInit,
  { onDelta, signal }: StreamHandlers,
): Promise<SendMessageResponse | null> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'text/event-stream');
  let response: Response;
  try {
    response = await authorizedFetch(url, { ...init, headers, signal });
  } catch (err) {
    throw lost(err, false);
  }
  if (!response.ok) throw await errorFromResponse(response);
  if (response.status === 204) return null;
  if (!response.body) throw new ConnectionLostError(true);
  const reader = response.body.getReader();
  // An abort (Stop, leaving the screen) ends the read loop whatever the transport does with it.
  const cancel = () => void reader.cancel().catch(() => {});
  signal?.addEventListener('abort', cancel, { once: true });
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
        throw new ReplyFailedError(response.status, payload as Partial<StreamError>);
      default:
        return undefined;
    }
  };

  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (err) {
        throw lost(err, true);
      }
      const { value, done } = chunk;
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
        // The server went away before its last event (a proxy may end the body cleanly).
        throw new ConnectionLostError(true);
      }
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    // Stops the download if we returned or failed before the server closed.
    reader.cancel().catch(() => {});
  }
}
