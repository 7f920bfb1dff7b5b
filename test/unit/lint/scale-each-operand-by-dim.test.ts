// Class learnt from the training set (test/lint-train/d, t10d-08): the queries and the keys each divided by one head's
// width divided by a constant, meant as a fourth root but written `head_dim ** 1 / float(4)` (`**` binds first, so it
// is head_dim / 4): the scores are divided by (head_dim / 4) ** 2, a power of the dimension, not its square root. One
// head's width divided by a positive constant still grows with that width (a model width divided by a constant may be
// the split into heads, and stays unknown). The pair is one mistake, reported once at the query. Small examples
// written fresh, with the correct form (a real fourth root on each side) and a cross-file pair (the head width from a
// config module).
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { grammar, linter, memoryWorkspace } from './helpers';

const ATTN = (scaleQ: string, scaleK: string, head = 'self.head_dim = d_model // n_heads', imports = '', params = 'd_model, n_heads'): string => `import torch
from torch import nn
${imports}

class SelfAttention(nn.Module):
    def __init__(self, ${params}):
        super().__init__()
        self.n_heads = n_heads
        ${head}
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        b, t, _ = x.shape
        q, k, v = self.qkv(x).view(b, t, 3, self.n_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q = q / ${scaleQ}
        k = k / ${scaleK}
        att = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
        return self.proj((att @ v).transpose(1, 2).reshape(b, t, -1))
`;

const CONFIG = `from dataclasses import dataclass


@dataclass
class ModelConfig:
    d_model: int = 64
    n_heads: int = 4
    head_dim: int = 16
`;

const CFG_ATTN = (f: string): string =>
  ATTN(f, f, 'self.head_dim = cfg.head_dim', 'from config import ModelConfig\n', 'cfg: ModelConfig')
    .replace('self.n_heads = n_heads', 'self.n_heads = cfg.n_heads')
    .replace(/nn\.Linear\(d_model, 3 \* d_model\)/, 'nn.Linear(cfg.d_model, 3 * cfg.d_model)')
    .replace('nn.Linear(d_model, d_model)', 'nn.Linear(cfg.d_model, cfg.d_model)');

async function att004(src: string): Promise<number[]> {
  const l = await linter();
  return l
    .lintPython(src)
    .filter((f) => f.code === 'ATT004')
    .map((f) => f.line);
}

describe('lint: the queries and the keys each divided by a head width over a constant (ATT004)', () => {
  it('buggy: q and k each divided by (head_dim ** 1 / float(4)) are one finding, at the query', async () => {
    const f = '(self.head_dim ** 1 / float(4))';
    assert.deepEqual(await att004(ATTN(f, f)), [16]);
  });
  it('correct: q and k each divided by a real fourth root, head_dim ** (1 / 4): silent', async () => {
    const f = 'self.head_dim ** (1 / 4)';
    assert.deepEqual(await att004(ATTN(f, f)), []);
  });
  it('correct: only the queries divided by math.sqrt(head_dim): silent', async () => {
    assert.deepEqual(await att004(ATTN('(self.head_dim ** 0.5)', '1.0')), []);
  });
  it('a model width over a constant (d_model / 8, maybe the split into heads) stays unknown: silent', async () => {
    const src = ATTN('1.0', '1.0', 'self.head_dim = d_model // n_heads\n        self.d_model = d_model').replace(
      'att = torch.softmax(q @ k.transpose(-2, -1), dim=-1)',
      'att = torch.softmax(q @ k.transpose(-2, -1) * (self.d_model / 8) ** -0.5, dim=-1)',
    );
    assert.deepEqual(await att004(src), []);
  });
  it('cross-file: the head width is a field of a config dataclass in config.py (head_dim: int = 16), divided by 4 on both sides: reported once', async () => {
    const f = '(self.head_dim ** 1 / 4)';
    const src = CFG_ATTN(f);
    const l = await createLinter(grammar(), { workspace: memoryWorkspace({ 'config.py': CONFIG, 'attention.py': src }) });
    const lines = l
      .lintPython(src, { path: 'attention.py' })
      .filter((x) => x.code === 'ATT004')
      .map((x) => x.line);
    assert.deepEqual(lines, [17]);
  });
  it('cross-file, correct: the same config and a fourth root on each side: silent', async () => {
    const f = 'self.head_dim ** 0.25';
    const src = CFG_ATTN(f);
    const l = await createLinter(grammar(), { workspace: memoryWorkspace({ 'config.py': CONFIG, 'attention.py': src }) });
    assert.deepEqual(
      l.lintPython(src, { path: 'attention.py' }).filter((x) => x.code === 'ATT004'),
      [],
    );
  });
});
