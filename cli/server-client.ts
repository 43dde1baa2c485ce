/**
 * A read call of the CLI to a flakeboard server with an API token (`check` asks the gate);
 * `upload` has its own client with retries for big bodies. Errors are sentences for a CI log.
 */
export async function postToServer<T>(server: string, path: string, token: string, body: unknown, timeoutMs = 30_000): Promise<T> {
  const url = new URL(path, server.endsWith('/') ? server : `${server}/`);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      // A redirect would send the report, and the token with it, wherever it points.
      redirect: 'manual',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    throw new Error(`cannot reach ${url.origin}: ${cause === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : cause}`, { cause: error });
  }
  refuseRedirect(response, url);
  const text = await response.text();
  if (!response.ok) {
    let message = text.slice(0, 500);
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? message;
    } catch {
      // Not JSON (a proxy's error page): its first characters say enough.
    }
    const hint = response.status === 401 ? ' (check --token or FLAKEBOARD_TOKEN)' : response.status === 404 ? ' (is this a flakeboard server, and recent enough?)' : '';
    throw new Error(`the server answered ${response.status}: ${message}${hint}`);
  }
  return JSON.parse(text) as T;
}

/**
 * A flakeboard server never redirects its API. Following one would send the body (a report)
 * and perhaps the token to another address, so it is an error that names where it pointed.
 */
export function refuseRedirect(response: Response, url: URL): void {
  if (response.type !== 'opaqueredirect' && (response.status < 300 || response.status > 399)) return;
  const to = response.headers.get('location');
  throw new Error(`the server at ${url.origin} answered ${response.status} with a redirect${to ? ` to ${to.slice(0, 200)}` : ''}, which is not followed: give the server's own address`);
}
