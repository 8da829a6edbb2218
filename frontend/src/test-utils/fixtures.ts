import { getGetCurrentUserResponseMock } from '../api/gen/auth/auth.msw';
import type { User } from '../api/gen/model';

/** A realistic user from orval's generated mock, with the fields a test cares about fixed. */
export function aUser(overrides: Partial<User> = {}): User {
  return getGetCurrentUserResponseMock({ email: 'ada@example.com', name: 'Ada', role: 'USER', ...overrides });
}

/** Puts the support mailbox in the page as the server does (index.html's meta tag); setup.ts removes it after each test. */
export function setSupportEmail(address: string) {
  const meta = document.createElement('meta');
  meta.name = 'percolate-support-email';
  meta.content = address;
  document.head.append(meta);
}
