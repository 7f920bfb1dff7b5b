// The linter's public API (docs/LINT-CONTRACT.md): positions in UTF-16 columns, noqa, select/ignore,
// notebooks (cell indices over all cells, lines relative to the cell), and never throwing on bad input.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { createLinter, isRuleCode, RULE_CODES, type Finding } from '../../../src/lint';
import { grammar, internalErrors, linter } from './helpers';

const SOFTMAX_BUG = `import torch.nn.functional as F


def attend(q, k, v):
    w = F.softmax(q @ k.transpose(-2, -1) / 8.0, dim=-2)
    return w @ v
`;

function codesAt(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.line}:${f.column} ${f.code}`);
}

/** `line:col` (1-based, UTF-16) of the first occurrence of `needle` in `text`, computed independently. */
function at(text: string, needle: string): string {
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `${needle} not in text`);
  const before = text.slice(0, i).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
}

describe('lint API', () => {
  it('reports the offending argument with 1-based line and column and an exclusive end', async () => {
    const f = (await linter()).lintPython(SOFTMAX_BUG);
    assert.deepEqual(codesAt(f), [`${at(SOFTMAX_BUG, 'dim=-2')} ATT001`]);
    const line = SOFTMAX_BUG.split('\n')[4];
    assert.equal(line.slice(f[0].column - 1, f[0].endColumn - 1), 'dim=-2');
    assert.equal(f[0].severity, 'error');
    assert.match(f[0].message, /dim=-2/);
    assert.match(f[0].message, /key/);
  });

  it('counts columns in UTF-16 code units on lines with non-ASCII text', async () => {
    // "é" is one UTF-16 unit (two UTF-8 bytes); "😀" is two UTF-16 units (four UTF-8 bytes).
    const src = SOFTMAX_BUG.replace('    w = F.softmax(', '    s = "é😀"; w = F.softmax(');
    const f = (await linter()).lintPython(src);
    assert.equal(f.length, 1);
    const line = src.split('\n')[4];
    assert.equal(line.slice(f[0].column - 1, f[0].endColumn - 1), 'dim=-2');
    assert.equal(f[0].column, line.indexOf('dim=-2') + 1);
  });

  it('handles CRLF line endings like an editor', async () => {
    const f = (await linter()).lintPython(SOFTMAX_BUG.replace(/\n/g, '\r\n'));
    assert.deepEqual(codesAt(f), [`${at(SOFTMAX_BUG, 'dim=-2')} ATT001`]);
  });

  it('offers an unsafe fix that sets the key axis', async () => {
    const [f] = (await linter()).lintPython(SOFTMAX_BUG);
    assert.ok(f.fix);
    assert.equal(f.fix.safety, 'unsafe');
    const [line, col] = at(SOFTMAX_BUG, '-2)').split(':').map(Number);
    assert.deepEqual(f.fix.edits, [{ line, column: col, endLine: line, endColumn: col + 2, newText: '-1' }]);
  });

  it("honours # noqa and # noqa: CODES on the finding line, and ignores other tools' codes", async () => {
    const l = await linter();
    const line5 = '    w = F.softmax(q @ k.transpose(-2, -1) / 8.0, dim=-2)';
    assert.equal(l.lintPython(SOFTMAX_BUG.replace(line5, `${line5}  # noqa`)).length, 0);
    assert.equal(l.lintPython(SOFTMAX_BUG.replace(line5, `${line5}  # noqa: ATT001`)).length, 0);
    assert.equal(l.lintPython(SOFTMAX_BUG.replace(line5, `${line5}  # NOQA:E501, att001`)).length, 0);
    assert.equal(l.lintPython(SOFTMAX_BUG.replace(line5, `${line5}  # noqa: E501`)).length, 1);
    assert.equal(l.lintPython(SOFTMAX_BUG.replace(line5, `${line5}  # noqa: ATT003`)).length, 1);
    // A string that looks like noqa is not a comment.
    assert.equal(l.lintPython(SOFTMAX_BUG.replace(line5, `${line5}; s = "# noqa"`)).length, 1);
  });

  it('selects and ignores by code and by prefix; ignore wins', async () => {
    const l = await linter();
    assert.equal(l.lintPython(SOFTMAX_BUG, { select: ['ATT001'] }).length, 1);
    assert.equal(l.lintPython(SOFTMAX_BUG, { select: ['ATT00'] }).length, 1);
    assert.equal(l.lintPython(SOFTMAX_BUG, { select: ['ATT002'] }).length, 0);
    assert.equal(l.lintPython(SOFTMAX_BUG, { ignore: ['ATT001'] }).length, 0);
    assert.equal(l.lintPython(SOFTMAX_BUG, { select: ['ATT'], ignore: ['att001'] }).length, 0);
  });

  it('knows its rule codes', () => {
    assert.deepEqual([...RULE_CODES], ['ATT001', 'ATT002', 'ATT003', 'ATT004', 'ATT005', 'ATT006', 'ATT007', 'ATT008']);
    assert.ok(isRuleCode('ATT005'));
    assert.ok(!isRuleCode('ATT009'));
  });

  describe('notebooks', () => {
    const nb = (cells: { cell_type: string; source: string | string[] }[], language = 'python'): string =>
      JSON.stringify({
        cells: cells.map((c) => ({ ...c, metadata: {}, ...(c.cell_type === 'code' ? { outputs: [], execution_count: null } : {}) })),
        metadata: { language_info: { name: language } },
        nbformat: 4,
        nbformat_minor: 5,
      });

    it('indexes cells over all cells and gives lines relative to the cell; later cells see earlier imports', async () => {
      const buggy = '%matplotlib inline\ndef attend(q, k, v):\n    w = F.softmax(q @ k.transpose(-2, -1) / 8.0, dim=-2)\n    return w @ v\n';
      const json = nb([
        { cell_type: 'markdown', source: '# Attention' },
        { cell_type: 'code', source: ['import torch\n', 'import torch.nn.functional as F\n'] },
        { cell_type: 'markdown', source: 'The bug:' },
        { cell_type: 'code', source: buggy },
      ]);
      const r = (await linter()).lintNotebook(json);
      assert.deepEqual(
        r.map((c) => ({ cell: c.cellIndex, f: codesAt(c.findings) })),
        [
          { cell: 1, f: [] },
          { cell: 3, f: [`${at(buggy, 'dim=-2')} ATT001`] },
        ],
      );
      const fix = r[1].findings[0].fix!;
      assert.equal(fix.edits[0].line, 3, 'fix edits are relative to the cell too');
    });

    it('keeps linting the other cells when one cell is half-typed', async () => {
      const second = 'def attend(q, k, v):\n    return F.softmax(q @ k.transpose(-2, -1) / 8.0, dim=-2) @ v\n';
      const json = nb([
        { cell_type: 'code', source: 'import torch.nn.functional as F\nx = foo(1, 2' },
        { cell_type: 'code', source: second },
      ]);
      const r = (await linter()).lintNotebook(json);
      assert.deepEqual(codesAt(r[1].findings), [`${at(second, 'dim=-2')} ATT001`]);
    });

    it('a half-typed cell does not swallow the statements of the next cell; a cell closed on its own is kept', async () => {
      const script = 'scores = q @ k.transpose(-2, -1) / 8.0\nweights = F.softmax(scores, dim=-2)\nout = weights @ v\n';
      const l = await linter();
      for (const halfTyped of ['x = foo(1, 2', 'rows = [1, 2,\n', 'w = F.softmax(scores,']) {
        const r = l.lintNotebook(
          nb([
            { cell_type: 'code', source: `import torch.nn.functional as F\n${halfTyped}` },
            { cell_type: 'code', source: script },
          ]),
        );
        assert.deepEqual(codesAt(r[1].findings), [`${at(script, 'dim=-2')} ATT001`], halfTyped);
      }
      // Every cell balanced (a syntax error that closes within its cell): nothing is dropped, the import still counts.
      const r = l.lintNotebook(
        nb([
          { cell_type: 'code', source: 'import torch.nn.functional as F\nx = = 1\n' },
          { cell_type: 'code', source: script },
        ]),
      );
      assert.deepEqual(codesAt(r[1].findings), [`${at(script, 'dim=-2')} ATT001`]);
    });

    it('reports broken JSON as an error and never throws; non-Python notebooks have nothing to lint', async () => {
      const l = await linter();
      assert.deepEqual(l.lintNotebook('{"cells": [ oops'), []);
      const detailed = l.lintNotebookFile('{"cells": [ oops');
      assert.match(detailed.error ?? '', /not valid JSON/);
      assert.match(l.lintNotebookFile('[1, 2]').error ?? '', /cells/);
      assert.deepEqual(l.lintNotebook(nb([{ cell_type: 'code', source: 'w = F.softmax(q @ k.T, dim=-2)' }], 'R')), []);
    });

    it('reads a notebook saved with a UTF-8 byte-order mark, as Jupyter does', async () => {
      const source = 'import torch.nn.functional as F\nw = F.softmax(q @ k.transpose(-2, -1) / 8.0, dim=-2)\n';
      const json = nb([{ cell_type: 'code', source }]);
      const l = await linter();
      const withMark = l.lintNotebookFile('\ufeff' + json);
      assert.equal(withMark.error, undefined);
      assert.deepEqual(
        withMark.cells.map((c) => codesAt(c.findings)),
        l.lintNotebookFile(json).cells.map((c) => codesAt(c.findings)),
      );
      assert.deepEqual(codesAt(withMark.cells[0].findings), [`${at(source, 'dim=-2')} ATT001`]);
    });
  });

  describe('never throws', () => {
    it('on syntax errors, fragments, binary junk and empty input', async () => {
      const l = await linter();
      const inputs = [
        '',
        '\0\0\0\x01\xff',
        'def f(:\n  return',
        'F.softmax(',
        'q @',
        '(((((((',
        'class A(nn.Module):\n  def forward(self, x):\n    return self.',
        '\uFFFD'.repeat(1000),
        'x = """unterminated',
      ];
      for (const src of inputs) assert.ok(Array.isArray(l.lintPython(src)));
    });

    it('on a deeply nested expression and on a 50,000-line file', async function () {
      this.timeout(180_000);
      const l = await linter();
      // Nesting thousands deep (generated code) must neither overflow the stack nor hide the other findings.
      const n = 5000;
      const deep = `import torch.nn.functional as F\ndef f(q, k):\n    x = ${'('.repeat(n)}q${')'.repeat(n)}\n    y = ${Array.from({ length: n }, (_, i) => `a${i}`).join(' + ')}\n    z = F.softmax(q @ k.T + ${Array.from({ length: n }, () => 'q').join(' * ')}, dim=-2)\n    return z @ x\n`;
      const before = internalErrors.length;
      assert.ok(l.lintPython(deep).some((f) => f.code === 'ATT001'));
      assert.equal(internalErrors.length, before, 'no internal error (stack overflow) on deep nesting');
      // One function in ten does attention; the rest is ordinary code.
      const fn = (i: number): string =>
        i % 10 === 0
          ? `def f${i}(q, k):\n    return (q @ k.transpose(-2, -1)).softmax(dim=-2)\n`
          : `def f${i}(x, y):\n    z = [a + b for a, b in zip(x, y)]\n    return sum(z) / max(len(z), 1)\n`;
      const big = Array.from({ length: 17_000 }, (_, i) => fn(i)).join('\n');
      assert.ok(big.split('\n').length >= 50_000);
      const f = l.lintPython(big, { select: ['ATT001'] });
      assert.equal(f.length, 1700);
      assert.ok(f.every((x) => x.code === 'ATT001'));
    });

    it('on random Python-like text (property test)', async () => {
      const l = await linter();
      const tokens = [
        'q',
        'k',
        'v',
        '@',
        '.transpose(-2, -1)',
        'F.softmax(',
        ', dim=',
        '-1',
        '-2',
        ')',
        '(',
        '\n',
        '    ',
        'def f(q, k, v):',
        'mask',
        '==',
        '~',
        'masked_fill(',
        'float("-inf")',
        ':',
        ',',
        '[',
        ']',
        'self.',
        'class M:',
        'return ',
        '=',
        '1e9',
        'torch.tril(',
        'is_causal=True',
        'scaled_dot_product_attention(',
      ];
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...tokens), { maxLength: 80 }), (parts) => {
          const findings = l.lintPython(parts.join(' '));
          return Array.isArray(findings) && findings.every((f) => f.line >= 1 && f.column >= 1 && isRuleCode(f.code));
        }),
        { numRuns: 200 },
      );
    });

    it('reported no internal errors in this suite', () => {
      assert.deepEqual(internalErrors.map(String), []);
    });
  });

  it('rejects grammar bytes that are not WebAssembly with a clear error', async () => {
    await assert.rejects(
      () => createLinter({ treeSitter: new Uint8Array([1, 2, 3]), python: grammar().python }),
      /treeSitter: expected the bytes of a WebAssembly module/,
    );
    await assert.rejects(
      () => createLinter({ treeSitter: grammar().treeSitter, python: new Uint8Array(16) }),
      /python: expected the bytes of a WebAssembly module/,
    );
  });
});
