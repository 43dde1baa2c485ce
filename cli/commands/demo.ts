import type { Command } from 'commander';
import { openStore } from '../../server/store/open.js';
import { seedDemo } from '../../server/demo.js';
import { dbOption, resolveDbPath } from '../options.js';

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description('fill an empty database with a generated month of demo history')
    .addOption(dbOption())
    .action(async (options: { db: string }) => {
      const path = resolveDbPath(options.db);
      const store = openStore(path);
      try {
        const existing = (store.sqlite.prepare('SELECT count(*) AS n FROM runs').get() as { n: number }).n;
        if (existing > 0) {
          process.stdout.write(`${path} already holds ${existing} runs; the demo history is only added to an empty database.\n`);
          return;
        }
        const s = seedDemo(store);
        const day = (t: number) => new Date(t).toISOString().slice(0, 10);
        process.stdout.write(
          [
            `Stored a demo history in ${path}:`,
            `  ${s.runs} runs from ${day(s.from)} to ${day(s.to)} (${s.pending} pending review, ${s.duplicates} duplicate)`,
            `  ${s.results} test results: ${s.passed} passed, ${s.failed} failed, ${s.flaky} flaky, ${s.skipped} skipped`,
            '',
          ].join('\n'),
        );
      } finally {
        await store.close();
      }
    });
}
