import type { ErrorCategory } from './categories.js';

type Rule = (text: string) => boolean;

const matches =
  (pattern: RegExp): Rule =>
  (text) =>
    pattern.test(text);

/**
 * /A[\s\S]*B/ in linear time: B anywhere after the first A. The regex restarted at every A
 * and read to the end from each (quadratic over a message repeating A).
 */
const followedBy =
  (first: RegExp, then: RegExp): Rule =>
  (text) => {
    first.lastIndex = 0;
    const a = first.exec(text);
    if (!a) return false;
    then.lastIndex = a.index + a[0].length;
    return then.test(text);
  };

const LINE_BREAK = /[\n\r\u2028\u2029]/g;

/** /A.*B/ in linear time: B after A on the same line (`.` stops at line breaks); a line's first A is the one to try. */
const followedOnLine =
  (first: RegExp, then: RegExp): Rule =>
  (text) => {
    first.lastIndex = 0;
    for (let a = first.exec(text); a; a = first.exec(text)) {
      LINE_BREAK.lastIndex = a.index + a[0].length;
      const lineEnd = LINE_BREAK.exec(text)?.index ?? text.length;
      if (then.test(text.slice(a.index + a[0].length, lineEnd))) return true;
      first.lastIndex = lineEnd;
    }
    return false;
  };

const anyOf =
  (...rules: Rule[]): Rule =>
  (text) =>
    rules.some((rule) => rule(text));

// Ordered rules over a message with colour codes stripped. The order matters: a test timeout
// names the action it cut off, an assertion can time out, and a navigation can fail by
// timing out (a page load) or by a network error. Each rule runs in linear time: no rule reads
// "anything" up to a word that may never come.
const RULES: ReadonlyArray<[ErrorCategory, Rule]> = [
  ['Test Timeout', matches(/\b(Test|Hook|Fixture) timeout of \d+ms exceeded|\btimeout of \d+ms exceeded while (running|setting up|tearing down)/i)],
  [
    'Assertion Error',
    anyOf(matches(/\bexpect(\.soft|\.poll)?\(|AssertionError|\bto(Have|Be|Equal|Contain|Match|Throw|StrictEqual)\w*\(/i), followedBy(/\bexpected\b/gi, /\breceived\b/gi)),
  ],
  [
    'Page Load Timeout',
    anyOf(
      matches(/\b(page|frame)\.(goto|reload|goBack|goForward|waitForURL|waitForLoadState|waitForNavigation|waitForEvent): Timeout \d+ms exceeded|navigation timeout/i),
      followedBy(/Timeout \d+ms exceeded/gi, /\bnavigating to\b/gi),
    ),
  ],
  [
    'Navigation Error',
    anyOf(
      matches(/net::ERR_|NS_ERROR_|NS_BINDING_ABORTED|Could not connect to (the )?server|Navigation failed|\bnavigation interrupted|frame was detached|page\.goto: /i),
      followedOnLine(/Navigation to /gi, / (?:is|was) interrupted/i),
      followedOnLine(/\bnavigation to /gi, / interrupted/i),
    ),
  ],
  ['Browser Protocol Error', matches(/Protocol error|Target (page, context or browser )?(has been |was )?closed|Target crashed|Page crashed|Browser (has been )?closed|browser has disconnected|Connection closed|WebSocket error/i)],
  ['Element Wait Timeout', matches(/\b(locator|page|frame|elementHandle|element)\.\w+: Timeout \d+ms exceeded|waitForSelector|waiting for (locator|selector|getBy)|Timeout \d+ms exceeded/i)],
];

/** The error category of one error message (raw or stripped of colour codes). */
export function classifyError(strippedMessage: string): ErrorCategory {
  // Long call logs repeat locators and URLs; the first lines say what failed.
  const head = strippedMessage.length > 2000 ? strippedMessage.slice(0, 2000) : strippedMessage;
  for (const [category, rule] of RULES) {
    if (rule(head)) return category;
  }
  return 'other';
}
