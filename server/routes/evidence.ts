import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Readable } from 'node:stream';
import { isSha256 } from '../../core/api/attachments.js';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import * as s from '../../core/api/schemas/evidence.js';
import { HttpError, notFound } from '../errors.js';
import type { AnyStore } from '../store/engine/types.js';
import type { EvidenceStore } from '../store/evidence/evidence-store.js';
import { findBlob, knownBlobs, recordBlob } from '../store/evidence/blob-rows.js';
import { EvidenceIntegrityError, EvidenceUnavailableError } from '../store/evidence/evidence-store.js';
import { parseRange } from './evidence-range.js';

/** Shown in the page: a blob's bytes are never a page of flakeboard, whatever they hold. */
const SANDBOX_CSP = "sandbox; default-src 'none'";
const FOREVER = 'private, max-age=31536000, immutable';
const tags = ['Failure evidence'];

// `type/subtype` of the plain characters a media type has; anything else is sent as bytes.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

// The pictures and films browsers only ever draw as such. Not SVG, nor any type ending +xml (a
// browser may treat those as an XML document, SVG and all), nor a type it does not know.
const INLINE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'video/webm', 'video/mp4', 'video/ogg']);

/** Shown in the browser (an <img>, a <video>); anything else is a download. */
export function isInline(contentType: string): boolean {
  return INLINE_TYPES.has(contentType);
}

const EXTENSIONS: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'video/webm': '.webm',
  'video/mp4': '.mp4',
  'application/zip': '.zip',
  'text/markdown': '.md',
  'text/plain': '.txt',
  'application/json': '.json',
  'text/html': '.html',
};

/** A download name of safe characters only: the attachment's name, if given, else the hash's head. */
export function downloadName(requested: string | undefined, sha256: string, contentType: string): string {
  const cleaned = (requested ?? '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 100);
  const base = cleaned || `evidence-${sha256.slice(0, 12)}`;
  const ext = EXTENSIONS[contentType];
  return ext && !base.toLowerCase().endsWith(ext) ? `${base}${ext}` : base;
}

/**
 * GET /api/evidence/{sha256}: a stored blob, to members only (a session, or a token that may
 * read). Sent as its stored content type, never sniffed, under a sandboxing policy; images and
 * videos inline (with Range requests, so a video seeks), the rest as a download. The bytes are
 * streamed from the store, never held whole.
 */
export function registerEvidenceRoutes(fastify: FastifyInstance, options: { store: AnyStore; evidence: EvidenceStore; maxBytes: number; now: () => number }): void {
  const { store, evidence } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  registerEvidenceUpload(fastify, options);
  app.get(
    '/api/evidence/:sha256',
    {
      schema: {
        summary: 'A stored blob: a screenshot, video, trace or error context',
        tags,
        params: s.blobParams,
        querystring: s.blobQuery,
        response: {
          200: s.binaryAnswer('The blob, under its stored content type: images and videos inline, the rest as a download. Range requests are answered', s.BLOB_CONTENT_TYPES),
          206: s.binaryAnswer('The range asked for (Range: bytes=...)', s.BLOB_CONTENT_TYPES),
          304: s.noBody('Not modified: If-None-Match named this blob (its ETag is its hash)'),
          400: errorAnswer,
          404: errorAnswer,
          416: s.binaryAnswer('The range is past the end: Content-Range names the size', ['text/plain']),
        },
      },
      config: { auth: { access: 'member', apiToken: 'read' } },
    },
    async (request, reply) => {
      const { sha256 } = request.params;
      if (!isSha256(sha256)) throw new HttpError(400, 'The evidence id must be a SHA-256: 64 lowercase hex digits');
      const row = await findBlob(store, sha256);
      if (!row) throw notFound('Evidence');
      const stored = row.content_type.toLowerCase();
      const contentType = MEDIA_TYPE.test(stored) ? stored : 'application/octet-stream';
      const download = request.query.download === '1' || request.query.download === 'true' || !isInline(contentType);
      const etag = `"${sha256}"`;
      const headers = {
        'content-type': contentType,
        'x-content-type-options': 'nosniff',
        'content-security-policy': SANDBOX_CSP,
        'cache-control': FOREVER,
        etag,
        'accept-ranges': 'bytes',
        'content-disposition': download ? `attachment; filename="${downloadName(request.query.name, sha256, contentType)}"` : 'inline',
      };
      if (request.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send(undefined);
      const size = await evidence.size(sha256);
      if (size === null) throw notFound('Evidence');
      const range = parseRange(request.headers.range, size);
      if (range === 'unsatisfiable') {
        return reply.code(416).headers({ ...headers, 'content-type': 'text/plain', 'content-range': `bytes */${size}` }).send('');
      }
      const blob = await evidence.get(sha256, range ?? undefined);
      if (!blob) throw notFound('Evidence');
      if (range) {
        return reply
          .code(206)
          .headers({ ...headers, 'content-range': `bytes ${range.start}-${range.end}/${blob.size}`, 'content-length': String(range.end - range.start + 1) })
          .send(blob.stream);
      }
      return reply.headers({ ...headers, 'content-length': String(blob.size) }).send(blob.stream);
    },
  );
}

/**
 * The upload side, for `upload` and the reporter: bytes, never paths. The client asks which of
 * its blobs the server lacks (POST /api/evidence/missing), sends those (PUT
 * /api/evidence/{sha256}, checked against the hash and the announced length, under the size
 * limit), then uploads the run, whose attachments name their `sha256`. A blob cut off or not
 * matching its hash is not stored; a run that names a blob never sent records it as not stored.
 */
function registerEvidenceUpload(fastify: FastifyInstance, options: { store: AnyStore; evidence: EvidenceStore; maxBytes: number; now: () => number }): void {
  const { store, evidence, maxBytes, now } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post(
    '/api/evidence/missing',
    {
      schema: { summary: 'Which of these blobs the server lacks', tags, body: s.evidenceMissingRequest, response: { 200: s.evidenceMissingResponse, 400: errorAnswer } },
      config: { auth: { access: 'member', apiToken: 'upload' } },
    },
    async (request) => {
      const asked = [...new Set(request.body.sha256)];
      const known = await knownBlobs(store, asked);
      return { missing: asked.filter((sha) => !known.has(sha)), maxBytes };
    },
  );

  // The body is the blob itself, of any type: streamed to the store, never parsed or held whole.
  app.register(async (scope) => {
    const raw = scope.withTypeProvider<ZodTypeProvider>();
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    raw.put(
      '/api/evidence/:sha256',
      {
        schema: {
          summary: 'Store a blob, checked against its hash',
          tags,
          params: s.uploadBlobParams,
          rawBody: { contentType: 'application/octet-stream', description: "The blob's bytes, under its own Content-Type (any), with its Content-Length. Streamed to the store, never parsed." },
          response: {
            201: s.uploadBlobResponse,
            400: errorAnswer.describe('The bytes do not match the hash, or ended before the Content-Length: nothing was stored'),
            411: errorAnswer,
            413: errorAnswer,
            503: errorAnswer.describe('The evidence store cannot be reached: nothing was stored'),
          },
        },
        config: { auth: { access: 'member', apiToken: 'upload' } },
      },
      async (request, reply) => {
        const { sha256 } = request.params;
        const declared = request.headers['content-length'];
        const size = declared === undefined || !/^\d{1,15}$/.test(declared) ? NaN : Number(declared);
        if (!Number.isSafeInteger(size)) throw new HttpError(411, 'Send the blob with its Content-Length');
        if (size > maxBytes) throw new HttpError(413, `The blob is ${size} bytes, over this server's evidence limit of ${maxBytes}: nothing was stored`);
        const stored = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        const contentType = MEDIA_TYPE.test(stored) ? stored : 'application/octet-stream';
        const body = (request.body as Readable | undefined) ?? (request.raw as unknown as Readable);
        try {
          await evidence.put(sha256, body, size);
        } catch (error) {
          if (error instanceof EvidenceIntegrityError || error instanceof EvidenceUnavailableError) throw error;
          // The client went away mid-blob: the store kept nothing of it.
          if (request.raw.destroyed || (error as NodeJS.ErrnoException).code === 'ECONNRESET' || (error as Error).message === 'aborted') {
            throw new HttpError(400, 'The blob ended before its Content-Length: nothing was stored');
          }
          throw error;
        }
        await recordBlob(store, { sha256, size, content_type: contentType, stored_at: now(), failing: 0 });
        return reply.code(201).send({ sha256, size });
      },
    );
  });
}
