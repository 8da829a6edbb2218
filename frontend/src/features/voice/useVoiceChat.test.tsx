import { act, renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/Providers';
import { createTestQueryClient } from '../../test-utils/render';
import { server } from '../../test-utils/server';
import { NEEDS_SPEECH_BROWSER } from './useRecorder';
import { useVoiceChat } from './useVoiceChat';

function wrapper({ children }: { children: ReactNode }) {
  return (
    <Providers queryClient={createTestQueryClient()} env="test">
      {children}
    </Providers>
  );
}

/** A MediaRecorder stand-in that yields one chunk when stopped. */
class FakeMediaRecorder {
  state: 'inactive' | 'recording' = 'inactive';
  mimeType = 'audio/webm';
  ondataavailable: ((e: { data: Blob }) => void) | null = null;
  onstop: (() => void) | null = null;
  start() {
    this.state = 'recording';
  }
  stop() {
    this.state = 'inactive';
    this.ondataavailable?.({ data: new Blob(['clip'], { type: 'audio/webm' }) });
    this.onstop?.();
  }
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useVoiceChat without speech recognition', () => {
  it('explains which browsers can talk when the server cannot transcribe', () => {
    const sendVoice = vi.fn();
    const { result } = renderHook(() => useVoiceChat({ sendVoice, serverTranscription: false }), { wrapper });
    act(() => result.current.setVoiceMode(true));
    act(() => result.current.toggleMic());
    expect(result.current.error).toContain(NEEDS_SPEECH_BROWSER);
    expect(sendVoice).not.toHaveBeenCalled();
  });

  it('records, has the server transcribe the clip, and sends the text as a voice message', async () => {
    vi.stubGlobal('MediaRecorder', FakeMediaRecorder);
    const track = { stop: vi.fn() };
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: vi.fn().mockResolvedValue({ getTracks: () => [track] }) },
    });
    let uploaded = false;
    server.use(
      http.post('*/api/chat/transcribe', async ({ request }) => {
        // A file part (its class is the test runtime's, not jsdom's Blob).
        const part = (await request.formData()).get('audio');
        uploaded = typeof part === 'object' && part !== null;
        return HttpResponse.json({ text: 'hello from firefox' });
      }),
    );
    const sendVoice = vi.fn().mockResolvedValue(undefined);
    const { result } = renderHook(() => useVoiceChat({ sendVoice, serverTranscription: true }), { wrapper });
    act(() => result.current.setVoiceMode(true));
    await act(async () => result.current.toggleMic());
    await waitFor(() => expect([result.current.error, result.current.listening]).toEqual([null, true]));
    act(() => result.current.toggleMic());
    await waitFor(() => expect(sendVoice).toHaveBeenCalledWith('hello from firefox', 'alloy'));
    expect(uploaded).toBe(true);
    expect(track.stop).toHaveBeenCalled();
  });
});
