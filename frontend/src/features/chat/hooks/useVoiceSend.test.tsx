import { renderHook } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Providers } from '../../../app/Providers';
import type { VoiceResponse } from '../../../api/gen/model';
import { createTestQueryClient } from '../../../test-utils/render';
import { server } from '../../../test-utils/server';
import { VOICE_SEND_FAILED } from '../../voice/speech';
import type { ConversationTurn } from '../types';
import { useVoiceSend } from './useVoiceSend';

function wrapper({ children }: { children: ReactNode }) {
  return (
    <Providers queryClient={createTestQueryClient()} env="test">
      {children}
    </Providers>
  );
}

/** A conversation that records what the voice send did to it. */
function aTurn({ accepts = true } = {}) {
  return {
    sessionId: vi.fn<ConversationTurn['sessionId']>(() => 'session-1'),
    begin: vi.fn<ConversationTurn['begin']>(() => accepts),
    setSending: vi.fn<ConversationTurn['setSending']>(),
    reply: vi.fn<ConversationTurn['reply']>(),
    fail: vi.fn<ConversationTurn['fail']>(),
  };
}

const REPLY: VoiceResponse = {
  success: true,
  sessionId: 'session-1',
  aiResponse: 'I hear you.',
  sessionTokensUsed: 40,
  sessionTokenLimit: 4000,
  sessionEnded: false,
  audioData: 'SUQzBA==',
};

describe('useVoiceSend', () => {
  it('shows the words with 🎤, posts them with the voice into the session and hands the reply on with 🔊', async () => {
    let body: unknown;
    server.use(
      http.post('*/api/chat/voice', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json(REPLY);
      }),
    );
    const turn = aTurn();
    const { result } = renderHook(() => useVoiceSend(turn), { wrapper });

    const answer = await result.current('  I am tired ', 'nova');

    expect(turn.begin).toHaveBeenCalledWith('I am tired', '🎤 I am tired');
    expect(body).toEqual({ message: 'I am tired', sessionId: 'session-1', voice: 'nova' });
    expect(turn.reply).toHaveBeenCalledWith(expect.objectContaining({ aiResponse: 'I hear you.' }), '🔊 ');
    expect(answer?.audioData).toBe('SUQzBA==');
    expect(turn.setSending.mock.calls).toEqual([[true], [false]]);
    expect(turn.fail).not.toHaveBeenCalled();
  });

  it('sends nothing when the conversation refuses the turn (ended, busy or empty)', async () => {
    const posted = vi.fn();
    server.use(http.post('*/api/chat/voice', () => posted()));
    const turn = aTurn({ accepts: false });
    const { result } = renderHook(() => useVoiceSend(turn), { wrapper });

    expect(await result.current('hello', 'alloy')).toBeUndefined();
    expect(posted).not.toHaveBeenCalled();
    expect(turn.setSending).not.toHaveBeenCalled();
  });

  it("says the server's own words for a refusal, else spec §8's, and ends sending", async () => {
    server.use(http.post('*/api/chat/voice', () => HttpResponse.json({ code: 'RATE_LIMITED', error: 'Too Many Requests', message: 'Daily voice limit reached' }, { status: 429 })));
    const turn = aTurn();
    const { result } = renderHook(() => useVoiceSend(turn), { wrapper });

    expect(await result.current('hello', 'alloy')).toBeUndefined();
    expect(turn.fail).toHaveBeenCalledWith('Daily voice limit reached');
    expect(turn.reply).not.toHaveBeenCalled();
    expect(turn.setSending.mock.calls).toEqual([[true], [false]]);

    server.use(http.post('*/api/chat/voice', () => HttpResponse.error()));
    await result.current('again', 'alloy');
    expect(turn.fail).toHaveBeenLastCalledWith(VOICE_SEND_FAILED);
  });
});
