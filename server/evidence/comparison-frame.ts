import { isFrameName } from '../../core/trace/summary.js';
import { HttpError, notFound } from '../errors.js';
import type { AnyStore } from '../store/engine/types.js';
import type { EvidenceStore } from '../store/evidence/evidence-store.js';
import { attemptPair } from '../store/read/attempt-partner.js';
import { bytesOf } from './compare-attempts.js';
import { compareWorker } from './compare-runner.js';

/** One frame is one JPEG: far less than this, and nothing larger is expanded. */
const FRAME_CAPS = { maxExpandedBytes: 8 * 1024 * 1024, maxEntries: 20_000 };

/**
 * The image of a screencast frame in the trace of one side of a comparison: the same pair the
 * comparison chose, the side's trace read under the comparison's cap, only the named entry
 * expanded (in the comparison's worker, taking turns with the comparisons), and only when it is a JPEG.
 */
export async function comparisonFrame(store: AnyStore, evidence: EvidenceStore, query: { resultId: number; retry: number | null; side: 'failing' | 'passing'; name: string }, caller: string): Promise<Uint8Array> {
  if (!isFrameName(query.name)) throw new HttpError(400, 'name must be a screencast frame of the trace, as the comparison gave it');
  const pair = await attemptPair(store, query.resultId, query.retry);
  if (pair.found === 'no-result') throw notFound('Result');
  if (pair.found === 'no-failed-attempt') throw new HttpError(404, `Result ${query.resultId} has no failed attempt to compare`);
  const attempt = query.side === 'failing' ? pair.failing : pair.passing;
  if (!attempt) throw new HttpError(404, `Result ${query.resultId} has no passing attempt to compare with`);
  const { bytes, note } = await bytesOf(evidence, attempt);
  if (!bytes) throw new HttpError(404, note ?? `The ${query.side} attempt kept no trace`);
  const read = await compareWorker.entry(caller, bytes, query.name, FRAME_CAPS);
  if ('refused' in read) throw new HttpError(422, `The trace of the ${query.side} attempt was not read: ${read.refused}`);
  const image = read.bytes;
  if (!image) throw new HttpError(404, `The trace of the ${query.side} attempt has no frame ${query.name}`);
  // A JPEG starts FF D8 FF: anything else is not served as an image, whatever its name says.
  if (!(image[0] === 0xff && image[1] === 0xd8 && image[2] === 0xff)) throw new HttpError(422, `${query.name} in the trace is not a JPEG image`);
  return image;
}
