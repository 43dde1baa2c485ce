import { createHashRouter } from 'react-router-dom';
import { AppLayout } from './layout/AppLayout.js';
import { RequireAuth } from './layout/RequireAuth.js';

/**
 * Hash routes (docs/screens.md#routes-and-the-header). Each page is its own chunk so the sign-in page loads
 * fast. No errorElement: React Router's default screen ('Unexpected Application Error!' with
 * the message and stack) is the one docs/screens.md#routes-and-the-header names, for errors; unknown addresses get a
 * not-found page of their own.
 */
export const router = createHashRouter([
  { path: '/login', lazy: async () => ({ Component: (await import('./pages/LoginPage.js')).LoginPage }) },
  {
    path: '/report',
    lazy: async () => {
      const { ReportPage } = await import('./pages/ReportPage.js');
      return {
        Component: () => (
          <RequireAuth>
            <ReportPage />
          </RequireAuth>
        ),
      };
    },
  },
  {
    path: '/',
    Component: AppLayout,
    children: [
      { index: true, lazy: async () => ({ Component: (await import('./pages/DashboardPage.js')).DashboardPage }) },
      { path: 'upload', lazy: async () => ({ Component: (await import('./pages/UploadPage.js')).UploadPage }) },
      { path: 'upload/:id', lazy: async () => ({ Component: (await import('./pages/UploadDetailPage.js')).UploadDetailPage }) },
      { path: 'flaky-tests', lazy: async () => ({ Component: (await import('./pages/FlakyTestsPage.js')).FlakyTestsPage }) },
      { path: 'error-patterns', lazy: async () => ({ Component: (await import('./pages/ErrorPatternsPage.js')).ErrorPatternsPage }) },
      { path: 'slow-tests', lazy: async () => ({ Component: (await import('./pages/SlowTestsPage.js')).SlowTestsPage }) },
      { path: 'trends', lazy: async () => ({ Component: (await import('./pages/TrendsPage.js')).TrendsPage }) },
      { path: 'browser-analysis', lazy: async () => ({ Component: (await import('./pages/BrowserAnalysisPage.js')).BrowserAnalysisPage }) },
      { path: 'settings', lazy: async () => ({ Component: (await import('./pages/SettingsPage.js')).SettingsPage }) },
      // An address that names no screen is not an application error: a page that says so.
      { path: '*', lazy: async () => ({ Component: (await import('./pages/NotFoundPage.js')).NotFoundPage }) },
    ],
  },
]);
