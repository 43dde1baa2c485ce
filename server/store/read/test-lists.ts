import { dialectFor, type DialectName } from '../engine/dialect.js';
import type { AnyStore } from '../engine/types.js';
import { countedRun } from './gate-history.js';
import { runGroup } from './build-groups.js';
import { DAY_MS } from '../engine/rollup-shape.js';

/** One test of a run in one Playwright project: what a line of `--test-list` names. */
export interface ListedTest {
  project: string;
  file: string;
  title: string;
  titlePath: string[];
}

/** Which stored runs a list is read from: the newest run (optionally on a branch), one run, or a CI build. */
export type RunPick = { kind: 'last'; branch: string | null } | { kind: 'run'; id: number } | { kind: 'build'; buildId: string };

interface RunRow {
  id: number;
  duplicate_of: number | null;
  build_id: string | null;
  git_branch: string | null;
  git_commit: string | null;
}

const RUN_COLUMNS = 'id, duplicate_of, build_id, git_branch, git_commit';
const KEPT = `is_duplicate = 0 AND status != 'rejected'`;

// Made once per engine: SQLite's connection keeps prepared statements by their text.
const textsFor = (dialect: DialectName) => {
  const t = dialectFor(dialect);
  const listed = `SELECT DISTINCT r.project_name AS project, t.file, t.title, t.title_path FROM results r JOIN tests t ON t.id = r.test_id WHERE ${t.inJsonNumbers('r.run_id', '@ids')}`;
  return {
    last: `SELECT ${RUN_COLUMNS} FROM runs WHERE ${KEPT} AND (CAST(@branch AS TEXT) IS NULL OR git_branch = @branch) ORDER BY started_at DESC, id DESC LIMIT 1`,
    one: `SELECT ${RUN_COLUMNS} FROM runs WHERE id = @id AND status != 'rejected'`,
    // The shards of the newest run are one run on every screen (build-groups.ts): here too.
    group: `SELECT id FROM runs WHERE ${KEPT} AND ${runGroup('runs', dialect)} = (SELECT ${runGroup('picked', dialect)} FROM runs picked WHERE picked.id = @id) ORDER BY id`,
    newestOfBuild: `SELECT ${RUN_COLUMNS} FROM runs WHERE ${KEPT} AND build_id = @buildId ORDER BY started_at DESC, id DESC LIMIT 1`,
    // Every report of the build, sharded or not (a matrix of jobs may each upload one): the same build id, branch and commit.
    build: `SELECT id FROM runs WHERE ${KEPT} AND build_id = @buildId AND coalesce(git_branch, '') = @branch AND coalesce(git_commit, '') = @commit ORDER BY id`,
    // timedOut is a failure too; a test that passed on a retry (flaky) ended passed.
    projects: `SELECT DISTINCT project_name FROM results WHERE ${t.inJsonNumbers('run_id', '@ids')}`,
    failed: `${listed} AND r.final_status IN ('failed', 'timedOut')`,
    baseRuns: `SELECT count(*) FROM runs WHERE git_branch = @base AND started_at >= @since AND ${countedRun('runs')}`,
    // A test is new when no counted base-branch run in the window has a result of it in that project.
    // Every test of the runs with its duration there (the longest of its repeats and shards).
    suite: `SELECT r.test_id, r.browser, r.project_name AS project, t.file, t.title, t.title_path, max(r.duration_ms) AS run_ms
      FROM results r JOIN tests t ON t.id = r.test_id WHERE ${t.inJsonNumbers('r.run_id', '@ids')} AND r.status != 'skipped'
      GROUP BY r.test_id, r.browser, r.project_name, t.file, t.title, t.title_path`,
    // The mean duration of each test's timed runs in the window, from the daily rollup.
    history: `SELECT test_id, browser, ${t.total('duration_sum')} AS total_ms, ${t.total('timed_runs')} AS timed
      FROM daily_test_stats WHERE day >= @fromDay AND ${t.inJsonNumbers('test_id', '@testIds')} GROUP BY test_id, browser`,
    fresh: `${listed} AND NOT EXISTS (
      SELECT 1 FROM results b JOIN runs ON runs.id = b.run_id
      WHERE b.test_id = r.test_id AND b.project_name = r.project_name AND runs.git_branch = @base AND runs.started_at >= @since AND ${countedRun('runs')})`,
  };
};
const TEXTS = { sqlite: textsFor('sqlite'), postgres: textsFor('postgres') };

/** The ids of the runs a pick names (a duplicate stands for its original), or null when there is none. */
export async function pickRuns(store: AnyStore, pick: RunPick): Promise<number[] | null> {
  const texts = TEXTS[store.dialect];
  if (pick.kind === 'run') {
    const row = await store.sql.get<RunRow>(texts.one, { id: pick.id });
    return row ? [row.duplicate_of ?? row.id] : null;
  }
  if (pick.kind === 'last') {
    const row = await store.sql.get<RunRow>(texts.last, { branch: pick.branch });
    return row ? (await store.sql.all<{ id: number }>(texts.group, { id: row.id })).map((r) => r.id) : null;
  }
  const newest = await store.sql.get<RunRow>(texts.newestOfBuild, { buildId: pick.buildId });
  if (!newest) return null;
  const rows = await store.sql.all<{ id: number }>(texts.build, { buildId: pick.buildId, branch: newest.git_branch ?? '', commit: newest.git_commit ?? '' });
  return rows.map((r) => r.id);
}

/** The tests that ended failed (after retries) in the runs, each project once, in file and title order. */
export async function failedTests(store: AnyStore, runIds: readonly number[]): Promise<ListedTest[]> {
  return listed(await store.sql.all<Row>(TEXTS[store.dialect].failed, { ids: JSON.stringify(runIds) }));
}

/** The Playwright projects the runs hold results of. */
export async function projectsOfRuns(store: AnyStore, runIds: readonly number[]): Promise<string[]> {
  return (await store.sql.all<{ project_name: string }>(TEXTS[store.dialect].projects, { ids: JSON.stringify(runIds) })).map((r) => r.project_name);
}

/**
 * The tests of the runs that the base branch has not run (in that project) since `since`, and
 * how many base-branch runs that window holds: with none, every test is new.
 */
export async function newTests(store: AnyStore, runIds: readonly number[], base: string, since: number): Promise<{ tests: ListedTest[]; baseRuns: number }> {
  const texts = TEXTS[store.dialect];
  const baseRuns = Number(await store.sql.value<number>(texts.baseRuns, { base, since }));
  const rows = await store.sql.all<Row>(texts.fresh, { ids: JSON.stringify(runIds), base, since });
  return { tests: listed(rows), baseRuns };
}

/** A test of the suite with what it is expected to take: its mean over the window, else this run's time. */
export interface TimedTest extends ListedTest {
  durationMs: number;
}

/** Every test the runs ran (skipped ones left out), with its expected duration from the history since `since`. */
export async function timedTests(store: AnyStore, runIds: readonly number[], since: number): Promise<TimedTest[]> {
  const texts = TEXTS[store.dialect];
  const rows = await store.sql.all<Row & { test_id: number; browser: string; run_ms: number }>(texts.suite, { ids: JSON.stringify(runIds) });
  const testIds = [...new Set(rows.map((r) => r.test_id))];
  const history = new Map<string, number>();
  for (const h of await store.sql.all<{ test_id: number; browser: string; total_ms: number; timed: number }>(texts.history, { fromDay: Math.floor(since / DAY_MS), testIds: JSON.stringify(testIds) })) {
    if (Number(h.timed) > 0) history.set(`${h.test_id}\u0000${h.browser}`, Number(h.total_ms) / Number(h.timed));
  }
  const timed = rows.map((row) => ({
    ...listedTest(row),
    durationMs: Math.round(history.get(`${row.test_id}\u0000${row.browser}`) ?? Number(row.run_ms)),
  }));
  return timed.sort(inListOrder);
}

interface Row {
  project: string;
  file: string;
  title: string;
  title_path: string;
}

// Sorted here, by code unit: the same order on both engines whatever their collation.
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const listedTest = (row: Row): ListedTest => ({ project: row.project, file: row.file, title: row.title, titlePath: JSON.parse(row.title_path) as string[] });
const inListOrder = (a: ListedTest, b: ListedTest) =>
  byCodeUnit(a.file, b.file) || byCodeUnit(a.titlePath.join('\u0000'), b.titlePath.join('\u0000')) || byCodeUnit(a.project, b.project);

function listed(rows: readonly Row[]): ListedTest[] {
  return rows.map(listedTest).sort(inListOrder);
}
