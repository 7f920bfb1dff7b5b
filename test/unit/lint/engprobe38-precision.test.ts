// Session 38 (eng-probe-s38): what says a file runs in half precision, and where the evidence is shown (ATT007).
//
// 1. `.half()` of a parameter's storage (`m.weight.data = m.weight.data.half()`) or of a state dict's values saved as a
//    float16 checkpoint stores chosen weights in half precision; it does not run the model or its inputs in it. It was
//    read as "this file runs in float16" (jukebox's ops.py converts its Conv1D and embedding weights so, and its forward
//    casts them to the input's dtype). `model.half()`, `x.half()` and a module's `.half()` still count.
// 2. An importing trainer that chooses `"bfloat16" if bf16_ok else "float16"` and runs in float16 on the other arm was
//    shown at the bfloat16 string (duoan/tiny-gpt's pretrain.py): the float16 finding now points at float16's evidence.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { findingLines, grammar, memoryWorkspace } from './helpers';

// q, k, v: (B, H, T, d); the scores (B, H, T, T).
const ATTN = `class Attention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, pad_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) / math.sqrt(C // self.h)
        s = s.masked_fill(pad_mask[:, None, None, :], -1e9)
        return s.softmax(-1) @ v
`;
const withHelper = (helper: string): string => `import math
import torch
import torch.nn as nn


${helper}


${ATTN}`;

describe('engprobe38: .half() of stored weights is no half-precision run (ATT007)', () => {
  it('is silent when only an embedding table\u2019s storage is converted', async () => {
    const src = withHelper(
      'def embeddings_to_half(model):\n    for m in model.modules():\n        if isinstance(m, nn.Embedding):\n            m.weight.data = m.weight.data.half()',
    );
    assert.deepEqual(await findingLines(src, 'ATT007'), []);
  });
  it('is silent when a state dict is saved in half precision', async () => {
    const src = withHelper('def save_half(model, path):\n    torch.save({k: v.half() for k, v in model.state_dict().items()}, path)');
    assert.deepEqual(await findingLines(src, 'ATT007'), []);
  });
  it('is silent on a bias converted alone (`p.bias.half()`)', async () => {
    const src = withHelper('def bias_half(layer):\n    layer.bias = nn.Parameter(layer.bias.half())');
    assert.deepEqual(await findingLines(src, 'ATT007'), []);
  });
  it('still reports a model converted with .half()', async () => {
    const src = withHelper('def run(x, pad_mask):\n    model = Attention(64, 4).cuda().half()\n    return model(x.half(), pad_mask)');
    assert.deepEqual(await findingLines(src, 'ATT007'), [21]);
  });
  it('still reports inputs converted with .half()', async () => {
    const src = withHelper('def prepare(x):\n    return x.cuda().half()');
    assert.deepEqual(await findingLines(src, 'ATT007'), [20]);
  });
});

const TRAIN = `import torch
from contextlib import nullcontext
from model import Attention

dtype = "bfloat16" if torch.cuda.is_available() and torch.cuda.is_bf16_supported() else "float16"
config = {"dtype": dtype}
ctx = torch.amp.autocast(device_type="cuda") if torch.cuda.is_available() else nullcontext()


def main(x, pad_mask):
    model = Attention(64, 4).cuda()
    with ctx:
        return model(x, pad_mask)
`;

describe('engprobe38: a trainer\u2019s half precision is shown at float16\u2019s evidence (ATT007)', () => {
  it('points at the float16 arm of a dtype choice, not at the bfloat16 string before it', async () => {
    const files = { 'model.py': `import math\nimport torch\nimport torch.nn as nn\n\n\n${ATTN}`, 'train.py': TRAIN };
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(files) });
    const findings = l.lintPython(files['model.py'], { select: ['ATT007'], path: 'model.py' });
    assert.equal(findings.length, 1);
    const rel = findings[0]?.related?.find((r) => r.path === 'train.py');
    assert.ok(rel, 'a related location in train.py');
    assert.equal(rel.line, 5);
    assert.equal(TRAIN.split('\n')[4]?.slice(rel.column - 1, rel.column + 6), 'float16');
  });
});
