import { existsSync } from 'node:fs';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/flakeboard.js', import.meta.url));
export const SHARED_FIXTURES = fileURLToPath(new URL('../../../shared/fixtures/public/', import.meta.url));
/** Public sample reports are read in place; a clone with nothing beside it skips the tests that need them. */
export const HAS_SHARED = existsSync(SHARED_FIXTURES);
export const SHARED_SKIP = `skipped: no public sample reports at ${SHARED_FIXTURES}`;
export const OWN_REPORTS = fileURLToPath(new URL('../../fixtures/reports/own/', import.meta.url));

/** The accounts every prepared database has (the UI shows no roles; the server enforces them). */
export const ADMIN = { username: 'e2e', password: 'e2e-password-123' };
export const MEMBER = { username: 'viewer', password: 'viewer-password-123' };

/** Cheap scrypt for tests; the parameters are stored per hash, so the server verifies them as usual. */
export const E2E_ENV = { ...process.env, FLAKEBOARD_SCRYPT_N: '1024', NO_COLOR: '1', FLAKEBOARD_DB: '' };

/** Runs the built binary to completion; throws with its output when it fails. */
export function runCli(args: string[], options: { input?: string } = {}): string {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, env: E2E_ENV, input: options.input ?? '', encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`flakeboard ${args.join(' ')} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The same, without blocking this process while the binary runs. */
export function runCliAsync(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, env: E2E_ENV, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`flakeboard ${args.join(' ')} failed (${error.code ?? error.signal}):\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

export interface RunningServer {
  url: string;
  dbPath: string;
  stop(): Promise<void>;
}

/** `flakeboard serve --port 0` on `dbPath`; resolves with the URL it prints. */
export function serve(dbPath: string, extraArgs: string[] = []): Promise<RunningServer> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', dbPath, ...extraArgs], { cwd: ROOT, env: E2E_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`flakeboard serve did not start in 30 s:\n${output}`)), 30_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /flakeboard is serving .* at (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1]!,
        dbPath,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          // A clean stop closes the database and exits 0; anything else is a server bug.
          const code = await exited;
          if (code !== 0) throw new Error(`flakeboard serve did not stop cleanly (exit ${code}):\n${output}`);
        },
      });
    });
    child.once('exit', (code) => fail(new Error(`flakeboard serve exited ${code} before listening:\n${output}`)));
  });
}
