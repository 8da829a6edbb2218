// The reducer alone: no rendering, no React, no requests (the shared setup still loads jsdom).
import { describe, expect, it } from 'vitest';
import type { Message, SendMessageResponse } from '../../../api/gen/model';
import type { ChatMessage } from '../types';
import {
  chatReducer,
  END_FAILED,
  ENDED_REFUSAL,
  initialChatState,
  needsRetry,
  newChatOpening,
  retriedIds,
  STOPPED_NOTICE,
  threadOpening,
  TROUBLE_CONNECTING,
  UNKNOWN_ERROR,
  WELCOME_MESSAGE,
  type ChatEvent,
  type ChatState,
} from './chatState';

const SESSION = '0b7c5a3e-4a1f-4c41-9a55-2f1c8d6e7f10';
const NOW = '2026-11-29T02:00:00.000Z';

/** Freezes the state all the way down, so that a reducer that changed its input would throw. */
function frozen<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.values(value).forEach(frozen);
    Object.freeze(value);
  }
  return value;
}

/** The state after `events`, each applied to a frozen state. */
function after(events: ChatEvent[], from: ChatState = initialChatState(SESSION)): ChatState {
  return events.reduce((state, event) => chatReducer(frozen(state), event), from);
}

function userLine(id: string, content: string): ChatEvent {
  return { type: 'messageShown', message: { id, role: 'user', content, timestamp: NOW } };
}

function aReply(overrides: Partial<SendMessageResponse> = {}): SendMessageResponse {
  return {
    success: true,
    sessionId: SESSION,
    title: 'Exam worries',
    aiResponse: 'That sounds like a lot to carry.',
    sessionTokensUsed: 120,
    sessionTokenLimit: 1000,
    sessionEnded: false,
    ...overrides,
  };
}

function finished(response: SendMessageResponse, replyId = 'ai-1', streamed = true, prefix = ''): ChatEvent {
  return { type: 'replyFinished', response, replyId, streamed, prefix, timestamp: NOW, endedId: 'ended-1', noticeId: 'notice-1' };
}

const texts = (state: ChatState) => state.added.map((m) => m.content);
const troubles = (state: ChatState) => state.added.filter((m) => m.content === TROUBLE_CONNECTING);
const byId = (state: ChatState, id: string) => state.added.find((m) => m.id === id);

describe('chatReducer', () => {
  it('starts with nothing added, nothing in flight and no error', () => {
    const state = initialChatState(undefined);
    expect(state.sessionId).toBeUndefined();
    expect(state.added).toEqual([]);
    expect(state.dropped.size).toBe(0);
    expect([state.sending, state.streaming, state.stopping, state.reconnecting]).toEqual([false, false, false, false]);
    expect(state.error).toBeNull();
  });

  it('takes the first session id the server gives a new chat, and only that one', () => {
    const state = after(
      [
        { type: 'sessionCreated', sessionId: SESSION },
        { type: 'sessionCreated', sessionId: 'another' },
      ],
      initialChatState(undefined),
    );
    expect(state.sessionId).toBe(SESSION);
  });

  it('shows the user line and clears an earlier error; a refusal of an ended chat only says why', () => {
    const refused = after([{ type: 'sendRefused' }]);
    expect(refused.error).toBe(ENDED_REFUSAL);
    expect(refused.added).toEqual([]);
    const shown = after([userLine('user-1', 'hello')], refused);
    expect(shown.error).toBeNull();
    expect(shown.added).toEqual([{ id: 'user-1', role: 'user', content: 'hello', timestamp: NOW }]);
  });

  it('marks a streamed reply as sending and streaming, a voice send as sending only, and clears both when it ends', () => {
    const streamed = after([{ type: 'replyStarted' }]);
    expect([streamed.sending, streamed.streaming]).toEqual([true, true]);
    const voice = after([{ type: 'voiceSendStarted' }]);
    expect([voice.sending, voice.streaming]).toEqual([true, false]);
    expect(after([{ type: 'voiceSendFinished' }], voice).sending).toBe(false);
    const ended = after([{ type: 'stopRequested' }, { type: 'replyEnded' }], streamed);
    expect([ended.sending, ended.streaming, ended.stopping]).toEqual([false, false, false]);
  });

  describe('a streamed reply', () => {
    const streaming: ChatEvent[] = [
      userLine('user-1', 'hello'),
      { type: 'replyStarted' },
      { type: 'tokenReceived', replyId: 'ai-1', text: 'That sounds' },
    ];

    it('opens its bubble with the first words, and the stream end writes every word into it', () => {
      const open = after(streaming);
      expect(byId(open, 'ai-1')).toEqual({ id: 'ai-1', role: 'assistant', content: 'That sounds', streaming: true });
      const kept = after([{ type: 'streamEnded', replyId: 'ai-1', text: 'That sounds like a lot' }], open);
      expect(byId(kept, 'ai-1')?.content).toBe('That sounds like a lot');
    });

    it('finishes in the same bubble (never a second one) with the counter and title the server gave', () => {
      const state = after([...streaming, finished(aReply())]);
      expect(state.added.filter((m) => m.role === 'assistant')).toHaveLength(1);
      expect(byId(state, 'ai-1')).toEqual({
        id: 'ai-1',
        role: 'assistant',
        content: 'That sounds like a lot to carry.',
        timestamp: NOW,
        reveal: false,
        status: undefined,
      });
      expect(state.tokens).toEqual({ used: 120, limit: 1000 });
      expect(state.title).toBe('Exam worries');
      expect(state.endedHere).toBe(false);
    });

    it('keeps an earlier title when the reply brings none', () => {
      const titled = after([finished(aReply())]);
      expect(after([finished(aReply({ title: '' }), 'ai-2')], titled).title).toBe('Exam worries');
    });

    it('adds the session-ended line when the reply ends the session, and the chat becomes ended', () => {
      const state = after([...streaming, finished(aReply({ sessionEnded: true, endReason: 'Token limit reached' }))]);
      expect(state.endedHere).toBe(true);
      expect(byId(state, 'ended-1')?.content).toBe(
        'Session ended: Token limit reached. A summary has been generated for your records.',
      );
      const noReason = after([finished(aReply({ sessionEnded: true, endReason: null }))]);
      expect(byId(noReason, 'ended-1')?.content).toContain('Session ended: Session limit reached.');
    });

    it('leaves no empty bubble for a reply stopped before any text', () => {
      const state = after([userLine('user-1', 'hello'), finished(aReply({ aiResponse: '', replyStatus: 'stopped' }), 'ai-1', false)]);
      expect(state.added.map((m) => m.id)).toEqual(['user-1']);
    });
  });

  it('adds a reply that arrived whole (voice) after its prefix, to be revealed word by word', () => {
    const state = after([userLine('user-1', '🎤 hello'), finished(aReply({ aiResponse: 'Hi.' }), 'ai-9', false, '🔊 ')]);
    expect(byId(state, 'ai-9')).toMatchObject({ content: '🔊 Hi.', reveal: true });
  });

  it('pins the support lines a reply asks for, even an unsuccessful one, and keeps them when later replies say nothing', () => {
    const pinned = after([finished(aReply({ success: false, error: 'x', safetyPinned: { category: 'self_harm' } }))]);
    expect(pinned.pinned).toEqual({ category: 'self_harm' });
    const later = after([finished(aReply(), 'ai-2'), finished(aReply({ sessionEnded: true }), 'ai-3')], pinned);
    expect(later.pinned).toEqual({ category: 'self_harm' });
    expect(after([finished(aReply({ safetyPinned: { category: 'abuse' } }), 'ai-4')], later).pinned).toEqual({ category: 'abuse' });
  });

  it('reveals only the message it is told about', () => {
    const state = after([finished(aReply(), 'ai-1', false), finished(aReply(), 'ai-2', false), { type: 'revealed', id: 'ai-1' }]);
    expect([byId(state, 'ai-1')?.reveal, byId(state, 'ai-2')?.reveal]).toEqual([false, true]);
  });

  describe('failures', () => {
    it('a send that never got an answer keeps the user line, says why and shows one connection bubble', () => {
      const state = after([userLine('user-1', 'hello'), { type: 'replyStarted' }, { type: 'sendFailed', troubleId: 't-1', error: 'Failed to fetch' }]);
      expect(state.error).toBe('Failed to fetch');
      expect(texts(state)).toEqual(['hello', TROUBLE_CONNECTING]);
      expect(troubles(state)).toHaveLength(1);
    });

    it('sending again after a failure clears the reason and adds no second connection bubble', () => {
      const failed = after([userLine('user-1', 'hello'), { type: 'sendFailed', troubleId: 't-1', error: 'Failed to fetch' }, { type: 'replyEnded' }]);
      const again = after([userLine('user-2', 'hello'), { type: 'replyStarted' }, { type: 'tokenReceived', replyId: 'ai-2', text: 'Hi' }, finished(aReply({ aiResponse: 'Hi there.' }), 'ai-2')], failed);
      expect(again.error).toBeNull();
      expect(troubles(again)).toHaveLength(1);
      expect(texts(again)).toEqual(['hello', TROUBLE_CONNECTING, 'hello', 'Hi there.']);
    });

    it('a failure part-way keeps the words that arrived, no longer streaming, before the connection bubble', () => {
      const state = after([
        userLine('user-1', 'hello'),
        { type: 'tokenReceived', replyId: 'ai-1', text: 'That' },
        { type: 'streamEnded', replyId: 'ai-1', text: 'That sounds' },
        { type: 'sendFailed', replyId: 'ai-1', troubleId: 't-1', error: 'network' },
      ]);
      expect(byId(state, 'ai-1')).toMatchObject({ content: 'That sounds', streaming: false });
      expect(texts(state)).toEqual(['hello', 'That sounds', TROUBLE_CONNECTING]);
    });

    it('a reply the companion could not write is one notice with the server words (no connection bubble), the partial reply marked', () => {
      const state = after([
        userLine('user-1', 'hello'),
        { type: 'tokenReceived', replyId: 'ai-1', text: 'That' },
        { type: 'replyFailed', replyId: 'ai-1', noticeId: 'n-1', message: 'The model is unavailable.' },
      ]);
      expect(byId(state, 'ai-1')).toMatchObject({ content: 'That', status: 'interrupted', streaming: false });
      expect(byId(state, 'n-1')).toEqual({ id: 'n-1', role: 'assistant', content: 'The model is unavailable.', notice: 'failed' });
      expect(troubles(state)).toHaveLength(0);
      expect(state.error).toBeNull();
    });

    it('an unsuccessful answer settles the reply and shows its error, else Unknown error occurred., without touching the counter', () => {
      const withError = after([finished(aReply({ success: false, aiResponse: '', error: 'Quota exceeded' }))]);
      expect(withError.added).toEqual([{ id: 'notice-1', role: 'assistant', content: 'Quota exceeded', notice: 'failed' }]);
      expect(withError.tokens).toBeNull();
      const unknown = after([finished(aReply({ success: false, aiResponse: '', error: null }))]);
      expect(texts(unknown)).toEqual([UNKNOWN_ERROR]);
    });

    it('a failed follow of a reply in progress only says why', () => {
      const state = after([
        { type: 'tokenReceived', replyId: 'ai-1', text: 'Half' },
        { type: 'followFailed', replyId: 'ai-1', error: 'Failed to fetch' },
      ]);
      expect(state.error).toBe('Failed to fetch');
      expect(state.added).toEqual([{ id: 'ai-1', role: 'assistant', content: 'Half', streaming: false }]);
    });

    it('a failed end of the session says so', () => {
      expect(after([{ type: 'endFailed' }]).error).toBe(END_FAILED);
    });
  });

  describe('a dropped connection', () => {
    const cutOff: ChatEvent[] = [
      userLine('user-1', 'hello'),
      { type: 'replyStarted' },
      { type: 'tokenReceived', replyId: 'ai-1', text: 'That' },
      { type: 'streamEnded', replyId: 'ai-1', text: 'That sounds' },
      {
        type: 'sendFailed',
        replyId: 'ai-1',
        troubleId: 't-1',
        error: 'Failed to send message',
        lost: { userId: 'user-1', reached: true, reconnect: true },
      },
      { type: 'replyEnded' },
    ];

    it('marks the partial reply interrupted, shows one connection bubble that offers Retry, and reconnects', () => {
      const state = after(cutOff);
      expect(byId(state, 'ai-1')).toMatchObject({ content: 'That sounds', status: 'interrupted', streaming: false });
      expect(byId(state, 't-1')).toMatchObject({ content: TROUBLE_CONNECTING, trouble: true });
      expect(needsRetry(state.added[state.added.length - 1])).toBe(true);
      expect(byId(state, 'user-1')?.unsent).toBeUndefined();
      expect(state.reconnecting).toBe(true);
      expect(state.error).toBe('Failed to send message');
    });

    it('sending again while it is down never doubles the connection bubble, and marks the line that never left', () => {
      const state = after(
        [
          userLine('user-2', 'still there?'),
          { type: 'replyStarted' },
          {
            type: 'sendFailed',
            troubleId: 't-2',
            error: 'Failed to send message',
            lost: { userId: 'user-2', reached: false, reconnect: true },
          },
          { type: 'replyEnded' },
        ],
        after(cutOff),
      );
      expect(troubles(state).map((m) => m.id)).toEqual(['t-2']);
      expect(texts(state)).toEqual(['hello', 'That sounds', 'still there?', TROUBLE_CONNECTING]);
      expect(byId(state, 'user-2')?.unsent).toBe(true);
      expect(state.reconnecting).toBe(true);
    });

    it('once the server answers, the thread is what it stored, keeping lines it never had', () => {
      const stored: ChatMessage[] = [
        { id: 'm-1', role: 'user', content: 'hello' },
        { id: 'm-2', role: 'assistant', content: 'That sounds like a lot to carry.' },
      ];
      const synced: ChatEvent = { type: 'synced', messages: stored, tokens: { used: 40, limit: 1000 }, title: 'Hello', ended: false };
      const recovered = after([synced], after(cutOff));
      expect(recovered.synced).toEqual(stored);
      expect(recovered.added).toEqual([]);
      expect([recovered.reconnecting, recovered.error, recovered.tokens]).toEqual([false, null, { used: 40, limit: 1000 }]);

      const withUnsent = after(
        [
          userLine('user-2', 'still there?'),
          { type: 'sendFailed', troubleId: 't-2', error: 'Failed to send message', lost: { userId: 'user-2', reached: false, reconnect: true } },
          synced,
        ],
        after(cutOff),
      );
      expect(texts(withUnsent)).toEqual(['still there?', TROUBLE_CONNECTING]);
    });

    it('a send that comes through stops the reconnecting and leaves no Retry', () => {
      const state = after([userLine('user-2', 'again'), { type: 'replyStarted' }, finished(aReply(), 'ai-2')], after(cutOff));
      expect(state.reconnecting).toBe(false);
      expect(texts(state)).toEqual(['hello', 'That sounds', TROUBLE_CONNECTING, 'again', 'That sounds like a lot to carry.']);
      expect(needsRetry(state.added[state.added.length - 1])).toBe(false);
    });
  });

  describe('stop', () => {
    const midReply: ChatEvent[] = [
      userLine('user-1', 'hello'),
      { type: 'replyStarted' },
      { type: 'tokenReceived', replyId: 'ai-1', text: 'That sounds' },
      { type: 'stopRequested' },
    ];

    it('pressing Stop mid-reply marks the chat stopping while the reply is still in flight', () => {
      const state = after(midReply);
      expect([state.sending, state.streaming, state.stopping]).toEqual([true, true, true]);
    });

    it('keeps what the server stored, marked stopped, and then nothing is in flight', () => {
      const stored: Message = { id: 'm-1', role: 'assistant', content: 'That sounds hard', timestamp: NOW, tokenCount: 4, status: 'stopped' };
      const state = after([...midReply, { type: 'streamEnded', replyId: 'ai-1', text: 'That sounds' }, { type: 'stopped', replyId: 'ai-1', stored }, { type: 'replyEnded' }]);
      expect(byId(state, 'ai-1')).toEqual({ id: 'ai-1', role: 'assistant', content: 'That sounds hard', status: 'stopped', streaming: false });
      expect([state.sending, state.streaming, state.stopping]).toEqual([false, false, false]);
      expect(troubles(state)).toHaveLength(0);
    });

    it('keeps the words that arrived, marked stopped, when the server said nothing', () => {
      const state = after([...midReply, { type: 'stopped', replyId: 'ai-1' }]);
      expect(byId(state, 'ai-1')).toMatchObject({ content: 'That sounds', status: 'stopped', streaming: false });
    });

    it('a reply stopped before any words leaves one notice that the user stopped it', () => {
      const state = after([userLine('user-1', 'hello'), { type: 'replyStarted' }, { type: 'stopped', replyId: 'ai-1', noticeId: 'n-1' }]);
      expect(state.added).toEqual([
        { id: 'user-1', role: 'user', content: 'hello', timestamp: NOW },
        { id: 'n-1', role: 'assistant', content: STOPPED_NOTICE, notice: 'stopped' },
      ]);
    });
  });

  describe('retry', () => {
    it('replaces the trailing notice and cut-off reply, added here or stored, and clears the error', () => {
      const failed = after([
        userLine('user-1', 'hello'),
        { type: 'tokenReceived', replyId: 'ai-1', text: 'That' },
        { type: 'replyFailed', replyId: 'ai-1', noticeId: 'n-1', message: 'The model is unavailable.' },
        { type: 'endFailed' },
      ]);
      const state = after([{ type: 'retried', replacedIds: ['n-1', 'ai-1', 'stored-7'] }], failed);
      expect(state.added.map((m) => m.id)).toEqual(['user-1']);
      expect([...state.dropped]).toEqual(['n-1', 'ai-1', 'stored-7']);
      expect(state.error).toBeNull();
    });

    it('a retry that failed is one notice that the next retry replaces', () => {
      const first = after([userLine('user-1', 'hello'), { type: 'retried', replacedIds: [] }, { type: 'replyStarted' }, { type: 'retryFailed', replyId: 'ai-2', noticeId: 'n-2', error: 'Failed to fetch' }, { type: 'replyEnded' }]);
      expect(byId(first, 'n-2')).toEqual({ id: 'n-2', role: 'assistant', content: 'Failed to fetch', notice: 'failed' });
      expect(troubles(first)).toHaveLength(0);
      expect(first.error).toBeNull();
      const second = after([{ type: 'retried', replacedIds: retriedIds(first.added) }, finished(aReply(), 'ai-3')], first);
      expect(texts(second)).toEqual(['hello', 'That sounds like a lot to carry.']);
    });
  });
});

describe('retriedIds', () => {
  const user: ChatMessage = { id: 'u', role: 'user', content: 'hello' };
  const done: ChatMessage = { id: 'a', role: 'assistant', content: 'Hi.' };

  it('takes the trailing notices and marked replies, newest first, and stops at a whole reply or the user', () => {
    const cut: ChatMessage = { id: 'cut', role: 'assistant', content: 'Th', status: 'interrupted' };
    const failedNotice: ChatMessage = { id: 'n', role: 'assistant', content: 'No.', notice: 'failed' };
    expect(retriedIds([user, cut, failedNotice])).toEqual(['n', 'cut']);
    expect(retriedIds([user, done])).toEqual([]);
    expect(retriedIds([done, user])).toEqual([]);
  });
});

describe('newChatOpening', () => {
  const welcome = { id: 'welcome', role: 'assistant', content: WELCOME_MESSAGE };

  it('is the welcome alone, or followed by the prompt, else the thread, the chat was opened with', () => {
    expect(newChatOpening(undefined)).toEqual([welcome]);
    expect(newChatOpening('  ', '  ')).toEqual([welcome]);
    expect(newChatOpening(' What went well? ', 'Exam worries')).toEqual([
      welcome,
      { id: 'prompt', role: 'assistant', content: "Today's prompt: What went well?" },
    ]);
    expect(newChatOpening(undefined, 'Exam worries')).toEqual([
      welcome,
      { id: 'thread', role: 'assistant', content: threadOpening('Exam worries') },
    ]);
  });
});
