import { configDefaults, defineConfig } from 'vitest/config';
import { chromiumPath } from './fixtures/testing/chromium.js';
import { SlowestFirstSequencer } from './fixtures/testing/slowest-first.js';

// The store and API tests run a second time on PostgreSQL: the "postgres" project
// takes the same files with FLAKEBOARD_TEST_ENGINE=postgres (fixtures/testing/store.ts), each
// app or store on a fresh database of the server FLAKEBOARD_TEST_POSTGRES_URL names.
// Files that compare both engines themselves (describeEachEngine, *-engines) are not listed.
const POSTGRES_FILES = [
  'server/routes/*.test.ts',
  'server/app.test.ts',
  'server/consistency.test.ts',
  'server/hostile-text.test.ts',
  'server/account-security.test.ts',
  'server/upload-fuzz.test.ts',
  'server/plugins/json-body.test.ts',
  // The other store tests either compare engines already (accounts, rate-limits, sql, dialect,
  // *-engines) or are about SQLite's own machinery (open, waiting-driver, rollups, test-totals,
  // run-figures, prune: file space, VACUUM, the synchronous rollup rebuild).
  'server/store/read/run-results.test.ts',
  'server/store/read/test-history.test.ts',
  'server/store/write/write-run.test.ts',
  'server/webhooks/drain.test.ts',
];
// Run by the "sqlite-shared-modules" project, without a fresh module graph per file (below):
// every file but those that replace a module.
const SHARED_MODULES = ['{core,server,mcp,fixtures,bench,docs,cli,reporter}/**/*.test.ts', 'ui/src/**/*.test.ts'];
// vi.mock replaces a module for the file that asks: with modules kept from file to file, a file
// after it could get the replacement, or it the real module another file loaded first.
const MOCKS_MODULES = ['server/store/read/run-results.test.ts'];
// Files (not globs), so the isolated "postgres" project can take those of them POSTGRES_FILES names.
const POSTGRES_MOCKS_MODULES = MOCKS_MODULES.filter((file) => POSTGRES_FILES.includes(file));
const HAS_POSTGRES = (process.env.FLAKEBOARD_TEST_POSTGRES_URL ?? '') !== '';
// Vitest may evaluate this file more than once per run: say it once.
const said = globalThis as { flakeboardSaidPostgresSkip?: boolean };
if (!HAS_POSTGRES && !said.flakeboardSaidPostgresSkip) {
  said.flakeboardSaidPostgresSkip = true;
  console.log('PostgreSQL runs of the store and API tests skipped: set FLAKEBOARD_TEST_POSTGRES_URL to run them (docs/development.md, "Tests on PostgreSQL")');
}

export default defineConfig({
  test: {
    // CLI and e2e tests run the built product; the machine has two cores.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Worker threads run from source start from bundles made once per run, not through tsx in each thread.
    // With PostgreSQL, one migrated database the tests' fresh stores are copied from.
    // Temporary files in memory where the machine has a tmpfs, first, so the others' go there too.
    globalSetup: ['fixtures/testing/memory-tmpdir.ts', 'fixtures/testing/worker-bundles.ts', 'fixtures/testing/store-templates.ts'],
    // The reporter suite's real Playwright runs (reporter/, cli/recipes.test.ts) take the browser
    // from CHROMIUM_PATH: the same choice as the browser tests, the headless shell when installed.
    env: { CHROMIUM_PATH: chromiumPath() },
    // Vitest's default on two cores is one worker (cores - 1). Most of a file's time here is
    // spent waiting: on the built binary, a browser, a server or PostgreSQL in another process,
    // or on a lock a test holds on purpose. With two workers the cores were idle a sixth of the
    // run; a third fills that wait (docs/testing.md, "Workers"). Every file makes its own
    // temporary folder, free port and database, so files do not share state.
    maxWorkers: 3,
    // The longest files first, from the durations the repository keeps until this clone has its own.
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      // A fresh module graph per file, for the files that mock a module.
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: [...MOCKS_MODULES],
        },
      },
      // The same, for files that leave no module state behind: a worker process keeps its loaded
      // modules from one file to the next instead of importing the server again for each (about
      // 1.4 s of CPU a file). A file here gives back every stub and environment variable it sets
      // and leaves no fake timers on; a file that mocks a module goes in MOCKS_MODULES.
      { extends: true, test: { name: 'sqlite-shared-modules', include: SHARED_MODULES, exclude: [...configDefaults.exclude, ...MOCKS_MODULES], isolate: false } },
      ...(HAS_POSTGRES
        ? [
            { extends: true as const, test: { name: 'postgres', include: POSTGRES_MOCKS_MODULES, env: { FLAKEBOARD_TEST_ENGINE: 'postgres' } } },
            { extends: true as const, test: { name: 'postgres-shared-modules', include: POSTGRES_FILES, exclude: [...configDefaults.exclude, ...MOCKS_MODULES], isolate: false, env: { FLAKEBOARD_TEST_ENGINE: 'postgres' } } },
          ]
        : []),
    ],
  },
});
