import type { ErrorCategory } from './categories.js';

// Ordered rules over a message with colour codes stripped. The order matters: a test timeout
// names the action it cut off, an assertion can time out, and a navigation can fail by
// timing out (a page load) or by a network error.
const RULES: ReadonlyArray<[ErrorCategory, RegExp]> = [
  ['Test Timeout', /\b(Test|Hook|Fixture) timeout of \d+ms exceeded|\btimeout of \d+ms exceeded while (running|setting up|tearing down)/i],
  ['Assertion Error', /\bexpect(\.soft|\.poll)?\(|AssertionError|\bexpected\b.*\breceived\b|\bto(Have|Be|Equal|Contain|Match|Throw|StrictEqual)\w*\(/is],
  ['Page Load Timeout', /\b(page|frame)\.(goto|reload|goBack|goForward|waitForURL|waitForLoadState|waitForNavigation|waitForEvent): Timeout \d+ms exceeded|navigation timeout|Timeout \d+ms exceeded[.\s\S]*?\bnavigating to\b/i],
  ['Navigation Error', /net::ERR_|NS_ERROR_|NS_BINDING_ABORTED|Could not connect to (the )?server|Navigation (failed|to .* (is|was) interrupted)|\bnavigation (to .* )?interrupted|frame was detached|page\.goto: /i],
  ['Browser Protocol Error', /Protocol error|Target (page, context or browser )?(has been |was )?closed|Target crashed|Page crashed|Browser (has been )?closed|browser has disconnected|Connection closed|WebSocket error/i],
  ['Element Wait Timeout', /\b(locator|page|frame|elementHandle|element)\.\w+: Timeout \d+ms exceeded|waitForSelector|waiting for (locator|selector|getBy)|Timeout \d+ms exceeded/i],
];

/** SPEC.md's error category of one error message (raw or stripped of colour codes). */
export function classifyError(strippedMessage: string): ErrorCategory {
  // Long call logs repeat locators and URLs; the first lines say what failed.
  const head = strippedMessage.length > 2000 ? strippedMessage.slice(0, 2000) : strippedMessage;
  for (const [category, pattern] of RULES) {
    if (pattern.test(head)) return category;
  }
  return 'other';
}
