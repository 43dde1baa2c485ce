import type { FastifyReply } from 'fastify';

/**
 * Answers kept as text (the analytics cache, the polled lists) are the same string for every
 * caller until the data changes. Sent as a string, Node joins the response's head to it and V8
 * then copies the joined text whole onto the heap for every request: the largest part of what a
 * loaded server's thread allocated (docs/benchmarks.md, "Where a slow health answer waits"). Sent
 * as bytes, the head goes out on its own and nothing is copied; so the bytes of the latest large
 * answers are kept, by their text, bounded in count and size.
 */
const KEPT_ANSWERS = 64;
const KEPT_BYTES = 8 * 1024 * 1024;
/** Below this a copy costs less than keeping it. */
const SMALL = 2048;

const bytesOf = new Map<string, Buffer>();
let keptBytes = 0;

function bodyOf(json: string): string | Buffer {
  if (json.length < SMALL) return json;
  const kept = bytesOf.get(json);
  if (kept) return kept;
  const bytes = Buffer.from(json);
  if (bytes.length > KEPT_BYTES / 4) return bytes;
  while (bytesOf.size >= KEPT_ANSWERS || keptBytes + bytes.length > KEPT_BYTES) {
    const [oldest, oldBytes] = bytesOf.entries().next().value!;
    bytesOf.delete(oldest);
    keptBytes -= oldBytes.length;
  }
  bytesOf.set(json, bytes);
  keptBytes += bytes.length;
  return bytes;
}

/** Sends a JSON answer that is already text. */
export function sendJsonText(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(bodyOf(json));
}
