// `npm run record:unseen`: runs the unseen set (README.md beside this file) through `attention-inspector record
// --format json` with every interpreter that has torch, and prints aggregates only.
// `-- --python PATH` keeps only that interpreter (e.g. to run the two in parallel).
import { resolve } from 'node:path';

import { availableInterpreters, formatScore, formatSet, listPrograms, scoreInterpreter } from './unseen-set';

const pythonArg = process.argv.indexOf('--python');
const only = pythonArg >= 0 ? process.argv[pythonArg + 1] : undefined;
const programs = listPrograms();
console.log(formatSet(programs));
const interpreters = availableInterpreters().filter((i) => only === undefined || resolve(i.python) === resolve(only));
if (interpreters.length === 0) {
  console.error('no interpreter with torch: run bash scripts/setup-torch.sh (and scripts/setup-torch-sid.sh for torch 2.x)');
  process.exit(2);
}
for (const interpreter of interpreters) {
  const score = scoreInterpreter(programs, interpreter, (done, total) => process.stderr.write(`\r${interpreter.name}: ${done}/${total}`));
  process.stderr.write('\n');
  console.log(formatScore(score));
}
