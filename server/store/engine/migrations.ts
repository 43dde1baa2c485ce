import { dialectFor, type DialectName, type Dialect } from './dialect.js';
import { aggregate, ALL_BRANCH_RESULTS, allBranchDaysBy, allDaysBy, BRANCH_DAY_KEYS, branchTotalsOfMonths, MONTH, periodsOfDays, WEEK } from './rollup-shape.js';

/**
 * Numbered migrations, applied in order when a database is opened (a CLI user never runs a
 * migrate step). A released migration is never edited: add the next number instead.
 * One list for SQLite and PostgreSQL: a migration's SQL is a function of the DDL words that
 * differ (dialect.ts: ${d.id}, ${d.int}, ${d.real}, ${d.strict}...), or plain SQL that both run.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string | ((d: Dialect) => string);
}

/** A migration's SQL for one database. */
export function migrationSql(migration: Migration, dialect: DialectName): string {
  return typeof migration.sql === 'string' ? migration.sql : migration.sql(dialectFor(dialect));
}

export const MIGRATIONS: ReadonlyArray<Migration> = [
  {
    version: 1,
    name: 'initial schema',
    sql: (d) => `${d.prelude}
      CREATE TABLE users (
        id ${d.id},
        username TEXT NOT NULL UNIQUE ${d.nocase},
        password_hash TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('admin', 'reviewer', 'member')),
        failed_attempts ${d.int} NOT NULL DEFAULT 0,
        locked ${d.int} NOT NULL DEFAULT 0,
        created_at ${d.int} NOT NULL,
        updated_at ${d.int} NOT NULL
      )${d.strict};

      CREATE TABLE sessions (
        id ${d.id},
        token_hash TEXT NOT NULL UNIQUE,
        session_hash TEXT NOT NULL UNIQUE,
        user_id ${d.int} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at ${d.int} NOT NULL,
        last_seen_at ${d.int} NOT NULL,
        expires_at ${d.int} NOT NULL
      )${d.strict};
      CREATE INDEX sessions_user ON sessions(user_id);

      CREATE TABLE api_tokens (
        id ${d.id},
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        user_id ${d.int} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at ${d.int} NOT NULL,
        last_used_at ${d.int}
      )${d.strict};

      -- One row per imported report: the UI's "upload" and "test run".
      CREATE TABLE runs (
        id ${d.id},
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
        is_duplicate ${d.int} NOT NULL DEFAULT 0,
        -- A duplicate keeps no results of its own; its detail shows the original's.
        duplicate_of ${d.int} REFERENCES runs(id) ON DELETE SET NULL,
        content_hash TEXT NOT NULL,
        file_name TEXT NOT NULL,
        file_size ${d.int},
        project TEXT,
        browser TEXT NOT NULL,
        git_branch TEXT,
        git_commit TEXT,
        metadata_json TEXT,
        playwright_version TEXT,
        shard_current ${d.int},
        shard_total ${d.int},
        started_at ${d.int} NOT NULL,
        duration_ms ${d.real} NOT NULL DEFAULT 0,
        uploaded_at ${d.int} NOT NULL,
        uploaded_by ${d.int} REFERENCES users(id) ON DELETE SET NULL,
        reviewed_by ${d.int} REFERENCES users(id) ON DELETE SET NULL,
        reviewed_at ${d.int},
        review_notes TEXT,
        total_tests ${d.int} NOT NULL,
        passed_tests ${d.int} NOT NULL,
        failed_tests ${d.int} NOT NULL,
        skipped_tests ${d.int} NOT NULL,
        flaky_tests ${d.int} NOT NULL,
        load_failed ${d.int} NOT NULL DEFAULT 0,
        errors_json TEXT
      )${d.strict};
      CREATE INDEX runs_content_hash ON runs(content_hash);
      CREATE INDEX runs_started_at ON runs(started_at);
      CREATE INDEX runs_status ON runs(status, uploaded_at);

      -- A test's identity across runs and browsers: its file and title path.
      CREATE TABLE tests (
        id ${d.id},
        file TEXT NOT NULL,
        title_path TEXT NOT NULL,
        title TEXT NOT NULL,
        UNIQUE (file, title_path)
      )${d.strict};
      CREATE INDEX tests_title ON tests(title);

      -- One row per test per project per run.
      CREATE TABLE results (
        id ${d.id},
        run_id ${d.int} NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        test_id ${d.int} NOT NULL REFERENCES tests(id),
        browser TEXT NOT NULL,
        project_name TEXT NOT NULL,
        repeat_index ${d.int} NOT NULL DEFAULT 0,
        line ${d.int} NOT NULL,
        col ${d.int} NOT NULL,
        started_at ${d.int} NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('passed', 'failed', 'timedOut', 'skipped')),
        final_status TEXT NOT NULL,
        outcome TEXT NOT NULL,
        expected_status TEXT NOT NULL,
        passed_on_retry ${d.int} NOT NULL,
        retries ${d.int} NOT NULL,
        duration_ms ${d.real} NOT NULL,
        error_message TEXT,
        error_category TEXT,
        error_fingerprint TEXT,
        error_summary TEXT,
        error_location TEXT,
        error_snippet TEXT,
        error_stack TEXT,
        tags_json TEXT,
        annotations_json TEXT
      )${d.strict};
      CREATE INDEX results_run ON results(run_id);
      CREATE INDEX results_test_browser ON results(test_id, browser, started_at);

      -- Every attempt of a result, retries included: history and retry flakiness are exact.
      CREATE TABLE attempts (
        result_id ${d.int} NOT NULL REFERENCES results(id) ON DELETE CASCADE,
        retry ${d.int} NOT NULL,
        status TEXT NOT NULL,
        duration_ms ${d.real} NOT NULL,
        started_at ${d.int},
        error_message TEXT,
        other_errors_json TEXT,
        steps_json TEXT,
        stdout TEXT,
        stderr TEXT,
        attachments_json TEXT,
        PRIMARY KEY (result_id, retry)
      )${d.strictWithoutRowid};
    `,
  },
  {
    version: 2,
    name: 'settings',
    sql: (d) => `
      -- Server-wide values made once per database, such as the key the XSRF token is derived with.
      CREATE TABLE settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      )${d.strict};
    `,
  },
  {
    version: 3,
    name: 'analytics rollups',
    sql: (d) => `
      -- A run in which most tests failed is an outage, not flakiness (docs/screens.md#outages).
      ALTER TABLE runs ADD COLUMN outage ${d.int} NOT NULL DEFAULT 0;

      -- One row per test, browser and UTC day: what every analytics read sums over a window,
      -- so reads cost what the window holds, not the whole history. Rebuilt for the keys a
      -- run touches, in the transaction that stores, reviews or deletes it.
      CREATE TABLE daily_test_stats (
        test_id ${d.int} NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
        browser TEXT NOT NULL,
        day ${d.int} NOT NULL,
        runs ${d.int} NOT NULL,
        passed ${d.int} NOT NULL,
        failed ${d.int} NOT NULL,
        skipped ${d.int} NOT NULL,
        -- Outside outage runs, like the scored figures: a retry that rescues an outage says nothing.
        passed_on_retry ${d.int} NOT NULL,
        duration_sum ${d.real} NOT NULL,
        duration_max ${d.real} NOT NULL,
        timed_runs ${d.int} NOT NULL,
        -- The same counts without outage runs: what flakiness is judged on.
        scored_runs ${d.int} NOT NULL,
        scored_passed ${d.int} NOT NULL,
        scored_failed ${d.int} NOT NULL,
        -- Attempts in time order (retries included) and the pass/fail changes among them;
        -- first and last outcome (1 pass, 0 fail) let a window add the changes between days.
        attempts ${d.int} NOT NULL,
        changes ${d.int} NOT NULL,
        first_outcome ${d.int},
        last_outcome ${d.int},
        last_run_at ${d.int} NOT NULL,
        PRIMARY KEY (test_id, browser, day)
      )${d.strictWithoutRowid};
      CREATE INDEX daily_test_stats_day ON daily_test_stats(day);

      -- First errors of failed results per test, browser and day, by fingerprint: error
      -- patterns over a window without reading every failure.
      CREATE TABLE daily_error_stats (
        test_id ${d.int} NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
        browser TEXT NOT NULL,
        day ${d.int} NOT NULL,
        fingerprint TEXT NOT NULL,
        occurrences ${d.int} NOT NULL,
        PRIMARY KEY (test_id, browser, day, fingerprint)
      )${d.strictWithoutRowid};
      CREATE INDEX daily_error_stats_day ON daily_error_stats(day, fingerprint);

      -- One example of each error pattern: its category, summary and a full message.
      CREATE TABLE error_samples (
        fingerprint TEXT PRIMARY KEY,
        category TEXT NOT NULL,
        summary TEXT NOT NULL,
        message TEXT NOT NULL
      )${d.strict};

      -- The Playwright project name behind each browser key, as people wrote it.
      CREATE TABLE browser_projects (
        browser TEXT PRIMARY KEY,
        project_name TEXT NOT NULL
      )${d.strict};

      CREATE INDEX runs_outage ON runs(outage) WHERE outage = 1;
    `,
  },
  {
    version: 4,
    name: 'lockout per account and address, token expiry',
    sql: (d) => `
      -- Failed sign-ins per account and client address: five lock that pair for a while, so an
      -- anonymous caller can lock out only itself.
      CREATE TABLE login_failures (
        user_id ${d.int} NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        address TEXT NOT NULL,
        failures ${d.int} NOT NULL,
        last_failed_at ${d.int} NOT NULL,
        locked_until ${d.int},
        PRIMARY KEY (user_id, address)
      )${d.strictWithoutRowid};
      CREATE INDEX login_failures_last ON login_failures(last_failed_at);
      -- The account-wide lock it replaces could be set by anyone: lift those locks.
      UPDATE users SET locked = 0, failed_attempts = 0;

      ALTER TABLE api_tokens ADD COLUMN expires_at ${d.int};
    `,
  },
  {
    version: 5,
    name: 'quarantine and gate lookups',
    sql: (d) => `
      -- Tests a team has agreed to stop blocking on for a while: who, why, until when. A
      -- removed entry is kept (removed_at) so the list can say who lifted it.
      CREATE TABLE quarantine (
        id ${d.id},
        title TEXT NOT NULL,
        file TEXT,
        project TEXT,
        reason TEXT NOT NULL,
        owner TEXT,
        created_by ${d.int} REFERENCES users(id) ON DELETE SET NULL,
        created_at ${d.int} NOT NULL,
        expires_at ${d.int},
        removed_by ${d.int} REFERENCES users(id) ON DELETE SET NULL,
        removed_at ${d.int}
      )${d.strict};

      -- The gate reads one test's results on one branch in a window.
      CREATE INDEX runs_branch_started ON runs(git_branch, started_at);
    `,
  },
  {
    version: 6,
    name: 'all-time test totals',
    sql: (d) => `
      -- One row per test and browser over its whole history: the sums of daily_test_stats plus
      -- the pass/fail changes between its days, so the flaky list pages, sorts and searches
      -- without summing every day of every test. Kept equal to a rebuild (test-totals.ts).
      CREATE TABLE test_totals (
        test_id ${d.int} NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
        browser TEXT NOT NULL,
        runs ${d.int} NOT NULL,
        passed ${d.int} NOT NULL,
        failed ${d.int} NOT NULL,
        skipped ${d.int} NOT NULL,
        passed_on_retry ${d.int} NOT NULL,
        scored_passed ${d.int} NOT NULL,
        scored_failed ${d.int} NOT NULL,
        attempts ${d.int} NOT NULL,
        changes ${d.int} NOT NULL,
        duration_sum ${d.real} NOT NULL,
        duration_max ${d.real} NOT NULL,
        timed_runs ${d.int} NOT NULL,
        -- First and last attempt outcome (1 pass, 0 fail), so a later run adds its changes.
        first_outcome ${d.int},
        last_outcome ${d.int},
        last_run_at ${d.int} NOT NULL,
        -- The latest failed (or timed out) result: the flaky list sorts by it.
        last_failed_at ${d.int},
        PRIMARY KEY (test_id, browser)
      )${d.strictWithoutRowid};
      CREATE INDEX test_totals_flaky ON test_totals(test_id) WHERE scored_passed + scored_failed > 0 AND (passed_on_retry > 0 OR changes >= 2);

      -- Filled from what is stored (the same rows test-totals.ts rebuilds).
      INSERT INTO test_totals (test_id, browser, runs, passed, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes,
      duration_sum, duration_max, timed_runs, first_outcome, last_outcome, last_run_at, last_failed_at)
      WITH d AS (SELECT * FROM daily_test_stats d WHERE true),
      edges AS (
      SELECT test_id, browser, first_outcome, last_outcome,
      LAG(last_outcome) OVER (PARTITION BY test_id, browser ORDER BY day) AS previous,
      ROW_NUMBER() OVER (PARTITION BY test_id, browser ORDER BY day) AS n,
      ROW_NUMBER() OVER (PARTITION BY test_id, browser ORDER BY day DESC) AS from_end
      FROM d WHERE attempts > 0
      ),
      boundaries AS (
      SELECT test_id, browser, sum(${d.boolInt('previous IS NOT NULL AND previous != first_outcome')}) AS changes,
      max(CASE WHEN n = 1 THEN first_outcome END) AS first_outcome, max(CASE WHEN from_end = 1 THEN last_outcome END) AS last_outcome
      FROM edges GROUP BY test_id, browser
      )
      SELECT test_id, browser, runs, passed, failed, skipped, passed_on_retry, scored_passed, scored_failed, attempts, changes, duration_sum, duration_max,
      timed_runs, first_outcome, last_outcome, last_run_at,
      -- Only the results of the last day with a failure are read for its time.
      (SELECT max(r.started_at) FROM results r WHERE r.test_id = k.test_id AND r.browser = k.browser AND r.started_at >= k.last_failed_day * 86400000
      AND r.started_at < (k.last_failed_day + 1) * 86400000 AND r.status IN ('failed', 'timedOut'))
      FROM (
      SELECT d.test_id, d.browser, sum(d.runs) AS runs, sum(d.passed) AS passed, sum(d.failed) AS failed, sum(d.skipped) AS skipped,
      sum(d.passed_on_retry) AS passed_on_retry, sum(d.scored_passed) AS scored_passed, sum(d.scored_failed) AS scored_failed, sum(d.attempts) AS attempts,
      sum(d.changes) + coalesce(max(b.changes), 0) AS changes, sum(d.duration_sum) AS duration_sum, max(d.duration_max) AS duration_max,
      sum(d.timed_runs) AS timed_runs, max(b.first_outcome) AS first_outcome, max(b.last_outcome) AS last_outcome, max(d.last_run_at) AS last_run_at,
      max(CASE WHEN d.failed > 0 THEN d.day END) AS last_failed_day
      FROM d LEFT JOIN boundaries b ON b.test_id = d.test_id AND b.browser = d.browser
      GROUP BY d.test_id, d.browser
      ) k;
    `,
  },
  {
    version: 7,
    name: 'daily totals covering index',
    sql: `
      -- The daily totals of a window (GET /api/trends) read in day order from the index alone:
      -- through daily_test_stats_day every row was a lookup into the table (a million for a
      -- month of a 50,000-test suite).
      CREATE INDEX daily_test_stats_day_totals ON daily_test_stats(day, runs, passed, failed, skipped, duration_sum, timed_runs);
    `,
  },
  {
    version: 8,
    name: 'CI build of a run',
    sql: `
      -- The CI build (workflow run, pipeline) a run came from, and its page. The shards of one
      -- build are one run on every screen: grouped by this id when read (build-groups.ts).
      ALTER TABLE runs ADD COLUMN build_id TEXT;
      ALTER TABLE runs ADD COLUMN build_url TEXT;
    `,
  },
  {
    version: 9,
    name: 'rate limits and unknown sign-in names shared by servers',
    sql: (d) => `
      -- The sign-in and AI rate limits, counted in the database so that several servers on one
      -- database share one count per address or user: a fixed window per key, its
      -- hits, and when it ends (rate-limits.ts). Ended windows are deleted as the server goes.
      CREATE TABLE rate_limits (
        limit_key TEXT NOT NULL PRIMARY KEY,
        window_start ${d.int} NOT NULL,
        window_end ${d.int} NOT NULL,
        hits ${d.int} NOT NULL
      )${d.strictWithoutRowid};
      CREATE INDEX rate_limits_end ON rate_limits(window_end);

      -- Failed sign-ins to names no account has, counted as login_failures counts them for
      -- accounts, so an unknown name answers like a known one on every server (a name that
      -- locks after five failures across servers exists otherwise). The name is kept only as
      -- its SHA-256: what people type as a name is sometimes a password.
      CREATE TABLE unknown_login_failures (
        name_hash TEXT NOT NULL,
        address TEXT NOT NULL,
        failures ${d.int} NOT NULL,
        last_failed_at ${d.int} NOT NULL,
        locked_until ${d.int},
        PRIMARY KEY (name_hash, address)
      )${d.strictWithoutRowid};
      CREATE INDEX unknown_login_failures_last ON unknown_login_failures(last_failed_at);
    `,
  },
  {
    version: 10,
    name: 'daily rows in day order with their figures',
    sql: `
      -- A short window of a long history (7 days of 100) is read in day order (window-scan.ts).
      -- Through the index on day alone every row was a lookup into the table, 3 µs a row: a
      -- 7-day dashboard of 5,000,000 results cost more than passing over all of them. With the
      -- figures in the index the window is one range of it, about 1 µs a row whatever the
      -- history holds. It replaces the index on day and migration 7's daily totals index: its
      -- leading day serves their reads, and each import then updates one index of its rows, not
      -- three (the totals index's keys fell at random places within a day: a tenth of the
      -- compact 50,000-test import's CPU went to its inserts).
      -- IF EXISTS: an operator may have dropped either by hand; the migration must not stop on it.
      DROP INDEX IF EXISTS daily_test_stats_day;
      DROP INDEX IF EXISTS daily_test_stats_day_totals;
      CREATE INDEX daily_test_stats_by_day ON daily_test_stats(day, test_id, browser, runs, passed, failed, skipped, passed_on_retry,
        scored_passed, scored_failed, attempts, changes, first_outcome, last_outcome, duration_sum, timed_runs, duration_max);
    `,
  },
  {
    version: 11,
    name: 'how a run arrived',
    sql: `
      -- Who or what stored a run when no one signed in uploaded it: 'token NAME' for an API
      -- token, 'reporter on HOST' for the Playwright reporter, 'import on HOST' for the CLI. The
      -- review list shows it, so runs from the command line can be told apart.
      ALTER TABLE runs ADD COLUMN uploaded_via TEXT;
    `,
  },
  {
    version: 12,
    name: 'what an API token may do',
    sql: `
      -- A token's scopes, space-separated: 'upload' (send runs), 'read' (the read routes, the
      -- gate, MCP) and 'approve' (its runs are kept at once, when its user may review). Tokens
      -- made before keep what they could do, upload and read; none may approve unless made to.
      ALTER TABLE api_tokens ADD COLUMN scopes TEXT NOT NULL DEFAULT 'upload read';
    `,
  },
  {
    version: 13,
    name: 'failure evidence',
    sql: (d) => `
      -- Evidence blobs (screenshots, videos, traces), stored once each by their SHA-256 in the
      -- evidence store (a folder or an object store; server/store/evidence/). The row says the
      -- blob is there: it is written after the blob and deleted before it. \`failing\`: some
      -- attachment of a failed test refers to it, so the quota drops it after passing runs' evidence.
      CREATE TABLE evidence_blobs (
        sha256 TEXT NOT NULL PRIMARY KEY,
        size ${d.int} NOT NULL,
        content_type TEXT NOT NULL,
        stored_at ${d.int} NOT NULL,
        failing ${d.int} NOT NULL DEFAULT 0
      )${d.strictWithoutRowid};
      CREATE INDEX evidence_blobs_quota ON evidence_blobs(failing, stored_at);

      -- The attachments of an attempt, in report order. sha256 is null when no blob was kept; the
      -- state says why (core/api/evidence.ts). No foreign key to evidence_blobs: a dropped blob
      -- leaves its attachment saying so.
      CREATE TABLE attachments (
        result_id ${d.int} NOT NULL,
        retry ${d.int} NOT NULL,
        ordinal ${d.int} NOT NULL,
        name TEXT NOT NULL,
        content_type TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('screenshot', 'video', 'trace', 'error-context', 'other')),
        sha256 TEXT,
        size ${d.int},
        state TEXT NOT NULL CHECK (state IN ('stored', 'too-large', 'not-found', 'dropped', 'not-stored')),
        PRIMARY KEY (result_id, retry, ordinal),
        FOREIGN KEY (result_id, retry) REFERENCES attempts(result_id, retry) ON DELETE CASCADE
      )${d.strictWithoutRowid};
      CREATE INDEX attachments_blob ON attachments(sha256) WHERE sha256 IS NOT NULL;
    `,
  },
  {
    version: 14,
    name: 'webhooks and their outbox',
    sql: (d) => `
      -- Alerts sent to Slack, Microsoft Teams or any JSON receiver (webhooks.md). The URL of a
      -- Slack or Teams hook is itself a secret (whoever has it can post), so the API shows it
      -- masked; a generic hook's signing secret is kept as given because signing needs it.
      -- events: space-separated event names; the thresholds are this hook's own.
      CREATE TABLE webhooks (
        id ${d.id},
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL CHECK (kind IN ('slack', 'teams', 'generic')),
        url TEXT NOT NULL,
        secret TEXT,
        events TEXT NOT NULL,
        base_branch TEXT NOT NULL,
        pass_rate_threshold ${d.real} NOT NULL,
        expiry_days ${d.int} NOT NULL,
        created_by TEXT,
        created_at ${d.int} NOT NULL
      )${d.strict};

      -- The outbox: one row per event and hook, written when the event is found (after the run
      -- is committed) and sent by a server's drain loop. event_key is the event's own id; unique
      -- per hook, so finding an event twice (two servers, a repeated scan) enqueues it once.
      -- A server claims due rows (claimed_by, claimed_until) before sending: a claim that
      -- outlives its server ends at claimed_until and another server takes the row.
      CREATE TABLE webhook_deliveries (
        id ${d.id},
        webhook_id ${d.int} NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
        event_key TEXT NOT NULL,
        event TEXT NOT NULL,
        payload TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('pending', 'sent', 'failed', 'skipped')),
        attempts ${d.int} NOT NULL DEFAULT 0,
        next_attempt_at ${d.int} NOT NULL,
        last_status ${d.int},
        last_error TEXT,
        claimed_by TEXT,
        claimed_until ${d.int},
        created_at ${d.int} NOT NULL,
        sent_at ${d.int},
        UNIQUE (webhook_id, event_key)
      )${d.strict};
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries(state, next_attempt_at);
    `,
  },
  {
    version: 15,
    name: 'audit trail',
    sql: (d) => `
      -- Who changed what, when and from where (accounts/audit.ts). Append-only: no route updates
      -- or deletes a row; prune removes those older than the runs it removes. The actor's name
      -- is kept as it was then: a user removed or renamed later still reads as who acted.
      CREATE TABLE audit_log (
        id ${d.id},
        at ${d.int} NOT NULL,
        actor_id ${d.int},
        actor_name TEXT,
        actor_kind TEXT NOT NULL CHECK (actor_kind IN ('user', 'token', 'cli', 'system')),
        source TEXT NOT NULL,
        action TEXT NOT NULL,
        target_type TEXT,
        target_id TEXT,
        target_label TEXT,
        detail_json TEXT
      )${d.strict};
      CREATE INDEX audit_log_at ON audit_log(at);
      CREATE INDEX audit_log_target ON audit_log(target_type, target_id, at);
      CREATE INDEX audit_log_action ON audit_log(action, at);
    `,
  },
  {
    version: 16,
    name: 'single sign-on',
    sql: (d) => `
      -- An account made by single sign-on is the identity provider's (issuer, subject): the
      -- name can change there and collide here, the pair cannot. Both null for a local account.
      ALTER TABLE users ADD COLUMN oidc_issuer TEXT;
      ALTER TABLE users ADD COLUMN oidc_subject TEXT;
      CREATE UNIQUE INDEX users_oidc_identity ON users(oidc_issuer, oidc_subject);

      -- A sign-in in progress at the identity provider, kept here (not in the browser) so that
      -- any server on the database can finish it: the browser holds only a random flow id in an
      -- HttpOnly cookie, stored as its SHA-256. 'pending' until the provider sends the browser
      -- back, 'done' (with the account) until the page exchanges it for a session, once.
      CREATE TABLE oidc_flows (
        flow_hash TEXT NOT NULL PRIMARY KEY,
        stage TEXT NOT NULL CHECK (stage IN ('pending', 'exchanging', 'done')),
        state TEXT NOT NULL,
        nonce TEXT NOT NULL,
        code_verifier TEXT NOT NULL,
        redirect_uri TEXT NOT NULL,
        return_to TEXT NOT NULL,
        user_id ${d.int} REFERENCES users(id) ON DELETE CASCADE,
        created_at ${d.int} NOT NULL,
        expires_at ${d.int} NOT NULL
      )${d.strictWithoutRowid};
      CREATE INDEX oidc_flows_expires ON oidc_flows(expires_at);
    `,
  },
  {
    version: 17,
    name: 'test owners',
    sql: (d) => `
      -- Who owns each test: its own owner annotations or @owner: tags, else the CODEOWNERS
      -- entry of its file. Replaced for the tests of every stored run, so the newest wins. The
      -- index on owner makes the flaky list's owner filter a lookup of that owner's tests.
      CREATE TABLE test_owners (
        test_id ${d.int} NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
        owner TEXT NOT NULL,
        source TEXT NOT NULL CHECK (source IN ('annotation', 'tag', 'codeowners')),
        PRIMARY KEY (test_id, owner)
      )${d.strictWithoutRowid};
      CREATE INDEX test_owners_owner ON test_owners(owner, test_id);
    `,
  },
  {
    version: 18,
    name: 'per-branch daily rollup',
    sql: (d) => `
      -- The branches runs were stored on, by a small id: the per-branch rollup's rows carry the
      -- id, not the name. A name stays once added (a pruned branch's id is harmless).
      CREATE TABLE branches (
        id ${d.id},
        name TEXT NOT NULL UNIQUE
      )${d.strict};

      -- daily_test_stats's figures per branch (runs.git_branch), so a branch filter reads its
      -- days as the unfiltered answers read all of them. Keyed by branch first: a read is one
      -- branch's range of the key, in (test, browser, day) order. Kept by the same writers, in
      -- the same transactions (rollups.ts); a run without a branch has no rows here.
      CREATE TABLE branch_day_stats (
        branch_id ${d.int} NOT NULL REFERENCES branches(id),
        test_id ${d.int} NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
        browser TEXT NOT NULL,
        day ${d.int} NOT NULL,
        runs ${d.int} NOT NULL,
        passed ${d.int} NOT NULL,
        failed ${d.int} NOT NULL,
        skipped ${d.int} NOT NULL,
        passed_on_retry ${d.int} NOT NULL,
        duration_sum ${d.real} NOT NULL,
        duration_max ${d.real} NOT NULL,
        timed_runs ${d.int} NOT NULL,
        scored_runs ${d.int} NOT NULL,
        scored_passed ${d.int} NOT NULL,
        scored_failed ${d.int} NOT NULL,
        attempts ${d.int} NOT NULL,
        changes ${d.int} NOT NULL,
        first_outcome ${d.int},
        last_outcome ${d.int},
        last_run_at ${d.int} NOT NULL,
        PRIMARY KEY (branch_id, test_id, browser, day)
      )${d.strictWithoutRowid};

      -- The history so far, by the rollup's own aggregation (rollup-shape.ts), per branch.
      INSERT INTO branches (name) SELECT DISTINCT git_branch FROM runs WHERE git_branch IS NOT NULL ORDER BY git_branch;
      INSERT INTO branch_day_stats (branch_id, test_id, browser, day, runs, passed, failed, skipped, passed_on_retry, duration_sum, duration_max,
        timed_runs, scored_runs, scored_passed, scored_failed, attempts, changes, first_outcome, last_outcome, last_run_at)
      ${aggregate(ALL_BRANCH_RESULTS, d, BRANCH_DAY_KEYS)};
    `,
  },
  {
    version: 19,
    name: 'monthly rollup',
    sql: (d) => `
      -- daily_test_stats's figures per calendar month (every branch), so a long window reads its
      -- whole months here and only the days at its edges from the daily rollup. The month is the
      -- UTC day it starts on. Its changes count those within its days and between its
      -- consecutive days, and its first and last outcome are its first and last day's with
      -- attempts: a window adds the changes between months and days from those, as between days.
      -- Keyed by month first: a read is one range of months across every test. Kept by the same
      -- writers, in the same transactions (rollups.ts), rebuilt from the touched days.
      CREATE TABLE month_stats (
        month ${d.int} NOT NULL,
        test_id ${d.int} NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
        browser TEXT NOT NULL,
        runs ${d.int} NOT NULL,
        passed ${d.int} NOT NULL,
        failed ${d.int} NOT NULL,
        skipped ${d.int} NOT NULL,
        passed_on_retry ${d.int} NOT NULL,
        duration_sum ${d.real} NOT NULL,
        duration_max ${d.real} NOT NULL,
        timed_runs ${d.int} NOT NULL,
        scored_runs ${d.int} NOT NULL,
        scored_passed ${d.int} NOT NULL,
        scored_failed ${d.int} NOT NULL,
        attempts ${d.int} NOT NULL,
        changes ${d.int} NOT NULL,
        first_outcome ${d.int},
        last_outcome ${d.int},
        last_run_at ${d.int} NOT NULL,
        PRIMARY KEY (month, test_id, browser)
      )${d.strictWithoutRowid};

      -- The history so far, from its days by the rollup's own rule (rollup-shape.ts).
      INSERT INTO month_stats (test_id, browser, month, runs, passed, failed, skipped, passed_on_retry, duration_sum, duration_max,
        timed_runs, scored_runs, scored_passed, scored_failed, attempts, changes, first_outcome, last_outcome, last_run_at)
      ${periodsOfDays(allDaysBy(d, MONTH), d, MONTH)};
    `,
  },
  {
    version: 20,
    name: 'weekly rollup',
    sql: (d) => `
      -- daily_test_stats's figures per week (Monday to Sunday, UTC; every branch), so a window
      -- reads the whole weeks outside its whole months here: a 30-day window holds a whole month
      -- on few days, but three or four whole weeks on every one. The week is the UTC day its
      -- Monday is (rollup-shape.ts WEEK); its figures compose as month_stats's do. Keyed by week
      -- first: a read is one range of weeks across every test. Kept by the same writers, in the
      -- same transactions (rollups.ts), rebuilt from the touched days.
      CREATE TABLE week_stats (
        week ${d.int} NOT NULL,
        test_id ${d.int} NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
        browser TEXT NOT NULL,
        runs ${d.int} NOT NULL,
        passed ${d.int} NOT NULL,
        failed ${d.int} NOT NULL,
        skipped ${d.int} NOT NULL,
        passed_on_retry ${d.int} NOT NULL,
        duration_sum ${d.real} NOT NULL,
        duration_max ${d.real} NOT NULL,
        timed_runs ${d.int} NOT NULL,
        scored_runs ${d.int} NOT NULL,
        scored_passed ${d.int} NOT NULL,
        scored_failed ${d.int} NOT NULL,
        attempts ${d.int} NOT NULL,
        changes ${d.int} NOT NULL,
        first_outcome ${d.int},
        last_outcome ${d.int},
        last_run_at ${d.int} NOT NULL,
        PRIMARY KEY (week, test_id, browser)
      )${d.strictWithoutRowid};

      -- The history so far, from its days by the rollup's own rule (rollup-shape.ts).
      INSERT INTO week_stats (test_id, browser, week, runs, passed, failed, skipped, passed_on_retry, duration_sum, duration_max,
        timed_runs, scored_runs, scored_passed, scored_failed, attempts, changes, first_outcome, last_outcome, last_run_at)
      ${periodsOfDays(allDaysBy(d, WEEK), d, WEEK)};
    `,
  },
  {
    version: 21,
    name: 'per-branch monthly and weekly rollups',
    sql: (d) => `
      -- month_stats's and week_stats's figures per branch (branch_day_stats's periods), so a
      -- branch filter reads a window's whole months and weeks here and only its edge days from
      -- branch_day_stats, as the unfiltered answers do. Keyed by branch, then period: a read is
      -- one range of one branch's periods across every test. Kept by the same writers, in the
      -- same transactions (rollups.ts), rebuilt from the branch's touched days.
      CREATE TABLE branch_month_stats (
        branch_id ${d.int} NOT NULL REFERENCES branches(id),
        month ${d.int} NOT NULL,
        test_id ${d.int} NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
        browser TEXT NOT NULL,
        runs ${d.int} NOT NULL,
        passed ${d.int} NOT NULL,
        failed ${d.int} NOT NULL,
        skipped ${d.int} NOT NULL,
        passed_on_retry ${d.int} NOT NULL,
        duration_sum ${d.real} NOT NULL,
        duration_max ${d.real} NOT NULL,
        timed_runs ${d.int} NOT NULL,
        scored_runs ${d.int} NOT NULL,
        scored_passed ${d.int} NOT NULL,
        scored_failed ${d.int} NOT NULL,
        attempts ${d.int} NOT NULL,
        changes ${d.int} NOT NULL,
        first_outcome ${d.int},
        last_outcome ${d.int},
        last_run_at ${d.int} NOT NULL,
        PRIMARY KEY (branch_id, month, test_id, browser)
      )${d.strictWithoutRowid};

      CREATE TABLE branch_week_stats (
        branch_id ${d.int} NOT NULL REFERENCES branches(id),
        week ${d.int} NOT NULL,
        test_id ${d.int} NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
        browser TEXT NOT NULL,
        runs ${d.int} NOT NULL,
        passed ${d.int} NOT NULL,
        failed ${d.int} NOT NULL,
        skipped ${d.int} NOT NULL,
        passed_on_retry ${d.int} NOT NULL,
        duration_sum ${d.real} NOT NULL,
        duration_max ${d.real} NOT NULL,
        timed_runs ${d.int} NOT NULL,
        scored_runs ${d.int} NOT NULL,
        scored_passed ${d.int} NOT NULL,
        scored_failed ${d.int} NOT NULL,
        attempts ${d.int} NOT NULL,
        changes ${d.int} NOT NULL,
        first_outcome ${d.int},
        last_outcome ${d.int},
        last_run_at ${d.int} NOT NULL,
        PRIMARY KEY (branch_id, week, test_id, browser)
      )${d.strictWithoutRowid};

      -- A branch's edge days by day: its (test, browser, day) key would read all its days. It
      -- holds every figure a window reads, as daily_test_stats_by_day does (migration 10): a
      -- lookup of each row in the table cost some thirty times the index's own read.
      CREATE INDEX branch_day_stats_by_day ON branch_day_stats(branch_id, day, test_id, browser, runs, passed, failed, skipped, passed_on_retry,
        scored_passed, scored_failed, attempts, changes, first_outcome, last_outcome, duration_sum, timed_runs, duration_max);

      -- The history so far, from each branch's days by the rollup's own rule (rollup-shape.ts).
      INSERT INTO branch_month_stats (branch_id, test_id, browser, month, runs, passed, failed, skipped, passed_on_retry, duration_sum, duration_max,
        timed_runs, scored_runs, scored_passed, scored_failed, attempts, changes, first_outcome, last_outcome, last_run_at)
      ${periodsOfDays(allBranchDaysBy(d, MONTH), d, MONTH, true)};
      INSERT INTO branch_week_stats (branch_id, test_id, browser, week, runs, passed, failed, skipped, passed_on_retry, duration_sum, duration_max,
        timed_runs, scored_runs, scored_passed, scored_failed, attempts, changes, first_outcome, last_outcome, last_run_at)
      ${periodsOfDays(allBranchDaysBy(d, WEEK), d, WEEK, true)};
    `,
  },
  {
    version: 22,
    name: 'kept answers',
    sql: (d) => `
      -- The analytics answers people ask for, kept with the data version they were computed
      -- from (server/store/write/kept-answers.ts), so a restarted server answers at once and
      -- recomputes them in the background when the data changes (docs/operations.md#kept-answers).
      -- json is NULL once its version is stale: a deleted run's text does not outlive the run.
      CREATE TABLE kept_answers (
        key TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        args TEXT NOT NULL,
        version TEXT,
        json TEXT,
        asked_at ${d.int} NOT NULL
      )${d.strict};
    `,
  },
  {
    version: 23,
    name: 'how often kept answers are asked for',
    sql: (d) => `
      -- The spans of ten minutes in which someone asked for a kept answer: the answers a team
      -- keeps coming back to are computed ahead and kept before one-off ones asked more recently.
      ALTER TABLE kept_answers ADD COLUMN asks ${d.int} NOT NULL DEFAULT 1;
    `,
  },
  {
    version: 24,
    name: 'per-branch all-time totals',
    sql: (d) => `
      -- test_totals's figures per branch, so one branch's flaky list, slow list and dashboard
      -- over all history read one row per test and browser, as every branch's do, instead of
      -- summing a year of the branch's months. Kept by the same writers, in the same
      -- transactions (rollups.ts): a run in time order adds to its branch's rows, anything else
      -- rebuilds the touched keys from their months (rollup-shape.ts branchTotalsOfMonths).
      CREATE TABLE branch_test_totals (
        branch_id ${d.int} NOT NULL REFERENCES branches(id),
        test_id ${d.int} NOT NULL REFERENCES tests(id) ON DELETE CASCADE,
        browser TEXT NOT NULL,
        runs ${d.int} NOT NULL,
        passed ${d.int} NOT NULL,
        failed ${d.int} NOT NULL,
        skipped ${d.int} NOT NULL,
        passed_on_retry ${d.int} NOT NULL,
        scored_passed ${d.int} NOT NULL,
        scored_failed ${d.int} NOT NULL,
        attempts ${d.int} NOT NULL,
        changes ${d.int} NOT NULL,
        duration_sum ${d.real} NOT NULL,
        duration_max ${d.real} NOT NULL,
        timed_runs ${d.int} NOT NULL,
        first_outcome ${d.int},
        last_outcome ${d.int},
        last_run_at ${d.int} NOT NULL,
        last_failed_at ${d.int},
        PRIMARY KEY (branch_id, test_id, browser)
      )${d.strictWithoutRowid};

      -- The history so far, from every branch's months.
      INSERT INTO branch_test_totals (branch_id, test_id, browser, runs, passed, failed, skipped, passed_on_retry, scored_passed, scored_failed,
        attempts, changes, duration_sum, duration_max, timed_runs, first_outcome, last_outcome, last_run_at, last_failed_at)
      ${branchTotalsOfMonths('SELECT * FROM branch_month_stats', d)};
    `,
  },
  {
    version: 25,
    name: 'error patterns covering index',
    sql: `
      -- The error patterns of a window read every error row of its days: through the index on
      -- (day, fingerprint), each row's occurrences were then looked up in the table, at random
      -- places of it. At ten million results the 30 days' 93,000 rows cost 2.1 to 3.3 s read
      -- cold from the disk (0.5 s from the page cache); with the occurrences in the index the
      -- window is one range of it: 0.4 s cold, 0.25 s from the cache
      -- (docs/benchmarks.md#ten-million-results). The test and browser are named for
      -- PostgreSQL, whose index holds only the columns it lists (SQLite's holds the key too).
      -- IF EXISTS and IF NOT EXISTS, as migration 10: it may run again on a file whose version
      -- was set back, and an operator may have dropped the old index by hand.
      DROP INDEX IF EXISTS daily_error_stats_day;
      CREATE INDEX IF NOT EXISTS daily_error_stats_by_day ON daily_error_stats(day, fingerprint, test_id, browser, occurrences);
    `,
  },
];
