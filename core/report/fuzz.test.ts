import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { reportLikeText } from '../../fixtures/testing/report-arbitrary.js';
import { canonicalHeader, canonicalTest } from './canonical.js';
import { normaliseReport, RunNormaliser } from './normalise.js';
import { InvalidReportError, parseReportText } from './parse.js';
import { readReportParts } from './read-report.js';

const seen = { accepted: 0, refused: 0 };

/** Runs `work`; anything thrown must be the parse error type (a refusal that names the problem). */
function onlyRefusals(work: () => void): void {
  try {
    work();
    seen.accepted++;
  } catch (error) {
    if (!(error instanceof InvalidReportError)) throw error;
    expect(error.message).toMatch(/^r\.json: ./);
    seen.refused++;
  }
}

// The generator must produce both kinds, or the property says little.
afterAll(() => {
  expect(seen.accepted).toBeGreaterThan(50);
  expect(seen.refused).toBeGreaterThan(50);
});

describe('fuzzed reports through core', () => {
  it('parse and normalise, held whole, never throw anything but InvalidReportError', () => {
    fc.assert(
      fc.property(reportLikeText, (text) => {
        onlyRefusals(() => {
          const run = normaliseReport(parseReportText(text, 'r.json'));
          for (const t of run.tests) canonicalTest(t);
        });
      }),
      { numRuns: 250 },
    );
  });

  it('read in parts, the same', () => {
    fc.assert(
      fc.property(reportLikeText, fc.integer({ min: 7, max: 5000 }), (text, size) => {
        const chunks = () => Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));
        onlyRefusals(() => {
          let normaliser: RunNormaliser | null = null;
          for (const part of readReportParts(chunks, 'r.json')) {
            if (part.kind === 'config') normaliser = new RunNormaliser(part.config);
            else if (part.kind === 'suite') for (const t of normaliser!.suiteTests(part.suite)) canonicalTest(t);
            else canonicalHeader(normaliser!.finish(part.errors, part.stats));
          }
        });
      }),
      { numRuns: 250 },
    );
  });
});
