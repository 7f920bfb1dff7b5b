// The unseen set of recorded programs (test/python/unseen-programs/README.md): checks that it is well formed, then
// runs it through `record --format json` with each interpreter and prints the aggregates. No threshold on the
// numbers, and no program is ever named in the output: the set stays unseen.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';

import { availableInterpreters, classesOf, compileErrors, formatScore, formatSet, listPrograms, scoreInterpreter } from './unseen-programs/unseen-set';

const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

describe('unseen record programs', function () {
  it('every program is labelled (buggy ones with expectations) and is valid Python', function () {
    this.timeout(60_000);
    const programs = listPrograms(); // throws, naming the file, on a missing or malformed label
    assert.ok(programs.length >= 30, `the set holds ${programs.length} programs, at least 30 are wanted`);
    for (const cls of ['buggy', 'correct', 'folder', 'pytest', 'parameter-default'] as const) {
      assert.ok(
        programs.some((p) => classesOf(p).includes(cls)),
        `no program of class ${cls}`,
      );
    }
    assert.deepEqual(compileErrors(programs, PYTHON), []);
  });

  it('runs through record --format json with each interpreter and prints the aggregates', function () {
    this.timeout(45 * 60_000);
    const programs = listPrograms();
    const interpreters = availableInterpreters();
    assert.ok(interpreters.length > 0, 'no interpreter with torch: run bash scripts/setup-torch.sh');
    console.log(`\n${formatSet(programs)}`);
    for (const interpreter of interpreters) {
      const score = scoreInterpreter(programs, interpreter);
      console.log(formatScore(score));
      assert.equal(score.noJson, 0, `${interpreter.name}: ${score.noJson} runs did not print the documented JSON`);
    }
  });
});
