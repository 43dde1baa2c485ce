import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorAnswer } from '../../core/api/schemas/errors.js';
import { binaryAnswer, signedTraceQuery, traceLinkParams, traceLinkResponse } from '../../core/api/schemas/evidence.js';
import type { TraceLinkResponse } from '../../core/api/trace-link.js';
import { ZipRefused } from '../../core/trace/capped-zip.js';
import { compareVersions, summariseTrace } from '../../core/trace/summary.js';
import { HttpError, notFound } from '../errors.js';
import { checkTraceLink, signedTracePath, signTraceLink } from '../evidence/trace-link.js';
import { TRACE_VIEWER_PATH, type TraceViewer } from '../plugins/trace-viewer.js';

/** Reads a stored blob by its SHA-256 (the evidence store). */
export interface EvidenceBlobs {
  get(sha256: string): Promise<{ stream: Readable; size: number } | null>;
}

export interface TraceLinkOptions {
  blobs: EvidenceBlobs;
  viewer: TraceViewer | null;
  /** A secret of the database: every server sharing it signs and checks the same links. */
  secret: string;
  now: () => number;
}

const SHA256 = /^[0-9a-f]{64}$/;
// A trace is read whole to find its version: larger than any trace an attachment limit lets in.
const MAX_TRACE_BYTES = 1024 * 1024 * 1024;

/**
 * A member asks for a link to one trace; the viewer's service worker fetches the trace with it,
 * without a session (it cannot send the header), for a few minutes.
 */
export function registerTraceLinkRoutes(fastify: FastifyInstance, options: TraceLinkOptions): void {
  const { blobs, viewer, secret, now } = options;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Failure evidence'];

  app.post(
    '/api/evidence/:sha256/trace-link',
    {
      schema: {
        summary: "A short-lived link that opens a trace in the server's trace viewer",
        tags,
        params: traceLinkParams,
        response: {
          200: traceLinkResponse,
          400: errorAnswer,
          404: errorAnswer,
          422: errorAnswer.describe('The trace cannot be opened here (no zip, expanding beyond its cap, or over 1 GB): download it instead'),
          503: errorAnswer.describe("Playwright's trace viewer is not installed with this server"),
        },
      },
      config: { auth: { access: 'member', apiToken: 'read' } },
    },
    async (request): Promise<TraceLinkResponse> => {
      const sha256 = checkedSha(request.params.sha256);
      if (!viewer) throw new HttpError(503, "Playwright's trace viewer is not installed with this server: download the trace and open it with `npx playwright show-trace`");
      const blob = await blobs.get(sha256);
      if (!blob) throw notFound('Evidence');
      const zip = await readWhole(blob.stream, blob.size);
      let tracePlaywrightVersion: string | null;
      try {
        tracePlaywrightVersion = summariseTrace(zip).playwrightVersion;
      } catch (error) {
        if (error instanceof ZipRefused) throw new HttpError(422, `This trace cannot be opened: ${error.message}`);
        throw error;
      }
      const link = signTraceLink(secret, sha256, now());
      return {
        url: `${TRACE_VIEWER_PATH}index.html?trace=${encodeURIComponent(signedTracePath(link))}`,
        expiresAt: new Date(link.expires).toISOString(),
        tracePlaywrightVersion,
        viewerPlaywrightVersion: viewer.playwrightVersion,
        newerThanViewer: tracePlaywrightVersion !== null && compareVersions(minor(tracePlaywrightVersion), minor(viewer.playwrightVersion)) > 0,
      };
    },
  );

  // Public by route, closed by the signature: only a link made above opens its one trace.
  app.get(
    '/api/evidence/:sha256/trace.zip',
    {
      schema: {
        summary: 'The trace a signed link names, for the viewer (no session: the signature is the key)',
        tags,
        params: traceLinkParams,
        querystring: signedTraceQuery,
        response: { 200: binaryAnswer('The trace, as a download', ['application/zip']), 400: errorAnswer, 403: errorAnswer.describe('The link is expired or its signature is wrong'), 404: errorAnswer },
      },
      config: { auth: { access: 'public' } },
    },
    async (request, reply) => {
      const sha256 = checkedSha(request.params.sha256);
      const refusal = checkTraceLink(secret, { sha256, expires: request.query.expires, signature: request.query.signature }, now());
      if (refusal) throw new HttpError(403, refusal);
      const blob = await blobs.get(sha256);
      if (!blob) throw notFound('Evidence');
      // Content from a report: never run, never sniffed, downloaded if opened directly.
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      reply.header('content-disposition', 'attachment; filename="trace.zip"');
      reply.header('content-length', String(blob.size));
      return reply.type('application/zip').send(blob.stream);
    },
  );
}

function checkedSha(value: string): string {
  if (!SHA256.test(value)) throw new HttpError(400, 'Evidence is named by its SHA-256: 64 lowercase hexadecimal characters');
  return value;
}

/** Patch releases share the trace format: only a newer major or minor release is "newer". */
function minor(version: string): string {
  return version.split('.').slice(0, 2).join('.');
}

async function readWhole(stream: Readable, size: number): Promise<Uint8Array> {
  if (size > MAX_TRACE_BYTES) {
    stream.destroy();
    throw new HttpError(422, 'This trace is larger than 1 GB: download it and open it with `npx playwright show-trace`');
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
