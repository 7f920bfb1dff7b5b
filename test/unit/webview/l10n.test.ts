// UI strings: the webview's t() keys, the list the host translates, and the English and Simplified Chinese
// bundles agree; every translation keeps its placeholders; the host's own vscode.l10n.t strings are
// translated too; the manifest's %key% strings have both languages. (The linter's messages, keyed
// `<English>/lint`, are checked against its template registry in test/unit/lint/messages.test.ts; the errors',
// runtime findings', model names' and the engine's progress text, keyed `<English>/error`, `<English>/runtime`,
// `<English>/model` and `<English>/progress`, in test/unit/l10n/error-templates.test.ts.)
import { strict as assert } from 'node:assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PANEL_STRING_KEYS } from '../../../src/protocol/webview';
import { format, setStrings, t } from '../../../webview/l10n';

const root = join(__dirname, '..', '..', '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');
const json = (p: string) => JSON.parse(read(p)) as Record<string, string>;

/** String literals passed to `callee(` in TypeScript source (single- or double-quoted, one argument). */
function literalCalls(source: string, callee: RegExp): string[] {
  const out: string[] = [];
  const re = new RegExp(`${callee.source}\\(\\s*('(?:[^'\\\\]|\\\\.)*'|"(?:[^"\\\\]|\\\\.)*")`, 'g');
  for (const m of source.matchAll(re)) out.push(m[1].slice(1, -1).replace(/\\(.)/g, '$1'));
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name).slice(root.length + 1));
}

const placeholders = (s: string) =>
  [...s.matchAll(/\{(\d+)\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');

describe('panel strings and translations', () => {
  const webviewKeys = new Set(filesUnder('webview').flatMap((f) => literalCalls(read(f), /\bt/)));
  const hostKeys = new Set(filesUnder('src/host').flatMap((f) => literalCalls(read(f), /l10n\.t/)));
  const en = json('l10n/bundle.l10n.json');
  const zh = json('l10n/bundle.l10n.zh-cn.json');

  it('lists exactly the strings the webview’s t() calls use', () => {
    const listed = new Set<string>(PANEL_STRING_KEYS);
    assert.deepEqual(
      [...webviewKeys].filter((k) => !listed.has(k)),
      [],
      'used in webview/ but missing from PANEL_STRING_KEYS',
    );
    assert.deepEqual(
      [...listed].filter((k) => !webviewKeys.has(k)),
      [],
      'listed in PANEL_STRING_KEYS but no longer used',
    );
    assert.equal(listed.size, PANEL_STRING_KEYS.length, 'no duplicates');
  });

  it('translates every panel and host string into Simplified Chinese, keeping the placeholders', () => {
    const missing = [...PANEL_STRING_KEYS, ...hostKeys].filter((k) => !(k in zh));
    assert.deepEqual(missing, [], 'strings without a zh-cn translation (add them to l10n/bundle.l10n.zh-cn.json)');
    for (const [k, v] of Object.entries(zh)) {
      assert.equal(placeholders(v), placeholders(k), `placeholders differ in the translation of ${JSON.stringify(k)}`);
      assert.ok(v.trim().length > 0, `empty translation for ${JSON.stringify(k)}`);
    }
  });

  it('has an English bundle with the same keys, each the English text itself (template keys end in /lint, /error, /runtime, /model or /progress)', () => {
    assert.deepEqual(Object.keys(en).sort(), Object.keys(zh).sort());
    for (const [k, v] of Object.entries(en)) {
      const comment = /\/(lint|error|runtime|model|progress)$/.exec(k)?.[0] ?? '';
      assert.equal(`${v}${comment}`, k);
    }
  });

  it('has the manifest strings in both languages, and package.json references only existing keys', () => {
    const nls = json('package.nls.json');
    const nlsZh = json('package.nls.zh-cn.json');
    assert.deepEqual(Object.keys(nlsZh).sort(), Object.keys(nls).sort());
    const refs = [...read('package.json').matchAll(/"%([^"%]+)%"/g)].map((m) => m[1]);
    assert.deepEqual(
      refs.filter((r) => !(r in nls)),
      [],
      'package.json refers to keys missing from package.nls.json',
    );
  });

  it('fills placeholders and falls back to the English key', () => {
    assert.equal(format('{0} of {1}, {0}', [1, 'x']), '1 of x, 1');
    assert.equal(format('{0} and {2}', ['a']), 'a and {2}');
    setStrings({ 'Layer {0} · head {1}': '第 {0} 层 · 第 {1} 个头', bogus: 42 as unknown as string });
    assert.equal(t('Layer {0} · head {1}', 2, 3), '第 2 层 · 第 3 个头');
    assert.equal(t('Heads'), 'Heads');
    setStrings(undefined);
    assert.equal(t('Layer {0} · head {1}', 2, 3), 'Layer 2 · head 3');
  });
});
