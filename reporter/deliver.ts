import { lastLine, runBinary } from './run-binary.js';

/** Where the run goes: a database file, or a server with a token. */
export type Destination = { kind: 'db'; db: string | null } | { kind: 'server'; server: string; token: string | null };

export interface DeliverOptions {
  destination: Destination;
  reportFile: string;
  /** What the run is called on the review list and recent uploads ('shop-web · main · build 812'). */
  name?: string | undefined;
  /** Store it approved (a database only; a server applies its own review rules). */
  approve?: boolean | undefined;
  /** Who stored it, for a database ('reporter on HOST'); a server names the token instead. */
  uploader?: string | undefined;
  project?: string | undefined;
  branch?: string | undefined;
  commit?: string | undefined;
  buildId?: string | undefined;
  buildUrl?: string | undefined;
  /** The whole delivery, import or upload with its retries, ends by then. */
  timeoutMs: number;
}

export interface Delivered {
  runId: number;
  duplicate: boolean;
  status: 'pending' | 'approved' | 'rejected';
}

/** One line of `flakeboard import|upload --json`. */
interface CliLine {
  file: string;
  runId?: number | null;
  duplicate?: boolean;
  status?: Delivered['status'];
  error?: string;
}


/**
 * Stores or sends the report through the `flakeboard` binary itself: the same git, CI and
 * validation code as a user's `import` or `upload`, in a child process, so nothing it does can
 * throw into or hold up the test run. The token travels in the environment, never on a
 * command line that `ps` shows.
 */
export function deliver(options: DeliverOptions): Promise<Delivered> {
  const { destination } = options;
  const args = destination.kind === 'db' ? ['import', options.reportFile, '--json'] : ['upload', options.reportFile, '--json', '--server', destination.server];
  if (destination.kind === 'db' && destination.db) args.push('--db', destination.db);
  if (destination.kind === 'db' && options.approve) args.push('--approve');
  if (destination.kind === 'db' && options.uploader) args.push('--uploader', options.uploader);
  if (options.name) args.push('--name', options.name);
  if (options.project) args.push('--project', options.project);
  if (options.branch) args.push('--branch', options.branch);
  if (options.commit) args.push('--commit', options.commit);
  if (options.buildId) args.push('--build-id', options.buildId);
  if (options.buildUrl) args.push('--build-url', options.buildUrl);
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (destination.kind === 'server' && destination.token) env.FLAKEBOARD_TOKEN = destination.token;

  return runBinary(args, env, options.timeoutMs).then(({ stdout, stderr }) => {
    const line = parseLine(stdout);
    if (line && typeof line.runId === 'number' && !line.error) return { runId: line.runId, duplicate: line.duplicate ?? false, status: line.status ?? 'pending' };
    throw new Error(withoutPath(line?.error ?? lastLine(stderr) ?? 'flakeboard gave no answer', options.reportFile));
  });
}

/**
 * The CLI names the file it was given, here a temporary one that is gone by the time the user
 * reads the line: the reporter names the run instead, so the path is left out.
 */
function withoutPath(message: string, file: string): string {
  const rest = message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
  return rest.split(file).join('the report');
}

function parseLine(stdout: string): CliLine | null {
  try {
    const parsed = JSON.parse(stdout) as CliLine[];
    return Array.isArray(parsed) ? (parsed[0] ?? null) : null;
  } catch {
    return null;
  }
}
