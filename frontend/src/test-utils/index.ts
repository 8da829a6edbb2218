import { HttpResponse } from 'msw';

export * from '@testing-library/react';
export { renderWithProviders as render, createTestQueryClient } from './render';
export { server } from './server';
export {
  aCheckin,
  aCheckinSummary,
  aMemory,
  aMessage,
  aProfile,
  aPushDevice,
  aReply,
  aSession,
  aSessionDetail,
  aSignIn,
  aUser,
  aWeeklyReport,
  entitlementsOf,
  SESSION_ID,
  setSupportEmail,
  someReminders,
} from './fixtures';

/**
 * Holds a mocked response until the test opens it, so that a busy state ("Deleting...") stays
 * on screen until the test has seen it, whatever the machine's speed.
 */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}

/**
 * The server's refusal of a request for its fields (400 VALIDATION_ERROR): `message` for the
 * banner, and a message for each field of `details`.
 */
export function validationError(message: string, details: Record<string, string>) {
  return HttpResponse.json({ code: 'VALIDATION_ERROR', error: message, message, details }, { status: 400 });
}
