import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import { databaseFromEnvironment } from './options.js';
import { inertLines } from '../core/terminal-text.js';

// dist/cli.js and cli/main.ts both sit one folder below package.json.
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('flakeboard')
  .description('Understand your Playwright test results: flaky, slow and failing tests, from JSON reports.')
  .version(version, '-V, --version')
  .showHelpAfterError('(add --help for usage)')
  .configureHelp({ sortSubcommands: false });

// Every command, in the order the help lists them; each module is loaded only when it is needed.
type Register = (program: Command) => void;
const COMMANDS: Record<string, () => Promise<Register>> = {
  import: async () => (await import('./commands/import.js')).registerImport,
  serve: async () => (await import('./commands/serve.js')).registerServe,
  upload: async () => (await import('./commands/upload.js')).registerUpload,
  check: async () => (await import('./commands/check.js')).registerCheck,
  quarantine: async () => (await import('./commands/quarantine.js')).registerQuarantine,
  tests: async () => (await import('./commands/tests.js')).registerTests,
  user: async () => (await import('./commands/user.js')).registerUser,
  token: async () => (await import('./commands/token.js')).registerToken,
  audit: async () => (await import('./commands/audit.js')).registerAudit,
  webhook: async () => (await import('./commands/webhook.js')).registerWebhook,
  prune: async () => (await import('./commands/prune.js')).registerPrune,
  backup: async () => (await import('./commands/backup.js')).registerBackup,
  doctor: async () => (await import('./commands/doctor.js')).registerDoctor,
  'migrate-db': async () => (await import('./commands/migrate-db.js')).registerMigrateDb,
  mcp: async () => {
    const { registerMcp } = await import('./commands/mcp.js');
    return (p) => registerMcp(p, version);
  },
};

// `-v` was the version flag before `-V` (the Unix convention): keep it working on its own.
const argv = process.argv.length === 3 && process.argv[2] === '-v' ? [...process.argv.slice(0, 2), '-V'] : process.argv;

// A command names itself first: only its module is loaded, not every other command's server
// code (docs/testing.md, "A command loads only its own module"). Anything else (the help, an
// unknown or misspelt name, which commander answers with the names it knows) registers them all;
// the version needs none.
const asked = argv[2];
const versionOnly = argv.length === 3 && (asked === '-V' || asked === '--version');
const names = asked !== undefined && Object.hasOwn(COMMANDS, asked) ? [asked] : versionOnly ? [] : Object.keys(COMMANDS);
for (const register of await Promise.all(names.map((name) => COMMANDS[name]!()))) register(program);
databaseFromEnvironment(program);

// Plain `flakeboard` is someone asking what it does: the help, and success.
if (argv.length <= 2) program.outputHelp();
else program.parseAsync(argv).catch((error: unknown) => {
  process.stderr.write(`${inertLines(`flakeboard: ${error instanceof Error ? error.message : String(error)}`)}\n`);
  // An error may carry its own code (2: a database the command cannot use, options.ts).
  process.exitCode = typeof (error as { exitCode?: unknown }).exitCode === 'number' ? (error as { exitCode: number }).exitCode : 1;
});
