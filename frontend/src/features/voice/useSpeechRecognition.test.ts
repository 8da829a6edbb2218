import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTO_SEND_MS, SPEECH_FAILED, SPEECH_UNSUPPORTED, type SpeechRecognitionEventLike } from './speech';
import { useSpeechRecognition } from './useSpeechRecognition';

/** A stand-in for the browser's SpeechRecognition that the test drives. */
class FakeRecognition {
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

beforeEach(() => {
  vi.useFakeTimers();
  (window as unknown as { SpeechRecognition?: unknown }).SpeechRecognition = FakeRecognition;
});
afterEach(() => {
  vi.useRealTimers();
  delete (window as unknown as { SpeechRecognition?: unknown }).SpeechRecognition;
  FakeRecognition.last = null;
});

describe('useSpeechRecognition', () => {
  it('listens continuously in en-US with interim results, and sends the transcript 2 s after speech stops', () => {
    const onFinal = vi.fn();
    const { result } = renderHook(() => useSpeechRecognition({ enabled: true, onFinal }));
    act(() => result.current.start());
    const rec = FakeRecognition.last!;
    expect(rec.started).toBe(true);
    expect([rec.lang, rec.continuous, rec.interimResults]).toEqual(['en-US', true, true]);
    expect(result.current.listening).toBe(true);

    act(() => rec.say([{ text: 'I feel', final: false }]));
    expect(result.current.interim).toBe('I feel');
    act(() => rec.say([{ text: 'I feel tired today', final: true }]));
    act(() => vi.advanceTimersByTime(AUTO_SEND_MS - 1));
    expect(onFinal).not.toHaveBeenCalled();
    act(() => rec.say([{ text: 'and', final: false }])); // still talking: the timer restarts
    act(() => vi.advanceTimersByTime(AUTO_SEND_MS - 1));
    expect(onFinal).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onFinal).toHaveBeenCalledWith('I feel tired today');
    expect(rec.stopped).toBe(true);
    expect(result.current.listening).toBe(false);
  });

  it('ignores no-speech but reports other errors', () => {
    const { result } = renderHook(() => useSpeechRecognition({ enabled: true, onFinal: vi.fn() }));
    act(() => result.current.start());
    act(() => FakeRecognition.last!.onerror?.({ error: 'no-speech' }));
    expect(result.current.error).toBeNull();
    expect(result.current.listening).toBe(true);
    act(() => FakeRecognition.last!.onerror?.({ error: 'network' }));
    expect(result.current.error).toBe(SPEECH_FAILED);
    expect(result.current.listening).toBe(false);
  });

  it('explains when the browser has no speech recognition or voice mode is off', () => {
    const { result, rerender } = renderHook(({ enabled }) => useSpeechRecognition({ enabled, onFinal: vi.fn() }), {
      initialProps: { enabled: false },
    });
    act(() => result.current.start());
    expect(result.current.error).toBe(SPEECH_UNSUPPORTED);
    delete (window as unknown as { SpeechRecognition?: unknown }).SpeechRecognition;
    rerender({ enabled: true });
    act(() => result.current.start());
    expect(result.current.error).toBe(SPEECH_UNSUPPORTED);
    expect(result.current.supported).toBe(false);
  });

  it('sends what was said when the user stops recording', () => {
    const onFinal = vi.fn();
    const { result } = renderHook(() => useSpeechRecognition({ enabled: true, onFinal }));
    act(() => result.current.start());
    act(() => FakeRecognition.last!.say([{ text: 'short note', final: true }]));
    act(() => result.current.stop());
    expect(onFinal).toHaveBeenCalledWith('short note');
  });
});
