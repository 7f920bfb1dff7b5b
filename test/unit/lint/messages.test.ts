// The linter's messages as templates + arguments (src/lint/message.ts): every template the linter declares
// (enumerated from its registry, not grepped) and every rule hover text has an English and a Simplified Chinese
// entry with the same placeholders; every finding on the lint fixtures carries parts that are declared
// templates with enough arguments and render to exactly its English message (what the CLI prints); rendered
// through the zh-cn bundle, a finding leaves no placeholder and no English sentence behind.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../../../src/lint';
import { fillTemplate, registeredTemplates, renderMessage, type MessageParts } from '../../../src/lint/message';
import type { Finding } from '../../../src/lint/types';
import { linter, ROOT } from './helpers';

/** The vscode.l10n comment the host gives linter strings (src/host/lint/l10n.ts: LINT_L10N_COMMENT). */
const COMMENT = 'lint';
const bundle = (name: string) => JSON.parse(readFileSync(join(ROOT, 'l10n', name), 'utf8')) as Record<string, string>;
const placeholders = (s: string) => [...new Set([...s.matchAll(/\{(\d+)\}/g)].map((m) => m[1]))].sort().join(',');

function pyFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.py'))
    .map((e) => join(e.parentPath, e.name));
}

/** Every message of a finding: its own, its related locations', its fix title's. */
function partsOf(f: Finding): { english: string; parts: MessageParts | undefined }[] {
  return [
    { english: f.message, parts: f.messageParts },
    ...(f.related ?? []).map((r) => ({ english: r.message, parts: r.messageParts })),
    ...(f.fix ? [{ english: f.fix.title, parts: f.fix.titleParts }] : []),
  ];
}

function templatesIn(m: MessageParts, out: MessageParts[] = []): MessageParts[] {
  out.push(m);
  for (const a of m.args) if (typeof a === 'object') templatesIn(a, out);
  return out;
}

describe('lint messages: templates, arguments and translations', () => {
  const en = bundle('bundle.l10n.json');
  const zh = bundle('bundle.l10n.zh-cn.json');
  const templates = registeredTemplates();
  const hoverTexts = RULES.flatMap((r) => [r.meta.docs.summary, r.meta.docs.whyIsThisBad]);
  let findings: { file: string; finding: Finding }[] = [];

  // Lints every fixture and example once (a few seconds alone; over mocha's 20 s on a loaded shared machine).
  before(async function () {
    this.timeout(120_000);
    const l = await linter();
    const files = [...pyFiles(join(ROOT, 'test', 'unit', 'lint', 'fixtures')), ...pyFiles(join(ROOT, 'examples'))];
    findings = files.flatMap((file) => l.lintPython(readFileSync(file, 'utf8')).map((finding) => ({ file, finding })));
    // ATT000 for code nested too deeply (the engine's own messages).
    const deep = `import torch\nw = torch.softmax(${'('.repeat(450)}x${')'.repeat(450)}, dim=-1)\ny = ${'['.repeat(450)}0${']'.repeat(450)}\n`;
    findings.push(...l.lintPython(deep).map((finding) => ({ file: 'nested', finding })));
  });

  it('declares the linter’s templates in its registry (one per message shape, none empty)', () => {
    assert.ok(templates.length > 150, `only ${templates.length} templates registered`);
    for (const t of templates) assert.ok(t.trim().length > 0);
  });

  it('has an English and a zh-cn entry for every template and rule hover text, with the same placeholders', () => {
    const missing = [...templates, ...hoverTexts].filter((t) => !(`${t}/${COMMENT}` in zh) || en[`${t}/${COMMENT}`] !== t);
    assert.deepEqual(missing, [], 'add these to l10n/bundle.l10n.json and l10n/bundle.l10n.zh-cn.json as "<English>/lint"');
    for (const t of [...templates, ...hoverTexts]) {
      const translated = zh[`${t}/${COMMENT}`];
      assert.equal(placeholders(translated), placeholders(t), `placeholders differ in the translation of ${JSON.stringify(t)}`);
      assert.ok(/[\u4e00-\u9fff]/.test(translated) || !/[a-z]{3,} [a-z]{3,}/.test(t), `not translated: ${JSON.stringify(t)}`);
    }
  });

  it('keeps no bundle entry of the linter that no template or hover text uses any more', () => {
    const known = new Set([...templates, ...hoverTexts].map((t) => `${t}/${COMMENT}`));
    assert.deepEqual(
      Object.keys(zh).filter((k) => k.endsWith(`/${COMMENT}`) && !known.has(k)),
      [],
    );
  });

  it('gives every finding, related location and fix title parts that render to its English text exactly', () => {
    assert.ok(findings.length > 100, `only ${findings.length} findings on the fixtures`);
    assert.ok(
      findings.some((f) => f.finding.code === 'ATT000'),
      'the nested code gives an ATT000 finding',
    );
    const declared = new Set(templates);
    const used = new Set<string>();
    for (const { file, finding } of findings) {
      for (const { english, parts } of partsOf(finding)) {
        assert.ok(parts, `${file}:${finding.line} ${finding.code} has no message parts: ${english}`);
        assert.equal(renderMessage(parts), english, `${file}:${finding.line}`);
        for (const m of templatesIn(parts)) {
          assert.ok(declared.has(m.template), `undeclared template ${JSON.stringify(m.template)}`);
          const highest = Math.max(-1, ...[...m.template.matchAll(/\{(\d+)\}/g)].map((x) => Number(x[1])));
          assert.ok(m.args.length > highest, `${JSON.stringify(m.template)} given ${m.args.length} arguments`);
          used.add(m.template);
        }
      }
    }
    // The fixtures exercise most templates (the rest are variants the fixtures do not reach).
    assert.ok(used.size > 60, `the fixtures reach only ${used.size} templates`);
  });

  it('renders every finding through the zh-cn bundle with no placeholder or English sentence left', () => {
    const toZh = (t: string, args: readonly (string | number)[]) => fillTemplate(zh[`${t}/${COMMENT}`] ?? t, args);
    for (const { file, finding } of findings) {
      for (const { parts } of partsOf(finding)) {
        // Code in backticks is the user's and stays as written; the rest must be Chinese.
        const text = renderMessage(parts!, toZh);
        const prose = text.replace(/`[^`]*`/g, '');
        assert.doesNotMatch(prose, /\{\d+\}/, `${file}:${finding.line}: ${text}`);
        assert.doesNotMatch(prose, /\b(the|is|are|and|of|with|here)\b/, `${file}:${finding.line}: English left in "${text}"`);
      }
    }
  });

  it('words a fill below float16 for the library the file computes in: masked_fill raises only in PyTorch', async () => {
    const lint = await linter();
    const overflow = (src: string) => lint.lintPython(src).find((f) => f.code === 'ATT007')?.message ?? '';
    const torch = overflow(
      'import torch\n\ndef attend(q, k, mask):\n    s = (q.half() @ k.half().transpose(-2, -1)) / 8\n    return s.masked_fill(mask, -1e9).softmax(-1)\n',
    );
    assert.match(torch, /masked_fill raises an overflow error/);
    const jax = overflow(readFileSync(join(ROOT, 'test/unit/lint/fixtures/ATT007/jax_half_precision.py'), 'utf8'));
    assert.match(jax, /rounds to -inf \(no error is raised\).*Use jnp\.finfo\(x\.dtype\)\.min\./);
    const tf = overflow(readFileSync(join(ROOT, 'test/unit/lint/fixtures/ATT007/tf_expand_mask_float16_constant.py'), 'utf8'));
    assert.match(tf, /rounds to -inf \(no error is raised\).*Use x\.dtype\.min\./);
  });

  it('fills placeholders as vscode.l10n.t does, translating nested phrases first', () => {
    assert.equal(fillTemplate('{0} and {1}, {0}', ['a', 2]), 'a and 2, a');
    assert.equal(fillTemplate('{0} and {2}', ['a']), 'a and {2}');
    const parts: MessageParts = { template: '{0} ({1})', args: ['`m`', { template: 'the mask', args: [] }] };
    assert.equal(renderMessage(parts), '`m` (the mask)');
    assert.equal(
      renderMessage(parts, (t, args) => fillTemplate(t === 'the mask' ? '掩码' : '{0}（{1}）', args)),
      '`m`（掩码）',
    );
  });
});
