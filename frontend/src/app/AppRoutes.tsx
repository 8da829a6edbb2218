import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { ProtectedRoute } from '../auth/ProtectedRoute/ProtectedRoute';
import { PageLoader } from '../components/PageLoader/PageLoader';
import { QueryScope } from './QueryScope';
import { AppLayout, signedInScreens, withMoreStyles } from './screens';
import { useRouteFocus } from './useRouteFocus';
import { PublicLayout } from '../layouts/PublicLayout/PublicLayout';

// One chunk per page: the first visit downloads only the page it lands on.
const LandingPage = lazy(() => import('../pages/Landing/LandingPage').then((m) => ({ default: m.LandingPage })));
const AboutPage = withMoreStyles(() => import('../pages/About/AboutPage').then((m) => ({ default: m.AboutPage })));
const TeamPage = withMoreStyles(() => import('../pages/Team/TeamPage').then((m) => ({ default: m.TeamPage })));
const PrivacyPage = withMoreStyles(() =>
  import('../pages/Privacy/PrivacyPage').then((m) => ({ default: m.PrivacyPage })),
);
const SafetyPage = withMoreStyles(() =>
  import('../pages/Safety/SafetyPage').then((m) => ({ default: m.SafetyPage })),
);
const LoginPage = withMoreStyles(() => import('../pages/Login/LoginPage').then((m) => ({ default: m.LoginPage })));
const RegisterPage = withMoreStyles(() =>
  import('../pages/Register/RegisterPage').then((m) => ({ default: m.RegisterPage })),
);
const ResetPage = withMoreStyles(() => import('../pages/Reset/ResetPage').then((m) => ({ default: m.ResetPage })));
const EmailVerifiedPage = withMoreStyles(() =>
  import('../pages/EmailVerified/EmailVerifiedPage').then((m) => ({ default: m.EmailVerifiedPage })),
);
const SubscriptionSuccessPage = withMoreStyles(() =>
  import('../pages/SubscriptionSuccess/SubscriptionSuccessPage').then((m) => ({
    default: m.SubscriptionSuccessPage,
  })),
);
const UnauthorizedPage = withMoreStyles(() =>
  import('../pages/Unauthorized/UnauthorizedPage').then((m) => ({ default: m.UnauthorizedPage })),
);
const NotFoundPage = withMoreStyles(() =>
  import('../pages/NotFound/NotFoundPage').then((m) => ({ default: m.NotFoundPage })),
);
/** Every route of spec §2. */
export function AppRoutes() {
  useRouteFocus();
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        {/* Pages without server state: they never download the query cache. */}
        <Route index element={<LandingPage />} />
        <Route path="privacy" element={<PrivacyPage />} />
        <Route path="subscription-success" element={<SubscriptionSuccessPage />} />
        <Route path="error/401" element={<UnauthorizedPage />} />
        <Route path="error/404" element={<NotFoundPage />} />

        <Route element={<QueryScope />}>
          <Route path="about" element={<AboutPage />} />
          <Route path="team" element={<TeamPage />} />
          {/* The safety page reads the lines of the reader's country from the server. */}
          <Route path="safety" element={<SafetyPage />} />
          <Route path="login" element={<LoginPage />} />
          <Route path="register" element={<RegisterPage />} />
          <Route path="reset" element={<ResetPage />} />
          <Route path="email-verified" element={<EmailVerifiedPage />} />
        </Route>
      </Route>

      <Route
        element={
          <ProtectedRoute>
            <Suspense fallback={<PageLoader />}>
              <QueryScope>
                <AppLayout />
              </QueryScope>
            </Suspense>
          </ProtectedRoute>
        }
      >
        <Route path="dashboard" element={<signedInScreens.dashboard />} />
        <Route path="chat/:sessionId?" element={<signedInScreens.chat />} />
        <Route path="profile" element={<signedInScreens.profile />} />
        <Route path="insights" element={<signedInScreens.insights />} />
        <Route path="mood" element={<signedInScreens.mood />} />
      </Route>

      <Route path="*" element={<Navigate to="/error/404" replace />} />
    </Routes>
  );
}
