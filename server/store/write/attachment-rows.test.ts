import { expect, it } from 'vitest';
import { describeEachEngine, freshDatabase } from '../../../fixtures/testing/engines.js';
import type { AttachmentEvidence } from '../../../core/report/normalised.js';
import { ingestValue } from '../../ingest.js';
import { recordBlob } from '../evidence/blob-rows.js';

const THERE = 'a'.repeat(64);
const GONE = 'b'.repeat(64);
const TESTS = 130;

/** Per attachment: what the import claims, and the row that must be stored for it. */
const CASES: Array<{ evidence: AttachmentEvidence; stored: [string | null, number | null, string] }> = [
  { evidence: { kind: 'screenshot', sha256: THERE, size: null, state: 'stored' }, stored: [THERE, 10, 'stored'] },
  { evidence: { kind: 'screenshot', sha256: null, size: null, state: 'not-found' }, stored: [null, null, 'not-found'] },
  { evidence: { kind: 'screenshot', sha256: GONE, size: null, state: 'stored' }, stored: [GONE, null, 'not-stored'] },
  { evidence: { kind: 'screenshot', sha256: null, size: 999, state: 'too-large' }, stored: [null, 999, 'too-large'] },
  { evidence: { kind: 'screenshot', sha256: null, size: null, state: 'not-stored' }, stored: [null, null, 'not-stored'] },
];

/** TESTS failing tests, each naming the cases' attachments in a rotated order (kinds mixed in every statement). */
function report() {
  const specs = Array.from({ length: TESTS }, (_, i) => ({
    title: `t${i}`,
    file: 'a.spec.ts',
    line: i + 1,
    column: 1,
    tests: [
      {
        projectName: 'chromium',
        expectedStatus: 'passed',
        status: 'unexpected',
        results: [{ status: 'failed', duration: 5, startTime: '2026-01-05T12:00:00.000Z', attachments: CASES.map((_, c) => ({ name: `n${i}-${c}`, contentType: 'image/png', path: `/gone/${i}-${c}.png` })) }],
      },
    ],
  }));
  return { config: { version: '1.50.0', projects: [{ name: 'chromium' }] }, suites: [{ title: 'a.spec.ts', file: 'a.spec.ts', specs }], errors: [] };
}

const caseOf = (test: number, ordinal: number) => CASES[(test + ordinal) % CASES.length]!;

describeEachEngine('attachment rows', (engine) => {
  const db = freshDatabase(engine);

  it('stores each row as claimed, a claimed blob checked against the stored ones, whatever the mix in a statement', async () => {
    const [store] = db.stores;
    await recordBlob(store!, { sha256: THERE, size: 10, content_type: 'image/png', stored_at: 0, failing: 0 });
    await ingestValue(store!, report(), {
      fileName: 'r.json',
      approve: true,
      fallbackStartedAt: 0,
      evidence: (test, seq) => {
        for (const attempt of test.attempts) attempt.evidence = attempt.attachments.map((_, ordinal) => caseOf(seq, ordinal).evidence);
      },
    });
    const rows = await store!.sql.all<{ name: string; content_type: string; kind: string; sha256: string | null; size: number | null; state: string }>(
      'SELECT name, content_type, kind, sha256, size, state FROM attachments ORDER BY result_id, retry, ordinal',
    );
    const expected = Array.from({ length: TESTS }, (_, i) =>
      CASES.map((_, c) => {
        const [sha256, size, state] = caseOf(i, c).stored;
        return { name: `n${i}-${c}`, content_type: 'image/png', kind: 'screenshot', sha256, size, state };
      }),
    ).flat();
    expect(rows.map((r) => ({ ...r, size: r.size === null ? null : Number(r.size) }))).toEqual(expected);
  });
});
