import { sql } from 'kysely';
import { passRateFraction } from '../../../core/analytics/formulas.js';
import { MAX_EVENT_TESTS, type WebhookEvent, type WebhookTest } from '../../../core/api/webhooks.js';
import type { WebhookEventName } from '../../../core/api/webhook-names.js';
import type { AnyStore } from '../engine/types.js';
import { enqueueDeliveries, hooksFor, type Enqueued } from './outbox.js';

const DAY_MS = 86_400_000;
/** An entry that expired longer ago than this is not announced (a hook added today says nothing of last year). */
const EXPIRED_NEWS_MS = 7 * DAY_MS;
/**
 * An upload waiting for review is announced after this: a token with the approve scope keeps
 * its run a moment after storing it, and the drain skips an announcement whose run is no longer
 * pending when it is due.
 */
export const PENDING_NOTICE_DELAY_MS = 5_000;

interface Hook {
  id: number;
  events: Set<string>;
  baseBranch: string;
  threshold: number;
  expiryDays: number;
}

async function hooks(store: AnyStore): Promise<Hook[]> {
  return (await hooksFor(store)).map((h) => ({ id: Number(h.id), events: new Set(h.events.split(' ')), baseBranch: h.base_branch, threshold: Number(h.pass_rate_threshold), expiryDays: Number(h.expiry_days) }));
}

interface RunRow {
  id: number;
  file_name: string;
  project: string | null;
  git_branch: string | null;
  git_commit: string | null;
  status: string;
  is_duplicate: number;
  outage: number;
  load_failed: number;
  started_at: number;
  total_tests: number;
  passed_tests: number;
  failed_tests: number;
  skipped_tests: number;
  flaky_tests: number;
}

/** A run's pass rate in percent, one decimal: passed / (tests − skipped), the first attempt deciding (a flaky test counts as failed). */
const percentOf = (run: Pick<RunRow, 'passed_tests' | 'total_tests' | 'skipped_tests'>): number | null => {
  if (Number(run.total_tests) - Number(run.skipped_tests) <= 0) return null;
  return Math.round(passRateFraction(Number(run.passed_tests), Number(run.total_tests), Number(run.skipped_tests)) * 1000) / 10;
};

/**
 * Finds the events a stored run makes and writes them to the outbox, one row per hook that
 * wants each. Called right after the run's transaction commits, on every path a run takes
 * (`import`, an upload, a review that approves), never inside it: an import does not wait on
 * it, and a failure here loses alerts, not the run. Costs one query when no hook exists.
 */
export async function enqueueRunEvents(store: AnyStore, runId: number, now = Date.now()): Promise<number> {
  const all = await hooks(store);
  if (all.length === 0) return 0;
  const run = (await store.db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst()) as RunRow | undefined;
  if (!run || Number(run.is_duplicate) === 1) return 0;
  const runInfo = { id: Number(run.id), name: run.file_name, branch: run.git_branch, commit: run.git_commit, project: run.project, url: null };
  const at = new Date(now).toISOString();
  const items: Enqueued[] = [];
  const add = (hookList: Hook[], name: WebhookEventName, event: Omit<WebhookEvent, 'event' | 'at' | 'run'>, notBefore = now) => {
    for (const hook of hookList) if (hook.events.has(name)) items.push({ webhookId: hook.id, notBefore, event: { ...event, event: name, at, run: runInfo } });
  };
  const label = `${run.file_name}${run.git_branch ? ` on ${run.git_branch}` : ''}`;

  if (run.status === 'pending') {
    add(all, 'upload-pending', { id: `upload-pending:run:${run.id}`, summary: `Upload waiting for review: ${label}` }, now + PENDING_NOTICE_DELAY_MS);
  }
  if (run.status === 'approved') {
    if (all.some((h) => h.events.has('new-flaky'))) {
      const flaky = await newFlakyTests(store, run.id);
      if (flaky.length > 0) add(all, 'new-flaky', { id: `new-flaky:run:${run.id}`, summary: `${plural(flaky.length, 'test')} flaky for the first time in ${label}`, ...testList(flaky) });
    }
    const onBase = all.filter((h) => h.baseBranch === run.git_branch);
    if (onBase.length > 0 && Number(run.load_failed) === 0) {
      // An outage run (most of it failed) breaks no test on its own: the pass rate says it.
      if (Number(run.outage) === 0 && onBase.some((h) => h.events.has('broken-on-base'))) {
        const broken = await newlyBroken(store, run.id, run.git_branch!);
        if (broken.length > 0) add(onBase, 'broken-on-base', { id: `broken-on-base:run:${run.id}`, summary: `${plural(broken.length, 'test')} broken on ${run.git_branch}: passed in the previous run, failed in ${run.file_name}`, ...testList(broken) });
      }
      const percent = percentOf(run);
      if (percent !== null && onBase.some((h) => h.events.has('pass-rate'))) {
        const previous = await previousBaseRun(store, run);
        const previousPercent = previous ? percentOf(previous) : null;
        // Announced when it falls below, not again for every run that stays below.
        const falling = onBase.filter((h) => percent < h.threshold && (previousPercent === null || previousPercent >= h.threshold));
        for (const hook of falling) {
          add([hook], 'pass-rate', { id: `pass-rate:run:${run.id}`, summary: `Pass rate on ${run.git_branch} fell to ${percent}% (below ${hook.threshold}%) in ${run.file_name}`, passRate: { percent, threshold: hook.threshold, previousPercent } });
        }
      }
    }
  }
  return enqueueDeliveries(store, items, now);
}

function testList(tests: WebhookTest[]): Pick<WebhookEvent, 'tests' | 'moreTests'> {
  return { tests: tests.slice(0, MAX_EVENT_TESTS), moreTests: Math.max(0, tests.length - MAX_EVENT_TESTS) };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

interface TestRow {
  test_id: number;
  title: string;
  file: string;
  project_name: string;
}

/** The tests with their owners (test_owners, kept with each run), so an alert names who should look. */
async function withOwners(store: AnyStore, rows: readonly TestRow[]): Promise<WebhookTest[]> {
  const ids = [...new Set(rows.map((r) => Number(r.test_id)))];
  const owners = new Map<number, string[]>();
  if (ids.length > 0) {
    for (const o of await store.db.selectFrom('test_owners').select(['test_id', 'owner']).where('test_id', 'in', ids).orderBy('owner').execute()) {
      const list = owners.get(Number(o.test_id)) ?? [];
      list.push(o.owner);
      owners.set(Number(o.test_id), list);
    }
  }
  return rows.map((r) => ({ title: r.title, file: r.file, project: r.project_name, owners: owners.get(Number(r.test_id)) ?? [] }));
}

/** Tests that failed and then passed on a retry in this run, and never before in a kept run (any branch). */
async function newFlakyTests(store: AnyStore, runId: number): Promise<WebhookTest[]> {
  const rows = await sql<TestRow>`
    SELECT t.id AS test_id, t.title, t.file, r.project_name FROM results r JOIN tests t ON t.id = r.test_id
    WHERE r.run_id = ${runId} AND r.passed_on_retry = 1
      AND NOT EXISTS (SELECT 1 FROM results p JOIN runs u ON u.id = p.run_id
        WHERE p.test_id = r.test_id AND p.browser = r.browser AND p.passed_on_retry = 1 AND p.run_id <> r.run_id AND u.status = 'approved' AND u.is_duplicate = 0)
    ORDER BY t.file, t.title LIMIT 1000`.execute(store.db);
  return withOwners(store, rows.rows);
}

/** Tests that failed every attempt in this run and passed in the branch's previous kept run that ran them. */
async function newlyBroken(store: AnyStore, runId: number, branch: string): Promise<WebhookTest[]> {
  const rows = await sql<TestRow>`
    SELECT t.id AS test_id, t.title, t.file, r.project_name FROM results r JOIN tests t ON t.id = r.test_id
    WHERE r.run_id = ${runId} AND r.outcome = 'unexpected' AND r.status <> 'skipped'
      AND (SELECT CASE WHEN p.outcome = 'expected' AND p.status = 'passed' THEN 1 ELSE 0 END FROM results p JOIN runs u ON u.id = p.run_id
        WHERE p.test_id = r.test_id AND p.browser = r.browser AND p.started_at < r.started_at AND p.run_id <> r.run_id AND p.status <> 'skipped'
          AND u.git_branch = ${branch} AND u.status = 'approved' AND u.is_duplicate = 0
        ORDER BY p.started_at DESC LIMIT 1) = 1
    ORDER BY t.file, t.title LIMIT 1000`.execute(store.db);
  return withOwners(store, rows.rows);
}

async function previousBaseRun(store: AnyStore, run: RunRow): Promise<RunRow | undefined> {
  return (await store.db
    .selectFrom('runs')
    .selectAll()
    .where('git_branch', '=', run.git_branch)
    .where('status', '=', 'approved')
    .where('is_duplicate', '=', 0)
    .where('load_failed', '=', 0)
    .where('id', '<>', run.id)
    .where('started_at', '<', run.started_at)
    .orderBy('started_at', 'desc')
    .limit(1)
    .executeTakeFirst()) as RunRow | undefined;
}

/**
 * Quarantine entries expiring within each hook's days, or expired in the last week, as events.
 * Every server scans now and then; the outbox keeps each (entry, expiry) once per hook.
 */
export async function enqueueQuarantineEvents(store: AnyStore, now = Date.now()): Promise<number> {
  const all = (await hooks(store)).filter((h) => h.events.has('quarantine-expiring') || h.events.has('quarantine-expired'));
  if (all.length === 0) return 0;
  const horizon = now + Math.max(...all.map((h) => h.expiryDays)) * DAY_MS;
  const entries = await store.db
    .selectFrom('quarantine')
    .select(['id', 'title', 'file', 'project', 'reason', 'owner', 'expires_at'])
    .where('removed_at', 'is', null)
    .where('expires_at', 'is not', null)
    .where('expires_at', '>', now - EXPIRED_NEWS_MS)
    .where('expires_at', '<=', horizon)
    .orderBy('id')
    .execute();
  const at = new Date(now).toISOString();
  const items: Enqueued[] = [];
  for (const entry of entries) {
    const expiresAt = Number(entry.expires_at);
    const quarantine = { id: Number(entry.id), title: entry.title, file: entry.file, project: entry.project, reason: entry.reason, owner: entry.owner, expiresAt: new Date(expiresAt).toISOString() };
    const expired = expiresAt <= now;
    const name = expired ? 'quarantine-expired' : 'quarantine-expiring';
    for (const hook of all) {
      if (!hook.events.has(name)) continue;
      if (!expired && expiresAt > now + hook.expiryDays * DAY_MS) continue;
      const summary = expired
        ? `Quarantine of "${entry.title}" expired: its failures block the gate again`
        : `Quarantine of "${entry.title}" expires ${quarantine.expiresAt.slice(0, 10)}`;
      items.push({ webhookId: hook.id, notBefore: now, event: { id: `${name}:${entry.id}:${expiresAt}`, event: name, at, summary, quarantine } });
    }
  }
  return enqueueDeliveries(store, items, now);
}

/** Whether a run still waits for review: an announcement of it is dropped once it does not. */
export async function runIsPending(store: AnyStore, runId: number): Promise<boolean> {
  const row = await store.db.selectFrom('runs').select('status').where('id', '=', runId).executeTakeFirst();
  return row?.status === 'pending';
}
