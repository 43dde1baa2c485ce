import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { describeJsonError } from '../../core/report/parse.js';
import { HttpError } from '../errors.js';

/**
 * Fastify's own JSON parser says only "Body is not valid JSON". Ours says where the JSON
 * breaks and refuses prototype-poisoning keys by name, with the same fast path (a key scan
 * runs only when the text mentions __proto__ or constructor).
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(['application/json'], { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(new HttpError(400, 'The request body is empty: send a JSON object'), undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const message = (error as Error).message;
      if (/forbidden (prototype|constructor) property/i.test(message)) {
        return done(new HttpError(400, 'Invalid JSON: the body contains a forbidden __proto__ or constructor key'), undefined);
      }
      done(new HttpError(400, `Invalid JSON: ${describeJsonError(error, text)}`), undefined);
    }
  });
}
