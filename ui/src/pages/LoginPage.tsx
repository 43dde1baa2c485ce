import { Alert, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { ApiError } from '../api/client.js';
import type { ReturnState } from '../layout/RequireAuth.js';
import { useSession } from '../session/SessionProvider.js';

const LOCKED = 'Account locked. Please contact an administrator.';
const FALLBACK = 'Login failed. Please check your credentials and try again.';

interface Failure {
  message: string;
  attemptsRemaining?: number;
}

/** docs/screens.md#sign-in: the server's error field, else the fallback; never the transport's own text. */
function describeFailure(error: unknown): Failure {
  if (!(error instanceof ApiError)) return { message: FALLBACK };
  const remaining = (error.body as { attemptsRemaining?: unknown } | null)?.attemptsRemaining;
  const failure: Failure = { message: error.serverError ?? FALLBACK };
  if (typeof remaining === 'number') failure.attemptsRemaining = remaining;
  return failure;
}

export function LoginPage() {
  const { login } = useSession();
  const navigate = useNavigate();
  const from = (useLocation().state as ReturnState | null)?.from;
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (username.trim() === '' || password.trim() === '') {
      setFailure({ message: 'Please enter both username and password.' });
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await login(username.trim(), password);
      navigate(from && from.startsWith('/') && !from.startsWith('/login') ? from : '/', { replace: true });
    } catch (error) {
      setFailure(describeFailure(error));
      setBusy(false);
    }
  };

  const locked = failure?.attemptsRemaining === 0;
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-body)">
      <Paper withBorder shadow="md" p="xl" radius="md" w="100%" maw={400}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <div>
              <Title order={2}>flakeboard</Title>
              <Text c="dimmed" size="sm">
                Sign in to see your test results
              </Text>
            </div>
            {failure && (
              <Alert color="red" variant="light" role="alert" data-testid="login-error">
                <Text size="sm">{locked ? LOCKED : failure.message}</Text>
                {failure.attemptsRemaining !== undefined && failure.attemptsRemaining > 0 && (
                  <Text size="sm" fw={600} mt={4}>
                    {failure.attemptsRemaining} attempt(s) remaining
                  </Text>
                )}
              </Alert>
            )}
            <TextInput label="Username" autoComplete="username" autoFocus value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
            <PasswordInput label="Password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <Button type="submit" disabled={busy} fullWidth>
              {busy ? 'Signing in...' : 'Sign In'}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
