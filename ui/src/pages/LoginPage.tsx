import { Alert, Button, Center, Divider, Loader, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { AuthMethodsResponse } from '../../../core/api/auth.js';
import * as api from '../api/calls.js';
import { ApiError } from '../api/client.js';
import type { ReturnState } from '../layout/RequireAuth.js';
import { useSession } from '../session/SessionProvider.js';
import { ssoFailureText } from './login/sso-messages.js';

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

/** Where to go after signing in: a path of this UI, never the login page, else the dashboard. */
function returnPath(from: string | undefined): string {
  return from && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/login') ? from : '/';
}

/** Until the server says otherwise (or cannot be asked), the password form alone, as always. */
const PASSWORD_ONLY: AuthMethodsResponse = { password: true, sso: null };

export function LoginPage() {
  const { login, completeSso } = useSession();
  const navigate = useNavigate();
  const from = (useLocation().state as ReturnState | null)?.from;
  const [params] = useSearchParams();
  const [methods, setMethods] = useState<AuthMethodsResponse | null>(null);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  // The provider sent the browser back signed in: the page takes the session once (StrictMode runs effects twice).
  const finishing = params.get('sso') === 'done';
  const exchanged = useRef(false);
  const ssoError = params.get('sso_error');

  useEffect(() => {
    let cancelled = false;
    api
      .authMethods()
      .then((answer) => !cancelled && setMethods(answer))
      .catch((error: unknown) => {
        console.error('Could not read the sign-in methods', error);
        if (!cancelled) setMethods(PASSWORD_ONLY);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    if (!finishing || exchanged.current) return;
    exchanged.current = true;
    completeSso()
      .then((returnTo) => navigate(returnPath(returnTo), { replace: true }))
      .catch((error: unknown) => {
        console.error('Single sign-on failed', error);
        setFailure(describeFailure(error));
        navigate('/login', { replace: true });
      });
  }, [finishing, completeSso, navigate]);

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
      navigate(returnPath(from), { replace: true });
    } catch (error) {
      setFailure(describeFailure(error));
      setBusy(false);
    }
  };

  const locked = failure?.attemptsRemaining === 0;
  const sso = methods?.sso ?? null;
  const showPassword = methods?.password ?? true;
  const shownFailure = failure ? (locked ? LOCKED : failure.message) : ssoError ? ssoFailureText(ssoError, params.get('provider_error'), sso?.name ?? null) : null;
  return (
    <Center mih="100vh" p="md" bg="var(--mantine-color-body)">
      <Paper withBorder shadow="md" p="xl" radius="md" w="100%" maw={400}>
        <Stack>
          <div>
            <Title order={2}>flakeboard</Title>
            <Text c="dimmed" size="sm">
              Sign in to see your test results
            </Text>
          </div>
          {shownFailure !== null && (
            <Alert color="red" variant="light" role="alert" data-testid="login-error">
              <Text size="sm">{shownFailure}</Text>
              {failure?.attemptsRemaining !== undefined && failure.attemptsRemaining > 0 && (
                <Text size="sm" fw={600} mt={4}>
                  {failure.attemptsRemaining} attempt(s) remaining
                </Text>
              )}
            </Alert>
          )}
          {finishing || methods === null ? (
            <Center py="md">
              <Loader size="sm" aria-label={finishing ? 'Signing in...' : 'Loading...'} />
            </Center>
          ) : (
            <>
              {sso && (
                <Button component="a" href={`${sso.startUrl}?return=${encodeURIComponent(returnPath(from))}`} variant={showPassword ? 'default' : 'filled'} fullWidth data-testid="sso-button">
                  Sign in with {sso.name}
                </Button>
              )}
              {sso && showPassword && <Divider label="or with a password" labelPosition="center" />}
              {showPassword && (
                <form onSubmit={submit} noValidate>
                  <Stack>
                    <TextInput label="Username" autoComplete="username" autoFocus={!sso} value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
                    <PasswordInput label="Password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
                    <Button type="submit" disabled={busy} fullWidth>
                      {busy ? 'Signing in...' : 'Sign In'}
                    </Button>
                  </Stack>
                </form>
              )}
            </>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}
