import { aUser } from '../test-utils/fixtures';
import { clearSession, getAccessToken, getRefreshToken, getUser, setSession, setTokens, setUser } from './storage';

describe('auth storage', () => {
  it('keeps tokens and user under the product names, in plain form', () => {
    const user = aUser();
    setSession({ accessToken: 'a', refreshToken: 'r', user });

    expect(window.localStorage.getItem('accessToken')).toBe('a');
    expect(window.localStorage.getItem('refreshToken')).toBe('r');
    expect(JSON.parse(window.localStorage.getItem('user') ?? 'null')).toEqual(user);
    expect(getAccessToken()).toBe('a');
    expect(getRefreshToken()).toBe('r');
    expect(getUser()).toEqual(user);
  });

  it('clearSession removes all three items', () => {
    setTokens('a', 'r');
    setUser(aUser());

    clearSession();

    expect(window.localStorage.getItem('accessToken')).toBeNull();
    expect(window.localStorage.getItem('refreshToken')).toBeNull();
    expect(window.localStorage.getItem('user')).toBeNull();
  });

  it('treats an unreadable stored user as no user', () => {
    window.localStorage.setItem('user', 'U2FsdGVkX1+legacy-ciphertext');
    expect(getUser()).toBeNull();
  });
});
