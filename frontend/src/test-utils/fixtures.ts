import { getGetCurrentUserResponseMock, getLoginResponseMock } from '../api/gen/auth/auth.msw';
import { getEndChatSessionResponseMock, getGetChatSessionResponseMock, getSendChatMessageResponseMock } from '../api/gen/chat/chat.msw';
import { getGetCheckinSummaryResponseMock, getListCheckinsResponseMock } from '../api/gen/checkins/checkins.msw';
import { getListWeeklyReportsResponseMock } from '../api/gen/insights/insights.msw';
import { getGetProfileResponseMock, getGetRemindersResponseMock, getUpdateMemoryResponseMock } from '../api/gen/profile/profile.msw';
import type {
  Checkin,
  CheckinSummary,
  CurrentUser,
  Entitlements,
  LoginResponse,
  Memory,
  Message,
  Profile,
  PushDevice,
  Reminders,
  Role,
  SendMessageResponse,
  SessionDetail,
  SessionListItem,
  WeeklyReport,
} from '../api/gen/model';
import tiers from './entitlements.json';

/**
 * One builder per API shape, each on orval's generated mock: a field the contract adds gets a
 * value without a test changing. Every field a screen reads is fixed here (optional ones left
 * out), so that no test depends on the mock's random choices; a test states what it cares about
 * in the overrides.
 */

/**
 * What each role includes, as the server's entitlement table says (a Go test,
 * TestWebFixturesMatchTheTable, holds this file equal to it).
 */
export const entitlementsOf: Record<Role, Entitlements> = tiers;

/** The chat session most tests open. */
export const SESSION_ID = '5f0c2a4e-8d1b-4c3a-9e2f-1a2b3c4d5e6f';

const STAMP = '2026-11-20T10:00:00Z';

/** A realistic user from orval's generated mock, with the fields a test cares about fixed; entitlements follow the role. */
export function aUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  const role = overrides.role ?? 'USER';
  return getGetCurrentUserResponseMock({ email: 'ada@example.com', name: 'Ada', role, entitlements: entitlementsOf[role], ...overrides });
}

/** What a sign-in answers (and what the browser stores): a token pair and aUser(). */
export function aSignIn(overrides: Partial<LoginResponse> = {}): LoginResponse {
  return getLoginResponseMock({ accessToken: 'access-1', refreshToken: 'refresh-1', user: aUser(), ...overrides });
}

/** A profile from orval's generated mock: onboarded, with empty texts and no country unless a test says. */
export function aProfile(overrides: Partial<Profile> = {}): Profile {
  return getGetProfileResponseMock({
    name: 'Ada',
    email: 'ada@example.com',
    role: 'USER',
    age: null,
    focusAreas: '',
    primaryConcerns: '',
    sensitiveTopics: '',
    memoryEnabled: true,
    country: null,
    onboarded: true,
    ...overrides,
  });
}

/** A row of the session list: an active session with a last message, no summary and no closing feeling. */
export function aSession(overrides: Partial<SessionListItem> = {}): SessionListItem {
  return getEndChatSessionResponseMock({
    id: 'a1b2c3d4-0000-4000-8000-000000000001',
    title: 'Exam worries',
    lastMessage: 'I keep thinking about the test',
    updatedAt: STAMP,
    status: 'ACTIVE',
    sessionSummary: null,
    sessionEmotions: [],
    closingFeeling: undefined,
    ...overrides,
  });
}

/** A stored message of a session (no reply status: a finished one). */
export function aMessage(overrides: Partial<Message> = {}): Message {
  return {
    ...getGetChatSessionResponseMock().messages[0],
    id: 'm-0',
    role: 'user',
    content: 'I keep thinking about the test',
    timestamp: STAMP,
    tokenCount: 5,
    status: undefined,
    ...overrides,
  };
}

/** A session as the chat opens it: SESSION_ID, active, no messages, no reply running and no pinned support. */
export function aSessionDetail(overrides: Partial<SessionDetail> = {}): SessionDetail {
  return getGetChatSessionResponseMock({
    sessionId: SESSION_ID,
    title: 'Exam worries',
    status: 'ACTIVE',
    isActive: true,
    sessionTokensUsed: 120,
    sessionTokenLimit: 1000,
    endReason: undefined,
    messages: [],
    sessionSummary: undefined,
    sessionEmotions: undefined,
    replyInProgress: undefined,
    safetyPinned: undefined,
    ...overrides,
  });
}

/** A finished reply to a message in SESSION_ID, the session going on. */
export function aReply(overrides: Partial<SendMessageResponse> = {}): SendMessageResponse {
  return getSendChatMessageResponseMock({
    success: true,
    sessionId: SESSION_ID,
    title: undefined,
    aiResponse: 'It sounds like the exam weighs on you.',
    sessionTokensUsed: 140,
    sessionTokenLimit: 1000,
    sessionEnded: false,
    endReason: undefined,
    error: undefined,
    replyStatus: undefined,
    safetyPinned: undefined,
    ...overrides,
  });
}

/** Something Percolate remembers, learnt in a session since deleted. */
export function aMemory(overrides: Partial<Memory> = {}): Memory {
  return getUpdateMemoryResponseMock({
    id: 'mem-1',
    text: 'Has an exam on Friday',
    sessionId: null,
    createdAt: STAMP,
    updatedAt: STAMP,
    ...overrides,
  });
}

/** A finished weekly report (not the week so far). */
export function aWeeklyReport(overrides: Partial<WeeklyReport> = {}): WeeklyReport {
  return {
    ...getListWeeklyReportsResponseMock()[0],
    id: '5b1f0c7e-1111-4c1e-9a44-000000000001',
    weekStart: '2026-11-16',
    sessionCount: 3,
    emotions: [
      { emotion: 'anxiety', count: 2 },
      { emotion: 'calm', count: 1 },
    ],
    themes: ['exams', 'roommate', 'home'],
    suggestion: 'Pick one small pause each day.',
    createdAt: '2026-11-23T08:00:00Z',
    soFar: undefined,
    checkins: undefined,
    ...overrides,
  };
}

/** A check-in with a mood alone: no energy, feelings, tags or note. */
export function aCheckin(overrides: Partial<Checkin> = {}): Checkin {
  return {
    ...getListCheckinsResponseMock()[0],
    id: 'c1',
    mood: 3,
    energy: undefined,
    emotions: [],
    tags: [],
    note: undefined,
    localDate: '2026-11-20',
    createdAt: STAMP,
    ...overrides,
  };
}

/** A month's summary with no check-ins, and no tag patterns (a free account's). */
export function aCheckinSummary(overrides: Partial<CheckinSummary> = {}): CheckinSummary {
  return getGetCheckinSummaryResponseMock({
    days: 30,
    from: '2026-10-31',
    to: '2026-11-29',
    perDay: [],
    daysThisMonth: 0,
    weekdays: [],
    tags: undefined,
    ...overrides,
  });
}

/** Reminders switched off, on no device. */
export function someReminders(overrides: Partial<Reminders> = {}): Reminders {
  return getGetRemindersResponseMock({
    days: [],
    time: '19:00',
    timeZone: '',
    email: false,
    push: false,
    nextDue: null,
    devices: [],
    vapidPublicKey: 'BPublicKey',
    ...overrides,
  });
}

/** A device that receives push reminders. */
export function aPushDevice(overrides: Partial<PushDevice> = {}): PushDevice {
  return { ...getGetRemindersResponseMock().devices[0], id: 'dev-1', device: 'Chrome on Linux', createdAt: STAMP, ...overrides };
}

/** Puts the support mailbox in the page as the server does (index.html's meta tag); setup.ts removes it after each test. */
export function setSupportEmail(address: string) {
  const meta = document.createElement('meta');
  meta.name = 'percolate-support-email';
  meta.content = address;
  document.head.append(meta);
}
