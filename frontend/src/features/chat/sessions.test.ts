import type { SessionListItem } from '../../api/gen/model';
import { ApiError } from '../../api/mutator';
import {
  CreateSessionError,
  deleteErrorText,
  filterSessions,
  formatLastActivity,
  isSessionActive,
  newSessionErrorText,
  resetsAtText,
  sendErrorText,
} from './sessions';

function item(overrides: Partial<SessionListItem>): SessionListItem {
  return {
    id: 'id',
    title: 'Title',
    lastMessage: null,
    updatedAt: '2026-11-20T10:00:00Z',
    status: 'ACTIVE',
    sessionSummary: null,
    sessionEmotions: [],
    ...overrides,
  };
}

describe('filterSessions', () => {
  const sessions = [
    item({ id: 'aaa-111', title: 'Exam Stress', lastMessage: 'I feel tired' }),
    item({ id: 'bbb-222', title: 'Weekend plans', lastMessage: null }),
  ];

  it('matches title, last message and id, ignoring case', () => {
    expect(filterSessions(sessions, 'exam').map((s) => s.id)).toEqual(['aaa-111']);
    expect(filterSessions(sessions, 'TIRED').map((s) => s.id)).toEqual(['aaa-111']);
    expect(filterSessions(sessions, 'BBB-2').map((s) => s.id)).toEqual(['bbb-222']);
  });

  it('keeps everything for a blank query and nothing for a miss', () => {
    expect(filterSessions(sessions, '  ')).toHaveLength(2);
    expect(filterSessions(sessions, 'holiday')).toHaveLength(0);
  });
});

describe('isSessionActive', () => {
  it('needs isActive not false and an active status, in any case', () => {
    expect(isSessionActive({ isActive: true, status: 'ACTIVE' })).toBe(true);
    expect(isSessionActive({ isActive: true, status: 'active' as 'ACTIVE' })).toBe(true);
    expect(isSessionActive({ isActive: false, status: 'ACTIVE' })).toBe(false);
    expect(isSessionActive({ isActive: true, status: 'ENDED' })).toBe(false);
  });
});

describe('error texts', () => {
  it('delete: server text, then message, then the default', () => {
    expect(deleteErrorText(new ApiError(500, 'Database is down'))).toBe('Database is down');
    expect(deleteErrorText(new ApiError(404, { code: 'NOT_FOUND', message: 'Session not found', error: 'x' }))).toBe(
      'Session not found',
    );
    expect(deleteErrorText(new TypeError('Failed to fetch'))).toBe('Failed to delete session. Please try again.');
  });

  it('new session: server message, text or error, else the default', () => {
    expect(newSessionErrorText(new ApiError(429, { message: 'Daily limit reached', error: 'e' }))).toBe(
      'Daily limit reached',
    );
    expect(newSessionErrorText(new ApiError(500, 'Broken'))).toBe('Broken');
    expect(newSessionErrorText(new ApiError(500, { error: 'Only error' }))).toBe('Only error');
    expect(newSessionErrorText(new CreateSessionError())).toBe('Failed to create session');
    expect(newSessionErrorText(new TypeError('Failed to fetch'))).toBe(
      'Failed to create new session. Please try again.',
    );
  });

  it('send: response message, else the error message, else the default', () => {
    expect(sendErrorText(new ApiError(429, { message: 'Slow down', error: 'x' }))).toBe('Slow down');
    expect(sendErrorText(new Error('The voice reply could not be played.'))).toBe('The voice reply could not be played.');
    // The browser's words for a dropped connection never reach the page (issue 36).
    expect(sendErrorText(new TypeError('Failed to fetch'))).toBe('Failed to send message');
    expect(sendErrorText(new TypeError('network error'))).toBe('Failed to send message');
    expect(sendErrorText('weird')).toBe('Failed to send message');
  });

  it('last activity falls back to Unknown', () => {
    expect(formatLastActivity(undefined)).toBe('Unknown');
    expect(formatLastActivity('not a date')).toBe('Unknown');
    expect(formatLastActivity('2026-11-20T10:00:00Z')).not.toBe('Unknown');
  });
});

describe('the daily limit (issue 36)', () => {
  it("says when it resets in the student's local time, never midnight UTC", () => {
    const now = new Date(2026, 10, 29, 21, 30);
    const err = new ApiError(429, { code: 'RATE_LIMITED', error: 'Too many requests', message: "You've reached today's limit of 50 messages. It resets in 3 h." }, '', 3 * 3600);
    const text = sendErrorText(err, now);
    expect(text).toBe("You've reached today's limit of 50 messages. It resets in 3 h. That's at 12:30 AM your time.");
    expect(text).toBe(`You've reached today's limit of 50 messages. It resets in 3 h. ${resetsAtText(new Date(2026, 10, 30, 0, 30))}`);
    expect(text).not.toMatch(/UTC/);
  });
});
