/**
 * Secrets in the forms test output really holds them (headers, URLs, JSON,
 * JSON inside a logged string, env lines, Bearer/Basic, curl, prose) are redacted whole before
 * any text reaches a model, and redacting twice changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { redactSecrets } from './redact.js';

const R = '[REDACTED]';

describe('redactSecrets, every form of a credential', () => {
  it.each([
    // Bearer and Basic: the whole credential, not its first word.
    ['Authorization: Bearer password=hunter2', `Authorization: Bearer ${R}`],
    ['Authorization: Bearer abc.def', `Authorization: Bearer ${R}`],
    ['sent Bearer password=hunter2 to the API', `sent Bearer ${R} to the API`],
    ['Proxy-Authorization: Basic dXNlcjpwYXNzd29yZA==', `Proxy-Authorization: ${R}`],
    ['the header was Basic dXNlcjpwYXNzd29yZA== and failed', `the header was Basic ${R} and failed`],
    ['Authorization: [REDACTED]hunter2', `Authorization: ${R}`],
    // Headers.
    ['X-Api-Key: k3yV4lue99', `X-Api-Key: ${R}`],
    ['x-auth-token: abc.def', `x-auth-token: ${R}`],
    // URLs.
    ['GET https://:tok3n@db.example.test/x', `GET https://${R}@db.example.test/x`],
    ['GET https://bob:p@ss@db.example.test/x', `GET https://${R}@db.example.test/x`],
    ['clone https://ghtoken123@github.com/o/r', `clone https://${R}@github.com/o/r`],
    ['GET /cb?code=1&token=abc123&x=1', `GET /cb?code=1&token=${R}&x=1`],
    ['GET /cb?auth=abc123&sig=ffee', `GET /cb?auth=${R}&sig=${R}`],
    // JSON, plain and escaped inside a logged string; values with blanks.
    ['{"password": "correct horse battery"}', `{"password": "${R}"}`],
    ['{"password":"p\\"w d"}', `{"password":"${R}"}`],
    ['body: "{\\"password\\":\\"hunter 2\\",\\"user\\":\\"bob\\"}"', `body: "{\\"password\\":\\"${R}\\",\\"user\\":\\"bob\\"}"`],
    ["{'client_secret': 'a b c'}", `{'client_secret': '${R}'}`],
    // Env-style.
    ['PASSWORD=hunter2', `PASSWORD=${R}`],
    ["export DB_PASSWORD='hunter 2'", `export DB_PASSWORD='${R}'`],
    ['PGPASSWORD="hunter 2" psql', `PGPASSWORD="${R}" psql`],
    ['password=[REDACTED]hunter2', `password=${R}`],
    // Prose and command lines.
    ['Incorrect API key provided: abc123xyz.', `Incorrect API key provided: ${R}`],
    ['access token = zzz', `access token = ${R}`],
    ['curl -u admin:s3cret https://x', `curl -u ${R} https://x`],
    ['curl --user=admin:s3cret https://x', `curl --user=${R} https://x`],
  ])('%s', (input, output) => {
    expect(redactSecrets(input)).toBe(output);
    expect(redactSecrets(output)).toBe(output);
  });

  it('leaves ordinary test output alone', () => {
    for (const text of [
      "Basic checkout works; TimeoutError: locator.click: Timeout 10000ms exceeded; waiting for getByLabel('Password') at http://localhost:3000/login",
      'Basic auth test: expected 401',
      'author=bob signal=SIGTERM keyboard=qwerty',
      'npm run test -- --update-snapshots',
    ]) {
      expect(redactSecrets(text)).toBe(text);
    }
  });
});
