// Text from reports and users reaches terminals and CI logs: a test title, a quarantine reason,
// a user name, an error message that quotes a report. In a terminal, an escape sequence in such
// text can set the clipboard (OSC 52), clear the screen or rewrite earlier lines; a carriage
// return or a line separator can start a line a CI reads as a command (`::error …`); a
// bidirectional override can make the text read differently from what it holds. Every command
// prints through these functions, so that no such text acts. Each is one linear pass or two.

// C0 controls (the line feed too: one inert line is asked for), DEL, C1 controls, and the
// line and paragraph separators become spaces.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
// The bidirectional embeddings, overrides, isolates and marks are dropped: they carry no text.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Both, for text whose meaning must be kept (a regular expression, JSON): written as \uXXXX.
const ACTING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// JSON.stringify escapes C0 inside strings already, and its own line breaks must stay.
const ACTING_BEYOND_C0 = /[\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const escaped = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Text as one inert line for a terminal or a CI log. */
export function inertLine(text: string): string {
  return text.replace(BIDI, '').replace(CONTROLS, ' ');
}

/** Several lines: each made inert, the line breaks kept. */
export function inertLines(text: string): string {
  return text.split(/\r?\n/).map(inertLine).join('\n');
}

/** JSON for a terminal: the same value, every character that could act escaped. */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(ACTING_BEYOND_C0, escaped);
}

/** A regular expression's source with every character that could act written as `\uXXXX`: it matches the same. */
export function regexInert(source: string): string {
  return source.replace(ACTING, escaped);
}
