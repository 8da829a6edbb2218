import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { Plan } from '../../api/gen/model';
import { createCheckoutSession, createPortalSession } from '../../api/gen/subscription/subscription';
import { ApiError } from '../../api/mutator';
import { useAuth } from '../../auth/AuthContext';

/** The server's answer when the user already has a subscription (spec §8, Checkout). */
export const ALREADY_SUBSCRIBED = 'Head to your profile to manage your subscription.';
export const CHECKOUT_FAILED = 'Failed to start subscription process. Please try again.';
export const PORTAL_FAILED = 'Failed to open subscription management. Please try again.';
/** How long a subscription error banner stays (spec §9). */
export const ERROR_BANNER_MS = 5000;

/**
 * The pricing page's subscription actions: checkout for a plan, or the billing portal for a
 * user who already subscribes. Both open a blank tab first (so the browser allows the pop-up)
 * and point it at the returned URL.
 */
export function useSubscription() {
  const { status, user } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [alreadySubscribed, setAlreadySubscribed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Plan | 'portal' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(timer.current), []);

  const flash = useCallback((message: string) => {
    clearTimeout(timer.current);
    setError(message);
    timer.current = setTimeout(() => setError(null), ERROR_BANNER_MS);
  }, []);

  const subscribed = alreadySubscribed || (user !== null && user.role !== 'USER');

  const subscribe = useCallback(
    async (plan: Plan) => {
      if (status === 'loading') return; // the buttons wait for the auth check
      if (status !== 'authenticated') {
        void navigate('/login', { state: { from: location } });
        return;
      }
      const tab = window.open('', '_blank');
      setBusy(plan);
      try {
        const { url } = await createCheckoutSession({ plan });
        if (tab) tab.location.href = url;
        else window.location.assign(url);
      } catch (err) {
        tab?.close();
        if (err instanceof ApiError && err.status === 400 && err.data === ALREADY_SUBSCRIBED) {
          setAlreadySubscribed(true);
        } else {
          flash(CHECKOUT_FAILED);
        }
      } finally {
        setBusy(null);
      }
    },
    [status, navigate, location, flash],
  );

  const manage = useCallback(async () => {
    const tab = window.open('', '_blank');
    setBusy('portal');
    try {
      const { url } = await createPortalSession();
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } catch {
      tab?.close();
      flash(PORTAL_FAILED);
    } finally {
      setBusy(null);
    }
  }, [flash]);

  return { subscribed, subscribe, manage, error, busy, authLoading: status === 'loading' };
}
