import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emitCanonicalContent } from './canonical.js';
import { normaliseReport } from './normalise.js';
import type { PwReport } from './playwright-types.js';

const hash = (report: PwReport) => {
  const h = createHash('sha256');
  emitCanonicalContent(normaliseReport(report), (text) => h.update(text));
  return h.digest('hex');
};

const report = (duration: number, extraConfig: Record<string, unknown> = {}): PwReport => ({
  config: { projects: [{ name: 'chromium' }], ...extraConfig },
  suites: [{ title: 'a', file: 'a.spec.ts', specs: [{ title: 't', file: 'a.spec.ts', line: 1, column: 1, tests: [{ projectName: 'chromium', expectedStatus: 'passed', results: [{ status: 'passed', retry: 0, duration, startTime: '2026-01-01T00:00:00.000Z' }] }] }] }],
  errors: [],
});

describe('canonical content', () => {
  it('is the same for the same results, whatever the key order or config noise', () => {
    const reordered = JSON.parse(JSON.stringify(report(5), ['errors', 'suites', 'config', 'projects', 'name', 'title', 'file', 'specs', 'line', 'column', 'tests', 'projectName', 'expectedStatus', 'results', 'status', 'retry', 'duration', 'startTime'].reverse())) as PwReport;
    expect(hash(reordered)).toBe(hash(report(5)));
    expect(hash(report(5, { workers: 4 }))).toBe(hash(report(5)));
  });

  it('differs when any attempt differs', () => {
    expect(hash(report(6))).not.toBe(hash(report(5)));
  });
});
