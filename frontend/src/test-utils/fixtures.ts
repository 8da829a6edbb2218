import { getGetCurrentUserResponseMock } from '../api/gen/auth/auth.msw';
import type { User } from '../api/gen/model';

/** A realistic user from orval's generated mock, with the fields a test cares about fixed. */
export function aUser(overrides: Partial<User> = {}): User {
  return getGetCurrentUserResponseMock({ email: 'ada@example.com', name: 'Ada', role: 'USER', ...overrides });
}
