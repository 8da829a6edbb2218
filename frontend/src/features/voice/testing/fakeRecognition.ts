import { afterEach, beforeEach } from 'vitest';
import type { SpeechRecognitionEventLike } from '../speech';

/**
 * A stand-in for the browser's SpeechRecognition that a test drives: `last` is the one the
 * code under test made, and `say` hands it results as the browser would.
 */
export class FakeRecognition {
  static last: FakeRecognition | null = null;
  continuous = false;
  interimResults = false;
  lang = '';
  onresult: ((e: SpeechRecognitionEventLike) => void) | null = null;
  onerror: ((e: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  started = false;
  stopped = false;
  constructor() {
    FakeRecognition.last = this;
  }
  start() {
    this.started = true;
  }
  stop() {
    this.stopped = true;
  }
  abort() {
    this.stopped = true;
  }
  say(parts: { text: string; final: boolean }[]) {
    const results = parts.map((p) => Object.assign([{ transcript: p.text }], { isFinal: p.final }));
    this.onresult?.({ resultIndex: 0, results: Object.assign(results, { length: results.length }) } as never);
  }
}

type WithSpeech = { SpeechRecognition?: unknown };

/** Makes FakeRecognition the browser's SpeechRecognition for each test of the calling suite. */
export function withFakeRecognition() {
  beforeEach(() => {
    (window as unknown as WithSpeech).SpeechRecognition = FakeRecognition;
  });
  afterEach(() => {
    delete (window as unknown as WithSpeech).SpeechRecognition;
    FakeRecognition.last = null;
  });
}
