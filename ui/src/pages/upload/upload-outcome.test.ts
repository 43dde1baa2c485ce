import { describe, expect, it } from 'vitest';
import { summariseOutcomes } from './upload-outcome.js';

describe('summariseOutcomes', () => {
  it('counts successes and failures and sums the tests the server stored', () => {
    expect(
      summariseOutcomes([
        { key: 'a', fileName: 'a.json', ok: true, runId: 1, testsProcessed: 19, duplicate: false, status: 'pending' },
        { key: 'b', fileName: 'b.json', ok: false, error: 'Invalid JSON in b.json: boom' },
        { key: 'c', fileName: 'c.json', ok: true, runId: 2, testsProcessed: 10, duplicate: true, status: 'pending' },
      ]),
    ).toEqual({ successful: 2, failed: 1, testsImported: 29 });
    expect(summariseOutcomes([])).toEqual({ successful: 0, failed: 0, testsImported: 0 });
  });
});
