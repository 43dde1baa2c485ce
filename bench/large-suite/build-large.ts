/**
 * Builds (or reuses) a large-suite database alone, to build the big ones ahead of a run:
 * `npm run bench -- large:build [5m|10m]`.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDatabase } from '../api/build-db.js';
import { LARGE_SUITE, LARGE_SUITE_5M, TEN_MILLION } from './scenarios.js';

const data = fileURLToPath(new URL('../.data', import.meta.url));
const scenario = process.argv[2] === '10m' ? TEN_MILLION : process.argv[2] === '5m' ? LARGE_SUITE_5M : LARGE_SUITE;
console.log(await buildDatabase(join(data, scenario.file), scenario.runs, scenario.shape));
