import type { EvidenceEntry } from '../../core/api/evidence.js';
import type { AttachmentEvidence, NormalisedTest } from '../../core/report/normalised.js';

/** Sets each test's evidence before it is stored: the tests come in the order the collector saw them. */
export type EvidenceResolver = (test: NormalisedTest, seq: number) => void;

export type EvidenceBySeq = Map<number, Array<Array<AttachmentEvidence | null>>>;

/** The collected evidence as an upload's metadata carries it. */
export function entriesOf(bySeq: EvidenceBySeq): EvidenceEntry[] {
  const entries: EvidenceEntry[] = [];
  for (const [seq, attempts] of bySeq) {
    attempts.forEach((list, retry) =>
      list.forEach((e, ordinal) => {
        if (e) entries.push([seq, retry, ordinal, e.kind, e.sha256, e.size, e.state]);
      }),
    );
  }
  return entries;
}

/** The resolver of an upload's evidence entries (checked by the upload's parser); an entry past a test's attachments is ignored. */
export function resolverOfEntries(entries: readonly EvidenceEntry[]): EvidenceResolver {
  const bySeq: EvidenceBySeq = new Map();
  for (const [seq, retry, ordinal, kind, sha256, size, state] of entries) {
    let attempts = bySeq.get(seq);
    if (!attempts) bySeq.set(seq, (attempts = []));
    const list = (attempts[retry] ??= []);
    list[ordinal] = { kind, sha256, size, state };
  }
  return resolverOf(bySeq);
}

export function resolverOf(bySeq: EvidenceBySeq): EvidenceResolver {
  return (test, seq) => {
    const attempts = bySeq.get(seq);
    if (!attempts) return;
    test.attempts.forEach((attempt, i) => {
      const list = attempts[i];
      if (!list) return;
      // Only as many as the attempt has: a hostile entry cannot add an attachment.
      attempt.evidence = attempt.attachments.map((_, ordinal) => list[ordinal] ?? null);
    });
  };
}
