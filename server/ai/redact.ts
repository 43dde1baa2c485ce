/**
 * Secrets that end up in test output (a logged request header, a connection string, a token in
 * a URL) must not leave the machine with the evidence sent to a model. Over-redacting a
 * harmless value costs nothing; missing a key leaks it, so the rules lean wide.
 */
const REDACTED = '[REDACTED]';

const RULES: ReadonlyArray<[RegExp, string]> = [
  // PEM private keys, whole.
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, REDACTED],
  // Credentials in URLs: https://user:pass@host.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@'"]+:[^/\s@'"]*@/gi, `$1${REDACTED}@`],
  // Bearer tokens wherever they appear (headers, curl lines, logs); other schemes only after
  // an Authorization key, so a test titled "Basic checkout" keeps its title.
  [/\bBearer\s+[A-Za-z0-9\-._~+/]+=*/g, `Bearer ${REDACTED}`],
  [/\b(authorization)("?\s*[:=]\s*"?)(?!(?:Bearer\s+)?\[REDACTED\])(?:(?:Basic|Digest|Token|Bearer)\s+)?[^\s"',;]+/gi, `$1$2${REDACTED}`],
  // Cookie headers carry session ids.
  [/\b((?:set-)?cookie)(\s*[:=]\s*)[^\n]+/gi, `$1$2${REDACTED}`],
  // Well-known token shapes.
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, REDACTED], // JWT
  [/\bsk-(?:proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g, REDACTED], // OpenAI-style and Stripe keys
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}/g, REDACTED],
  [/\bxox[abeoprs]-[A-Za-z0-9-]{10,}/g, REDACTED], // Slack
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED], // AWS access key ids
  [/\bglpat-[A-Za-z0-9_-]{20,}/g, REDACTED], // GitLab
  [/\bAIza[0-9A-Za-z_-]{35}/g, REDACTED], // Google API keys
  // key=value and "key": "value" where the key names a secret (password=…, api_key: …, "token": "…").
  [
    /\b([A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credential|session[_-]?id)[A-Za-z0-9_.-]*)("?\s*[:=]\s*"?)(?!\[REDACTED\])[^\s"'&,;)}\]]+/gi,
    `$1$2${REDACTED}`,
  ],
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
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
