import { act, renderHook, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Providers } from '../../app/Providers';
import type { Role } from '../../api/gen/model';
import { aUser } from '../../test-utils/fixtures';
import { createTestQueryClient } from '../../test-utils/render';
import { server } from '../../test-utils/server';
import { ALREADY_SUBSCRIBED, CHECKOUT_FAILED, ERROR_BANNER_MS, PORTAL_FAILED, useSubscription } from './useSubscription';

function signedIn(role: Role = 'USER') {
  const user = aUser({ role, isStudent: false });
  localStorage.setItem('accessToken', 'access');
  localStorage.setItem('refreshToken', 'refresh');
  localStorage.setItem('user', JSON.stringify(user));
  server.use(http.get('*/api/auth/me', () => HttpResponse.json(user)));
}

let loginVisits = 0;
function wrapper({ children }: { children: ReactNode }) {
  function Login() {
    loginVisits++;
    return null;
  }
  return (
    <Providers queryClient={createTestQueryClient()} env="test">
      <MemoryRouter initialEntries={['/about']}>
        <Routes>
          <Route path="/about" element={children} />
          <Route path="/login" element={<Login />} />
        </Routes>
      </MemoryRouter>
    </Providers>
  );
}

function fakeTab() {
  const tab = { location: { href: '' }, close: vi.fn() };
  vi.spyOn(window, 'open').mockReturnValue(tab as unknown as Window);
  return tab;
}

async function ready() {
  const hook = renderHook(() => useSubscription(), { wrapper });
  await waitFor(() => expect(hook.result.current.authLoading).toBe(false));
  return hook;
}

beforeEach(() => {
  localStorage.clear();
  loginVisits = 0;
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('useSubscription', () => {
  it('sends a signed-out visitor to /login without opening a tab', async () => {
    const open = vi.spyOn(window, 'open');
    const { result } = await ready();
    await act(() => result.current.subscribe('BASIC'));
    expect(open).not.toHaveBeenCalled();
    expect(loginVisits).toBe(1);
  });

  it('opens a blank tab first, then points it at the checkout URL', async () => {
    signedIn();
    let plan = '';
    server.use(
      http.post('*/api/subscription/checkout', async ({ request }) => {
        plan = ((await request.json()) as { plan: string }).plan;
        return HttpResponse.json({ url: 'https://checkout.example/cs_1' });
      }),
    );
    const tab = fakeTab();
    const { result } = await ready();
    expect(result.current.subscribed).toBe(false);
    await act(() => result.current.subscribe('PREMIUM'));
    expect(window.open).toHaveBeenCalledWith('', '_blank');
    expect(plan).toBe('PREMIUM');
    expect(tab.location.href).toBe('https://checkout.example/cs_1');
    expect(tab.close).not.toHaveBeenCalled();
  });

  it("switches to 'Manage Subscription' and closes the tab on the already-subscribed 400", async () => {
    signedIn();
    server.use(
      http.post('*/api/subscription/checkout', () =>
        new HttpResponse(ALREADY_SUBSCRIBED, { status: 400, headers: { 'Content-Type': 'text/plain' } }),
      ),
    );
    const tab = fakeTab();
    const { result } = await ready();
    await act(() => result.current.subscribe('BASIC'));
    expect(tab.close).toHaveBeenCalled();
    expect(result.current.subscribed).toBe(true);
    expect(result.current.error).toBeNull();
  });

  it('shows the checkout error for 5 seconds', async () => {
    signedIn();
    server.use(http.post('*/api/subscription/checkout', () => HttpResponse.json({ code: 'X', error: 'x', message: 'x' }, { status: 503 })));
    const tab = fakeTab();
    const { result } = await ready();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await act(() => result.current.subscribe('BASIC'));
    expect(tab.close).toHaveBeenCalled();
    expect(result.current.error).toBe(CHECKOUT_FAILED);
    act(() => vi.advanceTimersByTime(ERROR_BANNER_MS - 100));
    expect(result.current.error).toBe(CHECKOUT_FAILED);
    act(() => vi.advanceTimersByTime(200));
    expect(result.current.error).toBeNull();
  });

  it('treats a paid role as subscribed and opens the portal', async () => {
    signedIn('BASIC');
    server.use(http.post('*/api/subscription/portal', () => HttpResponse.json({ url: 'https://portal.example/s' })));
    const tab = fakeTab();
    const { result } = await ready();
    await waitFor(() => expect(result.current.subscribed).toBe(true));
    await act(() => result.current.manage());
    expect(tab.location.href).toBe('https://portal.example/s');
  });

  it('shows the portal error when the portal fails', async () => {
    signedIn('PREMIUM');
    server.use(http.post('*/api/subscription/portal', () => HttpResponse.json({ code: 'X', error: 'x', message: 'x' }, { status: 400 })));
    const tab = fakeTab();
    const { result } = await ready();
    await act(() => result.current.manage());
    expect(tab.close).toHaveBeenCalled();
    expect(result.current.error).toBe(PORTAL_FAILED);
  });
});
