import { Button, Group, ScrollArea, Text } from '@mantine/core';
import { NavLink, useNavigate } from 'react-router-dom';
import { useSession } from '../session/SessionProvider.js';
import { ThemeToggle } from '../theme/ThemeToggle.js';
import classes from './AppHeader.module.css';

/** SPEC.md section 2: the six tabs, in this order. */
const TABS = [
  { to: '/', label: 'Dashboard', end: true },
  { to: '/upload', label: 'Upload', end: false },
  { to: '/flaky-tests', label: 'Flaky Tests', end: false },
  { to: '/error-patterns', label: 'Error Patterns', end: false },
  { to: '/slow-tests', label: 'Slow Tests', end: false },
  { to: '/trends', label: 'Trends', end: false },
];

export function AppHeader() {
  const { user, logout } = useSession();
  const navigate = useNavigate();
  const onLogout = async () => {
    // Logout goes to /login even if the call fails (the session is cleared either way).
    await logout();
    navigate('/login', { replace: true });
  };
  return (
    <Group h="100%" px="md" gap="md" wrap="nowrap" justify="space-between">
      <Group gap="lg" wrap="nowrap" style={{ minWidth: 0, flex: 1 }}>
        <Text fw={800} size="lg" className={classes.brand}>
          flakeboard
        </Text>
        <ScrollArea type="never" style={{ flex: 1 }}>
          <Group component="nav" aria-label="Main" gap={4} wrap="nowrap">
            {TABS.map((tab) => (
              <NavLink key={tab.to} to={tab.to} end={tab.end} className={classes.tab}>
                {tab.label}
              </NavLink>
            ))}
          </Group>
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
    </Group>
  );
}
