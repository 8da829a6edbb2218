/** Test helpers: server-sent event bodies for MSW handlers of the stream endpoint. */
import { HttpResponse } from 'msw';

export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A text/event-stream response whose body arrives in the given chunks. */
export function sseResponse(chunks: string[]): HttpResponse<ReadableStream> {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

/** A stream the test feeds by hand, to see tokens render as they arrive. */
export function controlledSse() {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  return {
    response: () => new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } }),
    send: (event: string, data: unknown) => controller.enqueue(encoder.encode(sseEvent(event, data))),
    /** Several events in one chunk of the body: the reader hands them over in one go. */
    sendAll: (events: [event: string, data: unknown][]) =>
      controller.enqueue(encoder.encode(events.map(([event, data]) => sseEvent(event, data)).join(''))),
    close: () => controller.close(),
  };
}
