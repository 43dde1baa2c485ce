import { AppShell, Container } from '@mantine/core';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { LoadingState } from '../components/PageState.js';
import { AppHeader } from './AppHeader.js';
import { RequireAuth } from './RequireAuth.js';

/** The signed-in screens with the header; /login and /report render without it. */
export function AppLayout() {
  return (
    <RequireAuth>
      <AppShell header={{ height: 60 }} padding="md">
        <AppShell.Header>
          <AppHeader />
        </AppShell.Header>
        <AppShell.Main>
          <Container size="xl" px={0}>
            <Suspense fallback={<LoadingState text="Loading..." />}>
              <Outlet />
            </Suspense>
          </Container>
        </AppShell.Main>
      </AppShell>
    </RequireAuth>
  );
}
