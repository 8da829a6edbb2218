import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTO_SEND_MS, SPEECH_FAILED, SPEECH_UNSUPPORTED } from './speech';
import { FakeRecognition, withFakeRecognition } from './testing/fakeRecognition';
import { useSpeechRecognition } from './useSpeechRecognition';

withFakeRecognition();
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
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
