import { getGetCurrentUserResponseMock } from '../api/gen/auth/auth.msw';
import { getGetProfileResponseMock } from '../api/gen/profile/profile.msw';
import type { CurrentUser, Entitlements, Profile, Role } from '../api/gen/model';
import tiers from './entitlements.json';

/**
 * What each role includes, as the server's entitlement table says (a Go test,
 * TestWebFixturesMatchTheTable, holds this file equal to it).
 */
export const entitlementsOf: Record<Role, Entitlements> = tiers;

/** A realistic user from orval's generated mock, with the fields a test cares about fixed; entitlements follow the role. */
export function aUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  const role = overrides.role ?? 'USER';
  return getGetCurrentUserResponseMock({ email: 'ada@example.com', name: 'Ada', role, entitlements: entitlementsOf[role], ...overrides });
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

/** Puts the support mailbox in the page as the server does (index.html's meta tag); setup.ts removes it after each test. */
export function setSupportEmail(address: string) {
  const meta = document.createElement('meta');
  meta.name = 'percolate-support-email';
  meta.content = address;
  document.head.append(meta);
}
