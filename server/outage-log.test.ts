import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { OutageLog } from './outage-log.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger that keeps each line's level and text. */
function recorder(): { log: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (message: unknown) => void lines.push(`${level} ${String(message)}`);
  const log = { warn: at('warn'), info: at('info'), error: at('error') } as unknown as FastifyBaseLogger;
  return { log, lines };
}

describe('the outage log', () => {
  it('one line when it starts, a summary per period while requests fail, one line when they have stopped failing', async () => {
    const { log, lines } = recorder();
    const outages = new OutageLog(log, null, { summaryEveryMs: 300, quietMs: 300, tickMs: 50 });
    try {
      for (let i = 0; i < 50; i++) outages.failed(Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:5432\n    at a stack line ${i}`), { code: 'ECONNREFUSED' }));
      expect(lines).toEqual(['warn the database is unavailable (connect ECONNREFUSED 127.0.0.1:5432): answering 503 until it is back']);
      // Still failing past one summary period.
      for (let i = 0; i < 6; i++) {
        await sleep(60);
        outages.failed(new Error('Connection terminated unexpectedly'));
      }
      expect(outages.active).toBe(true);
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines[1]).toMatch(/^warn the database is still unavailable \(for 0\.\d s\): \d+ request\(s\) answered 503 in the last 0\.\d s, \d+ in all; last: Connection terminated unexpectedly$/);
      await sleep(600);
      expect(outages.active).toBe(false);
      // A summary per period that had failures (one or two here), then the end.
      expect(lines.length).toBeLessThanOrEqual(4);
      for (const line of lines.slice(1, -1)) expect(line).toMatch(/^warn the database is still unavailable/);
      expect(lines.at(-1)).toMatch(/^info the database is available again after \d\.\d s: 56 request\(s\) answered 503 meanwhile$/);
      // No line carries a stack.
      expect(lines.join('\n')).not.toContain('at a stack line');
    } finally {
      outages.close();
    }
  });
});
