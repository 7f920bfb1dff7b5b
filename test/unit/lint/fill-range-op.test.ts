// ATT007's half-precision range message names the op that writes the fill and says what that op does with a value
// out of range: masked_fill and torch.full_like convert the Python number with a range check and raise; an index
// assignment, torch.where and an additive mask cast it, so it becomes -inf and nothing raises (as PyTorch 2 does). Each
// form in a float16 file, the correct fill (finfo's minimum) giving nothing, each message rendered in zh-cn, and a
// cross-file pair (the model file imported by a training script that runs it in half precision).
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter, type Finding } from '../../../src/lint';
import { fillTemplate, renderMessage } from '../../../src/lint/message';
import { grammar, linter, memoryWorkspace, ROOT } from './helpers';

const zh = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
const toZh = (t: string, args: readonly (string | number)[]) => fillTemplate(zh[`${t}/lint`] ?? t, args);

const attention = (mask: string) => `import math
import torch


def attend(q, k, v, ids):
    pad = (ids == 0)[:, None, :, None] | (ids == 0)[:, None, None, :]
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    ${mask}
    return torch.softmax(s, dim=-1) @ v


model = torch.nn.Linear(4, 4).half()
`;

// [form, statement, what the message says the op does, its zh-cn counterpart]
const forms: [string, string, RegExp, RegExp][] = [
  ['masked_fill', 's = s.masked_fill(pad, -1e9)', /: masked_fill raises an overflow error on float16 tensors\./, /masked_fill 在 float16 张量上会抛出溢出错误/],
  [
    'an index assignment',
    's[pad] = -1e9',
    /: the index assignment makes it -inf in float16 \(no error is raised\), and a row whose keys are all masked becomes NaN after softmax\./,
    /索引赋值 在 float16 中会把它变为 -inf（不会报错）/,
  ],
  [
    'torch.full_like as the fill of torch.where',
    's = torch.where(pad, torch.full_like(s, -1e9), s)',
    /: `torch\.full_like` raises an overflow error on float16 tensors\./,
    /`torch\.full_like` 在 float16 张量上会抛出溢出错误/,
  ],
  [
    'torch.where',
    's = torch.where(pad, -1e9, s)',
    /: torch\.where makes it -inf in float16 \(no error is raised\), and a row whose keys are all masked becomes NaN after softmax\./,
    /torch\.where 在 float16 中会把它变为 -inf（不会报错）/,
  ],
  [
    'an additive mask',
    's = s + pad.to(s.dtype) * -1e9',
    /: the additive mask makes it -inf in float16 \(no error is raised\), and a row whose keys are all masked becomes NaN after softmax\./,
    /加性掩码 在 float16 中会把它变为 -inf（不会报错）/,
  ],
];

async function att007(source: string): Promise<Finding[]> {
  return (await linter()).lintPython(source, { select: ['ATT007'] });
}

describe('ATT007 names the op that writes an out-of-range fill', () => {
  for (const [form, stmt, en, zhText] of forms) {
    it(`${form}: the message says what it does; finfo's minimum is right`, async () => {
      const fs = await att007(attention(stmt));
      assert.equal(fs.length, 1, fs.map((f) => f.message).join('\n'));
      const f = fs[0];
      assert.equal(f.line, 8);
      assert.match(f.message, en);
      if (!/masked_fill/.test(form)) assert.doesNotMatch(f.message, /masked_fill raises/);
      const text = renderMessage(f.messageParts!, toZh);
      assert.match(text, zhText);
      assert.doesNotMatch(text.replace(/`[^`]*`/g, ''), /\b(the|is|are|and|raises)\b/);
      assert.deepEqual(await att007(attention(stmt.replace('-1e9', 'torch.finfo(s.dtype).min'))), []);
    });
  }

  it("bfloat16: torch.where with float32's minimum becomes -inf; masked_fill with it raises", async () => {
    const bf16 = (stmt: string) => attention(stmt).replace('.half()', '.to(torch.bfloat16)');
    const [w] = await att007(bf16('s = torch.where(pad, torch.finfo(torch.float32).min, s)'));
    assert.match(
      w?.message ?? '',
      /below bfloat16's minimum .*: torch\.where makes it -inf in bfloat16 \(float32's minimum does not fit; no error is raised\)/,
    );
    const [m] = await att007(bf16('s = s.masked_fill(pad, torch.finfo(torch.float32).min)'));
    assert.match(m?.message ?? '', /: masked_fill raises an overflow error on bfloat16 tensors/);
  });

  describe('cross-file: the model file, run in half precision by a training script that imports it', () => {
    const model = (stmt: string) => `import math
import torch


def attend(q, k, v, ids):
    pad = (ids == 0)[:, None, :, None] | (ids == 0)[:, None, None, :]
    s = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    ${stmt}
    return torch.softmax(s, dim=-1) @ v
`;
    const train = `import torch
from model import attend


def main(q, k, v, ids):
    with torch.autocast("cuda", dtype=torch.float16):
        return attend(q.half(), k.half(), v.half(), ids)
`;
    async function lintModel(stmt: string): Promise<Finding[]> {
      const files = { 'model.py': model(stmt), 'train.py': train };
      const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
      return l.lintPython(files['model.py'], { path: 'model.py', select: ['ATT007'] });
    }

    it('torch.where there: named, and no "masked_fill raises"', async () => {
      const fs = await lintModel('s = torch.where(pad, -1e9, s)');
      assert.equal(fs.length, 1);
      assert.match(fs[0].message, /train\.py/);
      assert.match(fs[0].message, /torch\.where makes it -inf in float16/);
    });

    it('masked_fill there: it raises', async () => {
      const fs = await lintModel('s = s.masked_fill(pad, -1e9)');
      assert.equal(fs.length, 1);
      assert.match(fs[0].message, /masked_fill raises an overflow error on float16 tensors/);
    });

    it('the correct fill: nothing', async () => {
      assert.deepEqual(await lintModel('s = torch.where(pad, torch.finfo(s.dtype).min, s)'), []);
    });
  });
});
