import type { FastifyInstance } from 'fastify';
import { HttpError } from '../errors.js';
import { bodyCharset, decodeBody, parseJsonBody } from '../upload-body.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes the JSON body as bytes (a Buffer) and parses it off the server's thread. */
    rawJsonBody?: boolean;
  }
}

/**
 * Fastify's own JSON parser says only "Body is not valid JSON" and reads every body as UTF-8.
 * Ours decodes the charset the client names (UTF-8 or UTF-16; others are refused by name),
 * says where the JSON breaks (line and column), and refuses prototype-poisoning keys by name
 * (parseJsonBody). Fastify's text/plain parser goes: a report sent as text is refused with 415
 * ("send application/json") instead of failing the schema with "body must be object".
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(['application/json'], { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    let charset: ReturnType<typeof bodyCharset>;
    try {
      charset = bodyCharset(request.headers['content-type']);
    } catch (error) {
      return done(error as Error, undefined);
    }
    if (request.routeOptions.config?.rawJsonBody) {
      if (bytes.length === 0) return done(new HttpError(400, 'The request body is empty: send a JSON object'), undefined);
      return done(null, bytes);
    }
    try {
      const text = decodeBody(bytes, charset);
      checkNesting(text);
      done(null, parseJsonBody(text));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

/** Deeper than any call's body (the gate's is 4 levels); uploads have their own limits (core/report). */
export const MAX_BODY_DEPTH = 64;

/**
 * Refuses a body nested deeper than MAX_BODY_DEPTH before JSON.parse sees it: V8 takes about a
 * second of the server's thread for 2 MB of "[" (1,000,000 levels), which anyone could send to
 * the sign-in. One pass, strings skipped.
 */
function checkNesting(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > MAX_BODY_DEPTH) throw new HttpError(400, `Invalid JSON: nested deeper than ${MAX_BODY_DEPTH} levels`);
    } else if (c === 125 || c === 93) depth--;
  }
}
