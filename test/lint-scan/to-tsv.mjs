// Turns scan output folders (OUT/json/*.json beside OUT/src/<repo>/, as scan.sh and scan-debian-transformers.sh
// write them) into TSV lines: repo<TAB>path<TAB>line<TAB>rule<TAB>message, path relative to the repository, sorted
// by repo, path, line (numeric), rule, message. Folders that do not exist are skipped.
// Usage: node to-tsv.mjs OUT_DIR...
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const rows = [];
const clean = (s) => String(s ?? '').replace(/[\t\r\n]+/g, ' ');
for (const out of process.argv.slice(2)) {
  const jsonDir = join(out, 'json');
  if (!existsSync(jsonDir)) continue;
  for (const name of readdirSync(jsonDir)) {
    if (!name.endsWith('.json')) continue;
    const key = name.replace(/\.json$/, '');
    const text = readFileSync(join(jsonDir, name), 'utf8').trim();
    if (!text) continue;
    const parsed = JSON.parse(text);
    const list = Array.isArray(parsed) ? parsed : (parsed.findings ?? parsed.results ?? []);
    // Paths are absolute or relative to wherever the lint ran; make them relative to the repository's tree.
    // The src folder may be a symlink, so strip everything up to and including "/<key>/".
    for (const f of list) {
      let p = String(f.path ?? f.file ?? '');
      const i = p.indexOf(`/${key}/`);
      p = i >= 0 ? p.slice(i + key.length + 2) : relative(resolve(out, 'src', key), p) || p;
      rows.push([key.replace('+', '/'), clean(p), Number(f.line), clean(f.code), clean(f.message)]);
    }
  }
}
const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
rows.sort((a, b) => cmp(a[0], b[0]) || cmp(a[1], b[1]) || a[2] - b[2] || cmp(a[3], b[3]) || cmp(a[4], b[4]));
for (const r of rows) console.log(r.join('\t'));
