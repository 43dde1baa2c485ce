/**
 * Where a JSON text first goes wrong, for the messages V8 gives without a position ("Unexpected
 * token '}', ... is not valid JSON"). One pass, no recursion (deep nesting is normal hostile
 * input), no regular expressions. Runs only after JSON.parse has failed.
 * Returns the offset of the first character that cannot continue a valid text (the length
 * when the text ends too soon), or null when the text is valid.
 */
const MAX_SCAN_DEPTH = 10_000;

export function jsonErrorOffset(text: string): number | null {
  const n = text.length;
  const stack: number[] = [];
  let i = 0;
  const OPEN_OBJECT = 0x7b;
  const code = () => (i < n ? text.charCodeAt(i) : -1);
  const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
  const isHex = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
  const skipSpace = () => {
    for (let c = code(); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = code()) i++;
  };
  const string = (): boolean => {
    i++;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = i + 1 < n ? text.charCodeAt(i + 1) : -1;
        if (e === 0x75) {
          for (let k = 2; k < 6; k++) {
            if (i + k >= n || !isHex(text.charCodeAt(i + k))) {
              i += k;
              return false;
            }
          }
          i += 6;
          continue;
        }
        // " \ / b f n r t
        if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
          i += 2;
          continue;
        }
        i++;
        return false;
      }
      i++;
    }
    return false;
  };
  const digits = (): boolean => {
    if (!isDigit(code())) return false;
    while (isDigit(code())) i++;
    return true;
  };
  const number = (): boolean => {
    if (code() === 0x2d) i++;
    if (code() === 0x30) i++;
    else if (!digits()) return false;
    if (code() === 0x2e) {
      i++;
      if (!digits()) return false;
    }
    if (code() === 0x65 || code() === 0x45) {
      i++;
      if (code() === 0x2b || code() === 0x2d) i++;
      if (!digits()) return false;
    }
    return true;
  };
  const word = (literal: string): boolean => {
    for (let k = 0; k < literal.length; k++, i++) if (code() !== literal.charCodeAt(k)) return false;
    return true;
  };
  /** A key and its colon, after `{` or a comma in an object. */
  const key = (): boolean => {
    skipSpace();
    if (code() !== 0x22 || !string()) return false;
    skipSpace();
    if (code() !== 0x3a) return false;
    i++;
    return true;
  };

  let expectValue = true;
  for (;;) {
    if (expectValue) {
      skipSpace();
      const c = code();
      if (c === -1) return n;
      let ok: boolean;
      if (c === 0x7b || c === 0x5b) {
        i++;
        skipSpace();
        if (code() === (c === 0x7b ? 0x7d : 0x5d)) {
          i++;
          expectValue = false;
          continue;
        }
        // Past any real report's depth: say where it went that deep rather than keep a stack
        // entry per bracket of a hostile "[[[[…" body.
        if (stack.length >= MAX_SCAN_DEPTH) return i;
        stack.push(c);
        if (c === 0x7b && !key()) return i;
        continue;
      } else if (c === 0x22) ok = string();
      else if (c === 0x2d || isDigit(c)) ok = number();
      else if (c === 0x74) ok = word('true');
      else if (c === 0x66) ok = word('false');
      else if (c === 0x6e) ok = word('null');
      else return i;
      if (!ok) return i;
      expectValue = false;
      continue;
    }
    skipSpace();
    if (stack.length === 0) return i < n ? i : null;
    const top = stack[stack.length - 1];
    const c = code();
    if (c === -1) return n;
    if (c === 0x2c) {
      i++;
      if (top === OPEN_OBJECT && !key()) return i;
      expectValue = true;
    } else if (c === (top === OPEN_OBJECT ? 0x7d : 0x5d)) {
      i++;
      stack.pop();
    } else return i;
  }
}

/** Line and column (both from 1) of an offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++;
  return { line, column: offset - text.lastIndexOf('\n', offset - 1) };
}
