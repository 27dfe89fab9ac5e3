// Every route, each screen a lazy chunk so the first load stays small.
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router-dom';
import { FullPageSpinner } from '@/components/spinner';
import { AccessGate } from './access-gate';
import { Header } from './layout/header';

const RegisterPage = lazy(() => import('@/features/auth/routes/register-page'));
const LoginPage = lazy(() => import('@/features/auth/routes/login-page'));
const ForgotPasswordPage = lazy(() => import('@/features/auth/routes/forgot-password-page'));
const ResetPasswordPage = lazy(() => import('@/features/auth/routes/reset-password-page'));
const SubscribePage = lazy(() => import('@/features/billing/routes/subscribe-page'));
const OnboardingPage = lazy(() => import('@/features/onboarding/routes/onboarding-page'));
const DashboardPage = lazy(() => import('./routes/dashboard-page'));
const DonePage = lazy(() => import('@/features/episodes/routes/done-page'));
const NotFoundPage = lazy(() => import('./routes/not-found-page'));
const AdminResubmitPage = lazy(() => import('@/features/admin/routes/resubmit-page'));

export function AppRoutes() {
  return (
    <>
      <Header />
      <AccessGate>
        <Suspense fallback={<FullPageSpinner />}>
          <Routes>
            <Route path="/register" element={<RegisterPage />} />
            <Route path="/login" element={<LoginPage />} />
            <Route path="/forgot-password" element={<ForgotPasswordPage />} />
            <Route path="/reset-password" element={<ResetPasswordPage />} />
            <Route path="/" element={<DashboardPage />} />
            <Route path="/dashboard" element={<DashboardPage />} />
            <Route path="/subscribe" element={<SubscribePage />} />
            <Route path="/onboarding" element={<OnboardingPage />} />
            <Route path="/done" element={<DonePage />} />
            <Route path="/admin/episodes/resubmit" element={<AdminResubmitPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Routes>
        </Suspense>
      </AccessGate>
    </>
  );
}
