import { Writable } from 'node:stream';
import type { FastifyRequest } from 'fastify';

// The query parameters that carry a secret: a trace link's signature (it opens a trace for minutes
// to whoever holds it), the provider's code and state at the sign-on callback. Linear: a fixed
// name, then everything up to the next parameter.
const SECRET_PARAMS = /([?&](?:signature|code|state|session_state)=)[^&#]*/g;

/** A URL as it may be written to a log, which ops tools and log collectors keep and show. */
export function redactedUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/** Fastify's own request serializer, with the URL redacted. */
export function loggedRequest(request: FastifyRequest): Record<string, unknown> {
  return { method: request.method, url: redactedUrl(request.url), host: request.host, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const COLOURS: Record<number, string> = { 40: '\u001b[33m', 50: '\u001b[31m', 60: '\u001b[31m' };

/**
 * Fastify logs JSON lines (what a log collector wants). On a terminal, people want one
 * readable line per event: this stream rewrites pino's JSON for that.
 */
export function readableLogStream(out: NodeJS.WritableStream = process.stdout, colour = true): Writable {
  let pending = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      pending += chunk.toString('utf8');
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        out.write(`${formatLine(pending.slice(0, newline), colour)}\n`);
        pending = pending.slice(newline + 1);
        newline = pending.indexOf('\n');
      }
      done();
    },
  });
}

export function formatLine(line: string, colour: boolean): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, time, msg, req, res, responseTime, err, pid: _pid, hostname: _hostname, reqId: _reqId, ...rest } = entry as {
    level: number;
    time: number;
    msg?: string;
    req?: { method: string; url: string };
    res?: { statusCode: number };
    responseTime?: number;
    err?: { message?: string; stack?: string };
    [key: string]: unknown;
  };
  const clock = new Date(time).toISOString().slice(11, 19);
  const name = (LEVELS[level] ?? String(level)).padEnd(5);
  const tint = colour && COLOURS[level] ? (text: string) => `${COLOURS[level]}${text}\u001b[39m` : (text: string) => text;
  const parts = [clock, tint(name), inert(msg ?? '')];
  if (req) parts.push(inert(`${req.method} ${req.url}`));
  if (res) parts.push(`→ ${res.statusCode}${typeof responseTime === 'number' ? ` in ${responseTime.toFixed(1)} ms` : ''}`);
  const extra = Object.entries(rest).filter(([, v]) => v !== undefined);
  if (extra.length > 0) parts.push(extra.map(([k, v]) => `${k}=${inert(typeof v === 'string' ? v : JSON.stringify(v))}`).join(' '));
  if (err) parts.push(`\n${inertStack(err)}`);
  return parts.filter(Boolean).join(' ');
}

/**
 * Logged values can come from anyone (a username tried at sign-in, an error's text): on a
 * terminal, an escape sequence in them could retitle the window, write the clipboard or fake a
 * log line. Control characters are shown escaped; a stack keeps its line breaks.
 */
function inert(text: string, keepNewlines = false): string {
  return text.replace(keepNewlines ? /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g : /[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A stack with its own line breaks, and its message's shown escaped (a message could forge lines). */
function inertStack(err: { message?: string; stack?: string }): string {
  const stack = err.stack ?? err.message ?? '';
  const at = err.message ? stack.indexOf(err.message) : -1;
  if (at < 0) return inert(stack, true);
  const end = at + err.message!.length;
  return inert(stack.slice(0, end)) + inert(stack.slice(end), true);
}
