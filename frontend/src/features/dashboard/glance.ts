/** Small pure helpers for the dashboard's at-a-glance header and cards. */
import type { SessionListItem } from '../../api/gen/model';
import { isEndedStatus } from '../chat/sessions';

/** 'Good morning' before noon, 'Good afternoon' before 18:00, else 'Good evening' (local time). */
export function greetingFor(date: Date): string {
  const hour = date.getHours();
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}

/** The first word of a full name, or nothing. */
export function firstName(name: string | null | undefined): string {
  return (name ?? '').trim().split(/\s+/)[0] ?? '';
}

export const JOURNAL_PROMPTS: readonly string[] = [
  'What is one small thing that went well today?',
  'What has been taking up most of your thoughts lately?',
  'Who made you feel a little lighter this week?',
  'What would you like to let go of before tomorrow?',
  'What is something you are looking forward to?',
  'When did you feel most like yourself recently?',
  'What is one kind thing you could say to yourself right now?',
  'What is weighing on you, and what part of it is yours to carry?',
  'What did you learn about yourself this week?',
  'What helps you feel calm when things get busy?',
  'What is a worry you can set down for tonight?',
  'What are you proud of, even if it seems small?',
  'Where did you find a moment of rest today?',
  'What do you need more of this week, and less of?',
];

/** The prompt of the day: chosen by the local date, so it stays the same all day. */
export function promptOfDay(date: Date): string {
  const day = Math.floor(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / 86_400_000);
  return JOURNAL_PROMPTS[day % JOURNAL_PROMPTS.length]!;
}

/** An ended session whose summary has not been written yet. */
export function awaitingSummary(session: Pick<SessionListItem, 'status' | 'sessionSummary'>): boolean {
  return isEndedStatus(session.status) && !(session.sessionSummary ?? '').trim();
}

/** How often, and for how long, the dashboard asks again while a summary is being written (tests shorten it). */
export const summaryPolling = { everyMs: 4000, forMs: 2 * 60 * 1000 };
