// Relints with the block cache: a block whose text did not change keeps its syntax nodes from one lint to the
// next, and with them the facts the evaluator keeps per node (a call's arguments, a statement's root text; see
// evaluator.ts). What a relint finds must be what a lint of the same text from scratch finds.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter, type ExtendedLinter, type Finding } from '../../../src/lint';
import { lintTree } from '../../../src/lint/engine';
import { createPythonParser, type PythonParser } from '../../../src/lint/parser';
import { grammar, ROOT } from './helpers';

/** A lint from scratch: a parser without the block cache (new nodes every parse). */
function fresh(parser: PythonParser, source: string): Finding[] {
  return lintTree(parser.parse(source));
}

const helperFile = (body: string): string => `import math
import torch
import torch.nn.functional as F


def normalise(x):
    return ${body}


def attend(q, k, v):
    B, H, T, D = q.shape
    s = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(D)
    return normalise(s)
`;

describe('relint: facts kept with unchanged blocks', () => {
  let relinter: ExtendedLinter;
  let parser: PythonParser;
  before(async () => {
    relinter = await createLinter(grammar());
    parser = await createPythonParser(grammar());
  });

  it("a helper that gains a softmax makes its unchanged caller's call evaluated (which names are active is judged per lint)", () => {
    const plain = helperFile('x');
    const buggy = helperFile('F.softmax(x, dim=-2)');
    const fixed = helperFile('F.softmax(x, dim=-1)');
    assert.deepEqual(relinter.lintPython(plain), []);
    // Only the helper's block changed: the caller's `return normalise(s)` is reused, and is a root now.
    const found = relinter.lintPython(buggy);
    assert.deepEqual(
      found.map((f) => `${f.code}@${f.line}`),
      ['ATT001@7'],
    );
    assert.deepEqual(found, fresh(parser, buggy));
    assert.deepEqual(relinter.lintPython(fixed), []);
    assert.deepEqual(relinter.lintPython(plain), []);
    assert.deepEqual(relinter.lintPython(buggy), found);
  });

  it('moved and repeated blocks (nodes reused at other offsets, or cloned) find what a fresh lint finds', () => {
    const buggy = helperFile('F.softmax(x, dim=-2)');
    const [head, rest] = [buggy.slice(0, buggy.indexOf('\n\ndef normalise')), buggy.slice(buggy.indexOf('\n\ndef normalise'))];
    const versions = [buggy, `${head}\n\nSCALE = 2\n${rest}`, `${head}${rest}${rest.replace(/attend/g, 'attend_again')}`, buggy];
    for (const v of versions) assert.deepEqual(relinter.lintPython(v), fresh(parser, v));
  });

  it('the lint corpus and holdout, linted in turn by one linter, find what each file finds from scratch', () => {
    const dirs = ['test/lint-corpus/cases', 'test/lint-holdout/cases'].map((d) => join(ROOT, d));
    let compared = 0;
    let withFindings = 0;
    for (const dir of dirs) {
      for (const name of readdirSync(dir).sort()) {
        if (!name.endsWith('.py')) continue;
        const source = readFileSync(join(dir, name), 'utf8');
        const expected = fresh(parser, source);
        // After the files before it: blocks whose text another file had are reused.
        assert.deepEqual(relinter.lintPython(source), expected, name);
        compared++;
        if (expected.length > 0) withFindings++;
      }
    }
    assert.ok(compared > 100 && withFindings > 30, `${compared} files compared, ${withFindings} with findings`);
  });
});
