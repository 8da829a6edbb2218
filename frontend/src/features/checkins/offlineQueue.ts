import { isApiError } from '../../api/errors';
import { CHECKIN_QUEUE_PREFIX as PREFIX } from '../../auth/storage';
import { isTryAgainFailure } from '../../api/authorizedFetch';
import { createCheckin } from '../../api/gen/checkins/checkins';
import type { CheckinCreated, CheckinRequest } from '../../api/gen/model';
import { localDate } from './moods';

/**
 * Check-ins made offline (issue 31 §4): kept on this device, per user, and sent when the
 * connection returns, never lost and never sent twice. Each carries the clientId it was made
 * with, so that a send whose answer was lost and is sent again is stored once by the server.
 * A user's queue is sent only while that user is signed in (its key names the user).
 */

/** One kept check-in; `data.clientId` is set. */
export interface Kept {
  data: CheckinRequest & { clientId: string };
  /**
   * The server refused it for good (a bad value, a date too far back): why, as it said. It is
   * not sent again, and stays until the user keeps it (sent again, for today) or discards it.
   */
  refused?: string;
}

/** What became of a kept check-in once sent: the server's answer, or why it was refused. */
export type Outcome = { sent: CheckinCreated } | { refused: unknown };

const keyOf = (userId: string) => PREFIX + userId;

const listeners = new Set<() => void>();
const outcomes = new Map<string, Outcome>();
/**
 * Per user, the last kept check-in sent from this tab that no card has shown yet: the queue may
 * be sent (the app opening, the connection back) before the dashboard's card is there to say so,
 * and a risky note's support lines must still show.
 */
const unseen = new Map<string, { clientId: string; created: CheckinCreated }>();
let sending: Promise<void> | null = null;
let inFlight: string | null = null;

function notify() {
  for (const l of listeners) l();
}

/** Calls `listener` whenever a queue or an outcome changes (in this tab or another). */
export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key?.startsWith(PREFIX)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The user's queue as stored: a snapshot that stays the same until it changes. */
export function stored(userId: string): string | null {
  try {
    return window.localStorage.getItem(keyOf(userId));
  } catch {
    return null;
  }
}

/** A stored queue's check-ins. */
export function parse(raw: string | null): Kept[] {
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as Kept[]) : [];
  } catch {
    return [];
  }
}

/** The user's kept check-ins, oldest first (those refused too). */
export function kept(userId: string): Kept[] {
  return parse(stored(userId));
}

function save(userId: string, items: Kept[]): boolean {
  try {
    if (items.length === 0) window.localStorage.removeItem(keyOf(userId));
    else window.localStorage.setItem(keyOf(userId), JSON.stringify(items));
    return true;
  } catch {
    return false;
  } finally {
    notify();
  }
}

/** Keeps a check-in to send later; false when this device cannot store it. */
export function keep(userId: string, data: Kept['data']): boolean {
  if (!userId) return false;
  return save(userId, [...kept(userId).filter((k) => k.data.clientId !== data.clientId), { data }]);
}

/** Changes a kept check-in's details; false when it is being sent (or is gone). */
export function change(userId: string, clientId: string, details: Partial<CheckinRequest>): boolean {
  const items = kept(userId);
  const i = items.findIndex((k) => k.data.clientId === clientId);
  if (i < 0 || inFlight === clientId) return false;
  items[i] = { data: { ...items[i]!.data, ...details } };
  return save(userId, items);
}

/** Forgets a kept check-in (Undo); false when it is being sent (or is gone). */
export function forget(userId: string, clientId: string): boolean {
  const items = kept(userId);
  if (inFlight === clientId || !items.some((k) => k.data.clientId === clientId)) return false;
  return save(userId, items.filter((k) => k.data.clientId !== clientId));
}

/**
 * Calls `done` once with what became of a kept check-in when it is sent (or refused) from this
 * tab, at once if that already happened; returns the unsubscribe.
 */
export function whenSent(clientId: string, done: (outcome: Outcome) => void): () => void {
  let called = false;
  const check = () => {
    const o = outcomes.get(clientId);
    if (o && !called) {
      called = true;
      done(o);
    }
  };
  queueMicrotask(check);
  listeners.add(check);
  return () => {
    called = true;
    listeners.delete(check);
  };
}

/** A failed request as the card says it: the server's message for the field, or a plain retry. */
export function errorText(e: unknown): string {
  if (isApiError(e)) {
    const details = e.details ? Object.values(e.details).join(' ') : '';
    return details || e.serverMessage || e.serverError || 'That did not save. Please try again.';
  }
  return 'That did not save. Please try again.';
}

/** A failure that says nothing about the check-in: no network, an outage, a sign-in to renew. */
function waitAndRetry(error: unknown): boolean {
  return isTryAgainFailure(error) || !isApiError(error) || error.status === 401;
}

async function sendAll(userId: string): Promise<void> {
  for (;;) {
    const next = kept(userId).find((k) => !k.refused);
    if (!next) return;
    inFlight = next.data.clientId;
    let result: Outcome;
    try {
      result = { sent: await createCheckin(next.data) };
    } catch (error) {
      if (waitAndRetry(error)) return;
      // A refusal (a bad value, a clientId reused with other content) will not change by
      // sending again: it is reported, not retried for ever.
      result = { refused: error };
    } finally {
      inFlight = null;
    }
    outcomes.set(next.data.clientId, result);
    if ('sent' in result) unseen.set(userId, { clientId: next.data.clientId, created: result.sent });
    // A refused check-in stays, marked, for the user to keep or discard: it is never dropped
    // unseen (the user may have been offline longer than the server accepts).
    const reason = 'refused' in result ? errorText(result.refused) : null;
    save(
      userId,
      kept(userId).flatMap((k) => (k.data.clientId !== next.data.clientId ? [k] : reason ? [{ ...k, refused: reason }] : [])),
    );
  }
}

/**
 * Keeps a refused check-in after all: dated today and sent again with its clientId (so that
 * one stored before, whose answer was lost, is still stored once). False when it is gone.
 */
export function keepForToday(userId: string, clientId: string): boolean {
  const items = kept(userId);
  const i = items.findIndex((k) => k.data.clientId === clientId);
  if (i < 0) return false;
  outcomes.delete(clientId);
  items[i] = { data: { ...items[i]!.data, localDate: localDate() } };
  if (!save(userId, items)) return false;
  void send(userId);
  return true;
}

/** The last kept check-in sent before a card could show it (a card shows it, then says `seen`). */
export function unseenSent(userId: string): { clientId: string; created: CheckinCreated } | undefined {
  return unseen.get(userId);
}

/** A card has shown what became of this kept check-in. */
export function seen(userId: string, clientId: string): void {
  if (unseen.get(userId)?.clientId === clientId) unseen.delete(userId);
}

/** Forgets all of the user's kept check-ins (at logout, or when the account is deleted). */
export function clearKept(userId: string): void {
  if (!userId) return;
  unseen.delete(userId);
  save(userId, []);
}

/** Sends the user's kept check-ins, one at a time, oldest first; stops at the first that cannot go yet. */
export function send(userId: string): Promise<void> {
  if (!userId) return Promise.resolve();
  sending ??= sendAll(userId).finally(() => {
    sending = null;
  });
  return sending;
}

/** Whether a failed send means no connection: the check-in is then worth keeping. */
export function isOffline(error: unknown): boolean {
  return error instanceof TypeError || (typeof navigator !== 'undefined' && navigator.onLine === false && !isApiError(error));
}
