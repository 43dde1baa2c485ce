/**
 * Pieces of one line of Playwright error text, read by indexOf or by regexes anchored on a
 * literal with bounded quantifiers (linear time on hostile text): numbers, calls, URLs, ports,
 * statuses. Used by failure-reading.ts.
 */
import { redactSecrets } from './redact.js';

/** The number between `before` and `after` ("Timeout 1500ms exceeded"), by indexOf. */
export function numberAfter(text: string, before: string, after: string): number | null {
  for (let at = text.indexOf(before); at !== -1; at = text.indexOf(before, at + 1)) {
    const from = at + before.length;
    let end = from;
    while (end < text.length && end - from < 8 && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
    if (end > from && text.startsWith(after, end)) return Number(text.slice(from, end));
  }
  return null;
}

export const leadingNumber = (text: string): number | null => {
  const m = /^\d{1,7}/.exec(text);
  return m ? Number(m[0]) : null;
};

/** "locator.click", "page.goto", "apiRequestContext.get": the call a first line names. */
export function apiCall(first: string): string | null {
  const m = /\b((?:locator|page|frame|elementHandle|apiRequestContext|request|context|browser|cdpSession)\.\w{1,40}): /.exec(first);
  return m ? m[1]! : null;
}

/** The "(DOM.describeNode)" of "Protocol error (DOM.describeNode): …". */
export function protocolMethod(line: string): string | null {
  const at = line.indexOf('Protocol error (');
  if (at === -1) return line.includes('detached') ? 'frame detached' : null;
  const from = at + 'Protocol error ('.length;
  const end = line.indexOf(')', from);
  return end === -1 || end - from > 80 ? null : line.slice(from, end);
}

/** The browser's words after "Protocol error (Method): ", at most 160 characters. */
export function protocolReason(line: string): string | null {
  const at = line.indexOf('Protocol error (');
  if (at === -1) return null;
  const close = line.indexOf('): ', at);
  if (close === -1 || close - at > 100) return null;
  const reason = line.slice(close + 3).trim();
  return reason === '' ? null : redactSecrets(reason.length > 160 ? `${reason.slice(0, 159)}…` : reason);
}

/** Locator and match count of "strict mode violation: getByText('Save') resolved to 2 elements". */
export function strictParts(line: string): { locator: string | null; count: number | null } {
  const marker = 'strict mode violation: ';
  const at = line.indexOf(marker);
  if (at === -1) return { locator: null, count: null };
  const from = at + marker.length;
  const resolved = line.indexOf(' resolved to ', from);
  if (resolved === -1) return { locator: null, count: null };
  const locator = line.slice(from, resolved).trim();
  const count = leadingNumber(line.slice(resolved + ' resolved to '.length));
  return { locator: locator.length > 0 && locator.length <= 120 ? redactSecrets(locator) : null, count };
}

/** The text inside the quotes that follow `marker` on the line. */
export function quotedAfter(line: string, marker: string): string | null {
  const at = line.indexOf(marker);
  if (at === -1) return null;
  const from = at + marker.length;
  const end = line.indexOf('"', from);
  if (end === -1 || end - from > 300) return null;
  return redactSecrets(line.slice(from, end));
}

/** The first http(s) URL on a line, up to a blank or quote. */
export function urlOnLine(line: string): string | null {
  let at = line.indexOf('http://');
  const https = line.indexOf('https://');
  if (at === -1 || (https !== -1 && https < at)) at = https;
  if (at === -1) return null;
  let end = at;
  while (end < line.length && end - at < 300 && !' \t"\'`,'.includes(line[end]!)) end++;
  return redactSecrets(line.slice(at, end).replace(/[.)]+$/, ''));
}

export function portIn(line: string, url: string | null): number | null {
  if (url) {
    try {
      const u = new URL(url);
      return u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
    } catch {
      // fall through to host:port
    }
  }
  const m = /ECONNREFUSED [^\s:]{1,100}:(\d{1,5})/.exec(line);
  return m ? Number(m[1]) : null;
}

/** "→ GET http://host/api/orders" of a request's call log. */
export function requestLine(line: string | null): { method: string | null; url: string | null } {
  if (!line) return { method: null, url: null };
  const rest = line.slice(line.indexOf('→ ') + 2).trim();
  const space = rest.indexOf(' ');
  const method = space > 0 && space <= 7 && /^[A-Z]+$/.test(rest.slice(0, space)) ? rest.slice(0, space) : null;
  return { method, url: urlOnLine(rest) };
}

export const statusIn = (text: string): number | null => {
  const n = leadingNumber(text.trim());
  return n !== null && n >= 100 && n <= 599 ? n : null;
};

/** Expected 200, received 404: an assertion on an HTTP status. Returns the received status. */
export function httpStatusPair(expected: string, received: string): number | null {
  const e = /^\d{3}$/.test(expected) ? Number(expected) : null;
  const r = /^\d{3}$/.test(received) ? Number(received) : null;
  return e !== null && r !== null && e >= 100 && e <= 599 && r >= 100 && r <= 599 ? r : null;
}

/** Expected a 2xx, received a 4xx or 5xx: a status assertion even where no URL is shown. */
export function isErrorAfterSuccess(expected: string, received: number): boolean {
  const e = /^\d{3}$/.test(expected) ? Number(expected) : null;
  return e !== null && e >= 200 && e <= 299 && received >= 400 && received <= 599;
}

/**
 * The error status a thrown message names: "GET /reports answered 404", "Request failed with
 * status code 503", "HTTP 401", with the method and URL or path when it names them.
 */
export function thrownStatus(line: string): { status: number; method: string | null; url: string | null } | null {
  const m = /\b(?:status(?: code)?|answered|responded with|returned|HTTP) (\d{3})\b/i.exec(line);
  if (!m) return null;
  const status = Number(m[1]);
  if (status < 400 || status > 599) return null;
  const sent = /\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\/[^\s"'`]{0,300})/.exec(line);
  return { status, method: sent ? sent[1]! : null, url: urlOnLine(line) ?? (sent ? redactSecrets(sent[2]!) : null) };
}
