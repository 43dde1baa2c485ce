import type { AnyStore } from '../engine/types.js';

/**
 * The analytics answers people asked for, kept in the database with the version of the data
 * (and of the code) they were computed from: a restarted server, or a second one on the same
 * PostgreSQL database, answers them from here at once; when the data changes the server
 * computes them again in the background (server/analytics/compute-ahead.ts). docs/operations.md#kept-answers.
 */

/** Answers kept at most, in the order of KEPT_RANK: what a team looks at, not every URL anyone tried. */
export const KEPT_MAX_ANSWERS = 200;
/** A larger answer is served but not kept (a default answer is well under 512 KB). */
export const KEPT_MAX_CHARS = 1024 * 1024;
/** Answers computed ahead after a change of the data, in the order of KEPT_RANK; the rest wait to be asked. */
export const KEPT_COMPUTED_AHEAD = 12;
/** An answer nobody asked for in this long is forgotten, and no longer computed ahead. */
export const KEPT_ASKED_WITHIN_MS = 7 * 24 * 60 * 60 * 1000;
/** Answers asked for within this long come first; among them, the most often asked. */
export const KEPT_RECENT_MS = 24 * 60 * 60 * 1000;
/**
 * An ask is counted about once per key in this long (by each server): `asks` is then about the
 * spans of ten minutes in which someone wanted the answer, so a screen a team opens all day
 * outranks a dozen one-off searches made after it.
 */
export const KEPT_ASK_COUNTED_EVERY_MS = 10 * 60 * 1000;

/**
 * Which answers stay and are computed ahead first: those asked for within the last day, then
 * the most often asked, then the most recently (@recent is now - KEPT_RECENT_MS).
 */
const KEPT_RANK = 'CASE WHEN asked_at >= @recent THEN 0 ELSE 1 END, asks DESC, asked_at DESC, key';

/**
 * Run by every write that removes results (a delete, a rejection, a prune), in its transaction:
 * an answer that shows them goes with them, whether or not a server is running to notice.
 */
export const FORGET_KEPT_TEXTS = 'UPDATE kept_answers SET version = NULL, json = NULL WHERE json IS NOT NULL';

export interface KeptQuery {
  key: string;
  name: string;
  /** The query's arguments as JSON, without the clock (`now` is added when it is computed). */
  args: string;
}

/** The answer kept under `key` for this version of the data, if there is one. */
export async function keptAnswer(store: AnyStore, key: string, version: string): Promise<string | undefined> {
  const json = await store.sql.value<string | null>('SELECT json FROM kept_answers WHERE key = @key AND version = @version', { key, version });
  return json ?? undefined;
}

/**
 * Keeps `json` as the answer of `query` for `version`, if the data is still what it was computed
 * from: `current.sql` reads the data's signature now, in the same statement, and it must be
 * `current.signature`. An answer computed before a delete committed is then not written after
 * it (the delete has just dropped every kept text; this one would bring the run's back).
 * `askedAt` is when someone asked for it; an answer computed ahead passes null and leaves that
 * as it was, so computing ahead never keeps an answer alive that nobody asks for.
 */
export async function keepAnswer(
  store: AnyStore,
  query: KeptQuery,
  version: string,
  json: string,
  askedAt: number | null,
  current: { sql: string; signature: string },
): Promise<void> {
  if (json.length > KEPT_MAX_CHARS) return;
  // An ask is counted by noteAsked, which runs for every ask; the row's first is counted here.
  await store.sql.run(
    `INSERT INTO kept_answers (key, name, args, version, json, asked_at) SELECT @key, @name, @args, @version, @json, @asked WHERE (${current.sql}) = @signature
     ON CONFLICT (key) DO UPDATE SET version = excluded.version, json = excluded.json,
       asked_at = CASE WHEN excluded.asked_at > kept_answers.asked_at THEN excluded.asked_at ELSE kept_answers.asked_at END`,
    { ...query, version, json, asked: askedAt ?? 0, signature: current.signature },
  );
  // Bounded at every keep someone asked for (computing ahead only rewrites rows that are here): a caller asking for hundreds of distinct pages while the data stays
  // the same must not grow the table (at most one row over the bound, for this statement), nor
  // push out what the team asks for all day (KEPT_RANK). Never the answer just kept: asked for
  // once, it would rank last among 200 asked more often, go at once and never be counted again.
  if (askedAt !== null) await store.sql.run(TRIM, { key: query.key, recent: askedAt - KEPT_RECENT_MS });
}

/**
 * Drops the text of every answer of another version, when there is any: one short read when
 * there is none (serve asks at every look, so an answer kept by a race with a delete on
 * PostgreSQL, or by another server, does not outlive the look after it).
 */
export async function forgetStaleTexts(store: AnyStore, version: string): Promise<void> {
  const stale = await store.sql.value('SELECT 1 FROM kept_answers WHERE json IS NOT NULL AND version <> @version LIMIT 1', { version });
  if (stale !== undefined) await store.sql.run(`${FORGET_KEPT_TEXTS} AND version <> @version`, { version });
}

const TRIM = `DELETE FROM kept_answers WHERE key <> @key AND key NOT IN (SELECT key FROM kept_answers WHERE key <> @key ORDER BY ${KEPT_RANK} LIMIT ${KEPT_MAX_ANSWERS - 1})`;

/**
 * Someone asked for `key` at `at`, whether it was answered from memory, from here or computed:
 * called at most once per key every KEPT_ASK_COUNTED_EVERY_MS by a server.
 */
export async function noteAsked(store: AnyStore, key: string, at: number): Promise<void> {
  await store.sql.run('UPDATE kept_answers SET asked_at = @at, asks = asks + 1 WHERE key = @key AND asked_at < @at', { key, at });
}

/** A query no longer kept (one the server could not compute again). */
export async function forgetQuery(store: AnyStore, key: string): Promise<void> {
  await store.sql.run('DELETE FROM kept_answers WHERE key = @key', { key });
}

/**
 * Drops what no longer answers anything: the text of every answer of another version (a deleted
 * run's error messages must not stay here) and the answers nobody asked for lately. Then the
 * queries to compute again for `version`: the KEPT_COMPUTED_AHEAD first in KEPT_RANK.
 */
export async function staleQueries(store: AnyStore, version: string, now: number): Promise<KeptQuery[]> {
  const since = now - KEPT_ASKED_WITHIN_MS;
  await store.sql.run(`${FORGET_KEPT_TEXTS} AND version <> @version`, { version });
  await store.sql.run('DELETE FROM kept_answers WHERE asked_at < @since', { since });
  return store.sql.all<KeptQuery>(`SELECT key, name, args FROM kept_answers WHERE version IS NULL ORDER BY ${KEPT_RANK} LIMIT ${KEPT_COMPUTED_AHEAD}`, { recent: now - KEPT_RECENT_MS });
}
