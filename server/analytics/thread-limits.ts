import type { ResourceLimits } from 'node:worker_threads';

/**
 * A small young generation for the analytics threads (the worker and its episode reader): each
 * cold answer allocates tens of MB that live briefly (the rows of a window scan, the texts of the
 * flaky tests' days), and V8 let the default one grow with every answer. Measured on the
 * 50,000-test history, every GET once and then 10 callers each (bench/large-suite): serve's peak
 * resident 307 → 236 MB; the cold answers cost 0–15 % more CPU (8 MB and up kept ~290 MB).
 */
export const ANALYTICS_THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 6 };
