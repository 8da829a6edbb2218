/** Small pure helpers shared by the dashboard and the chat screen. */
import type { SessionDetail, SessionListItem } from '../../api/gen/model';
import { isApiError } from '../../api/mutator';

/** Statuses are compared case-insensitively (spec §3). */
export function isActiveStatus(status: string | null | undefined): boolean {
  return (status ?? '').toLowerCase() === 'active';
}

export function isEndedStatus(status: string | null | undefined): boolean {
  return (status ?? '').toLowerCase() === 'ended';
}

/** Spec §4: a session is active when isActive is not false and its status is active. */
export function isSessionActive(detail: Pick<SessionDetail, 'isActive' | 'status'>): boolean {
  return detail.isActive !== false && isActiveStatus(detail.status);
}

/** Dashboard search (spec §5): local, case-insensitive, on title, lastMessage or id. */
export function filterSessions(sessions: readonly SessionListItem[], query: string): SessionListItem[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [...sessions];
  return sessions.filter((session) =>
    [session.title, session.lastMessage, session.id].some((field) => (field ?? '').toLowerCase().includes(needle)),
  );
}

/**
 * One formatter for every card: toLocaleString with options builds a new Intl.DateTimeFormat
 * on each call, about a millisecond each, which made a dashboard's first render a long task.
 */
let lastActivityFormat: Intl.DateTimeFormat | undefined;

/** 'Last Activity' as a readable local date and time, or 'Unknown'. */
export function formatLastActivity(updatedAt: string | null | undefined): string {
  if (!updatedAt) return 'Unknown';
  const date = new Date(updatedAt);
  if (Number.isNaN(date.getTime())) return 'Unknown';
  lastActivityFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return lastActivityFormat.format(date);
}

/** The server's text body or its `message`, for the delete error (spec §8). */
export function deleteErrorText(error: unknown): string {
  if (isApiError(error)) {
    return error.text ?? error.serverMessage ?? 'Failed to delete session. Please try again.';
  }
  return 'Failed to delete session. Please try again.';
}

/** A 2xx answer to the new-chat message that carries no session (spec §8). */
export class CreateSessionError extends Error {
  constructor(message = 'Failed to create session') {
    super(message);
    this.name = 'CreateSessionError';
  }
}

/** The server message, text or error, for the new-session error (spec §8). */
export function newSessionErrorText(error: unknown): string {
  if (isApiError(error)) {
    return error.serverMessage ?? error.text ?? error.serverError ?? 'Failed to create new session. Please try again.';
  }
  if (error instanceof CreateSessionError) return error.message;
  return 'Failed to create new session. Please try again.';
}

/**
 * The response message, else the error's own message, else a default (spec §8, send failure).
 * A dropped connection has no message of ours: the browser's words for it ("Failed to fetch",
 * "network error") give way to the default.
 */
export function sendErrorText(error: unknown, now: Date = new Date()): string {
  if (isApiError(error)) {
    const text = error.serverMessage ?? error.text ?? error.serverError ?? error.message ?? 'Failed to send message';
    // A daily limit says when it resets in the student's own time, not the server's (issue 36).
    if (error.status === 429 && error.retryAfter !== undefined && error.retryAfter > 60) {
      return `${text} ${resetsAtText(new Date(now.getTime() + error.retryAfter * 1000))}`;
    }
    return text;
  }
  if (error instanceof TypeError) return 'Failed to send message';
  if (error instanceof Error && error.message) return error.message;
  return 'Failed to send message';
}

/** When a daily limit resets, in the browser's local time. */
export function resetsAtText(at: Date): string {
  return `That's at ${at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })} your time.`;
}
