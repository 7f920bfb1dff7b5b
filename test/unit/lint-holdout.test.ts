// The second lint regression set (test/lint-holdout; written as a held-out corpus, no longer one: see its
// README). Checks that every case parses (valid, redactable Python, in a set that stays disjoint from the main
// corpus), that the linter never throws on it, and that overall precision and recall do not fall below
// REGRESSION_FLOOR. Prints the aggregate table only; `npx tsx scripts/lint-holdout-report.ts` lists the misses.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import TreeSitter = require('web-tree-sitter');
import { CORPUS_DIR, loadCorpus, readCaseFiles, readGrammarWasm } from '../lint-corpus/load';
import {
  corpusStats,
  formatTable,
  parseCase,
  readmeTableProblems,
  parseExpectations,
  parseHeader,
  type CorpusCase,
  type LinterLike,
} from '../lint-corpus/score';
import { HOLDOUT_DIR, REGRESSION_FLOOR, readmeRepos, redactCase, redactSource, runHoldout } from '../lint-holdout/holdout';

const HEADER = [
  '# case: demo-case',
  '# modelled-on: someone/some-repo https://github.com/someone/some-repo/issues/7',
  '# label: buggy',
  '# pattern: a pattern',
  '# why: a reason',
].join('\n');

function notebook(cells: Array<[string, string | string[]]>): string {
  return JSON.stringify({ cells: cells.map(([cell_type, source]) => ({ cell_type, source, metadata: {} })), nbformat: 4, nbformat_minor: 5 });
}

describe('lint holdout: redaction', () => {
  it('blanks the header block and strips expect comments without moving lines or code columns', () => {
    const src = `${HEADER}\nimport torch\n\nx = a @ b  # (B, L)  # expect: ATT001, ATT004\ny = 1\r\nz = 2  # expect: ATT002\n`;
    const out = redactSource(src, true);
    assert.equal(out.split(/\r\n|\r|\n/).length, src.split(/\r\n|\r|\n/).length);
    assert.deepEqual(out.split('\n').slice(0, 5), ['#', '#', '#', '#', '#']);
    assert.ok(out.includes('\nx = a @ b  # (B, L)\n'), 'ordinary comments are kept');
    assert.ok(out.includes('\ny = 1\r\nz = 2\n'), 'line breaks are kept as they were');
    assert.ok(!/expect:|label:|why:/.test(out));
    assert.deepEqual(parseExpectations(out, null, 'x.py'), []);
  });

  it('leaves a header-like comment later in the file, and the header of a cell that is not the first, alone', () => {
    assert.equal(redactSource('import os\n# why: not a header here\n', true), 'import os\n# why: not a header here\n');
    assert.equal(redactSource('# why: kept\nx = 1  # expect: ATT003', false), '# why: kept\nx = 1');
  });

  it('redacts a .py case and keeps its expectations for scoring', () => {
    const c = parseCase('demo-case.py', `${HEADER}\nimport torch\ns = q @ k.transpose(-2, -1)  # expect: ATT003\n`);
    const r = redactCase(c);
    assert.deepEqual(r.expectations, c.expectations);
    assert.equal(r.text.split('\n')[6], 's = q @ k.transpose(-2, -1)');
    assert.equal(r.units[0].source, r.text);
  });

  it('redacts a notebook: header only in the first code cell, expect comments in every code cell, indexes kept', () => {
    const nb = notebook([
      ['markdown', '# Title  # expect: ATT001'],
      ['code', [HEADER + '\n', 'import torch']],
      ['code', 'x = f(1)  # expect: ATT002\n# why: a later comment'],
    ]);
    const c = parseCase('demo-case.ipynb', nb);
    const r = redactCase(c);
    const doc = JSON.parse(r.text) as { cells: Array<{ cell_type: string; source: string | string[] }> };
    assert.equal(doc.cells.length, 3);
    assert.equal(doc.cells[0].source, '# Title  # expect: ATT001', 'markdown cells are untouched');
    assert.equal(doc.cells[1].source, '#\n#\n#\n#\n#\nimport torch');
    assert.equal(doc.cells[2].source, 'x = f(1)\n# why: a later comment');
    assert.deepEqual(
      r.units.map((u) => [u.cell, u.source]),
      [
        [1, doc.cells[1].source],
        [2, doc.cells[2].source],
      ],
    );
    assert.deepEqual(r.expectations, [{ cell: 2, line: 1, code: 'ATT002' }]);
  });

  it('scores the redacted text against the original expectations', () => {
    const c = parseCase('demo-case.py', `${HEADER}\nimport torch\ns = q @ k.transpose(-2, -1)  # expect: ATT003\n`);
    const seen: string[] = [];
    const fake: LinterLike = {
      lintPython: (src) => (
        seen.push(src),
        [
          { code: 'ATT003', line: 7 },
          { code: 'ATT001', line: 2 },
        ]
      ),
      lintNotebook: () => [],
    };
    const run = runHoldout(fake, [c]);
    assert.ok(!seen[0].includes('expect') && !seen[0].includes('label'));
    assert.deepEqual([run.score.overall.tp, run.score.overall.fp, run.score.overall.fn], [1, 1, 0]);
    assert.deepEqual(run.crashes, []);
  });

  it('records a linter that throws as a crash instead of failing the run', () => {
    const c = parseCase('demo-case.py', `${HEADER}\nx = 1  # expect: ATT001\n`);
    const boom: LinterLike = {
      lintPython: () => {
        throw new Error('boom');
      },
      lintNotebook: () => [],
    };
    const run = runHoldout(boom, [c]);
    assert.deepEqual(run.crashes, [{ file: 'demo-case.py', message: 'boom' }]);
    assert.equal(run.results.length, 0);
  });
});

describe('lint holdout: the cases', () => {
  let cases: CorpusCase[] = [];
  before(() => {
    cases = loadCorpus(HOLDOUT_DIR);
  });

  it('every case file parses (header, label, expectations)', () => {
    assert.equal(cases.length, readCaseFiles(HOLDOUT_DIR).length);
    assert.ok(cases.length > 0);
    const s = corpusStats(cases);
    console.log(
      `\nlint holdout: ${s.cases} cases (${s.buggy} buggy, ${s.correct} correct, ${s.notebooks} notebooks) from ${s.repos.size} repositories; ` +
        `expectations per rule: ${[...s.expected].map(([code, n]) => `${code} ${n}`).join(', ')}`,
    );
  });

  it('every code cell is valid Python before and after redaction (tree-sitter finds no error node)', async () => {
    const grammar = readGrammarWasm();
    await TreeSitter.Parser.init({ wasmBinary: grammar.treeSitter });
    const parser = new TreeSitter.Parser();
    parser.setLanguage(await TreeSitter.Language.load(grammar.python));
    const bad: string[] = [];
    for (const c of cases) {
      const redacted = redactCase(c);
      for (const [which, units] of [
        ['original', c.units],
        ['redacted', redacted.units],
      ] as const) {
        for (const u of units) {
          const tree = parser.parse(u.source);
          if (!tree || tree.rootNode.hasError) bad.push(`${which} ${u.cell === null ? c.file : `${c.file} [cell ${u.cell}]`}`);
          tree?.delete();
        }
      }
      assert.ok(!/#\s*expect:/.test(redacted.units.map((u) => u.source).join('\n')), `${c.file}: an expect comment survived redaction`);
      assert.throws(() => parseHeader(redacted.units[0].source, c.file), /missing header line/, `${c.file}: the header survived redaction`);
    }
    parser.delete();
    assert.deepEqual(bad, []);
  });

  it('no case is modelled on a repository the main corpus README names', () => {
    const mainRepos = readmeRepos(readFileSync(join(CORPUS_DIR, '..', 'README.md'), 'utf8'));
    assert.ok(mainRepos.size > 0, 'the main corpus README names no repositories');
    const clashes = cases.filter((c) => mainRepos.has(c.header.repo.toLowerCase())).map((c) => `${c.file}: ${c.header.repo}`);
    assert.deepEqual(clashes, []);
  });

  it('the README table lists every case once, with its repository and label', () => {
    const readme = readFileSync(join(HOLDOUT_DIR, '..', 'README.md'), 'utf8');
    assert.match(readme, /This is a regression set, not an unseen one/);
    assert.deepEqual(readmeTableProblems(readme, cases), []);
  });
});

describe('lint holdout: linter run (a regression set: aggregates only, and a floor)', () => {
  let linter: LinterLike;
  let cases: CorpusCase[] = [];

  before(async function () {
    this.timeout(60_000);
    // require (not a top-level import) so that only this suite fails if src/lint cannot be loaded.
    const lint = require('../../src/lint') as typeof import('../../src/lint');
    linter = await lint.createLinter(readGrammarWasm());
    cases = loadCorpus(HOLDOUT_DIR);
  });

  it('lints every case without throwing; precision and recall stay at or above the floor', function () {
    this.timeout(60_000);
    const run = runHoldout(linter, cases);
    console.log(`\nlint holdout (second regression set): ${cases.length} cases, linter findings vs labels\n${formatTable(run.score)}`);
    assert.deepEqual(run.crashes, [], 'the linter must never throw');
    const { precision, recall } = run.score.overall;
    const fell = `(npx tsx scripts/lint-holdout-report.ts lists the misses)`;
    assert.ok(precision !== null && precision >= REGRESSION_FLOOR.precision, `precision ${precision} fell below ${REGRESSION_FLOOR.precision} ${fell}`);
    assert.ok(recall !== null && recall >= REGRESSION_FLOOR.recall, `recall ${recall} fell below ${REGRESSION_FLOOR.recall} ${fell}`);
  });
});
