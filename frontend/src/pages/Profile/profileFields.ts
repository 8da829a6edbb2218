import type { Role } from '../../api/gen/model';

/** USER is the free tier, shown as FREE; every other role as it is (spec §3). */
export function tierLabel(role: Role): string {
  return role === 'USER' ? 'FREE' : role;
}

/** Age: an integer, empty means unset (spec §5). */
export function parseAge(raw: string): number | null {
  const trimmed = raw.trim();
  if (trimmed === '') return null;
  const value = Number.parseInt(trimmed, 10);
  return Number.isNaN(value) ? null : value;
}
