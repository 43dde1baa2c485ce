import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../fixtures/testing/cli.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

describe('the flakeboard binary on its own', () => {
  it('prints its help and succeeds when run with no command', async () => {
    const { exitCode, stdout } = await runCli([]);
    expect(exitCode).toBe(0);
    expect(stdout).toContain('Usage: flakeboard');
    expect(stdout).toContain('serve');
  });

  it.each([['-V'], ['--version'], ['-v']])('prints the package version for %s', async (flag) => {
    const { exitCode, stdout } = await runCli([flag]);
    expect(exitCode).toBe(0);
    expect(stdout.trim()).toBe(version);
  });

  it('still refuses an unknown command with a hint', async () => {
    const { exitCode, stderr } = await runCli(['frobnicate']);
    expect(exitCode).not.toBe(0);
    expect(stderr).toContain("unknown command 'frobnicate'");
  });
});
