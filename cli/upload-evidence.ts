import { type EvidenceEntry, type EvidenceMissingResponse } from '../core/api/evidence.js';
import { EVIDENCE_MISSING_MAX } from '../core/api/attachments.js';
import { collectImportEvidence, type AttachmentsMode, type CollectSummary } from '../server/evidence/collect-import.js';
import { entriesOf } from '../server/evidence/entries.js';
import { refuseRedirect } from './server-client.js';

interface Pending {
  size: number;
  contentType: string;
  open: () => NodeJS.ReadableStream | Uint8Array;
}

export interface SendEvidenceOptions {
  server: string;
  token: string;
  mode: AttachmentsMode;
  maxBytes: number;
  onSkip: (line: string) => void;
}

const apiUrl = (server: string, path: string) => new URL(path, server.endsWith('/') ? server : `${server}/`);

/**
 * The evidence of a report for `upload`: the attachments are found and hashed as `import` finds
 * them (under the report's folders only), the server is asked which blobs it lacks, and only
 * those are sent, as bytes. Returns the entries for the upload's metadata; a blob the server
 * refused is marked not stored (and the server would mark it so anyway).
 */
export async function sendEvidence(file: string, options: SendEvidenceOptions): Promise<{ entries: EvidenceEntry[]; summary: CollectSummary }> {
  const pending = new Map<string, Pending>();
  const collected = await collectImportEvidence(file, file, {
    mode: options.mode,
    maxBytes: options.maxBytes,
    onSkip: options.onSkip,
    keep: async (sha256, size, contentType, _failing, open) => {
      if (!pending.has(sha256)) pending.set(sha256, { size, contentType, open });
      return 'there';
    },
  });
  const failed = new Set<string>();
  const hashes = [...pending.keys()];
  const headers = { authorization: `Bearer ${options.token}`, accept: 'application/json' };
  for (let i = 0; i < hashes.length; i += EVIDENCE_MISSING_MAX) {
    const url = apiUrl(options.server, 'api/evidence/missing');
    const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ sha256: hashes.slice(i, i + EVIDENCE_MISSING_MAX) }), redirect: 'manual' });
    refuseRedirect(response, url);
    if (!response.ok) throw new Error(`the server did not say which evidence it lacks (${response.status}): ${(await response.text()).slice(0, 200)}`);
    for (const sha256 of ((await response.json()) as EvidenceMissingResponse).missing) {
      const blob = pending.get(sha256);
      if (!blob) continue;
      const problem = await putBlob(options, sha256, blob);
      if (problem === null) {
        collected.summary.written++;
        collected.summary.bytesWritten += blob.size;
      } else {
        failed.add(sha256);
        options.onSkip(`evidence: a blob of ${blob.size} bytes (${blob.contentType}) was not sent: ${problem}`);
      }
    }
  }
  const entries = entriesOf(collected.bySeq).map((entry): EvidenceEntry => (entry[4] !== null && failed.has(entry[4]) ? [entry[0], entry[1], entry[2], entry[3], null, entry[5], 'not-stored'] : entry));
  return { entries, summary: collected.summary };
}

/** PUT /api/evidence/{sha256}, once more after a 503; null when stored, else why not. */
async function putBlob(options: SendEvidenceOptions, sha256: string, blob: Pending): Promise<string | null> {
  const url = apiUrl(options.server, `api/evidence/${sha256}`);
  let problem = '';
  for (let attempt = 0; attempt < 2; attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 1000));
    try {
      const response = await fetch(url, {
        method: 'PUT',
        headers: { authorization: `Bearer ${options.token}`, 'content-type': blob.contentType, 'content-length': String(blob.size) },
        body: blob.open() as unknown as BodyInit,
        duplex: 'half',
        redirect: 'manual',
      } as RequestInit);
      refuseRedirect(response, url);
      if (response.ok) return null;
      problem = `the server answered ${response.status}: ${(await response.text()).slice(0, 200)}`;
      if (response.status !== 503) return problem;
    } catch (error) {
      problem = (error as Error).message;
    }
  }
  return problem;
}
