/** Builds (or reuses) the large-suite database alone: `node --import tsx bench/large-suite/build-large.ts`. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDatabase } from '../api/build-db.js';
import { LARGE_SUITE } from './scenarios.js';

const data = fileURLToPath(new URL('../.data', import.meta.url));
const built = await buildDatabase(join(data, LARGE_SUITE.file), LARGE_SUITE.runs, LARGE_SUITE.shape);
console.log(built);
