/**
 * The histories of the large-suite benchmark. The large suite is what a real team
 * with a big suite stores: 12,500 specs in 4 projects (50,000 distinct test × browser pairs),
 * the same tests in every report, one report a day for 20 days: 1,000,000 results. The small
 * one is bench/api's history (500 specs × 4 projects = 2,000 pairs, 500 reports over 90 days).
 */
export interface Scenario {
  label: string;
  file: string;
  runs: number;
  shape: { days: number; tests: number };
}

export const LARGE_SUITE: Scenario = { label: '50,000 tests, 1M results', file: 'large-1m.db', runs: 20, shape: { days: 20, tests: 12_500 } };
export const SMALL_SUITE: Scenario = { label: '2,000 tests, 1M results', file: 'api-1m.db', runs: 500, shape: { days: 90, tests: 500 } };
/** Five times the large history (100 reports over 100 days): cost must follow the window, not this. */
export const LARGE_SUITE_5M: Scenario = { label: '50,000 tests, 5M results', file: 'large-5m.db', runs: 100, shape: { days: 100, tests: 12_500 } };
/**
 * A year of a big team's history: 25,000 specs in 4 projects (100,000 distinct tests), 100 runs
 * over 365 days, about one in seven on a feature branch: 10,000,000 results.
 */
export const TEN_MILLION: Scenario = { label: '100,000 tests, 10M results over a year', file: 'large-10m.db', runs: 100, shape: { days: 365, tests: 25_000 } };
