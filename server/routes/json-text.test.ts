import Fastify from 'fastify';
import { afterAll, expect, it } from 'vitest';
import { sendJsonText } from './json-text.js';

const app = Fastify();
// Texts larger than what is sent as a string, some beyond what is kept, with characters of several bytes.
const textOf = (n: number) => JSON.stringify({ n, items: Array.from({ length: 50 + (n % 7) * 400 }, (_, i) => `ünïcödé ${n}:${i}`) });
app.get('/answer/:n', (request, reply) => sendJsonText(reply, textOf(Number((request.params as { n: string }).n))));
afterAll(() => app.close());

it('sends each text as its own bytes, whichever are kept, with the length in bytes', async () => {
  // More distinct answers than are kept, asked twice each in turn: kept, evicted and asked again.
  for (const round of [0, 1]) {
    for (let n = 0; n < 100; n++) {
      const res = await app.inject({ method: 'GET', url: `/answer/${n}` });
      expect(res.statusCode, `round ${round}, answer ${n}`).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toBe(textOf(n));
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(textOf(n)));
    }
  }
});
