// Session 44, eng-s44c: class "a softmax over a value computed only from a zeros placeholder attribute".
//
// Real code (huggingface/pytorch-image-models `timm/models/convit.py:89`, recorded by eng-cut-s43a in the session 43
// cut scan): ConViT's GPSA sets `self.rel_indices: torch.Tensor = torch.zeros(1, 1, 1, 3)` in `__init__` ("silly
// torchscript hack, won't work with None"); `forward` replaces it with the (1, N, N, 3) relative positions before
// calling `get_attention`, which projects `self.rel_indices.expand(B, -1, -1, -1)` to per-head position scores and
// softmaxes them over the last axis. The whole file is silent (the reassignment is in view), but a cut that keeps
// `__init__` and `get_attention` only (a method cut, as the unseen measure's curators cut) read the placeholder's
// literal 1s as the axis lengths and ATT001 reported "an axis of length 1". The rule now leaves a length-1 axis alone
// when the softmaxed value comes from such a placeholder (one assignment in view, in `__init__`, `zeros`/`empty` with
// literal sizes, some 1) through the module's own layers, tensor methods and sizes read off `.shape`, and from no value
// the method is given: attention computed from constant zeros is meant for the tensor that replaces them.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const H = 'import torch\nimport torch.nn as nn\n';

/** A gated positional attention block cut to `__init__` and the attention method; `init` the placeholder, `pos` how
 * the position scores are formed. The position softmax is at line 21. */
const block = (init = 'torch.zeros(1, 1, 1, 3)', pos = 'self.rel.expand(B, -1, -1, -1)') => `${H}

class GatedPositional(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qk = nn.Linear(dim, dim * 2)
        self.pos_proj = nn.Linear(3, heads)
        self.gate = nn.Parameter(torch.ones(heads))
        self.rel: torch.Tensor = ${init}  # replaced in forward() before use

    def attention(self, x):
        B, N, C = x.shape
        qk = self.qk(x).reshape(B, N, 2, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k = qk[0], qk[1]
        pos_score = ${pos}
        pos_score = self.pos_proj(pos_score).permute(0, 3, 1, 2)
        patch_score = ((q @ k.transpose(-2, -1)) * (C // self.heads) ** -0.5).softmax(dim=-1)
        pos_score = pos_score.softmax(dim=-1)
        g = torch.sigmoid(self.gate.view(1, -1, 1, 1))
        attn = (1.0 - g) * patch_score + g * pos_score
        return attn / attn.sum(dim=-1, keepdim=True)
`;
const POS_SOFTMAX = 21;

describe('lint: a softmax over a value computed only from a zeros placeholder attribute (ATT001)', () => {
  it('natural example: the method cut of a ConViT-style block, `self.rel = torch.zeros(1, 1, 1, 3)` expanded and projected: silent', async () => {
    assert.deepEqual(await findingLines(block(), 'ATT001'), []);
    // `empty`, and `device=`/`dtype=` keywords or a factory-kwargs splat among the sizes.
    assert.deepEqual(await findingLines(block('torch.empty(1, 1, 1, 3, dtype=torch.float32)'), 'ATT001'), []);
    assert.deepEqual(await findingLines(block('torch.zeros(1, 1, 1, 3, **factory_kwargs)'), 'ATT001'), []);
  });

  it('its reported forms: the length-1 axis from the input, or the placeholder combined with an input', async () => {
    // Position scores from the input with a unit axis where the softmax runs: every weight is 1.0 (a real bug).
    assert.deepEqual(await findingLines(block(undefined, 'x[..., :3].unsqueeze(2)'), 'ATT001'), [POS_SOFTMAX]);
    // The placeholder multiplied by a value of the input: the method's own data decides, reported as before.
    assert.deepEqual(await findingLines(block(undefined, 'self.rel.expand(B, N, -1, -1) * x[..., :3].unsqueeze(2)'), 'ATT001'), [POS_SOFTMAX]);
    // Not a zeros/empty placeholder: a learned attribute of literal shape is no stand-in for another tensor.
    assert.deepEqual(await findingLines(block('nn.Parameter(torch.zeros(1, 1, 1, 3))'), 'ATT001'), [POS_SOFTMAX]);
    // Sizes not all literal: the placeholder reading needs the written shape.
    assert.deepEqual(await findingLines(block('torch.zeros(1, 1, 1, heads)'), 'ATT001'), [POS_SOFTMAX]);
  });

  it('a learned pooling query on a zeros bias: the scores come from the input, still reported', async () => {
    const pool = `${H}

class Pool(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Linear(dim, 1)
        self.bias: torch.Tensor = torch.zeros(1, 1, 1)

    def forward(self, x):
        e = self.score(x) + self.bias
        w = torch.softmax(e, dim=-1)
        return (w * x).sum(1)
`;
    assert.deepEqual(await findingLines(pool, 'ATT001'), [13]);
  });

  it('cross-file: the placeholder set by a base class of another workspace file is not read there, reported as before; set in this file, silent', async () => {
    const base = `${H}

class PositionalBase(nn.Module):
    def __init__(self, heads):
        super().__init__()
        self.pos_proj = nn.Linear(3, heads)
        self.rel: torch.Tensor = torch.zeros(1, 1, 1, 3)
`;
    const sub = (own: string) => `${H}
from .base import PositionalBase


class GatedPositional(PositionalBase):
    def __init__(self, heads):
        super().__init__(heads)
${own}
    def position_weights(self, x):
        B, N, C = x.shape
        pos = self.pos_proj(self.rel.expand(B, -1, -1, -1)).permute(0, 3, 1, 2)
        return pos.softmax(dim=-1)
`;
    const files = { 'pkg/__init__.py': '', 'pkg/base.py': base, 'pkg/gated.py': sub('') };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/gated.py', 'ATT001'), [14]);
    const own = { ...files, 'pkg/gated.py': sub('        self.rel: torch.Tensor = torch.zeros(1, 1, 1, 3)\n') };
    assert.deepEqual(await workspaceFindingLines(own, 'pkg/gated.py', 'ATT001'), []);
  });
});
