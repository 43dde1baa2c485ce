import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { failedTests, newTests, pickRuns, projectsOfRuns, timedTests, type ListedTest, type RunPick } from '../../server/store/read/test-lists.js';
import { formatDuration } from '../../core/analytics/formulas.js';
import { balancedShards, countedShards, parseShard, shardTime } from '../shard-balance.js';
import { describeFsError } from '../inputs.js';
import { dbOption } from '../options.js';
import { listNamesProjects, testListLine } from '../test-list.js';
import { withStore } from './admin-common.js';
import { inertLine, inertLines, terminalJson } from '../../core/terminal-text.js';

interface TestsOptions {
  db: string;
  failed?: boolean;
  new?: boolean;
  shard?: string;
  run?: string;
  build?: string;
  branch?: string;
  base: string;
  days: string;
  output?: string;
  json?: boolean;
}

const DAY_MS = 86_400_000;

export function registerTests(program: Command): void {
  program
    .command('tests')
    .description('lists of tests for `npx playwright test --test-list FILE`: what failed in a run (every shard of a build), or what the base branch has never run')
    .addOption(dbOption())
    .option('--failed', 'the tests that failed after retries (flaky ones passed, so are not listed)')
    .option('--new', 'the tests the base branch has not run in the window, for a burn-in job')
    .option('--shard <k/n>', 'shard K of N of the tests the run ran, balanced by each test\'s mean duration over --days, so the shards end together')
    .option('--run <id>', 'this run (default: the newest run, all its shards)')
    .option('--build <id>', 'every report of this CI build id (all shards, the same branch and commit)')
    .option('--branch <name>', 'the newest run on this branch')
    .option('--base <branch>', 'with --new: the branch whose history counts', 'main')
    .option('--days <n>', 'with --new: how far back the base history goes; with --shard: how far back durations are averaged', '30')
    .option('-o, --output <file>', 'write the list to a file instead of standard output')
    .option('--json', 'print [{ project, file, title, titlePath }] instead of the list')
    .action(async (options: TestsOptions, command: Command) => {
      try {
        // The base history decides only what is new: given with --failed it would be ignored, so say so.
        const baseGiven = ['base', 'days'].filter((name) => command.getOptionValueSource(name) === 'cli' && !(name === 'days' && options.shard !== undefined));
        if (!options.new && baseGiven.length > 0) throw new Error(`--${baseGiven.join(' and --')} ${baseGiven.length > 1 ? 'go' : 'goes'} with --new, not --${options.failed ? 'failed' : 'shard'}`);
        await listTests(options);
        process.exitCode = 0;
      } catch (error) {
        process.stderr.write(`${inertLines(`flakeboard tests: ${(error as Error).message}`)}\n`);
        process.exitCode = 1;
      }
    });
}

function pickOf(options: TestsOptions): RunPick {
  if (options.run !== undefined && options.build !== undefined) throw new Error('give --run or --build, not both');
  if (options.branch !== undefined && (options.run !== undefined || options.build !== undefined)) throw new Error('--branch picks the newest run of a branch: leave it out with --run or --build');
  if (options.run !== undefined) {
    const id = Number(options.run);
    if (!/^\d{1,15}$/.test(options.run) || id < 1) throw new Error(`--run must be a run id (a whole number from 1), not ${JSON.stringify(options.run)}`);
    return { kind: 'run', id };
  }
  if (options.build !== undefined) {
    if (options.build.trim() === '') throw new Error('--build must not be empty');
    return { kind: 'build', buildId: options.build };
  }
  if (options.branch !== undefined && options.branch.trim() === '') throw new Error('--branch must not be empty');
  return { kind: 'last', branch: options.branch ?? null };
}

function describePick(pick: RunPick, runIds: readonly number[]): string {
  const shards = runIds.length > 1 ? ` (${runIds.length} reports)` : '';
  if (pick.kind === 'build') return `build ${inertLine(JSON.stringify(pick.buildId))}${shards}`;
  return `run ${runIds[0]}${shards}`;
}

async function listTests(options: TestsOptions): Promise<void> {
  if ([options.failed, options.new, options.shard !== undefined].filter(Boolean).length !== 1) throw new Error('say which list: --failed, --new or --shard K/N');
  const shard = options.shard === undefined ? null : parseShard(options.shard);
  const days = Number(options.days);
  if (!/^\d{1,3}$/.test(options.days) || days < 1 || days > 365) throw new Error(`--days must be a whole number from 1 to 365, not ${JSON.stringify(options.days)}`);
  if (options.base.trim() === '') throw new Error('--base must not be empty');
  const pick = pickOf(options);

  const { tests, note, withProject } = await withStore(options.db, async (store) => {
    const runIds = await pickRuns(store, pick);
    if (runIds === null || runIds.length === 0) {
      if (pick.kind === 'run') throw new Error(`no run ${pick.id} (or it was rejected)`);
      if (pick.kind === 'build') throw new Error(`no run of build ${JSON.stringify(pick.buildId)}`);
      throw new Error(pick.branch === null ? 'no runs stored yet: import a report first' : `no runs of branch ${JSON.stringify(pick.branch)}`);
    }
    const of = describePick(pick, runIds);
    const withProject = listNamesProjects(await projectsOfRuns(store, runIds));
    if (shard !== null) {
      const suite = await timedTests(store, runIds, Date.now() - days * DAY_MS);
      const shards = balancedShards(suite, shard.total);
      const mine = shards[shard.current - 1]!;
      return { tests: mine, withProject, note: `shard ${shard.current}/${shard.total}: ${mine.length} of ${suite.length} test(s) in ${of}, ${formatDuration(shardTime(mine))} by their durations; ${savedWallTime(shards, countedShards(suite, shard.total))}` };
    }
    if (options.failed) {
      const failed = await failedTests(store, runIds);
      return { tests: failed, withProject, note: failed.length === 0 ? `nothing failed in ${of}: the list is empty` : `${failed.length} failed test(s) in ${of}` };
    }
    const found = await newTests(store, runIds, options.base, Date.now() - days * DAY_MS);
    const thin = found.baseRuns === 0 ? ` (${inertLine(options.base)} has no runs in ${days} days, so every test counts as new)` : '';
    return { tests: found.tests, withProject, note: found.tests.length === 0 ? `no test in ${of} is new to ${inertLine(options.base)} in ${days} days: the list is empty` : `${found.tests.length} test(s) in ${of} new to ${inertLine(options.base)} in ${days} days${thin}` };
  });

  const text = options.json ? `${terminalJson(tests, 2)}\n` : listText(tests, withProject);
  if (options.output !== undefined) {
    try {
      await writeFile(options.output, text);
    } catch (error) {
      throw new Error(`${options.output}: cannot write the list: ${describeFsError(error)}`, { cause: error });
    }
  } else process.stdout.write(text);
  process.stderr.write(`flakeboard tests: ${note}\n`);
}

/** What the balance saves: the longest shard against the longest of Playwright's own split by count. */
function savedWallTime(balanced: readonly (readonly { durationMs: number }[])[], counted: readonly (readonly { durationMs: number }[])[]): string {
  const longest = (shards: typeof balanced) => Math.max(0, ...shards.map(shardTime));
  const saved = longest(counted) - longest(balanced);
  const ends = `the longest shard takes ${formatDuration(longest(balanced))}`;
  return saved > 0 ? `${ends}, ${formatDuration(saved)} less than Playwright's --shard ${balanced.length} split by count (${formatDuration(longest(counted))})` : `${ends}, as with Playwright's --shard split by count`;
}

/** The list Playwright reads, one test a line; a test that cannot be a line is named on stderr instead. */
function listText(tests: readonly ListedTest[], withProject: boolean): string {
  const lines: string[] = [];
  for (const test of tests) {
    const made = testListLine(test, withProject);
    if ('line' in made) lines.push(made.line);
    else process.stderr.write(`flakeboard tests: left out ${inertLine(JSON.stringify(test.titlePath.join(' › ')))} in ${inertLine(test.file)} (${inertLine(test.project)}): its name ${made.problem}\n`);
  }
  return lines.map((line) => `${line}\n`).join('');
}
