// examples/crossfile, the small project the README's cross-file screenshot shows: linted as a workspace, each
// finding of model.py sits where its comment says the bug is and carries a related location in the file that
// holds the evidence (the collate mask's builder and caller, the half-precision trainer, the cache's concatenation); alone,
// model.py has none of that evidence and is silent. Its messages render in zh-cn with no English left.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter, type Finding } from '../../../src/lint';
import { fillTemplate, renderMessage, type MessageParts } from '../../../src/lint/message';
import { grammar, memoryWorkspace, ROOT } from './helpers';

const DIR = join(ROOT, 'examples', 'crossfile');
const files: Record<string, string> = Object.fromEntries(
  readdirSync(DIR)
    .filter((name) => name.endsWith('.py'))
    .map((name) => [name, readFileSync(join(DIR, name), 'utf8')]),
);

/** 1-based line and column of `needle` on the first line of `file` that contains `lineHint`. */
function positionOf(file: string, lineHint: string, needle: string): { line: number; column: number } {
  const lines = files[file].split('\n');
  const index = lines.findIndex((l) => l.includes(lineHint));
  assert.ok(index >= 0, `${file} has no line with ${JSON.stringify(lineHint)}`);
  const column = lines[index].indexOf(needle);
  assert.ok(column >= 0, `${file}:${index + 1} has no ${JSON.stringify(needle)}`);
  return { line: index + 1, column: column + 1 };
}

async function lintModel(workspace: Record<string, string>): Promise<Finding[]> {
  const linter = await createLinter(grammar(), { workspace: memoryWorkspace(workspace), onInternalError: (e) => assert.fail(String(e)) });
  return linter.lintPython(files['model.py'], { path: 'model.py' });
}

const relatedIn = (f: Finding | undefined, path: string) => (f?.related ?? []).filter((r) => r.path === path).map((r) => r.line);

describe('examples/crossfile: findings whose evidence is in another file', () => {
  it('reports ATT002, ATT007 and ATT008 in model.py, each at its bug, with a related location in the file of the evidence', async () => {
    const fs = await lintModel(files);
    const mask = positionOf('model.py', 'key_padding_mask=pad_mask', 'pad_mask)');
    const fill = positionOf('model.py', 'masked_fill(future, -1e9)', '-1e9');
    const causal = positionOf('model.py', 'is_causal=self.causal', 'is_causal=self.causal');
    assert.deepEqual(
      fs.map((f) => `${f.code} ${f.line}:${f.column}`).sort(),
      [`ATT002 ${mask.line}:${mask.column}`, `ATT007 ${fill.line}:${fill.column}`, `ATT008 ${causal.line}:${causal.column}`].sort(),
    );
    const byCode = (code: string) => fs.find((f) => f.code === code);

    // The mask: built by data.py's collate, passed by train.py's loop: both named in the message, both related
    // locations (data.py's at the comparison that builds it).
    const built = positionOf('data.py', 'mask = ids != PAD_ID', 'ids != PAD_ID');
    const passed = positionOf('train.py', 'encoder(ids.cuda(), mask.cuda())', 'encoder(');
    assert.match(byCode('ATT002')?.message ?? '', new RegExp(`data\\.py:${built.line}\\b.*train\\.py:${passed.line}\\b`));
    assert.deepEqual(relatedIn(byCode('ATT002'), 'train.py'), [passed.line]);
    const builtHere = (byCode('ATT002')?.related ?? []).filter((r) => r.path === 'data.py');
    assert.deepEqual(
      builtHere.map((r) => `${r.line}:${r.column} ${r.message}`),
      [`${built.line}:${built.column} the mask is built in \`collate\` (data.py:${built.line})`],
    );

    // Half precision: set by train.py, which imports model.py.
    const scaler = positionOf('train.py', 'GradScaler()', 'torch.cuda.amp.GradScaler');
    assert.match(
      byCode('ATT007')?.message ?? '',
      new RegExp(`this file runs in half precision \\(set at train\\.py:${scaler.line}, in a file that imports it\\)`),
    );
    assert.deepEqual(relatedIn(byCode('ATT007'), 'train.py'), [scaler.line]);

    // The KV cache: joined to the keys in generate.py, which builds Attend(causal=True) and calls it.
    const joined = positionOf('generate.py', 'k = torch.cat((past_k, k)', 'torch.cat');
    const called = positionOf('generate.py', 'out = self.attend(q, k, v)', 'self.attend(');
    assert.deepEqual(relatedIn(byCode('ATT008'), 'generate.py'), [joined.line, called.line]);
    assert.match(
      byCode('ATT008')?.message ?? '',
      new RegExp(`^is_causal=\`self\.causal\` \\(True in the module built and called at generate\\.py:${called.line}\\)`),
    );
  });

  it('the same ATT002 when train.py builds the encoder with a chained `.cuda()` (a method returning the module)', async () => {
    const chained = files['train.py'].replace('encoder = Encoder(vocab=1000)\n', 'encoder = Encoder(vocab=1000).cuda()\n').replace('    encoder.cuda()\n', '');
    assert.notEqual(chained, files['train.py']);
    const fs = await lintModel({ ...files, 'train.py': chained });
    const mask = positionOf('model.py', 'key_padding_mask=pad_mask', 'pad_mask)');
    assert.deepEqual(
      fs.filter((f) => f.code === 'ATT002').map((f) => `${f.line}:${f.column}`),
      [`${mask.line}:${mask.column}`],
    );
  });

  it('model.py alone shows none of that evidence, and is silent', async () => {
    assert.deepEqual(await lintModel({ 'model.py': files['model.py'] }), []);
  });

  it('renders every message and related location in zh-cn with no English left', async () => {
    const zh = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
    const toZh = (t: string, args: readonly (string | number)[]) => fillTemplate(zh[`${t}/lint`] ?? t, args);
    const fs = await lintModel(files);
    const parts: MessageParts[] = fs.flatMap((f) => [f.messageParts!, ...(f.related ?? []).map((r) => r.messageParts!)]);
    assert.ok(parts.length >= 9, `only ${parts.length} messages`);
    for (const p of parts) {
      const prose = renderMessage(p, toZh).replace(/`[^`]*`/g, '');
      assert.doesNotMatch(prose, /\{\d+\}/, prose);
      assert.doesNotMatch(prose, /\b(the|is|are|and|of|with|here|it)\b/, `English left in "${prose}"`);
    }
  });
});
