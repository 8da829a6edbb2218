import { isApiError } from '../../api/mutator';

export type FieldErrors = Partial<Record<'email' | 'password', string>>;

/** Banner and field errors of a failed sign-in (spec §8 Login). */
export function describeLoginError(error: unknown): { banner: string; fields: FieldErrors } {
  if (isApiError(error)) {
    if (error.code === 'VALIDATION_ERROR' && error.details) {
      return { banner: 'Please fix the errors below.', fields: error.details };
    }
    const banner = error.serverError ?? error.text ?? error.serverMessage ?? 'Login failed. Please try again.';
    return { banner, fields: {} };
  }
  const message = error instanceof Error && error.message ? error.message : 'Login failed. Please try again.';
  return { banner: message, fields: {} };
}

/** A failed sign-in that the account's lock refused (too many wrong passwords). */
export function isLockout(error: unknown): boolean {
  return isApiError(error) && error.status === 429;
}
