/**
 * Reads a JSON object given as chunks of text without holding it whole: each top-level member
 * comes out as its own text, and the elements of one array member (`split`) one by one. A
 * 300 MB report is then never one string or one object tree, only a file suite at a time.
 *
 * The scanner only finds where values end (strings, brackets); JSON.parse of each piece checks
 * the rest. Linear in the input: a state machine fed chunk after chunk, with no regex and no
 * re-scanning, and a piece spread over many chunks is joined once.
 */

/** The raw text of one piece and where it starts in the whole input (in characters). */
export interface RawPiece {
  /** A member's value, one element of the split array, or the news that the split array opened. */
  kind: 'member' | 'element' | 'array';
  /** The member's key; for an element, the split array's key. */
  key: string;
  /** The element's index in the split array (0 otherwise). */
  index: number;
  /** The value's JSON text ('' for 'array'). */
  text: string;
  offset: number;
}

/** Malformed JSON: the reason in words, and where (a character offset, or the end of input). */
export class JsonTextError extends Error {
  constructor(
    readonly reason: string,
    readonly offset: number | 'end',
  ) {
    super(reason);
    this.name = 'JsonTextError';
  }
}

const enum Mode {
  Start,
  Key,
  Colon,
  Value,
  After,
  Elements,
  ElementAfter,
  Capture,
  Done,
}

const enum Target {
  Key,
  Member,
  Element,
}

const QUOTE = 34;
const BACKSLASH = 92;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

export class JsonPieceScanner {
  private mode = Mode.Start;
  private key = '';
  private members = 0;
  private elements = 0;
  // The value being captured.
  private target = Target.Member;
  private compound = false;
  private primitive = false;
  private depth = 0;
  private inString = false;
  private escape = false;
  private parts: string[] = [];
  private startOffset = 0;
  private readonly out: RawPiece[] = [];

  constructor(
    private readonly split: string,
    /** Where the first chunk starts in the whole input, for error positions. */
    private base = 0,
    /** Text after the closing brace is ignored instead of refused (a report cut out of a log). */
    private readonly trailingAllowed = false,
  ) {}

  /** Whether the object has closed. */
  get done(): boolean {
    return this.mode === Mode.Done;
  }

  /** Feeds the next chunk; returns the pieces it completed. */
  feed(s: string): RawPiece[] {
    const n = s.length;
    let i = 0;
    let captureFrom = this.mode === Mode.Capture ? 0 : -1;
    while (i < n) {
      if (this.mode === Mode.Capture) {
        const end = this.scanValue(s, i);
        if (end < 0) {
          this.parts.push(s.slice(captureFrom));
          break;
        }
        const text = this.parts.length > 0 ? this.parts.join('') + s.slice(captureFrom, end) : s.slice(captureFrom, end);
        this.parts = [];
        this.complete(text);
        i = end;
        captureFrom = -1;
        continue;
      }
      const c = s.charCodeAt(i);
      if (isSpace(c)) {
        i++;
        continue;
      }
      if (this.mode === Mode.Done) {
        if (this.trailingAllowed) return this.take();
        throw new JsonTextError('Unexpected non-whitespace character after JSON', this.base + i);
      }
      const offset = this.base + i;
      switch (this.mode) {
        case Mode.Start:
          if (c !== 123) throw new JsonTextError(`Unexpected token '${s[i]}', expected '{'`, offset);
          this.mode = Mode.Key;
          i++;
          break;
        case Mode.Key:
          if (c === 125 && this.members === 0) {
            this.mode = Mode.Done;
            i++;
          } else if (c === QUOTE) {
            this.begin(Target.Key, offset);
            captureFrom = i;
          } else throw new JsonTextError('Expected double-quoted property name', offset);
          break;
        case Mode.Colon:
          if (c !== 58) throw new JsonTextError("Expected ':' after property name", offset);
          this.mode = Mode.Value;
          i++;
          break;
        case Mode.Value:
          this.members++;
          if (this.key === this.split && c === 91) {
            this.mode = Mode.Elements;
            this.elements = 0;
            this.out.push({ kind: 'array', key: this.key, index: 0, text: '', offset });
            i++;
          } else {
            this.begin(Target.Member, offset);
            captureFrom = i;
          }
          break;
        case Mode.After:
          if (c === 44) this.mode = Mode.Key;
          else if (c === 125) this.mode = Mode.Done;
          else throw new JsonTextError("Expected ',' or '}' after property value", offset);
          i++;
          break;
        case Mode.Elements:
          if (c === 93 && this.elements === 0) {
            this.mode = Mode.After;
            i++;
          } else if (c === 93 || c === 44) {
            throw new JsonTextError(`Unexpected token '${s[i]}'`, offset);
          } else {
            this.begin(Target.Element, offset);
            captureFrom = i;
          }
          break;
        case Mode.ElementAfter:
          if (c === 44) this.mode = Mode.Elements;
          else if (c === 93) this.mode = Mode.After;
          else throw new JsonTextError("Expected ',' or ']' after array element", offset);
          // After a comma another element must follow: counted, so ']' is refused there.
          this.elements++;
          i++;
          break;
      }
    }
    this.base += n;
    return this.take();
  }

  /** The input has ended: returns the last pieces, or throws if the object is incomplete. */
  end(): RawPiece[] {
    if (this.mode !== Mode.Done) throw new JsonTextError('Unexpected end of JSON input', 'end');
    return this.take();
  }

  private take(): RawPiece[] {
    return this.out.splice(0, this.out.length);
  }

  private begin(target: Target, offset: number): void {
    this.mode = Mode.Capture;
    this.target = target;
    this.startOffset = offset;
    this.depth = 0;
    this.inString = false;
    this.escape = false;
    this.compound = false;
    this.primitive = false;
  }

  private complete(text: string): void {
    const offset = this.startOffset;
    switch (this.target) {
      case Target.Key:
        this.key = parsePiece(text, offset) as string;
        this.mode = Mode.Colon;
        break;
      case Target.Member:
        this.out.push({ kind: 'member', key: this.key, index: 0, text, offset });
        this.mode = Mode.After;
        break;
      case Target.Element:
        this.out.push({ kind: 'element', key: this.key, index: this.elements, text, offset });
        this.mode = Mode.ElementAfter;
        break;
    }
  }

  /** Scans the captured value from `i`: the index just past its end, or -1 if it goes on. */
  private scanValue(s: string, i: number): number {
    const n = s.length;
    if (!this.compound && !this.primitive && !this.inString) {
      // The first character decides the kind of value.
      const c = s.charCodeAt(i);
      if (c === 123 || c === 91) this.compound = true;
      else if (c === QUOTE) {
        this.inString = true;
        i++;
      } else if (c === 44 || c === 125 || c === 93) {
        throw new JsonTextError(`Unexpected token '${s[i]}'`, this.startOffset);
      } else this.primitive = true;
    }
    if (this.primitive) {
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c === 44 || c === 125 || c === 93 || isSpace(c)) return i;
      }
      return -1;
    }
    // Most of a suite's text is strings (jumped over with indexOf) and, when indented, the
    // spaces between them: the loop between strings keeps its state in locals, where the
    // fields would be read and written again for every character.
    let depth = this.depth;
    while (i < n) {
      if (this.inString) {
        if (this.escape) {
          this.escape = false;
          i++;
          continue;
        }
        const q = s.indexOf('"', i);
        if (q < 0) {
          this.escape = backslashesBefore(s, n, i) % 2 === 1;
          break;
        }
        const escaped = backslashesBefore(s, q, i) % 2 === 1;
        i = q + 1;
        if (escaped) continue;
        this.inString = false;
        if (!this.compound) return i;
      }
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        // Indentation first: one comparison for most of what lies between an indented report's strings.
        if (c <= 32) continue;
        if (c === QUOTE) break;
        if (c === 123 || c === 91) depth++;
        else if (c === 125 || c === 93) {
          if (--depth === 0) {
            this.depth = 0;
            return i + 1;
          }
        }
      }
      if (i < n) {
        this.inString = true;
        i++;
      }
    }
    this.depth = depth;
    return -1;
  }
}

/** How many backslashes come right before `end`, not looking before `from`. */
function backslashesBefore(s: string, end: number, from: number): number {
  let k = end - 1;
  while (k >= from && s.charCodeAt(k) === BACKSLASH) k--;
  return end - 1 - k;
}

/** JSON.parse of one piece; a syntax error is placed in the whole input. */
export function parsePiece(text: string, offset: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /position (\d+)/.exec(message);
    const reason = message
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/,?\s*(?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, '')
      .replace(/ in JSON at position \d+/, '')
      .trim();
    throw new JsonTextError(reason, offset + (position ? Number(position[1]) : 0));
  }
}
