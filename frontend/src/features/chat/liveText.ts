import { useSyncExternalStore } from 'react';

/**
 * The text of the reply being streamed, kept outside React state. Deltas are gathered and
 * shown once per animation frame, and only the bubble that shows the reply reads them: a
 * token no longer renders the whole chat screen (composer, voice controls, counter) again.
 * `flush` shows whatever is gathered at once (the stream is done or failed), so no text is
 * lost and the final text is exact.
 */
export interface LiveText {
  /** Starts the reply `id` with its first words, shown at once. */
  start: (id: string, text: string) => void;
  /** Adds words to the reply; they show with the next animation frame. */
  append: (delta: string) => void;
  /** Shows every word gathered so far now; returns the reply's whole text. */
  flush: () => string;
  /** The text shown of reply `id`, or null if it is not the one being streamed. */
  textOf: (id: string) => string | null;
  subscribe: (listener: () => void) => () => void;
}

export function createLiveText(): LiveText {
  let id: string | null = null;
  let text = '';
  let pending = '';
  let frame: number | null = null;
  const listeners = new Set<() => void>();

  const flush = () => {
    if (frame !== null) {
      cancelAnimationFrame(frame);
      frame = null;
    }
    if (pending !== '') {
      text += pending;
      pending = '';
      listeners.forEach((listener) => listener());
    }
    return text;
  };

  return {
    start: (replyId, first) => {
      flush();
      id = replyId;
      text = first;
      listeners.forEach((listener) => listener());
    },
    append: (delta) => {
      pending += delta;
      frame ??= requestAnimationFrame(() => {
        frame = null;
        flush();
      });
    },
    flush,
    textOf: (replyId) => (replyId === id ? text : null),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The streamed text of reply `id` (null: not streaming), re-rendering only its reader once a frame. */
export function useLiveText(live: LiveText | undefined, id: string | null): string | null {
  return useSyncExternalStore(
    live?.subscribe ?? noSubscribe,
    () => (live && id !== null ? live.textOf(id) : null),
  );
}

const noSubscribe = () => () => {};
