import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from '../fixtures/testing/cli.js';
import { writeGateReport } from '../fixtures/testing/gate-reports.js';
import { makeTempDir } from '../fixtures/testing/temp.js';

// A title that, printed raw, would set the clipboard (OSC 52), clear the screen, start a line a
// CI reads as a command, and show reversed; every command prints it inert.
const HOSTILE = 'pays\u001b]52;c;ZWNobyBwd25lZA==\u0007 \u001b[2J\u001b[H\r::error::forged \u202egnp.exe';
const ACTING = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

let temp: ReturnType<typeof makeTempDir>;
let db: string;
const env = () => cleanEnv({ FLAKEBOARD_SCRYPT_N: '1024' });

beforeAll(async () => {
  temp = makeTempDir('flakeboard-terminal-');
  db = join(temp.dir, 'f.db');
  for (let i = 0; i < 3; i++) {
    const file = writeGateReport(temp.dir, `main-${i}.json`, { [HOSTILE]: 'passed', total: 'passed' }, new Date(Date.now() - (5 - i) * 86_400_000).toISOString());
    expect((await runCli(['import', file, '--db', db, '--branch', 'main', '--approve'], { env: env() })).exitCode).toBe(0);
  }
  const q = await runCli(['quarantine', 'add', HOSTILE, '--reason', `reason ${HOSTILE}`, '--owner', `rita\u001b[8m`, '--db', db], { env: env() });
  expect(q.exitCode, q.stderr).toBe(0);
  expect(q.stdout).not.toMatch(ACTING);
}, 120_000);

afterAll(() => temp.cleanup());

describe('what commands print of report and user text', () => {
  it('quarantine list shows the entry with nothing in it that acts, as a table and as JSON', async () => {
    const table = await runCli(['quarantine', 'list', '--db', db], { env: env() });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toContain('pays ]52;c;ZWNobyBwd25lZA==');
    expect(table.stdout).toContain('gnp.exe');
    expect(table.stdout).not.toMatch(ACTING);
    const json = await runCli(['quarantine', 'list', '--json', '--db', db], { env: env() });
    expect(json.stdout).not.toMatch(ACTING);
    // The same entry, exactly, for a program that reads it.
    expect(JSON.parse(json.stdout)[0].title).toBe(HOSTILE);
  });

  it('quarantine export keeps its meaning: the grep pattern still matches the title', async () => {
    const grep = await runCli(['quarantine', 'export', '--format', 'grep', '--db', db], { env: env() });
    expect(grep.exitCode, grep.stderr).toBe(0);
    expect(grep.stdout.trimEnd()).not.toMatch(ACTING);
    const pattern = new RegExp(grep.stdout.trimEnd());
    expect(pattern.test(`chromium checkout.spec.ts ${HOSTILE}`)).toBe(true);
    expect(pattern.test('chromium checkout.spec.ts total')).toBe(false);
    const json = await runCli(['quarantine', 'export', '--db', db], { env: env() });
    expect(json.stdout).not.toMatch(ACTING);
    expect(JSON.parse(json.stdout).tests[0].title).toBe(HOSTILE);
  });

  it('check prints a failing hostile title as one inert line, in text and JSON', async () => {
    const file = writeGateReport(temp.dir, 'pr.json', { [HOSTILE]: 'failed', total: 'passed' }, new Date().toISOString());
    const text = await runCli(['check', file, '--db', db], { env: env() });
    expect(text.stdout).toContain('gnp.exe');
    expect(text.stdout).not.toMatch(ACTING);
    const json = await runCli(['check', file, '--db', db, '--json'], { env: env() });
    expect(json.stdout).not.toMatch(ACTING);
    expect(JSON.parse(json.stdout).failures[0].title).toBe(HOSTILE);
  });

  it('an error that quotes the user’s input is inert too', async () => {
    const missing = await runCli(['quarantine', 'remove', `7\u001b[2J`, '--db', db], { env: env() });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('no quarantine entry 7 [2J in force');
    expect(missing.stderr).not.toMatch(ACTING);
  });
});
