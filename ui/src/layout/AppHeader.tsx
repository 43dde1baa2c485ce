import { Burger, Button, Divider, Drawer, Group, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { NavLink, useNavigate } from 'react-router-dom';
import { useSession } from '../session/SessionProvider.js';
import { ThemeToggle } from '../theme/ThemeToggle.js';
import classes from './AppHeader.module.css';

/** The six tabs (docs/screens.md#routes-and-the-header), in this order, then Browser Analysis, which had no way in. */
const TABS = [
  { to: '/', label: 'Dashboard', end: true },
  { to: '/upload', label: 'Upload', end: false },
  { to: '/flaky-tests', label: 'Flaky Tests', end: false },
  { to: '/error-patterns', label: 'Error Patterns', end: false },
  { to: '/slow-tests', label: 'Slow Tests', end: false },
  { to: '/trends', label: 'Trends', end: false },
  { to: '/browser-analysis', label: 'Browser Analysis', end: false },
];

/** Admins also see Settings (the server refuses everyone else its calls). */
const ADMIN_TABS = [{ to: '/settings', label: 'Settings', end: false }];

function NavTabs({ vertical, onNavigate }: { vertical?: boolean; onNavigate?: () => void }) {
  const Layout = vertical ? Stack : Group;
  const { user } = useSession();
  const tabs = user?.role === 'admin' ? [...TABS, ...ADMIN_TABS] : TABS;
  return (
    <Layout component="nav" aria-label="Main" gap={4} {...(vertical ? {} : { wrap: 'nowrap' as const })}>
      {tabs.map((tab) => (
        <NavLink key={tab.to} to={tab.to} end={tab.end} className={classes.tab} onClick={onNavigate}>
          {tab.label}
        </NavLink>
      ))}
    </Layout>
  );
}

/**
 * The tabs fit a desktop; below the `lg` breakpoint they would be a strip cut mid-word, so a
 * menu button opens them in a drawer with the account controls.
 */
export function AppHeader() {
  const { user, logout } = useSession();
  const navigate = useNavigate();
  const [menuOpen, menu] = useDisclosure(false);
  const onLogout = async () => {
    menu.close();
    // Logout goes to /login even if the call fails (the session is cleared either way).
    await logout();
    navigate('/login', { replace: true });
  };
  return (
    <Group h="100%" px="md" gap="md" wrap="nowrap" justify="space-between">
      <Group gap="lg" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
        <Burger opened={menuOpen} onClick={menu.toggle} hiddenFrom="lg" size="sm" aria-label="Open navigation" />
        <Text fw={800} size="lg" className={classes.brand}>
          flakeboard
        </Text>
        <ScrollArea type="never" style={{ flex: 1 }} visibleFrom="lg">
          <NavTabs />
        </ScrollArea>
      </Group>
      <Group gap="sm" wrap="nowrap">
        <Text size="sm" c="dimmed" data-testid="current-user" visibleFrom="sm">
          {user?.username}
        </Text>
        <ThemeToggle />
        <Button variant="default" size="sm" onClick={onLogout}>
          Logout
        </Button>
      </Group>
      <Drawer opened={menuOpen} onClose={menu.close} size="xs" title={<Text fw={800} className={classes.brand}>flakeboard</Text>} hiddenFrom="lg">
        <NavTabs vertical onNavigate={menu.close} />
        <Divider my="md" />
        <Text size="sm" c="dimmed">
          Signed in as {user?.username}
        </Text>
      </Drawer>
    </Group>
  );
}
