// Code outranks prose in precision and mask-meaning evidence (as session 25's rule for masks says).
// 1. A model file whose comment says it runs in fp16, imported by a trainer whose code sets full precision
//    (`fp16=False` to the trainer, `.to(device, dtype=torch.float32)`): the trainer's code decides, so a -1e9
//    fill is not reported as overflowing float16. The comment alone (no importer) still counts, and a trainer that
//    runs the model in half precision still reports it.
// 2. A mask parameter's description stating what True/1 means and then mentioning that the code turns it into an
//    additive bias: the first statement is the meaning (True/1 = attend), not "additive".
import { strict as assert } from 'node:assert';
import { createLinter, type Finding } from '../../../src/lint';
import { maskFromDoc } from '../../../src/lint/analysis/comments';
import { grammar, memoryWorkspace } from './helpers';

async function lint(files: Record<string, string>, path: string): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(files[path] ?? '', { path });
}

const codes = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.code}@${f.line}`);

const model = `import torch
from torch import nn


class SelfAttention(nn.Module):
    """Multi-head self-attention; the scores are computed in fp16 under mixed precision."""

    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.masked_fill(mask[:, None, None, :] == 0, -1e9)
        out = attn.softmax(dim=-1) @ v
        return self.proj(out.transpose(1, 2).reshape(B, N, C))
`;

const trainer = (setting: string) => `import torch
from model import SelfAttention
from engine import Trainer


def main():
    net = SelfAttention(256)
    ${setting}
`;

describe('code outranks prose: precision', () => {
  it('the docstring says fp16 and no file imports the model: the prose is the evidence, ATT007', async () => {
    assert.deepEqual(
      codes(await lint({ 'model.py': model }, 'model.py')).filter((c) => c.startsWith('ATT007')),
      ['ATT007@19'],
    );
  });

  it('the trainer passes fp16=False: its code outranks the docstring, silent', async () => {
    const fs = await lint({ 'model.py': model, 'train.py': trainer('Trainer(net, fp16=False).fit()') }, 'model.py');
    assert.deepEqual(
      codes(fs).filter((c) => c.startsWith('ATT007')),
      [],
    );
  });

  it('the trainer moves the model to float32 explicitly: silent', async () => {
    const fs = await lint({ 'model.py': model, 'train.py': trainer('net = net.to("cuda", dtype=torch.float32)') }, 'model.py');
    assert.deepEqual(
      codes(fs).filter((c) => c.startsWith('ATT007')),
      [],
    );
  });

  it('the trainer passes fp16=True: ATT007, naming the trainer', async () => {
    const fs = (await lint({ 'model.py': model, 'train.py': trainer('Trainer(net, fp16=True).fit()') }, 'model.py')).filter((f) => f.code === 'ATT007');
    assert.deepEqual(codes(fs), ['ATT007@19']);
    assert.match(fs[0].message, /train\.py/);
  });

  it('one importer sets float32 and another runs the model in half: the half precision one counts, ATT007', async () => {
    const fs = await lint(
      { 'model.py': model, 'train.py': trainer('Trainer(net, fp16=False).fit()'), 'serve.py': trainer('net = net.cuda().half()') },
      'model.py',
    );
    assert.deepEqual(
      codes(fs).filter((c) => c.startsWith('ATT007')),
      ['ATT007@19'],
    );
  });
});

describe('code outranks prose: a mask description that mentions "additive" after the meaning', () => {
  it('maskFromDoc: the True/1 statement before "additive" is the meaning', () => {
    assert.deepEqual(maskFromDoc(' (B, S) 1 for real tokens, 0 for padding; turned into an additive bias below'), { polarity: 'keep' });
    assert.deepEqual(maskFromDoc(' bool, True = keep; made additive (-inf) before the softmax'), { dtype: 'bool', polarity: 'keep' });
    // Offered as another form the mask may take: the meaning is left open, read as additive (as before).
    assert.deepEqual(maskFromDoc(' bool (True = masked out) or an additive float mask'), { dtype: 'bool', additive: true });
    // "additive" first, or a 0 that is the bias value: additive, as before.
    assert.deepEqual(maskFromDoc(' additive mask (0 for valid, -inf for invalid)'), { additive: true });
    assert.deepEqual(maskFromDoc(' float, 0 for attend, -inf for masked'), { dtype: 'float', additive: true });
  });

  const fn = (fill: string) => `import torch


def attend(q, k, v, mask):
    """
    q, k, v: (B, H, T, d)
    mask: (B, T) 1 for real tokens, 0 for padding, turned into an additive bias by the fill below
    """
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(${fill}, float("-inf"))
    return scores.softmax(dim=-1) @ v
`;

  it('a keep mask filled where True: ATT002', async () => {
    assert.deepEqual(codes(await lint({ 'a.py': fn('mask[:, None, None, :]') }, 'a.py')), ['ATT002@10']);
  });

  it('fixed: filled where 0, silent', async () => {
    assert.deepEqual(codes(await lint({ 'a.py': fn('mask[:, None, None, :] == 0') }, 'a.py')), []);
  });
});
