import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { EVIDENCE_MISSING_MAX, isSha256, SHA256_PATTERN, type EvidenceMissingRequest, type EvidenceMissingResponse } from '../../core/api/evidence.js';
import { HttpError, notFound } from '../errors.js';
import type { AnyStore } from '../store/engine/types.js';
import type { EvidenceStore } from '../store/evidence/evidence-store.js';
import { findBlob, knownBlobs, recordBlob } from '../store/evidence/blob-rows.js';
import { EvidenceIntegrityError, EvidenceUnavailableError } from '../store/evidence/evidence-store.js';
import { parseRange } from './evidence-range.js';

/** Shown in the page: a blob's bytes are never a page of flakeboard, whatever they hold. */
const SANDBOX_CSP = "sandbox; default-src 'none'";
const FOREVER = 'private, max-age=31536000, immutable';

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
export function registerEvidenceRoutes(app: FastifyInstance, options: { store: AnyStore; evidence: EvidenceStore; maxBytes: number; now: () => number }): void {
  const { store, evidence } = options;
  registerEvidenceUpload(app, options);
  app.get<{ Params: { sha256: string }; Querystring: { download?: string; name?: string } }>(
    '/api/evidence/:sha256',
    {
      schema: {
        params: { type: 'object', required: ['sha256'], properties: { sha256: { type: 'string', maxLength: 64 } } },
        querystring: { type: 'object', properties: { download: { type: 'string', maxLength: 5 }, name: { type: 'string', maxLength: 500 } } },
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
      if (request.headers['if-none-match'] === etag) return reply.code(304).headers(headers).send();
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

const sha256Params = { type: 'object', required: ['sha256'], properties: { sha256: { type: 'string', pattern: SHA256_PATTERN } } } as const;

/**
 * The upload side, for `upload` and the reporter: bytes, never paths. The client asks which of
 * its blobs the server lacks (POST /api/evidence/missing), sends those (PUT
 * /api/evidence/{sha256}, checked against the hash and the announced length, under the size
 * limit), then uploads the run, whose attachments name their `sha256`. A blob cut off or not
 * matching its hash is not stored; a run that names a blob never sent records it as not stored.
 */
function registerEvidenceUpload(app: FastifyInstance, options: { store: AnyStore; evidence: EvidenceStore; maxBytes: number; now: () => number }): void {
  const { store, evidence, maxBytes, now } = options;
  app.post<{ Body: EvidenceMissingRequest }>(
    '/api/evidence/missing',
    {
      schema: {
        body: {
          type: 'object',
          required: ['sha256'],
          additionalProperties: false,
          properties: { sha256: { type: 'array', maxItems: EVIDENCE_MISSING_MAX, items: { type: 'string', pattern: SHA256_PATTERN } } },
        },
      },
      config: { auth: { access: 'member', apiToken: 'upload' } },
    },
    async (request): Promise<EvidenceMissingResponse & { maxBytes: number }> => {
      const asked = [...new Set(request.body.sha256)];
      const known = await knownBlobs(store, asked);
      return { missing: asked.filter((sha) => !known.has(sha)), maxBytes };
    },
  );

  // The body is the blob itself, of any type: streamed to the store, never parsed or held whole.
  app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    raw.put<{ Params: { sha256: string }; Body: Readable }>(
      '/api/evidence/:sha256',
      { schema: { params: sha256Params }, config: { auth: { access: 'member', apiToken: 'upload' } } },
      async (request, reply) => {
        const { sha256 } = request.params;
        const declared = request.headers['content-length'];
        const size = declared === undefined || !/^\d{1,15}$/.test(declared) ? NaN : Number(declared);
        if (!Number.isSafeInteger(size)) throw new HttpError(411, 'Send the blob with its Content-Length');
        if (size > maxBytes) throw new HttpError(413, `The blob is ${size} bytes, over this server's evidence limit of ${maxBytes}: nothing was stored`);
        const stored = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        const contentType = MEDIA_TYPE.test(stored) ? stored : 'application/octet-stream';
        const body = request.body ?? (request.raw as unknown as Readable);
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
