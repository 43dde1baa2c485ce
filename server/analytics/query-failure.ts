import { databaseTrouble } from '../store/engine/dialect.js';
import { StoreError } from '../store/engine/types.js';

/**
 * A failed analytics query as it crosses from the worker: what the error handler needs to
 * answer it as on the server's thread (a database that cannot be reached 503, not 500), since an
 * Error's class and code do not cross a thread boundary.
 */
export interface QueryFailure {
  message: string;
  /** The database's code (SQLSTATE, SQLITE_*, a Node connection error), or a StoreError's. */
  code: string | null;
  /** dialect.ts databaseTrouble, or a store that could not be opened. */
  unavailable: boolean;
}

export function queryFailureOf(error: unknown): QueryFailure {
  const code = (error as { code?: unknown }).code;
  const unavailable = error instanceof StoreError || databaseTrouble(error) === 'unavailable';
  // A bug's stack is logged by the server; an outage is logged in a line (outage-log.ts).
  const message = error instanceof Error ? (unavailable ? error.message : (error.stack ?? error.message)) : String(error);
  return { message, code: typeof code === 'string' ? code : null, unavailable };
}

export function queryErrorOf(failure: QueryFailure): Error {
  // A statement timeout keeps its code: the database answers, so it is no outage.
  if (failure.unavailable && failure.code !== '57014') return new StoreError(failure.message, failure.code === 'read-only' ? 'read-only' : 'unavailable');
  const error = new Error(`analytics query failed: ${failure.message}`);
  return failure.code ? Object.assign(error, { code: failure.code }) : error;
}
