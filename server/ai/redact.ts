/**
 * Secrets that end up in test output (a logged request header, a connection string, a token in
 * a URL) must not leave the machine with the evidence sent to a model. Over-redacting a
 * harmless value costs nothing; missing a key leaks it, so the rules lean wide.
 *
 * Report text is hostile input: every rule here runs in time linear in the text. The regexes
 * start only at a fixed word and never rescan a run they have given up on; the two shapes a
 * backtracking regex cannot scan once (a key=value whose key is any run around a secret word,
 * a JWT inside a dashed run) are small scanners below.
 */
const REDACTED = '[REDACTED]';

const RULES: ReadonlyArray<[RegExp, string] | ((text: string) => string)> = [
  // PEM private keys, whole.
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
  // Credentials in URLs: https://user:pass@host. Anchored at "://" (the scheme is kept as it
  // was): a scheme pattern would restart at every "-" or "." of a long dashed run.
  [/:\/\/[^/\s:@'"]+:[^/\s@'"]*@/g, `://${REDACTED}@`],
  // Bearer tokens wherever they appear (headers, curl lines, logs); other schemes only after
  // an Authorization key, so a test titled "Basic checkout" keeps its title.
  [/\bBearer\s+[A-Za-z0-9\-._~+/]+=*/g, `Bearer ${REDACTED}`],
  [/\b(authorization)("?\s*[:=]\s*"?)(?!(?:Bearer\s+)?\[REDACTED\])(?:(?:Basic|Digest|Token|Bearer)\s+)?[^\s"',;]+/gi, `$1$2${REDACTED}`],
  // Cookie headers carry session ids.
  [/\b((?:set-)?cookie)(\s*[:=]\s*)[^\n]+/gi, `$1$2${REDACTED}`],
  // Well-known token shapes.
  redactJwts,
  [/\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g, REDACTED], // OpenAI-style and Stripe keys
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}/g, REDACTED],
  [/\bxox[abeoprs]-[A-Za-z0-9-]{10,}/g, REDACTED], // Slack
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED], // AWS access key ids
  [/\bglpat-[A-Za-z0-9_-]{20,}/g, REDACTED], // GitLab
  [/\bAIza[0-9A-Za-z_-]{35}/g, REDACTED], // Google API keys
  redactKeyValues,
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const rule of RULES) out = typeof rule === 'function' ? rule(out) : out.replace(rule[0], rule[1]);
  return out;
}

const isTokenChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45; // [A-Za-z0-9_-]

function tokenEnd(text: string, from: number): number {
  let i = from;
  while (i < text.length && isTokenChar(text.charCodeAt(i))) i++;
  return i;
}

const JWT_START = /\beyJ/g;

/**
 * JWTs: "eyJ" after a \b, 5+ of [\w-], ".", 5+ of [\w-], ".", any [\w-]. Scanned once: every
 * "eyJ" of one dashed run shares the run's end, so when the first fails the others do too and the
 * search skips to that end.
 */
function redactJwts(text: string): string {
  if (!text.includes('eyJ')) return text;
  let out = '';
  let last = 0;
  JWT_START.lastIndex = 0;
  for (let m = JWT_START.exec(text); m; m = JWT_START.exec(text)) {
    const start = m.index;
    const end1 = tokenEnd(text, start + 3);
    JWT_START.lastIndex = end1;
    if (end1 - start - 3 < 5 || text[end1] !== '.') continue;
    const end2 = tokenEnd(text, end1 + 1);
    if (end2 - end1 - 1 < 5 || text[end2] !== '.') continue;
    const end3 = tokenEnd(text, end2 + 1);
    out += text.slice(last, start) + REDACTED;
    last = end3;
    JWT_START.lastIndex = end3;
  }
  return last === 0 ? text : out + text.slice(last);
}

// key=value and "key": "value" where the key names a secret (password=…, api_key: …, "token": "…").
const KEY_RUN = /[A-Za-z0-9_.-]+/g;
const SECRET_WORD = /password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|session[_-]?id/i;
const SEPARATOR = /"?\s*[:=]\s*"?/y;
const ALREADY_REDACTED = /\[REDACTED\]/iy;
const VALUE = /[^\s"'&,;)}\]]+/y;
const isWordChar = (c: number): boolean => isTokenChar(c) && c !== 45;

/**
 * A key of [\w.-] holding SECRET_WORD, SEPARATOR, then VALUE unless already redacted. Scanned
 * once: the key is always a whole run of [\w.-] from its first word character (the \b) to its
 * end, as the separator cannot start inside the run, so each run is read and tested once.
 */
function redactKeyValues(text: string): string {
  let out = '';
  let last = 0;
  KEY_RUN.lastIndex = 0;
  for (let m = KEY_RUN.exec(text); m; m = KEY_RUN.exec(text)) {
    const runEnd = m.index + m[0].length;
    let keyStart = m.index;
    while (keyStart < runEnd && !isWordChar(text.charCodeAt(keyStart))) keyStart++;
    if (keyStart === runEnd || !SECRET_WORD.test(text.slice(keyStart, runEnd))) continue;
    SEPARATOR.lastIndex = runEnd;
    if (!SEPARATOR.test(text)) continue;
    const valueStart = SEPARATOR.lastIndex;
    ALREADY_REDACTED.lastIndex = valueStart;
    if (ALREADY_REDACTED.test(text)) continue;
    VALUE.lastIndex = valueStart;
    if (!VALUE.test(text)) continue;
    out += text.slice(last, valueStart) + REDACTED;
    last = VALUE.lastIndex;
    KEY_RUN.lastIndex = last;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Redacts every string inside a JSON-like value (objects, arrays), leaving its shape. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactDeep(v)])) as T;
  }
  return value;
}
