import secureJson from 'secure-json-parse';
import type { UploadMetadata } from '../core/api/uploads.js';
import { EVIDENCE_ENTRIES_MAX, evidenceEntryProblem } from '../core/api/evidence.js';
import { buildIdProblem, buildUrlProblem } from '../core/ci-env.js';
import { decodeReportBytes } from '../core/report/decode.js';
import { checkReport, describeJsonError } from '../core/report/parse.js';
import type { PwReport } from '../core/report/playwright-types.js';
import { HttpError } from './errors.js';
import { isOwnerName } from '../core/owners/codeowners.js';
import { MAX_OWNERS_PER_TEST, type FileOwners } from '../core/owners/test-owners.js';
import { jsonErrorOffset, lineAndColumn } from './json-position.js';

/** The charsets a JSON body may name; anything else is refused by name (415). */
const CHARSETS: Record<string, 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-16'> = {
  'utf-8': 'utf-8',
  utf8: 'utf-8',
  'us-ascii': 'utf-8',
  'utf-16': 'utf-16',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
};

/** The charset of a Content-Type header, checked: null when none is given. */
export function bodyCharset(contentType: string | undefined): 'utf-8' | 'utf-16le' | 'utf-16be' | 'utf-16' | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(contentType ?? '');
  if (!match) return null;
  const charset = CHARSETS[match[1]!.toLowerCase()];
  if (!charset) throw new HttpError(415, `Unsupported charset ${JSON.stringify(match[1])}: send the JSON as UTF-8 or UTF-16`);
  return charset;
}

const decodeUtf8 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');

/**
 * Body text by its declared charset; without one (or "utf-16", which says no byte order),
 * core's decoder recognises a BOM and BOM-less UTF-16 as it does for files.
 */
export function decodeBody(bytes: Uint8Array, charset: ReturnType<typeof bodyCharset>): string {
  if (charset === 'utf-16le' || charset === 'utf-16be') {
    const bom = charset === 'utf-16le' ? [0xff, 0xfe] : [0xfe, 0xff];
    const start = bytes[0] === bom[0] && bytes[1] === bom[1] ? 2 : 0;
    return new TextDecoder(charset).decode(bytes.subarray(start));
  }
  return decodeReportBytes(bytes, decodeUtf8);
}

/**
 * Parses a JSON body: the error says where the JSON breaks (line and column), and keys that
 * would poison prototypes are refused by name (secure-json-parse scans only when the text
 * mentions __proto__ or constructor).
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw new HttpError(400, 'The request body is empty: send a JSON object');
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (/forbidden (prototype|constructor) property/i.test((error as Error).message)) {
      throw new HttpError(400, 'Invalid JSON: the body contains a forbidden __proto__ or constructor key');
    }
    throw new HttpError(400, `Invalid JSON: ${describeWithPosition(error, text)}`);
  }
}

/** core's description, with the line and column added where V8's message carries no position. */
function describeWithPosition(error: unknown, text: string): string {
  const described = describeJsonError(error, text);
  if (/ at line \d/.test(described)) return described;
  const offset = jsonErrorOffset(text);
  if (offset === null) return described;
  if (offset >= text.trimEnd().length) return `the body ends before the JSON is complete (truncated?) at line ${lineAndColumn(text, text.length).line}`;
  const { line, column } = lineAndColumn(text, offset);
  return `${described} at line ${line}, column ${column}`;
}

export interface UploadBody {
  report: PwReport;
  metadata: UploadMetadata;
  fileName: string;
}

const METADATA_STRINGS = ['project', 'gitCommit', 'gitBranch', 'buildId', 'buildUrl', 'browser', 'fileName', 'runName', 'uploadTime'] as const;

/**
 * POST /api/upload's body, { testResults, metadata } (docs/api.md#uploads-and-review), from its bytes. Runs
 * in the writer worker: parsing tens of megabytes would hold the server's thread for seconds.
 * The checks and their wording are those of the JSON schema the route had. `beforeParse` sees
 * the text first (the writer refuses one too costly to parse).
 */
export function parseUploadBody(bytes: Uint8Array, charset: ReturnType<typeof bodyCharset>, beforeParse?: (text: string) => void): UploadBody {
  const text = decodeBody(bytes, charset);
  beforeParse?.(text);
  const body = parseJsonBody(text);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('body must be object');
  if (!('testResults' in body)) throw invalid("body must have required property 'testResults'");
  const { testResults, metadata = {} } = body as { testResults: unknown; metadata?: unknown };
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw invalid('body/metadata must be object');
  const fields = metadata as Record<string, unknown>;
  for (const key of METADATA_STRINGS) {
    const value = fields[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw invalid(`body/metadata/${key} must be string,null`);
    if (value.length > 1000) throw invalid(`body/metadata/${key} must NOT have more than 1000 characters`);
  }
  // A build URL becomes a link on every run screen: only http(s), checked here, not by the client.
  if (typeof fields.buildId === 'string' && fields.buildId !== '') {
    const problem = buildIdProblem(fields.buildId);
    if (problem) throw invalid(`body/metadata/buildId: ${problem}`);
  }
  if (typeof fields.buildUrl === 'string' && fields.buildUrl !== '') {
    const problem = buildUrlProblem(fields.buildUrl);
    if (problem) throw invalid(`body/metadata/buildUrl: ${problem}`);
  }
  if (fields.evidence !== undefined) {
    if (!Array.isArray(fields.evidence)) throw invalid('body/metadata/evidence must be array');
    if (fields.evidence.length > EVIDENCE_ENTRIES_MAX) throw invalid(`body/metadata/evidence must NOT have more than ${EVIDENCE_ENTRIES_MAX} items`);
    for (let i = 0; i < fields.evidence.length; i++) {
      const problem = evidenceEntryProblem(fields.evidence[i]);
      if (problem) throw invalid(`body/metadata/evidence/${i} ${problem}`);
    }
  }
  const size = fields.fileSize;
  if (size !== undefined && size !== null && !(Number.isSafeInteger(size) && (size as number) >= 0)) throw invalid('body/metadata/fileSize must be a whole number from 0 to 2^53');
  checkCodeowners(fields.codeowners);
  const fileName = runName(fields.runName as string | null | undefined) ?? baseName(fields.fileName as string | null | undefined) ?? 'upload.json';
  return { report: checkReport(testResults, fileName), metadata: fields as UploadMetadata, fileName };
}

const invalid = (problem: string) => new HttpError(400, `Invalid request: ${problem}`);

/** More test files than any report holds: a bigger map is refused, not stored. */
const MAX_CODEOWNERS_FILES = 100_000;

/** metadata.codeowners: { "test file": ["@owner", …] }, each owner as CODEOWNERS names one. */
function checkCodeowners(value: unknown): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid('body/metadata/codeowners must be an object of test files and their owners');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_CODEOWNERS_FILES) throw invalid(`body/metadata/codeowners must NOT have more than ${MAX_CODEOWNERS_FILES} files`);
  for (const [file, owners] of entries) {
    if (file.length > 1000) throw invalid('body/metadata/codeowners: a test file must NOT have more than 1000 characters');
    if (!Array.isArray(owners) || owners.length > MAX_OWNERS_PER_TEST) throw invalid(`body/metadata/codeowners/${JSON.stringify(file.slice(0, 100))} must be a list of at most ${MAX_OWNERS_PER_TEST} owners`);
    for (const owner of owners) {
      if (typeof owner !== 'string' || !isOwnerName(owner)) {
        throw invalid(`body/metadata/codeowners/${JSON.stringify(file.slice(0, 100))}: ${JSON.stringify(String(owner).slice(0, 100))} is not an owner (@user, @org/team or an email address)`);
      }
    }
  }
}

/** ingest's ownersFor from a checked metadata.codeowners; undefined when the client read none. */
export function uploadedOwners(value: Record<string, string[]> | null | undefined): ((rootDir: string | null) => FileOwners) | undefined {
  if (value === undefined || value === null) return undefined;
  const byFile = new Map(Object.entries(value));
  return () => (file) => byFile.get(file) ?? [];
}

/** What the client calls the run ('web · main · build 812'): kept whole, slashes of a branch included. */
function runName(name: string | null | undefined): string | null {
  const trimmed = name?.trim();
  return trimmed ? trimmed.slice(0, 255) : null;
}

/** A client's file name may carry its path; only the name is kept. */
function baseName(name: string | null | undefined): string | null {
  if (!name) return null;
  const base = name.split(/[\\/]/).pop()!.trim();
  return base === '' ? null : base.slice(0, 255);
}
