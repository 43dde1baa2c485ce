import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../errors.js';
import { callerKey } from '../plugins/authenticate.js';

/**
 * Analyses one caller may have admitted (running or waiting their turn in runner.ts). Each holds
 * its body, up to 10 MB, until it is analysed.
 */
export const AI_PER_CALLER = 4;
/** Analyses admitted on the server at once, all callers together: at most 80 MB of bodies held. */
export const AI_OVERALL = 8;
const RETRY_AFTER_SECONDS = 5;

/**
 * Admits an analysis before its body is read (preParsing), so a caller cannot make the server
 * hold more than AI_PER_CALLER bodies at once, nor all callers more than AI_OVERALL; beyond,
 * 429 (this caller) or 503 (the server), both with Retry-After. Held until the answer is sent
 * or the client goes away. Admitted analyses take turns per caller in the worker (runner.ts).
 */
export function aiAdmission(perCaller = AI_PER_CALLER, overall = AI_OVERALL) {
  const byCaller = new Map<string, number>();
  let running = 0;
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const caller = callerKey(request);
    const mine = byCaller.get(caller) ?? 0;
    if (mine >= perCaller) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      throw new HttpError(429, `You have ${mine} analyses running or waiting, as many as one caller may; try again when one has answered`);
    }
    if (running >= overall) {
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      throw new HttpError(503, `The server has ${running} analyses running or waiting, as many as it holds at once; try again in a few seconds`);
    }
    running++;
    byCaller.set(caller, mine + 1);
    reply.raw.once('close', () => {
      running--;
      const left = (byCaller.get(caller) ?? 1) - 1;
      if (left === 0) byCaller.delete(caller);
      else byCaller.set(caller, left);
    });
  };
}
