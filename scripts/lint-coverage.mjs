// `npm run lint:coverage`: branch coverage of every lint rule (src/lint/rules/*.ts) and of the analysis
// (src/lint/analysis/*.ts), measured with c8 (V8's own coverage, mapped back to the TypeScript by tsx's source
// maps) twice:
//   fixtures   only the per-rule fixtures (test/unit/lint/fixtures.test.ts): a branch covered here has a fixture
//              of its own (a small buggy or correct file under test/unit/lint/fixtures/<CODE>/);
//   all        every lint unit test, and the two regression corpora (lint-corpus, lint-holdout).
// It prints one row per file, then, for each rule file, the lines of the branches no fixture takes (each is a
// fixture to write, or a dead branch to delete). V8 reports a function that never ran as one block, so a
// file's branch total grows as more of it runs: compare the uncovered lines, not the totals, across runs.
// A branch on a line after `/* c8 ignore next */` counts as taken (c8's rule); the report lists those comments.
//   node scripts/lint-coverage.mjs [--save FILE]    --save also writes the printed report to FILE.
//   node scripts/lint-coverage.mjs --check [--only ATT001,scale-defs]
//       runs the fixtures alone, prints each rule file's branches that no fixture takes, and exits 1 if any
//       rule file (or, with --only, any file whose name contains one of the given parts) has one.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const c8 = require.resolve('c8/bin/c8.js');
const mocha = require.resolve('mocha/bin/mocha.js');

const argv = process.argv.slice(2);
const check = argv.includes('--check');
const optionValue = (flag) => {
  const i = argv.indexOf(flag);
  if (i === -1) return undefined;
  const value = argv[i + 1];
  if (value === undefined || value.startsWith('--')) {
    console.error(`lint-coverage: ${flag} needs a value; usage: node scripts/lint-coverage.mjs [--save FILE] | --check [--only ATT001,scale-defs]`);
    process.exit(2);
  }
  return value;
};
const save = optionValue('--save');
const only = optionValue('--only')
  ?.split(',')
  .filter((part) => part.length > 0);

const FIXTURES = ['test/unit/lint/fixtures.test.ts', 'test/unit/lint/fixtures-workspace.test.ts'];
const RUNS = check
  ? { fixtures: FIXTURES }
  : {
      fixtures: FIXTURES,
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

const sourceText = new Map();
/** The lines of `file`'s source. */
function sourceOf(file) {
  if (!sourceText.has(file)) sourceText.set(file, readFileSync(file, 'utf8').split('\n'));
  return sourceText.get(file);
}

/**
 * V8 counts the code after a `return` as a block of its own; where that `return` ends a function body (or the
 * `return { ... }` of a rule's `create`, followed by its hoisted helper declarations), the source map puts the
 * block on the next function declaration's header. Such a block holds no statement any input could run.
 */
function isAfterReturnArtifact(file, loc) {
  const text = sourceOf(file)[loc.start.line - 1] ?? '';
  const header = /^(\s*)(?:export\s+)?(?:async\s+)?function\s*\*?\s*[A-Za-z_$][\w$]*\s*[(<]/.exec(text);
  return header !== null && loc.start.column >= header[1].length && loc.start.column < header[0].length;
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
      if (isAfterReturnArtifact(data.path, loc)) return;
      out.push({ line, column: loc.start.column + 1, taken: count > 0 });
    });
  }
  return out;
}

/** Lines of `file` holding a c8 ignore comment, with the reason written in it (`/* c8 ignore next -- why */ `) or after it (`; // why`). */
function ignoreComments(file) {
  return sourceOf(file).flatMap((text, i) => {
    const m = /\/\* c8 ignore (?:next(?: \d+)?|start|stop)\b[\s:-]*(.*?)\s*\*\/(?:\s*\/\/\s*(.*))?/.exec(text);
    return m ? [{ line: i + 1, reason: (m[1] || m[2] || '').trim() }] : [];
  });
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
const runNames = Object.keys(RUNS);
say(`lint branch coverage (c8), ${new Date().toISOString().slice(0, 16)}Z`);
say(`${'file'.padEnd(44)} ${runNames.map((name) => (name === 'fixtures' ? 'fixtures only' : 'all lint tests + corpora').padEnd(16)).join(' ')}`);
for (const file of check ? files.filter((f) => f.includes('/rules/')) : files) {
  const row = runNames.map((name) => {
    const data = results[name].get(file);
    return data ? ratio(arms(data)) : '   (not loaded)  ';
  });
  say(`${file.padEnd(44)} ${row.join('  ')}`);
}
say();
say(
  check
    ? 'Branches of the rule files that no fixture takes (line:column):'
    : 'Branches of the rule files that no fixture takes (line:column; * = no lint test or corpus case takes it either):',
);
const failing = [];
for (const file of files.filter((f) => f.includes('/rules/'))) {
  const fixtures = results.fixtures.get(file);
  if (!fixtures) continue;
  const all = results.all?.get(file);
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
    .map((a) => `${a.line}:${a.column}${check || takenByAll.has(`${a.line}:${a.column}`) ? '' : '*'}`);
  const unique = [...new Set(missing)];
  const ignored = ignoreComments(file);
  const ignoredText = ignored.length === 0 ? '' : `  (c8 ignore: ${ignored.length})`;
  say(`  ${file}: ${unique.length === 0 ? 'none' : `${unique.length}: ${unique.join(' ')}`}${ignoredText}`);
  if (unique.length > 0 && (!only || only.some((part) => file.includes(part)))) failing.push(file);
}
const withIgnores = files.filter((f) => f.includes('/rules/') && ignoreComments(f).length > 0);
if (withIgnores.length > 0) {
  say();
  say('c8 ignore comments in the rule files (the branch on the next line counts as taken):');
  for (const file of withIgnores) {
    for (const { line, reason } of ignoreComments(file)) {
      say(`  ${file}:${line} ${reason || '(no reason given: write one)'}`);
      if (!reason && !failing.includes(file) && (!only || only.some((part) => file.includes(part)))) failing.push(file);
    }
  }
}
if (check) {
  say();
  const scope = only ? `rule files matching ${only.join(', ')}` : 'rule files';
  say(
    failing.length === 0
      ? `lint-coverage --check: every branch of the ${scope} is taken by a fixture`
      : `lint-coverage --check: ${failing.length} of the ${scope} have branches no fixture takes (or a c8 ignore without a reason): ${failing.join(', ')}`,
  );
}
const report = lines.join('\n') + '\n';
process.stdout.write(report);
if (save !== undefined) writeFileSync(join(root, save), report);
if (check && failing.length > 0) process.exit(1);
