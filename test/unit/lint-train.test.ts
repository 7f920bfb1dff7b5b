// The training set (test/lint-train, see its README): labelled real attention code, split from the unseen set by
// source repository, that rule engineers read and change rules from (a regression set).
//  1. The loader and the report (test/lint-train/train.ts) on small inline cases: a missing batch folder is an
//     empty batch, cases may sit in <batch>/cases/ or next to the README, every miss and false finding is listed
//     with its case, file, line and rule, and --rule filters the list but not the tables.
//  2. The set itself: every case well formed (the unseen set's header, label, class, source and expectation
//     checks), named t8<batch>-NN-<kind> (or the prefix a batch names: t10c), valid Python before and after redaction, listed in its batch README,
//     and sharing no case name with the unseen set.
//  3. The linter run: prints the aggregates and the discrepancies; it fails only if the linter throws (no threshold).
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import TreeSitter = require('web-tree-sitter');
import { readGrammarWasm } from '../lint-corpus/load';
import type { FindingLike } from '../lint-corpus/score';
import { TRAIN_BATCHES, formatTrainReport, loadTrainBatches, regressionBatchesAsTraining, runTrain, trainCaseNamePattern } from '../lint-train/train';
import { CaseWorkspace, UNSEEN_BATCHES, loadUnseenBatches, redactedWorkspace, type UnseenLinter } from '../lint-unseen/unseen';

const header = (name: string, label: string, cls: string) =>
  [
    `# case: ${name}`,
    '# modelled-on: someone/some-repo https://github.com/someone/some-repo/issues/7',
    `# label: ${label}`,
    `# class: ${cls}`,
    '# pattern: a pattern',
    '# why: a reason',
    '# source: https://github.com/someone/some-repo https://github.com/someone/some-repo/commit/0123abc model.py',
  ].join('\n');

describe('lint train: loader and report', () => {
  let root = '';
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'lint-train-'));
    // batch a: cases in a/cases/; a buggy single file and a correct folder case.
    mkdirSync(join(root, 'a', 'cases', 't8a-02-clean'), { recursive: true });
    writeFileSync(join(root, 'a', 'README.md'), '# batch a\n');
    writeFileSync(join(root, 'a', 'cases', 't8a-01-mask.py'), `${header('t8a-01-mask', 'buggy', 'real-bug')}\nx = 1  # expect: ATT002\ny = 2\n`);
    writeFileSync(join(root, 'a', 'cases', 't8a-02-clean', 'model.py'), `${header('t8a-02-clean', 'correct', 'clean')}\nz = 3\n`);
    writeFileSync(join(root, 'a', 'cases', 't8a-02-clean', 'utils.py'), 'w = 4\n');
    // batch b: cases next to the README.
    mkdirSync(join(root, 'b'), { recursive: true });
    writeFileSync(join(root, 'b', 'README.md'), '# batch b\n');
    writeFileSync(join(root, 'b', 't8b-01-causal.py'), `${header('t8b-01-causal', 'buggy', 'real-bug')}\nq = 1  # expect: ATT008\n`);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const batches = () => [
    { id: 'a', dir: join(root, 'a') },
    { id: 'b', dir: join(root, 'b') },
    { id: 'c', dir: join(root, 'c') },
  ];

  it('reads cases from <batch>/cases/ or next to the README, and a missing folder is an empty batch', () => {
    const loaded = loadTrainBatches(batches());
    assert.deepEqual(
      loaded.map((l) => [l.batch.id, l.cases.map((c) => c.name)]),
      [
        ['a', ['t8a-01-mask', 't8a-02-clean']],
        ['b', ['t8b-01-causal']],
        ['c', []],
      ],
    );
  });

  it('lists every miss and false finding with case, file, line and rule; --rule filters the list, not the tables', () => {
    // Reports ATT002 on line 8 of every file and ATT001 on line 9: a TP in t8a-01-mask, FPs elsewhere, a miss in t8b-01-causal.
    const fake: UnseenLinter = {
      lintPython: (): FindingLike[] => [
        { code: 'ATT002', line: 8, message: 'polarity' },
        { code: 'ATT001', line: 9 },
      ],
    };
    const result = runTrain(fake, loadTrainBatches(batches()));
    const report = formatTrainReport(result);
    assert.match(report, /^lint train, batch a: 2 cases \(3 files, 1 expectations\)/m);
    assert.match(report, /^lint train, batch b: 1 cases/m);
    assert.match(report, /^lint train, batches a \+ b \+ c: 3 cases/m);
    assert.match(report, /^ {2}MISS {3}t8b-01-causal {2}t8b-01-causal\.py:8 {2}expected ATT008 {2}\[real-bug\]$/m);
    assert.match(report, /^ {2}FALSE {2}t8a-02-clean {2}model\.py:8 {2}reported ATT002 {2}\[clean\] {2}polarity$/m);
    assert.match(report, /^ {2}FALSE {2}t8a-02-clean {2}utils\.py:9 {2}reported ATT001 {2}\[clean\]$/m);
    assert.match(report, /^misses: 1$/m);
    assert.match(report, /^false findings: 7$/m);
    const only = formatTrainReport(result, { rule: 'ATT008' });
    assert.match(only, /^misses \(ATT008 only\): 1$/m);
    assert.match(only, /^false findings \(ATT008 only\): 0$/m);
    assert.match(only, /^lint train, batch a: 2 cases/m, 'the tables stay complete');
  });

  it('rejects a case name used in two batches', () => {
    assert.throws(() => loadTrainBatches([batches()[0], { id: 'again', dir: join(root, 'a') }]), /is used in a and again/);
  });

  it('reads the regression batches of the unseen set as training (or their copies), never a batch of the unseen group', () => {
    const regression = UNSEEN_BATCHES.filter((b) => b.group === 'regression');
    const unseenDirs = new Set(UNSEEN_BATCHES.filter((b) => b.group !== 'regression').map((b) => b.dir));
    const own = regressionBatchesAsTraining();
    assert.deepEqual(
      own.map((b) => b.id),
      regression.map((b) => b.id),
    );
    assert.ok(own.length >= 2 && own.every((b) => !unseenDirs.has(b.dir)));
    const copied = regressionBatchesAsTraining('/some/copy');
    assert.deepEqual(
      copied.map((b) => b.dir),
      regression.map((b) => join('/some/copy', b.id)),
    );
  });
});

describe('lint train: the set', () => {
  let loaded: ReturnType<typeof loadTrainBatches> = [];
  before(() => {
    loaded = loadTrainBatches();
  });

  it('every case is well formed, named <prefix>-NN-<kind> (t8<batch>, or the prefix its batch names), and its expectations agree with its label', () => {
    for (const { batch, cases } of loaded) {
      for (const c of cases) {
        const prefix = batch.namePrefix ?? `t8${batch.id}`;
        assert.match(c.name, trainCaseNamePattern(batch.id, batch.namePrefix), `${c.name}: named ${prefix}-NN-<kind>`);
        const n = c.files.reduce((k, f) => k + f.expectations.length, 0);
        assert.equal(n > 0, c.header.label === 'buggy', `${c.name}: expectations agree with the label`);
      }
    }
  });

  it('shares no case name with the unseen set', () => {
    const unseen = new Set(loadUnseenBatches().flatMap((b) => b.cases.map((c) => c.name)));
    for (const { cases } of loaded) for (const c of cases) assert.ok(!unseen.has(c.name), `${c.name} is also an unseen case name`);
  });

  it('every file is valid Python before and after redaction, and the redaction removes every label', async () => {
    const grammar = readGrammarWasm();
    await TreeSitter.Parser.init({ wasmBinary: grammar.treeSitter });
    const parser = new TreeSitter.Parser();
    parser.setLanguage(await TreeSitter.Language.load(grammar.python));
    const bad: string[] = [];
    for (const c of loaded.flatMap((l) => l.cases)) {
      const redacted = redactedWorkspace(c);
      for (const f of [...c.files, ...redacted]) {
        const tree = parser.parse(f.text);
        if (!tree || tree.rootNode.hasError) bad.push(`${c.name}/${f.path}`);
        tree?.delete();
      }
      for (const f of redacted)
        assert.ok(!/#\s*(expect|case|label|class|why|pattern|source|modelled-on|looks-like):/.test(f.text), `${c.name}/${f.path}: a label survived`);
    }
    parser.delete();
    assert.deepEqual(bad, []);
  });

  it("each batch's README lists every case once, with its class and repository", () => {
    for (const { batch, cases } of loaded) {
      if (cases.length === 0) continue;
      const readme = readFileSync(join(batch.dir, 'README.md'), 'utf8');
      for (const c of cases) {
        const rows = readme.split('\n').filter((line) => line.startsWith(`| \`${c.name}\``));
        assert.equal(rows.length, 1, `${batch.id}/README.md lists ${c.name} once`);
        assert.ok(
          rows[0].includes(c.header.repo) && rows[0].includes(c.header.cls),
          `${batch.id}/README.md: the row for ${c.name} names its repository and class`,
        );
      }
    }
  });

  it('reads the batches a to ff (session 27: c from curator A, d from curator B, named t10c-/t10d-NN-<kind>; e from curator C, named t12e-NN-<kind>; session 28: f from curator A, g from curator B, h from curator C, named t13f-/t14g-/t15h-NN-<kind>; session 29: i from curator A, j from curator B, named t16i-/t17j-NN-<kind>; session 30: k from curator A, l from curator B, named t18k-/t19l-NN-<kind>; session 31: m from curator A, n from curator B, named t20m-/t21n-NN-<kind>; session 32: o from curator A, p from curator B, q from curator C, r from curator D, s from curator E, named t22o-/t23p-/t24q-/t25r-/t26s-NN-<kind>; session 34: t from curator T, u from curator U, v from curator V, w from curator W, named t27t-/t28u-/t29v-/t30w-NN-<kind>; session 35: x from the curator of unseen batch 27, named t31x-NN-<kind>; y from the curator of unseen batch 28, named t32y-NN-<kind>; session 36: z from curator s36z, named t33z-NN-<kind>; aa from curator s36aa, named t34aa-NN-<kind>; bb from curator s36bb, named t35bb-NN-<kind>; session 43: cc from rule engineer eng-cut-s43b, named t43cc-NN-<kind>; dd from eng-cut-s43c, named t43dd-NN-<kind>; session 44: ee from rule engineer eng-s44b, named t44ee-NN-<kind>; ff from eng-s44c, named t44ff-NN-<kind>)', () => {
    assert.deepEqual(
      TRAIN_BATCHES.map((b) => [b.id, b.namePrefix ?? `t8${b.id}`]),
      [
        ['a', 't8a'],
        ['b', 't8b'],
        ['c', 't10c'],
        ['d', 't10d'],
        ['e', 't12e'],
        ['f', 't13f'],
        ['g', 't14g'],
        ['h', 't15h'],
        ['i', 't16i'],
        ['j', 't17j'],
        ['k', 't18k'],
        ['l', 't19l'],
        ['m', 't20m'],
        ['n', 't21n'],
        ['o', 't22o'],
        ['p', 't23p'],
        ['q', 't24q'],
        ['r', 't25r'],
        ['s', 't26s'],
        ['t', 't27t'],
        ['u', 't28u'],
        ['v', 't29v'],
        ['w', 't30w'],
        ['x', 't31x'],
        ['y', 't32y'],
        ['z', 't33z'],
        ['aa', 't34aa'],
        ['bb', 't35bb'],
        ['cc', 't43cc'],
        ['dd', 't43dd'],
        ['ee', 't44ee'],
        ['ff', 't44ff'],
      ],
    );
    assert.ok(trainCaseNamePattern('c', 't10c').test('t10c-01-mask'));
    assert.ok(!trainCaseNamePattern('c', 't10c').test('t8c-01-mask'));
    assert.ok(trainCaseNamePattern('d', 't10d').test('t10d-01-scale'));
    assert.ok(!trainCaseNamePattern('d', 't10d').test('t8d-01-scale'));
    assert.ok(trainCaseNamePattern('e', 't12e').test('t12e-08-fill'));
    assert.ok(!trainCaseNamePattern('e', 't12e').test('t10e-08-fill'));
    assert.ok(trainCaseNamePattern('f', 't13f').test('t13f-09-causal'));
    assert.ok(!trainCaseNamePattern('f', 't13f').test('t12f-09-causal'));
    assert.ok(trainCaseNamePattern('g', 't14g').test('t14g-07-transpose'));
    assert.ok(!trainCaseNamePattern('g', 't14g').test('t8g-07-transpose'));
    assert.ok(trainCaseNamePattern('h', 't15h').test('t15h-05-softmax'));
    assert.ok(!trainCaseNamePattern('h', 't15h').test('t14h-05-softmax'));
    assert.ok(trainCaseNamePattern('i', 't16i').test('t16i-06-fill'));
    assert.ok(!trainCaseNamePattern('i', 't16i').test('t15i-06-fill'));
    assert.ok(trainCaseNamePattern('j', 't17j').test('t17j-02-softmax'));
    assert.ok(!trainCaseNamePattern('j', 't17j').test('t15j-02-softmax'));
    assert.ok(trainCaseNamePattern('k', 't18k').test('t18k-03-mask'));
    assert.ok(!trainCaseNamePattern('k', 't18k').test('t16k-03-mask'));
    assert.ok(trainCaseNamePattern('l', 't19l').test('t19l-02-scale'));
    assert.ok(!trainCaseNamePattern('l', 't19l').test('t17l-02-scale'));
    assert.ok(trainCaseNamePattern('m', 't20m').test('t20m-01-mask'));
    assert.ok(!trainCaseNamePattern('m', 't20m').test('t18m-01-mask'));
    assert.ok(trainCaseNamePattern('n', 't21n').test('t21n-06-softmax'));
    assert.ok(!trainCaseNamePattern('n', 't21n').test('t19n-06-softmax'));
    assert.ok(trainCaseNamePattern('o', 't22o').test('t22o-01-mask'));
    assert.ok(!trainCaseNamePattern('o', 't22o').test('t21o-01-mask'));
    assert.ok(trainCaseNamePattern('p', 't23p').test('t23p-06-scale'));
    assert.ok(!trainCaseNamePattern('p', 't23p').test('t21p-06-scale'));
    assert.ok(trainCaseNamePattern('q', 't24q').test('t24q-02-clean'));
    assert.ok(!trainCaseNamePattern('q', 't24q').test('t23q-02-clean'));
    assert.ok(trainCaseNamePattern('r', 't25r').test('t25r-02-clean'));
    assert.ok(!trainCaseNamePattern('r', 't25r').test('t23r-02-clean'));
    assert.ok(trainCaseNamePattern('s', 't26s').test('t26s-05-mask'));
    assert.ok(!trainCaseNamePattern('s', 't26s').test('t23s-05-mask'));
    assert.ok(trainCaseNamePattern('t', 't27t').test('t27t-08-causal'));
    assert.ok(!trainCaseNamePattern('t', 't27t').test('t26t-08-causal'));
    assert.ok(trainCaseNamePattern('v', 't29v').test('t29v-03-scale'));
    assert.ok(!trainCaseNamePattern('v', 't29v').test('t28v-03-scale'));
    assert.ok(trainCaseNamePattern('a').test('t8a-05-mask'));
  });
});

describe('lint train: linter run (no threshold)', () => {
  it('lints every file of every batch without throwing and prints the aggregates and the discrepancies', async function () {
    this.timeout(180_000);
    // require (not a top-level import) so that only this suite fails if src/lint cannot be loaded.
    const lint = require('../../src/lint') as typeof import('../../src/lint');
    const workspace = new CaseWorkspace();
    const linter = await lint.createLinter(readGrammarWasm(), { workspace });
    const result = runTrain(linter, loadTrainBatches(), workspace);
    const report = formatTrainReport(result);
    console.log(`\n${report}\n`);
    assert.match(report, /^misses: \d+$/m);
    assert.deepEqual(
      result.combined.crashes.map((c) => c.file),
      [],
      'the linter must never throw',
    );
  });
});
