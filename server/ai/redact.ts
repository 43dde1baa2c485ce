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
/** A value that is already exactly "[REDACTED]" (what a rule left), not "[REDACTED]hunter2". */
const NOT_REDACTED = String.raw`(?!\[REDACTED\](?:[\s"',;&)}\]]|$))`;

const RULES: ReadonlyArray<[RegExp, string] | ((text: string) => string)> = [
  // PEM private keys, whole.
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
  // Credentials in URLs: https://user:pass@host, https://:token@host, https://token@host, a
  // password holding "@" (up to the last "@" before the path). Anchored at "://" (the scheme
  // is kept as it was): the run after one "://" ends at the next "/", so runs never overlap.
  [/:\/\/[^/\s'"?#]*@/g, `://${REDACTED}@`],
  // Bearer tokens wherever they appear (headers, curl lines, logs); what follows the token is
  // taken at the end.
  [/\bBearer\s+[A-Za-z0-9\-._~+/]+=*/g, `Bearer ${REDACTED}`],
  // Other schemes after an Authorization key (Proxy-Authorization too).
  [/\b(authorization)("?\s*[:=]\s*"?)(?!(?:Bearer\s+)?\[REDACTED\])(?:(?:Basic|Digest|Token|Bearer|Negotiate)\s+)?[^\s"',;]+/gi, `$1$2${REDACTED}`],
  // Cookie headers carry session ids.
  [/\b((?:set-)?cookie)(\s*[:=]\s*)[^\n]+/gi, `$1$2${REDACTED}`],
  // Well-known token shapes.
  redactJwts,
  [/\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g, REDACTED], // OpenAI-style and Stripe keys
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}/g, REDACTED],
  [/\bxox[abeoprs]-[A-Za-z0-9-]{10,}/g, REDACTED], // Slack
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED], // AWS access key ids
  [/\bglpat-[A-Za-z0-9_-]{20,}/g, REDACTED], // GitLab
  // flakeboard's own API tokens: the prefix and exactly the 43 base64url characters of 32 bytes
  // (a fixed length, so a run of "fbt_-fbt_-…" is read a bounded number of times per start).
  [/\bfbt_[A-Za-z0-9_-]{43}/g, REDACTED],
  [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}/g, REDACTED], // Stripe secret and restricted keys
  [/\bhf_[A-Za-z0-9]{20,}/g, REDACTED], // Hugging Face
  [/\bya29\.[A-Za-z0-9_-]{10,}/g, REDACTED], // Google OAuth access tokens
  [/\bnpm_[A-Za-z0-9]{30,}/g, REDACTED], // npm
  [/\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, REDACTED], // SendGrid
  [/\bhttps:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]+/g, REDACTED], // Slack webhooks
  redactMysqlPasswords,
  [/\bAIza[0-9A-Za-z_-]{35}/g, REDACTED], // Google API keys
  // Secret keys and their values, before the rules below that take a run up to a blank: those
  // would hide a key and leave its value ("api key=x pwd=…").
  redactKeyValues,
  // Basic credentials anywhere else: only when the base64 decodes to "user:pass", so a test
  // titled "Basic checkout" keeps its title.
  redactBasic,
  // "API key: …", "Incorrect API key provided: …", "access token = …" in prose.
  [new RegExp(String.raw`\b((?:api|access|auth|secret|private|refresh)[ _-]?(?:key|token)(?: provided)?)([ \t]*[:=][ \t]*)${NOT_REDACTED}(?:[^\s"',;&)}\][]|\[REDACTED\]|\[)+`, 'gi'), `$1$2${REDACTED}`],
  // curl -u user:pass, --user user:pass, --user=user:pass.
  [new RegExp(String.raw`(\s(?:-u|--user)(?:[ \t]+|=))["']?${NOT_REDACTED}[^\s"':]*:[^\s"']+["']?`, 'g'), `$1${REDACTED}`],
  // What is glued to a redacted credential is part of it: "Bearer password=hunter2" is one
  // credential, not a token "password" and a rest.
  [/\b(Bearer |authorization"?\s*[:=]\s*"?(?:Bearer )?)\[REDACTED\][^\s"',;]+/gi, `$1${REDACTED}`],
];

/**
 * "mysql -uroot -phunter2": the password glued to -p on a mysql, mysqldump or mysqladmin line.
 * Line by line, each line read once by one regex that starts only at " -p".
 */
function redactMysqlPasswords(text: string): string {
  if (!text.includes('mysql')) return text;
  return text
    .split('\n')
    .map((line) => (line.includes('mysql') ? line.replace(/(\s-p)(?!\[REDACTED\])[^\s"']+/g, `$1${REDACTED}`) : line))
    .join('\n');
}

export function redactSecrets(text: string): string {
  let out = text;
  for (const rule of RULES) out = typeof rule === 'function' ? rule(out) : out.replace(rule[0], rule[1]);
  return out;
}

const BASIC = /\bBasic\s+([A-Za-z0-9+/]{4,}={0,2})/g;

function redactBasic(text: string): string {
  if (!text.includes('Basic')) return text;
  return text.replace(BASIC, (whole, encoded: string) => (isUserPass(encoded) ? `Basic ${REDACTED}` : whole));
}

/** base64 of printable "user:pass" (the Basic scheme's credentials). */
function isUserPass(encoded: string): boolean {
  if (encoded.replace(/=+$/, '').length % 4 === 1) return false;
  let decoded: string;
  try {
    decoded = atob(encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '='));
  } catch {
    return false;
  }
  return decoded.includes(':') && /^[\x20-\x7e]+$/.test(decoded);
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

// key=value, key: value, "key": "value", \"key\":\"value\" (JSON inside a logged string),
// KEY='value' where the key names a secret (password=…, api_key: …, "token": "…", PGPASSWORD=…).
const KEY_RUN = /[A-Za-z0-9_.-]+/g;
const SECRET_WORD = /password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|account[_-]?key|private[_-]?key|credential|session[_-]?id|signature|[_.-]pass$/i;
/** Keys that are secrets only whole: "auth=", "key=", "sig=" but not "author=", "keyboard=", "signal=". */
const SECRET_KEY = /^(?:auth|key|sig|pass|pw)$/i;
// The key's closing quote (plain or escaped), the separator, and the value's opening quote.
const SEPARATOR = /(?:\\?["'])?\s*[:=]\s*(\\?["'])?/y;
// Up to a blank or delimiter; a "[REDACTED]" another rule left inside the value does not end it
// ("//[REDACTED]@hunter2" is one value).
const VALUE = /(?:[^\s"'&,;)}\][]|\[REDACTED\]|\[)+/y;
/** "token: Bearer abc" holds one value, "Bearer abc". */
const SCHEME = /(?:Bearer|Basic|Token|Digest)[ \t]+/iy;
const REDACTED_LENGTH = REDACTED.length;
const isWordChar = (c: number): boolean => isTokenChar(c) && c !== 45;
/** A character of KEY_RUN ([A-Za-z0-9_.-]): a key may hold dots ("db.password"). */
const isKeyChar = (c: number): boolean => isTokenChar(c) || c === 46;

/**
 * A key of [\w.-] naming a secret, SEPARATOR, then the value: inside quotes, up to the closing
 * quote (or the line's end: a password may hold blanks); bare, up to a blank or delimiter. A
 * value already exactly "[REDACTED]" is left, so redacting twice changes nothing. Scanned once:
 * the key is always a whole run of [\w.-] from its first word character (the \b) to its end,
 * each run is read and tested once, and a value's scan ends where the next search starts.
 */
function redactKeyValues(text: string): string {
  let out = '';
  let last = 0;
  KEY_RUN.lastIndex = 0;
  for (let m = KEY_RUN.exec(text); m; m = KEY_RUN.exec(text)) {
    const runEnd = m.index + m[0].length;
    let keyStart = m.index;
    while (keyStart < runEnd && !isWordChar(text.charCodeAt(keyStart))) keyStart++;
    if (keyStart === runEnd) continue;
    const key = text.slice(keyStart, runEnd);
    if (!SECRET_WORD.test(key) && !SECRET_KEY.test(key)) continue;
    SEPARATOR.lastIndex = runEnd;
    const separator = SEPARATOR.exec(text);
    if (!separator) continue;
    const valueStart = SEPARATOR.lastIndex;
    const quote = separator[1];
    const valueEnd = quote ? quotedEnd(text, valueStart, quote) : bareEnd(text, valueStart);
    if (valueEnd <= Math.max(valueStart, last) || isExactlyRedacted(text, valueStart, valueEnd)) continue;
    // A key found again at the end of the value just redacted ("token=x:password:" then "\"abc\"")
    // may open a value past it: that is taken into the same [REDACTED].
    if (valueStart >= last) out += text.slice(last, valueStart) + REDACTED;
    last = valueEnd;
    KEY_RUN.lastIndex = trailingKeyStart(text, valueStart, last);
  }
  return last === 0 ? text : out + text.slice(last);
}

/** Where a quoted value ends: its closing quote (an escaped one when it opened escaped), else the line's end. */
function quotedEnd(text: string, from: number, quote: string): number {
  const closing = quote[quote.length - 1];
  const escaped = quote.length === 2;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === '\n' || c === '\r') return i;
    if (c === '\\' && !escaped) {
      i++;
      continue;
    }
    if (c === closing && (!escaped || text[i - 1] === '\\')) return escaped ? i - 1 : i;
  }
  return text.length;
}

/** Where a bare value ends; an auth scheme before it is part of it ("token: Bearer abc"). */
function bareEnd(text: string, from: number): number {
  SCHEME.lastIndex = from;
  const start = SCHEME.test(text) ? SCHEME.lastIndex : from;
  VALUE.lastIndex = start;
  return VALUE.test(text) ? VALUE.lastIndex : start;
}

/**
 * Where the key-like run at the end of a value starts (with only separator characters after
 * it), so the search reads it once more as a key: "password:" in a value is a key whose quoted
 * value lies past the quote or delimiter that ended this one. Reads back only over that tail.
 */
const SEPARATOR_CHARS = ':= \t"\'\\';

function trailingKeyStart(text: string, from: number, end: number): number {
  let i = end;
  while (i > from && SEPARATOR_CHARS.includes(text.charAt(i - 1))) i--;
  // Back over a whole key run, dots too: "password." read from its "." would find no key.
  while (i > from && isKeyChar(text.charCodeAt(i - 1))) i--;
  return i;
}

const isExactlyRedacted = (text: string, start: number, end: number): boolean =>
  end - start === REDACTED_LENGTH && text.startsWith(REDACTED, start);

/** Redacts every string inside a JSON-like value (objects, arrays), leaving its shape. */
export function redactDeep<T>(value: T): T {
  if (typeof value === 'string') return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, redactDeep(v)])) as T;
  }
  return value;
}
