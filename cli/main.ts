import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerAudit } from './commands/audit.js';
import { registerBackup } from './commands/backup.js';
import { registerCheck } from './commands/check.js';
import { registerDoctor } from './commands/doctor.js';
import { registerImport } from './commands/import.js';
import { registerMigrateDb } from './commands/migrate-db.js';
import { registerMcp } from './commands/mcp.js';
import { registerPrune } from './commands/prune.js';
import { registerQuarantine } from './commands/quarantine.js';
import { registerServe } from './commands/serve.js';
import { registerTests } from './commands/tests.js';
import { registerToken } from './commands/token.js';
import { registerWebhook } from './commands/webhook.js';
import { registerUpload } from './commands/upload.js';
import { registerUser } from './commands/user.js';
import { databaseFromEnvironment } from './options.js';
import { inertLines } from '../core/terminal-text.js';

// dist/cli.js and cli/main.ts both sit one folder below package.json.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('flakeboard')
  .description('Understand your Playwright test results: flaky, slow and failing tests, from JSON reports.')
  .version(version, '-V, --version')
  .showHelpAfterError('(add --help for usage)')
  .configureHelp({ sortSubcommands: false });

registerImport(program);
registerServe(program);
registerUpload(program);
registerCheck(program);
registerQuarantine(program);
registerTests(program);
registerUser(program);
registerToken(program);
registerAudit(program);
registerWebhook(program);
registerPrune(program);
registerBackup(program);
registerDoctor(program);
registerMigrateDb(program);
registerMcp(program, version);
databaseFromEnvironment(program);

// `-v` was the version flag before `-V` (the Unix convention): keep it working on its own.
const argv = process.argv.length === 3 && process.argv[2] === '-v' ? [...process.argv.slice(0, 2), '-V'] : process.argv;

// Plain `flakeboard` is someone asking what it does: the help, and success.
if (argv.length <= 2) program.outputHelp();
else program.parseAsync(argv).catch((error: unknown) => {
  process.stderr.write(`${inertLines(`flakeboard: ${error instanceof Error ? error.message : String(error)}`)}\n`);
  // An error may carry its own code (2: a database the command cannot use, options.ts).
  process.exitCode = typeof (error as { exitCode?: unknown }).exitCode === 'number' ? (error as { exitCode: number }).exitCode : 1;
});
