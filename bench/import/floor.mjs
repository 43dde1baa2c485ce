// The floor an import is compared with: read each file and JSON.parse it, nothing else.
import { readFileSync } from 'node:fs';

let results = 0;
for (const file of process.argv.slice(2)) {
  const report = JSON.parse(readFileSync(file, 'utf8'));
  results += report.suites.length; // touch the result so the parse is not optimised away
}
if (results < 0) console.log(results);
