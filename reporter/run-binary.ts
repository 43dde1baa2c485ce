import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// Built beside dist/cli.js, so the package's own binary is one folder up.
export const BIN = fileURLToPath(new URL('../bin/flakeboard.js', import.meta.url));

export interface BinaryAnswer {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the `flakeboard` binary in a child process, killed when `timeoutMs` passes (then it
 * rejects with "gave up after N s"): nothing it does can throw into or hold up the test run.
 */
export function runBinary(args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<BinaryAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gave up after ${Math.round(timeoutMs / 1000)} s`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The last line the binary wrote to stderr, without its `flakeboard:` (or `flakeboard COMMAND:`) prefix. */
export function lastLine(text: string): string | null {
  const lines = text.trim().split('\n').filter(Boolean);
  return lines.length > 0 ? lines[lines.length - 1]!.replace(/^flakeboard( [a-z-]+)?:\s*/, '') : null;
}
