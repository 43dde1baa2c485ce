import { JsonPieceScanner, JsonTextError, parsePiece, type RawPiece } from './json-pieces.js';
import { InvalidReportError, parseReportText, throwIfProblem } from './parse.js';
import type { PwConfig, PwError, PwReport, PwStats, PwSuite } from './playwright-types.js';
import { validateConfig, validateErrors, validateReport, validateStats, validateSuite, type ReportProblem } from './validate.js';

/**
 * A report in checked parts, in the order an importer needs them: the config, then each
 * top-level suite (a file), then the rest. Reading a 300 MB report this way never holds more
 * than one file suite's objects, and each part is checked as parseReportText checks the whole.
 */
export type ReportPart =
  | { kind: 'config'; config: PwConfig }
  | { kind: 'suite'; suite: PwSuite; index: number }
  | { kind: 'end'; errors: PwError[] | undefined; stats: PwStats | undefined };

/** Inputs up to this size that do not start with '{' go through the whole-text parser. */
const WHOLE_TEXT_LIMIT = 16 * 1024 * 1024;

/**
 * Reads report text given as chunks. `chunks` is a function so that the text can be read a
 * second time to turn an error's offset into a line and column (errors are rare; counting
 * lines on the way would cost every import).
 */
export function* readReportParts(chunks: () => Iterable<string>, fileName: string): Generator<ReportPart, void, undefined> {
  const state = new PartsState(fileName);
  const scanner = new ReportScanner(fileName);
  try {
    // Every chunk takes the same path here: a generator's frame keeps what its last run through
    // a branch left behind, and a branch taken for the first chunk alone kept it (16 MB of a
    // 94 MB report) for the whole import.
    for (const chunk of chunks()) yield* state.take(scanner.feed(chunk));
    const whole = scanner.wholeText();
    if (whole !== null) {
      yield* partsOf(parseReportText(whole, fileName));
      return;
    }
    yield* state.take(scanner.end());
  } catch (error) {
    if (error instanceof JsonTextError) throw new InvalidReportError(fileName, `invalid JSON: ${placeError(error, chunks)}`);
    throw error;
  }
  yield state.finish();
}

const NO_PIECES: readonly RawPiece[] = [];

/** Finds where the report's JSON object starts in its first chunks, then scans it in pieces. */
class ReportScanner {
  private scanner: JsonPieceScanner | null = null;
  private head: string[] = [];
  private headLength = 0;

  constructor(private readonly fileName: string) {}

  feed(chunk: string): readonly RawPiece[] {
    if (this.scanner) return this.scanner.feed(chunk);
    this.head.push(chunk);
    this.headLength += chunk.length;
    const text = this.head.length === 1 ? chunk : this.head.join('');
    const first = text.search(/\S/);
    if (first === -1) return NO_PIECES;
    let start = first;
    if (text.charCodeAt(first) === 123) {
      this.scanner = new JsonPieceScanner('suites', start);
    } else {
      // Lines printed before the JSON (stdout capture), or not an object at all. Small
      // inputs go through parseReportText, which has always told these apart.
      if (this.headLength < WHOLE_TEXT_LIMIT) return NO_PIECES;
      start = text.search(/^\{/m);
      if (start === -1) throw new InvalidReportError(this.fileName, `not a Playwright JSON report: expected a JSON object at the top level, found ${kindOfText(text[first]!)}`);
      this.scanner = new JsonPieceScanner('suites', start, true);
    }
    this.head = [];
    return this.scanner.feed(text.slice(start));
  }

  /** All the text, when it never came to a '{' to scan from (small inputs); else null. */
  wholeText(): string | null {
    return this.scanner ? null : this.head.join('');
  }

  end(): RawPiece[] {
    return this.scanner!.end();
  }
}

/** The parts of a report already parsed whole (an upload's body), checked first. */
export function* partsOf(report: unknown): Generator<ReportPart, void, undefined> {
  const r = report as PwReport;
  yield { kind: 'config', config: r.config };
  for (let i = 0; i < r.suites.length; i++) yield { kind: 'suite', suite: r.suites[i]!, index: i };
  yield { kind: 'end', errors: r.errors, stats: r.stats };
}

export function checkedPartsOf(value: unknown, fileName: string): Generator<ReportPart, void, undefined> {
  throwIfProblem(validateReport(value), fileName);
  return partsOf(value);
}

class PartsState {
  private config: PwConfig | null = null;
  private suitesSeen = false;
  private waiting: RawPiece[] = [];
  private errors: PwError[] | undefined;
  private stats: PwStats | undefined;

  constructor(private readonly fileName: string) {}

  *take(pieces: readonly RawPiece[]): Generator<ReportPart, void, undefined> {
    for (const piece of pieces) {
      if (piece.key === 'suites') {
        if (piece.kind === 'member') this.check({ text: `"suites" must be an array, found ${kindOf(parsePiece(piece.text, piece.offset))}`, limit: false });
        else if (piece.kind === 'array') {
          if (this.suitesSeen) this.check({ text: 'the field "suites" appears twice', limit: false });
          this.suitesSeen = true;
        } else if (this.config === null) {
          // Playwright writes the config first; a report that does not waits, as text.
          this.waiting.push(piece);
        } else yield this.suite(piece);
        continue;
      }
      if (piece.key === 'config') {
        if (this.config !== null) this.check({ text: 'the field "config" appears twice', limit: false });
        const config = parsePiece(piece.text, piece.offset);
        this.check(validateConfig(config));
        this.config = config as PwConfig;
        yield { kind: 'config', config: this.config };
        for (const waiting of this.waiting.splice(0)) yield this.suite(waiting);
      } else if (piece.key === 'errors') {
        const errors = parsePiece(piece.text, piece.offset);
        this.check(validateErrors(errors));
        this.errors = errors as PwError[];
      } else if (piece.key === 'stats') {
        const stats = parsePiece(piece.text, piece.offset);
        this.check(validateStats(stats));
        this.stats = stats as PwStats;
      } else {
        // Not read, but it must still be JSON.
        parsePiece(piece.text, piece.offset);
      }
    }
  }

  finish(): ReportPart {
    if (this.config === null) this.check({ text: 'the field "config" is missing', limit: false });
    if (!this.suitesSeen) this.check({ text: 'the field "suites" is missing', limit: false });
    return { kind: 'end', errors: this.errors, stats: this.stats };
  }

  private suite(piece: RawPiece): ReportPart {
    const suite = parsePiece(piece.text, piece.offset);
    this.check(validateSuite(suite, piece.index));
    return { kind: 'suite', suite: suite as PwSuite, index: piece.index };
  }

  private check(problem: ReportProblem | null): void {
    throwIfProblem(problem, this.fileName);
  }
}

/** "… at line 3, column 7": the offset found again by reading the text once more. */
function placeError(error: JsonTextError, chunks: () => Iterable<string>): string {
  let line = 1;
  let lineStart = 0;
  let base = 0;
  const target = error.offset === 'end' ? Infinity : error.offset;
  for (const chunk of chunks()) {
    const end = Math.min(chunk.length, target - base);
    for (let i = chunk.indexOf('\n'); i !== -1 && i < end; i = chunk.indexOf('\n', i + 1)) {
      line++;
      lineStart = base + i + 1;
    }
    base += chunk.length;
    if (base >= target) break;
  }
  if (error.offset === 'end') return `the file ends before the JSON is complete (truncated?) at line ${line}`;
  return `${error.reason} at line ${line}, column ${error.offset - lineStart + 1}`;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function kindOfText(first: string): string {
  if (first === '[') return 'an array';
  if (first === '"') return 'a string';
  if (first === 't' || first === 'f') return 'a boolean';
  if (first === 'n') return 'null';
  return /[-\d]/.test(first) ? 'a number' : 'text that is not JSON';
}
