// The linter on hostile input (issue 13): a file whose analysis fails or that is too large is reported
// (ATT000), never silently clean; code nested too deeply is cut and the rest still linted.
import { strict as assert } from 'node:assert';
import { MAX_SOURCE_CHARS, NOT_ANALYSED, RULES } from '../../../src/lint';
import { MAX_BRACKET_DEPTH, splitTopLevel } from '../../../src/lint/syntax/blocks';
import { internalErrors, linter } from './helpers';

const BUGGY = `import torch


def attend(q, k, v):
    w = torch.softmax(q @ k.transpose(-2, -1) / 8.0, dim=-2)
    return w @ v
`;

describe('lint: hostile input (issue 13)', () => {
  it('a file whose analysis throws gives an ATT000 error naming the failure, not an empty list', async () => {
    const l = await linter();
    const rule = RULES.find((r) => r.meta.code === 'ATT001')!;
    const create = rule.create;
    const reported = internalErrors.length;
    (rule as { create: typeof create }).create = () => {
      throw new RangeError('Maximum call stack size exceeded');
    };
    try {
      const f = l.lintPython(BUGGY);
      assert.equal(f.length, 1);
      assert.equal(f[0].code, NOT_ANALYSED);
      assert.equal(f[0].severity, 'error');
      assert.match(f[0].message, /^Not analysed: the analysis failed \(RangeError: Maximum call stack size exceeded\)/);
      assert.equal(l.lintPython(BUGGY, { ignore: ['ATT000'] }).length, 0, 'an explicit ignore silences it');
      assert.equal(l.lintPython(BUGGY, { select: ['ATT001'] })[0].code, NOT_ANALYSED, 'selecting only rules does not');
    } finally {
      (rule as { create: typeof create }).create = create;
    }
    // The injected failures reached the internal-error hook too; other suites check that nothing real did.
    assert.equal(internalErrors.length - reported, 3);
    internalErrors.splice(reported);
    assert.deepEqual(
      l.lintPython(BUGGY).map((f) => f.code),
      ['ATT001'],
    );
  });

  it('2,000 nested lambdas appended to a buggy file: its finding stays, the lambdas are an ATT000 warning', async () => {
    const source = `${BUGGY}\nf = ${'lambda: '.repeat(2000)}0\n`;
    const f = (await linter()).lintPython(source);
    assert.deepEqual(
      f.map((x) => `${x.code}:${x.line}:${x.severity}`),
      ['ATT001:5:error', 'ATT000:8:warning'],
    );
    assert.match(f[1].message, /nests too deeply .* the rest of the file was analysed/);
  });

  it(`a statement whose brackets nest past ${MAX_BRACKET_DEPTH.toLocaleString('en-US')} is not parsed; the rest of the file is`, async () => {
    const n = 2 * MAX_BRACKET_DEPTH;
    const source = `${BUGGY}\n\ndef g(q, k):\n    return torch.softmax(${'('.repeat(n)}q @ k${')'.repeat(n)}, dim=-1)\n`;
    const blocks = splitTopLevel(source);
    assert.deepEqual(
      blocks.map((b) => !!b.tooDeep),
      [false, false, true],
    );
    const f = (await linter()).lintPython(source);
    assert.deepEqual(
      f.map((x) => `${x.code}:${x.line}`),
      ['ATT001:5', 'ATT000:9'],
    );
  });

  it('a source over the size limit is an ATT000 error, not an empty list', async () => {
    const big = `import torch\n${'#'.repeat(MAX_SOURCE_CHARS)}\n`;
    const f = (await linter()).lintPython(big);
    assert.equal(f.length, 1);
    assert.equal(f[0].code, NOT_ANALYSED);
    assert.match(f[0].message, /over the linter's limit of 4,000,000/);
  });

  it('notebook cells over the size limit are an ATT000 error on the first cell, found before any parse', async () => {
    const cells = [
      { index: 1, source: BUGGY },
      { index: 3, source: `x = 1\n${'#'.repeat(MAX_SOURCE_CHARS)}` },
    ];
    const r = (await linter()).lintCells(cells);
    assert.deepEqual(
      r.map((c) => c.findings.map((f) => `${f.code}:${f.line}`)),
      [['ATT000:1'], []],
    );
    assert.match(r[0].findings[0].message, /code cells hold 4,000,\d{3} characters, over the linter.s limit of 4,000,000/);
  });

  it('in a notebook, ATT000 lands on the cell that holds the deep code', async () => {
    const cells = [
      { index: 0, source: BUGGY },
      { index: 2, source: `f = ${'lambda: '.repeat(1000)}0` },
    ];
    const r = (await linter()).lintCells(cells);
    assert.deepEqual(
      r.map((c) => c.findings.map((f) => `${f.code}:${f.line}`)),
      [['ATT001:5'], ['ATT000:1']],
    );
  });
});
