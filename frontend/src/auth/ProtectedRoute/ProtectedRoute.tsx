import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PageLoader } from '../../components/PageLoader/PageLoader';
import { useAuth } from '../AuthContext';

/**
 * Guards a route (spec §2): a spinner while the auth state loads, the page
 * when signed in, otherwise /login with the originating location in
 * `state.from` so login can send the user back. Without children it renders
 * the nested routes, so it can wrap a whole layout.
 */
export function ProtectedRoute({ children }: { children?: ReactNode }) {
  const { status } = useAuth();
  const location = useLocation();

  if (status === 'loading') {
    return <PageLoader label="Checking authentication..." />;
  }
  if (status !== 'authenticated') {
    return <Navigate to="/login" replace state={{ from: location }} />;
  }
  return children ?? <Outlet />;
}
