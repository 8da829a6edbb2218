import { isApiError } from '../../api/errors';
import { CHECKIN_QUEUE_PREFIX as PREFIX } from '../../auth/storage';
import { isTryAgainFailure } from '../../api/authorizedFetch';
import { createCheckin } from '../../api/gen/checkins/checkins';
import type { CheckinCreated, CheckinRequest } from '../../api/gen/model';

/**
 * Check-ins made offline (issue 31 §4): kept on this device, per user, and sent when the
 * connection returns, never lost and never sent twice. Each carries the clientId it was made
 * with, so that a send whose answer was lost and is sent again is stored once by the server.
 * A user's queue is sent only while that user is signed in (its key names the user).
 */

/** One kept check-in; `data.clientId` is set. */
export interface Kept {
  data: CheckinRequest & { clientId: string };
}

/** What became of a kept check-in once sent: the server's answer, or why it was refused. */
export type Outcome = { sent: CheckinCreated } | { refused: unknown };

const keyOf = (userId: string) => PREFIX + userId;

const listeners = new Set<() => void>();
const outcomes = new Map<string, Outcome>();
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

/** The user's kept check-ins, oldest first. */
export function kept(userId: string): Kept[] {
  try {
    const raw = window.localStorage.getItem(keyOf(userId));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as Kept[]) : [];
  } catch {
    return [];
  }
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

/** A failure that says nothing about the check-in: no network, an outage, a sign-in to renew. */
function waitAndRetry(error: unknown): boolean {
  return isTryAgainFailure(error) || !isApiError(error) || error.status === 401;
}

async function sendAll(userId: string): Promise<void> {
  for (;;) {
    const next = kept(userId)[0];
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
    save(userId, kept(userId).filter((k) => k.data.clientId !== next.data.clientId));
  }
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
