/** Cold analytics answers sent to the worker at once (runner.ts), which it opens connections for (worker.ts). */
export const ANSWERS_AT_ONCE = 2;
