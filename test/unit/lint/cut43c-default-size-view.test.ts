// Session 43, eng-cut-s43c: class "a view/reshape size that is 1 only by the default of a parameter no call in view
// settles".
//
// Real code (facebookresearch/fairseq `fairseq/modules/dynamicconv_layer/dynamicconv_layer.py:107`, and five copies of
// it in microsoft/unilm): DynamicconvLayer's `__init__(self, input_size, kernel_size=1, ...)` stores the kernel size,
// and `forward` reads `K, H = self.kernel_size, self.num_heads`, views the predicted kernel weights as `(T, B, H, K)` and
// normalises them over the K kernel taps with `F.softmax(weight, dim=-1)`. Every builder passes the kernel size (the
// `DynamicConv` factory forwards `kernel_size=kernel_size` and LightConv's layers pass 3, 7, 15, 31, ...). The view's
// size was read as the literal default 1 and ATT001 reported "an axis of length 1", in the repository scans and in a
// cut that keeps the layer's file alone, as the unseen measure's cases do. The reading of a reshape size
// (shape-ops.ts: reshapeAxis) now takes a name or attribute as 1 only when its 1 is bound in view (a literal, an
// assignment, a call in view that passes 1), not when it is a parameter's default with no call in view to settle it
// (AValue.unbound), as for `nn.Linear(d, n)` with `n=1` a constructor default (layerFromCtor: outIsOne).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const H = 'import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n';

/** The dynamic convolution's kernel weights; `size` the last size of the view: the softmax at line 18. */
const layer = (size = 'K', kernelDefault = '1', extra = '') => `${H}

class KernelPredictor(nn.Module):
    def __init__(self, dim, kernel_size=${kernelDefault}, heads=1):
        super().__init__()
        self.kernel_size = kernel_size
        self.heads = heads
        self.weight_linear = nn.Linear(dim, heads * kernel_size)

    def forward(self, x):
        T, B, C = x.size()
        K, H = self.kernel_size, self.heads
        weight = self.weight_linear(x).view(T, B, H, ${size})
        ${extra}
        weight = F.softmax(weight, dim=-1)
        return weight
`;
const SOFTMAX = 18;

describe('lint: a reshape size that is 1 only by an unsettled parameter default is not known to be 1 (ATT001)', () => {
  it('natural example: kernel weights viewed (T, B, H, K) with K = self.kernel_size, default 1, no builder in view: silent', async () => {
    assert.deepEqual(await findingLines(layer(), 'ATT001'), []);
    assert.deepEqual(await findingLines(layer('self.kernel_size'), 'ATT001'), []);
  });
  it('its buggy form: the last size written as 1, or a local bound to 1 in the function: reported', async () => {
    assert.deepEqual(await findingLines(layer('1'), 'ATT001'), [SOFTMAX]);
    assert.deepEqual(await findingLines(layer('K').replace('K, H = self.kernel_size, self.heads', 'K, H = 1, self.heads'), 'ATT001'), [SOFTMAX]);
  });
  it('a function whose size parameter a call in view passes as 1 keeps the length-1 axis; one left unsettled does not', async () => {
    const fn = (call: string) => `${H}

def head_weights(x, groups):
    B, T, C = x.shape
    s = x.view(B, T, C // groups, groups)
    return F.softmax(s, dim=-1)


def run(x):
    return ${call}
`;
    assert.deepEqual(await findingLines(fn('head_weights(x, 1)'), 'ATT001'), [9]);
    assert.deepEqual(await findingLines(fn('head_weights(x, 4)'), 'ATT001'), []);
    const unsettled = `${H}

def head_weights(x, groups=1):
    B, T, C = x.shape
    s = x.view(B, T, C // groups, groups)
    return F.softmax(s, dim=-1)
`;
    assert.deepEqual(await findingLines(unsettled, 'ATT001'), []);
  });
  it('the Linear form it mirrors: nn.Linear(dim, n) with n=1 a constructor default stays silent, nn.Linear(dim, 1) is reported', async () => {
    const lin = (out: string) => `${H}

class Pool(nn.Module):
    def __init__(self, dim, n_out=1):
        super().__init__()
        self.score = nn.Linear(dim, ${out})

    def forward(self, x):
        return F.softmax(self.score(x), dim=-1)
`;
    assert.deepEqual(await findingLines(lin('n_out'), 'ATT001'), []);
    assert.deepEqual(await findingLines(lin('1'), 'ATT001'), [12]);
  });
  it('cross-file: the layer in conv.py, built by model.py through a factory that forwards kernel_size: silent', async () => {
    const model = `${H}from .conv import KernelPredictor


def make_conv(dim, kernel_size=1):
    return KernelPredictor(dim, kernel_size=kernel_size, heads=4)


class Block(nn.Module):
    def __init__(self, dim, kernel_sizes=(3, 7, 15)):
        super().__init__()
        self.convs = nn.ModuleList([make_conv(dim, kernel_size=k) for k in kernel_sizes])

    def forward(self, x):
        return [conv(x) for conv in self.convs]
`;
    const files = { 'pkg/__init__.py': '', 'pkg/conv.py': layer(), 'pkg/model.py': model };
    assert.deepEqual(await workspaceFindingLines(files, 'pkg/conv.py', 'ATT001'), []);
    const literal = { ...files, 'pkg/conv.py': layer('1') };
    assert.deepEqual(await workspaceFindingLines(literal, 'pkg/conv.py', 'ATT001'), [SOFTMAX]);
  });
});
