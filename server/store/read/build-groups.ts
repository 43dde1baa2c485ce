import { dialectFor, type DialectName } from '../engine/dialect.js';

/**
 * The shards of one CI build are one run on every screen. Runs stay one row per report (each
 * shard is reviewed, deleted and linked on its own; its results are per test, so test figures
 * add up by themselves); lists and run counts group them when read, by this key. Chosen over
 * merging shards at import: shards arrive in any order, from different jobs, and a shard can
 * be rejected alone, which a merged row could not undo.
 *
 * A run is a shard of a build when it carries a build id and a shard total above 1; shards
 * group when the build id, branch, commit and shard total agree. Anything else is its own group.
 */
export const runGroup = (runs: string, dialect: DialectName): string => {
  const sep = dialectFor(dialect).chr(31);
  return `CASE WHEN ${runs}.build_id IS NOT NULL AND ${runs}.shard_total > 1
    THEN 'b' || CAST(${runs}.shard_total AS TEXT) || ${sep} || ${runs}.build_id || ${sep} || coalesce(${runs}.git_branch, '') || ${sep} || coalesce(${runs}.git_commit, '')
    ELSE 'r' || CAST(${runs}.id AS TEXT) END`;
};

/**
 * One row per build group of the runs `where` selects (over table alias `runs`), newest first:
 * the counts summed, the duration from the first start to the last end (shards run side by
 * side), and each shard's own figures as JSON.
 */
export const groupedRunsSql = (where: string, dialect: DialectName) => {
  const r = dialectFor(dialect);
  return `
  SELECT min(id) AS id, min(started_at) AS started_at,
    ${r.jsonDistinct('browser')} AS browsers_json,
    min(${r.bytes('project')}) AS project, sum(total_tests) AS total_tests, sum(passed_tests) AS passed_tests, sum(failed_tests) AS failed_tests,
    sum(skipped_tests) AS skipped_tests, max(started_at + duration_ms) - min(started_at) AS duration_ms,
    min(${r.bytes('build_id')}) AS build_id, min(${r.bytes('build_url')}) AS build_url, min(${r.bytes('git_branch')}) AS git_branch,
    CASE WHEN count(*) > 1 OR min(shard_total) > 1 THEN ${r.jsonArray(
      r.jsonObject(`'id', id, 'shard_current', shard_current, 'shard_total', shard_total,
      'total_tests', total_tests, 'passed_tests', passed_tests, 'failed_tests', failed_tests, 'skipped_tests', skipped_tests, 'duration_ms', duration_ms`),
      'shard_current, id',
    )} END AS shards_json
  FROM (SELECT * FROM runs WHERE ${where}) runs
  GROUP BY ${runGroup('runs', dialect)}
  ORDER BY started_at DESC, id DESC`;
};
