/**
 * The JSON written by Playwright's json reporter, as far as flakeboard reads it.
 * Every field is optional unless Playwright has written it in every version since 1.12;
 * see ../shared/playwright-json-format.md for the version history behind each field.
 */

export type PwAttemptStatus = 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
export type PwOutcome = 'expected' | 'unexpected' | 'flaky' | 'skipped';

export interface PwLocation {
  file: string;
  line: number;
  column: number;
}

export interface PwError {
  message?: string;
  stack?: string;
  value?: string;
  location?: PwLocation;
  snippet?: string;
  cause?: PwError;
}

export interface PwAnnotation {
  type: string;
  description?: string;
  location?: PwLocation;
}

export interface PwStdioChunk {
  text?: string;
  buffer?: string;
}

export interface PwAttachment {
  name: string;
  contentType: string;
  path?: string;
  body?: string;
  /** flakeboard's upload: the SHA-256 of the bytes sent before the run (PUT /api/evidence/{sha256}); never a path to read. */
  sha256?: string;
}

export interface PwStep {
  title: string;
  duration: number;
  error?: PwError;
  steps?: PwStep[];
}

export interface PwResult {
  workerIndex?: number;
  parallelIndex?: number;
  status: PwAttemptStatus;
  duration: number;
  error?: PwError;
  errors?: Array<{ message: string; location?: PwLocation }>;
  stdout?: PwStdioChunk[];
  stderr?: PwStdioChunk[];
  retry: number;
  steps?: PwStep[];
  startTime?: string;
  annotations?: PwAnnotation[];
  attachments?: PwAttachment[];
  errorLocation?: Partial<PwLocation>;
}

export interface PwTest {
  timeout?: number;
  annotations?: PwAnnotation[];
  expectedStatus: PwAttemptStatus;
  projectId?: string;
  projectName: string;
  results: PwResult[];
  status?: PwOutcome;
}

export interface PwSpec {
  title: string;
  ok?: boolean;
  tags?: string[];
  tests: PwTest[];
  id?: string;
  file: string;
  line: number;
  column: number;
}

export interface PwSuite {
  title: string;
  file: string;
  line?: number;
  column?: number;
  specs: PwSpec[];
  suites?: PwSuite[];
}

export interface PwProject {
  id?: string;
  name: string;
  outputDir?: string;
  repeatEach?: number;
  retries?: number;
  metadata?: Record<string, unknown>;
  testDir?: string;
  timeout?: number;
  /** Never written by Playwright's reporter, but read when a hand-made report carries it. */
  use?: { browserName?: string };
}

export interface PwConfig {
  configFile?: string;
  rootDir?: string;
  version?: string;
  projects: PwProject[];
  shard?: { current: number; total: number } | null;
  workers?: number;
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface PwStats {
  startTime?: string;
  duration?: number;
  expected?: number;
  unexpected?: number;
  flaky?: number;
  skipped?: number;
}

export interface PwReport {
  config: PwConfig;
  suites: PwSuite[];
  errors?: PwError[];
  stats?: PwStats;
}
