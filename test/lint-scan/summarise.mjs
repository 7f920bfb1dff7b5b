// Summarises a scan's JSON outputs: files and lines linted, findings per rule and per repository,
// and every finding as `repo path:line CODE message` (the list to read one by one).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const out = process.argv[2];
if (!out) throw new Error('usage: node summarise.mjs OUT_DIR');
const srcRoot = join(out, 'src');
let files = 0;
let lines = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walk(p);
    else if (/\.(py|ipynb)$/.test(name)) {
      files += 1;
      lines += readFileSync(p, 'utf8').split('\n').length;
    }
  }
}
walk(srcRoot);
const perRule = new Map();
const perRepo = new Map();
const all = [];
for (const name of readdirSync(join(out, 'json')).sort()) {
  const repo = name.replace(/\.json$/, '');
  const text = readFileSync(join(out, 'json', name), 'utf8').trim();
  if (!text) continue;
  const parsed = JSON.parse(text);
  const list = Array.isArray(parsed) ? parsed : (parsed.findings ?? parsed.results ?? []);
  for (const f of list) {
    perRule.set(f.code, (perRule.get(f.code) ?? 0) + 1);
    perRepo.set(repo, (perRepo.get(repo) ?? 0) + 1);
    const path = f.path ?? f.file ?? '';
    all.push(`${repo} ${relative(join(srcRoot, repo), path) || path}:${f.line} ${f.code} ${f.message}`);
  }
}
console.log(`files ${files}, lines ${lines}, findings ${all.length}`);
for (const [code, n] of [...perRule].sort()) console.log(`  ${code} ${n}`);
for (const [repo, n] of [...perRepo].sort()) console.log(`  ${repo} ${n}`);
for (const line of all) console.log(line);
