// src/engine is pure TypeScript: it imports nothing from vscode, the DOM or node, so it runs unchanged
// in the worker, the CLI and (later) a browser.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ENGINE = join(__dirname, '..', '..', '..', 'src', 'engine');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Module specifiers of import / export-from / require / dynamic import statements. */
function specifiers(code: string): string[] {
  const out: string[] = [];
  const patterns = [/\bfrom\s+['"]([^'"]+)['"]/g, /\bimport\s+['"]([^'"]+)['"]/g, /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of code.matchAll(re)) out.push(m[1]);
  return out;
}

describe('src/engine purity', () => {
  it('imports only relative modules (no vscode, node built-ins or packages that need them)', () => {
    const files = sources(ENGINE);
    assert.ok(files.length > 10);
    const bad: string[] = [];
    for (const f of files) {
      for (const s of specifiers(readFileSync(f, 'utf8'))) {
        if (!s.startsWith('./') && !s.startsWith('../')) bad.push(`${relative(ENGINE, f)}: '${s}'`);
        else if (s.startsWith('../') && !join(f, '..', s).startsWith(ENGINE)) bad.push(`${relative(ENGINE, f)}: '${s}' leaves src/engine`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('uses no DOM or node globals', () => {
    const globals = /\b(document|window|navigator|process|Buffer|require|__dirname|self\.postMessage)\b/;
    const bad = sources(ENGINE).flatMap((f) =>
      readFileSync(f, 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')) // block comments, keeping line numbers
        .split('\n')
        .map((line, i) => ({ line: line.replace(/\/\/.*$/, '').replace(/'[^']*'|`[^`]*`|"[^"]*"/g, "''"), i }))
        .filter(({ line }) => globals.test(line))
        .map(({ i }) => `${relative(ENGINE, f)}:${i + 1}`),
    );
    assert.deepEqual(bad, []);
  });
});
