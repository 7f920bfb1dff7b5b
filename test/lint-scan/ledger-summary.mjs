#!/usr/bin/env node
// Recomputes the per-rule figures of a scan verdict ledger (test/lint-scan/results/*-scan-ledger-*.md, and the
// first-contact ledgers of fresh repositories, results/2026-12-07-fresh-ledger-s46.md and, on a second fresh set,
// results/2026-12-07-fresh-ledger-s47.md) from its table rows, so the figures written under the table can be checked
// and rerun after a verdict changes.
//
//   node test/lint-scan/ledger-summary.mjs [LEDGER.md]     (default: session 45's ledger of the pinned set)
//
// A table row is a Markdown row whose first cell is a whole number:
//   | # | repository | location | rule | modes | verdict | class | why | earlier verdict | earlier source |
// `modes` is `ws`, `alone` or `ws+alone`; `verdict` starts with `true`, `false` or `undecided` (`true, intentional`
// counts as true and is also counted apart). `class` names the class of code of a false or undecided row.
// Prints, for all rows and for each mode: per rule the findings, true (intentional), false, undecided and the
// precision with undecided counted as true and as false, and with intentional deviations counted as false too (the
// share of findings that are bugs); then the false and undecided rows grouped by rule and class.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const here = dirname(fileURLToPath(import.meta.url));
const file = process.argv[2] ?? join(here, 'results', '2026-12-07-scan-ledger-s45.md');
const text = readFileSync(file, 'utf8');

function splitRow(line) {
  // Cells are separated by `|`; a literal pipe inside a cell must be written `\|`.
  const cells = [];
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && line[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (c === '|') {
      cells.push(cur.trim());
      cur = '';
    } else {
      cur += c;
    }
  }
  cells.push(cur.trim());
  return cells.slice(1, -1);
}

const rows = [];
for (const line of text.split('\n')) {
  if (!line.startsWith('|')) continue;
  const cells = splitRow(line);
  if (cells.length < 10 || !/^\d+$/.test(cells[0])) continue;
  const [id, repo, location, rule, modes, verdict, klass] = cells;
  const v = verdict.toLowerCase();
  const kind = v.startsWith('true') ? 'true' : v.startsWith('false') ? 'false' : v.startsWith('undecided') ? 'undecided' : null;
  if (!kind) throw new Error(`row ${id}: verdict "${verdict}" is not true/false/undecided`);
  if (!/^(ws|alone|ws\+alone)$/.test(modes)) throw new Error(`row ${id}: modes "${modes}"`);
  rows.push({
    id: Number(id),
    repo,
    location,
    rule,
    modes: modes.split('+'),
    kind,
    intentional: v.includes('intentional'),
    klass,
  });
}
if (rows.length === 0) throw new Error(`no ledger rows in ${file}`);
const ids = new Set(rows.map((r) => r.id));
if (ids.size !== rows.length) throw new Error('duplicate row numbers');

const pct = (n, d) => (d === 0 ? '-' : (n / d).toFixed(3));

function table(title, subset) {
  const rules = [...new Set(subset.map((r) => r.rule))].sort();
  const out = [
    `${title}: ${subset.length} findings`,
    '',
    '| rule | findings | true (intentional) | false | undecided | precision, undecided as true | precision, undecided as false | bugs only (intentional and undecided as false) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const line = (name, rs) => {
    const t = rs.filter((r) => r.kind === 'true').length;
    const i = rs.filter((r) => r.kind === 'true' && r.intentional).length;
    const f = rs.filter((r) => r.kind === 'false').length;
    const u = rs.filter((r) => r.kind === 'undecided').length;
    out.push(`| ${name} | ${rs.length} | ${t} (${i}) | ${f} | ${u} | ${pct(t + u, rs.length)} | ${pct(t, rs.length)} | ${pct(t - i, rs.length)} |`);
  };
  for (const rule of rules)
    line(
      rule,
      subset.filter((r) => r.rule === rule),
    );
  line('all', subset);
  return out.join('\n');
}

console.log(`Ledger: ${file}\n`);
console.log(table('Union of both modes', rows));
console.log();
console.log(
  table(
    'Workspace mode',
    rows.filter((r) => r.modes.includes('ws')),
  ),
);
console.log();
console.log(
  table(
    'Alone mode',
    rows.filter((r) => r.modes.includes('alone')),
  ),
);
console.log();

const groups = new Map();
for (const r of rows.filter((x) => x.kind !== 'true')) {
  const key = `${r.rule}\t${r.kind}\t${r.klass}`;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key).push(r.id);
}
console.log('False and undecided rows by rule and class:\n');
console.log('| rule | verdict | class | rows | count |');
console.log('| --- | --- | --- | --- | ---: |');
for (const [key, list] of [...groups.entries()].sort()) {
  const [rule, kind, klass] = key.split('\t');
  console.log(`| ${rule} | ${kind} | ${klass} | ${list.join(', ')} | ${list.length} |`);
}
