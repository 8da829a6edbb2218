import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { ProtectedRoute } from '../auth/ProtectedRoute/ProtectedRoute';
import { PageLoader } from '../components/PageLoader/PageLoader';
import { QueryScope } from './QueryScope';
import { useRouteFocus } from './useRouteFocus';
import { PublicLayout } from '../layouts/PublicLayout/PublicLayout';

/**
 * A lazily loaded page that also needs the Mantine styles the landing page does without
 * (forms, dialogs, menus: ./styles.more.ts). They download once, with the first such page.
 */
function withMoreStyles<T extends ComponentType>(load: () => Promise<{ default: T }>) {
  return lazy(() => Promise.all([import('./styles.more'), load()]).then(([, page]) => page));
}

// The signed-in layout is its own chunk too: a public visit never needs it.
const AppLayout = withMoreStyles(() =>
  import('../layouts/AppLayout/AppLayout').then((m) => ({ default: m.AppLayout })),
);

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
const DashboardPage = withMoreStyles(() =>
  import('../pages/Dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })),
);
const ChatPage = withMoreStyles(() => import('../pages/Chat/ChatPage').then((m) => ({ default: m.ChatPage })));
const InsightsPage = withMoreStyles(() =>
  import('../pages/Insights/InsightsPage').then((m) => ({ default: m.InsightsPage })),
);
// The mood page's charts come with it, in its own chunk.
const MoodPage = withMoreStyles(() => import('../pages/Mood/MoodPage').then((m) => ({ default: m.MoodPage })));
const ProfilePage = withMoreStyles(() =>
  import('../pages/Profile/ProfilePage').then((m) => ({ default: m.ProfilePage })),
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
        <Route path="dashboard" element={<DashboardPage />} />
        <Route path="chat/:sessionId?" element={<ChatPage />} />
        <Route path="profile" element={<ProfilePage />} />
        <Route path="insights" element={<InsightsPage />} />
        <Route path="mood" element={<MoodPage />} />
      </Route>

      <Route path="*" element={<Navigate to="/error/404" replace />} />
    </Routes>
  );
}
