// `npm run lint:coverage`: branch coverage of every lint rule (src/lint/rules/*.ts) and of the analysis
// (src/lint/analysis/*.ts), measured with c8 (V8's own coverage, mapped back to the TypeScript by tsx's source
// maps) twice:
//   fixtures   only the per-rule fixtures (test/unit/lint/fixtures.test.ts): a branch covered here has a fixture
//              of its own (a small buggy or correct file under test/unit/lint/fixtures/<CODE>/);
//   all        every lint unit test, and the two regression corpora (lint-corpus, lint-holdout).
// It prints one row per file, then, for each rule file, the lines of the branches no fixture takes (each is a
// fixture to write, or a dead branch to delete). V8 reports a function that never ran as one block, so a
// file's branch total grows as more of it runs: compare the uncovered lines, not the totals, across runs.
//   node scripts/lint-coverage.mjs [--save FILE]    --save also writes the printed report to FILE.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const c8 = require.resolve('c8/bin/c8.js');
const mocha = require.resolve('mocha/bin/mocha.js');

const RUNS = {
  fixtures: ['test/unit/lint/fixtures.test.ts'],
  all: ['test/unit/lint/**/*.test.ts', 'test/unit/lint-corpus.test.ts', 'test/unit/lint-holdout.test.ts'],
};

/** Runs mocha on `tests` under c8; returns istanbul's per-file coverage (coverage-final.json). */
function measure(name, tests) {
  const dir = join(root, '.cache', 'lint-coverage', name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const args = [c8, '--reporter=json', '--report-dir', dir, '--temp-directory', join(dir, 'v8'), '--include', 'src/lint/**/*.ts'];
  const result = spawnSync(process.execPath, [...args, mocha, '--reporter', 'dot', ...tests], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) {
    console.error(`lint-coverage: the ${name} tests failed (exit ${result.status}); run them with mocha to see why`);
    process.exit(1);
  }
  const coverage = JSON.parse(readFileSync(join(dir, 'coverage-final.json'), 'utf8'));
  return new Map(Object.entries(coverage).map(([file, data]) => [relative(root, file), data]));
}

const sourceLines = new Map();
/** How many lines `file` has (arms mapped past its end, or to 1:1, are tsx's CommonJS module wrapper). */
function lineCount(file) {
  if (!sourceLines.has(file)) sourceLines.set(file, readFileSync(file, 'utf8').trimEnd().split('\n').length);
  return sourceLines.get(file);
}

/** Branch arms of one file's own code: [{line, column, taken}]. */
function arms(data) {
  const last = lineCount(data.path);
  const out = [];
  for (const [id, counts] of Object.entries(data.b)) {
    const branch = data.branchMap[id];
    counts.forEach((count, i) => {
      const loc = branch.locations[i] ?? branch.loc;
      const line = loc.start.line;
      if ((line === 1 && loc.start.column === 0) || line >= last) return; // the wrapper's closing lines map to the file's last
      out.push({ line, column: loc.start.column + 1, taken: count > 0 });
    });
  }
  return out;
}

const ratio = (list) => {
  const taken = list.filter((a) => a.taken).length;
  return `${String(taken).padStart(4)}/${String(list.length).padEnd(4)} ${list.length === 0 ? '   -  ' : ((100 * taken) / list.length).toFixed(1).padStart(5) + '%'}`;
};

const results = Object.fromEntries(Object.entries(RUNS).map(([name, tests]) => [name, measure(name, tests)]));
const files = [...new Set(Object.values(results).flatMap((m) => [...m.keys()]))]
  .filter((f) => /^src\/lint\/(rules|analysis)\//.test(f))
  .sort((a, b) => (a.includes('/rules/') === b.includes('/rules/') ? a.localeCompare(b) : a.includes('/rules/') ? -1 : 1));

const lines = [];
const say = (text = '') => lines.push(text);
say(`lint branch coverage (c8), ${new Date().toISOString().slice(0, 16)}Z`);
say(`${'file'.padEnd(44)} ${'fixtures only'.padEnd(16)} all lint tests + corpora`);
for (const file of files) {
  const row = Object.keys(RUNS).map((name) => {
    const data = results[name].get(file);
    return data ? ratio(arms(data)) : '   (not loaded)  ';
  });
  say(`${file.padEnd(44)} ${row.join('  ')}`);
}
say();
say('Branches of the rule files that no fixture takes (line:column; * = no lint test or corpus case takes it either):');
for (const file of files.filter((f) => f.includes('/rules/'))) {
  const fixtures = results.fixtures.get(file);
  if (!fixtures) continue;
  const all = results.all.get(file);
  const takenByAll = new Set(
    all
      ? arms(all)
          .filter((a) => a.taken)
          .map((a) => `${a.line}:${a.column}`)
      : [],
  );
  const missing = arms(fixtures)
    .filter((a) => !a.taken)
    .sort((a, b) => a.line - b.line || a.column - b.column)
    .map((a) => `${a.line}:${a.column}${takenByAll.has(`${a.line}:${a.column}`) ? '' : '*'}`);
  const unique = [...new Set(missing)];
  say(`  ${file}: ${unique.length === 0 ? 'none' : unique.join(' ')}`);
}
const report = lines.join('\n') + '\n';
process.stdout.write(report);
const save = process.argv.indexOf('--save');
if (save !== -1) {
  const target = process.argv[save + 1];
  if (!target) {
    console.error('usage: node scripts/lint-coverage.mjs [--save FILE]');
    process.exit(2);
  }
  writeFileSync(join(root, target), report);
}
