// Session 35, the false findings of training batches u and t (prec-train35), as classes.
//
// ATT004, class "a name's role as the model width contradicted by the code": GMAN (t28u-06-clean) stacks its heads on
// the batch axis with `torch.cat(torch.split(x, self._d, dim=-1), dim=0)` and scales by `self._d ** 0.5`; `d` is a
// model-width name, but `D = K * d` is in view, so d is one piece of a wider width. The name is no evidence then:
// silent when the class, the file, or every file building the class (with the name it passes) shows a product `K * d` (assigned or handed to a layer) with another name that is no ratio, part count or extent.
// And `torch.split`'s second argument is each piece's WIDTH, while TensorFlow's `tf.split`, NumPy's and JAX's `split`
// and `array_split`, and `torch.tensor_split` take a COUNT of pieces: the piece widths follow the API.
//
// ATT002, class "an arange read as ascending positions from 0 whatever its start and step": Music Transformer's
// `_qe_masking` (t27t-08-causal) compares `arange(S)` with a DESCENDING `arange(S - 1, S - L - 1, -1)` of relative
// distances through a `sequence_mask(lengths, S)` helper; the range is no per-example length and no index from 0.
import { strict as assert } from 'node:assert';
import { findingLines, valueOf, workspaceFindingLines } from './helpers';
import { axisAt, type AValue } from '../../../src/lint/analysis/values';

/**
 * Since session 36 (prec-scale36) a model-width NAME alone (`d`) decides nothing; the reading stands where the code
 * shows the name as a feature width, here a layer of the class `d` wide. The tests below that need the name's reading
 * add this layer, so they still fail if the product check is dropped.
 */
const WITH_D_LAYER = (src: string): string => src.replace(/( +)(self\.fc_k = nn\.Linear\([^\n]*\)\n)/, '$1$2$1self.fc_o = nn.Linear(d, d)\n');

/** The width of the first piece's last axis, as the code states it. */
async function pieceWidth(src: string, expr: string): Promise<string | undefined> {
  const v = await valueOf(src, expr);
  const piece = v.kind === 'tuple' ? v.elements?.[0] : undefined;
  return piece ? axisAt(piece, -1)?.sizeText : undefined;
}

/** GMAN's temporal attention: heads of width d stacked on the batch axis (`torch.split` takes each piece's width), `D = K * d` in view. */
const GMAN_TEMPORAL = `import torch
import torch.nn as nn
import torch.nn.functional as F


class TemporalAttention(nn.Module):
    def __init__(self, K, d):
        super().__init__()
        D = K * d
        self.K, self.d = K, d
        self.fc_q = nn.Linear(D, D)
        self.fc_k = nn.Linear(D, D)

    def forward(self, X):
        # X: (B, N, T, K*d)
        q = torch.cat(torch.split(self.fc_q(X), self.d, dim=-1), dim=0)  # (K*B, N, T, d)
        k = torch.cat(torch.split(self.fc_k(X), self.d, dim=-1), dim=0)
        scores = torch.matmul(q, k.transpose(-2, -1))
        scores = scores / self.d ** 0.5
        return F.softmax(scores, dim=-1)
`;

/** GMAN's transform attention: pieces of width K (K = d in the workspace it comes from), scaled by d; `D = K * d` in view. */
const GMAN_TRANSFORM = `import torch
import torch.nn as nn
import torch.nn.functional as F


class TransformAttention(nn.Module):
    def __init__(self, K, d):
        super().__init__()
        D = K * d
        self._K, self._d = K, d
        self.fc_q = nn.Linear(D, D)
        self.fc_k = nn.Linear(D, D)

    def forward(self, X, STE_his, STE_pred):
        q = torch.cat(torch.split(self.fc_q(STE_pred), self._K, dim=-1), dim=0)
        k = torch.cat(torch.split(self.fc_k(STE_his), self._K, dim=-1), dim=0)
        scores = torch.matmul(q, k.transpose(-2, -1))
        scores = scores / self._d ** 0.5
        return F.softmax(scores, dim=-1)
`;

/** No product in view: the queries' rank is known, and `torch.split(x, self.d, dim=-1)` makes pieces d wide, the size the scores sum over. */
const SPLIT_WIDTH = `import torch
import torch.nn as nn
import torch.nn.functional as F


class TemporalAttention(nn.Module):
    def __init__(self, d_model, d):
        super().__init__()
        self.d = d
        self.fc_q = nn.Linear(d_model, d_model)
        self.fc_k = nn.Linear(d_model, d_model)

    def forward(self, X):
        B, N, T, C = X.shape
        q = torch.cat(torch.split(self.fc_q(X), self.d, dim=-1), dim=0)
        k = torch.cat(torch.split(self.fc_k(X), self.d, dim=-1), dim=0)
        scores = torch.matmul(q, k.transpose(-2, -1))
        scores = scores / self.d ** 0.5
        return F.softmax(scores, dim=-1)
`;

/** The bug: pieces `self.d_head` wide scaled by the projection's whole width `self.dim`. */
const MODEL_WIDTH_BUG = `import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim, d_head):
        super().__init__()
        self.dim, self.d_head = dim, d_head
        self.fc_q = nn.Linear(dim, dim)
        self.fc_k = nn.Linear(dim, dim)

    def forward(self, X):
        B, N, T, C = X.shape
        q = torch.cat(torch.split(self.fc_q(X), self.d_head, dim=-1), dim=0)
        k = torch.cat(torch.split(self.fc_k(X), self.d_head, dim=-1), dim=0)
        scores = torch.matmul(q, k.transpose(-2, -1))
        scores = scores / self.dim ** 0.5
        return F.softmax(scores, dim=-1)
`;

/** The same bug beside `hidden = dim * mlp_ratio`: a ratio times the width is no evidence that `dim` is a piece. */
const MLP_RATIO_BUG = MODEL_WIDTH_BUG.replace('def __init__(self, dim, d_head):', 'def __init__(self, dim, d_head, mlp_ratio):')
  .replace('        self.dim, self.d_head = dim, d_head\n', '        self.dim, self.d_head = dim, d_head\n        hidden = dim * mlp_ratio\n')
  .replace(
    '        self.fc_k = nn.Linear(dim, dim)\n',
    '        self.fc_k = nn.Linear(dim, dim)\n        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Linear(hidden, dim))\n',
  );

/** TF1 GMAN: `tf.split(q, self.K, axis=-1)` counts K pieces; `D = K * d`. */
const TF_GMAN = `import tensorflow as tf


class SpatialAttention:
    def __init__(self, K, d):
        D = K * d
        self.K, self.d, self.D = K, d, D

    def __call__(self, X):
        q = tf.layers.dense(X, self.D)
        k = tf.layers.dense(X, self.D)
        q = tf.concat(tf.split(q, self.K, axis=-1), axis=0)
        k = tf.concat(tf.split(k, self.K, axis=-1), axis=0)
        scores = tf.matmul(q, k, transpose_b=True)
        scores = scores / self.d ** 0.5
        return tf.nn.softmax(scores, axis=-1)
`;

/** A transform attention whose file shows nothing of d but its name. */
const ATTN_NO_PRODUCT = `import torch
import torch.nn as nn
import torch.nn.functional as F


class TransformAttention(nn.Module):
    def __init__(self, K, d, D):
        super().__init__()
        self._K, self._d = K, d
        self.fc_q = nn.Linear(D, D)
        self.fc_k = nn.Linear(D, D)

    def forward(self, STE_his, STE_pred):
        q = torch.cat(torch.split(self.fc_q(STE_pred), self._K, dim=-1), dim=0)
        k = torch.cat(torch.split(self.fc_k(STE_his), self._K, dim=-1), dim=0)
        scores = torch.matmul(q, k.transpose(-2, -1))
        scores = scores / self._d ** 0.5
        return F.softmax(scores, dim=-1)
`;

/** The model that builds it: `D = K * d`, `TransformAttention(K, d, D)`. */
const MODEL_WITH_PRODUCT = `import torch.nn as nn

from .attention import TransformAttention


class GMAN(nn.Module):
    def __init__(self, K, d):
        super().__init__()
        D = K * d
        self.transform = TransformAttention(K, d, D)

    def forward(self, STE_his, STE_pred):
        return self.transform(STE_his, STE_pred)
`;

/** A padding mask of real lengths, filled where True (the valid tokens): a real ATT002. */
const PAD_BUG = `import torch
import torch.nn.functional as F


def sequence_mask(length, max_length):
    x = torch.arange(max_length, dtype=length.dtype, device=length.device)
    return x.unsqueeze(0) < length.unsqueeze(1)


def attend(q, k, v, lengths):
    # q, k, v: (B, S, d); lengths: (B,) tokens per example
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    valid = sequence_mask(lengths, k.size(1))
    scores = scores.masked_fill(valid[:, None, :], float("-inf"))
    return F.softmax(scores, dim=-1) @ v
`;

/** Music Transformer's masking of relative logits: lengths a descending arange. */
const REL_MASKING = `import torch
import torch.nn.functional as F


def sequence_mask(length, max_length):
    x = torch.arange(max_length, dtype=length.dtype, device=length.device)
    return x.unsqueeze(0) < length.unsqueeze(1)


def qe_masking(qe):
    # zero the relative logits of distances that point into the future (column L-1 is distance 0)
    lengths = torch.arange(qe.size(-1) - 1, qe.size(-1) - qe.size(-2) - 1, -1, device=qe.device)
    keep = ~sequence_mask(lengths, qe.size(-1))
    return keep.to(qe.dtype) * qe


def relative_attention(q, k, v, E):
    # q, k, v: (B, h, L, dh); E: (h, L, dh) one embedding per distance
    srel = qe_masking(q @ E.transpose(-1, -2))
    scores = (q @ k.transpose(-1, -2) + srel) / q.size(-1) ** 0.5
    return F.softmax(scores, dim=-1) @ v
`;

describe('lint: a model-width name that the code builds a wider width from (ATT004)', () => {
  it("GMAN's temporal attention, heads of width d on the batch axis beside D = K * d, is silent", async () => {
    assert.deepEqual(await findingLines(GMAN_TEMPORAL, 'ATT004'), []);
  });
  it('the transform attention, pieces of width K scaled by d beside D = K * d, is silent (d is no model width)', async () => {
    assert.deepEqual(await findingLines(GMAN_TRANSFORM, 'ATT004'), []);
  });
  it('the product also as a layer width, nn.Linear(K * d, K * d), or bound to self.D', async () => {
    const inline = GMAN_TRANSFORM.replace('        D = K * d\n', '').replace(/nn\.Linear\(D, D\)/g, 'nn.Linear(K * d, K * d)');
    assert.deepEqual(await findingLines(inline, 'ATT004'), []);
    const attr = GMAN_TRANSFORM.replace('        D = K * d\n', '        self.D = self._K * d\n').replace(/nn\.Linear\(D, D\)/g, 'nn.Linear(self.D, self.D)');
    assert.deepEqual(await findingLines(attr, 'ATT004'), []);
  });
  it('without the product, and with d a layer width of the class, the transform attention is reported (this test fails if the product check is dropped)', async () => {
    const bare = GMAN_TRANSFORM.replace('    def __init__(self, K, d):', '    def __init__(self, K, d, D):').replace('        D = K * d\n', '');
    assert.deepEqual(await findingLines(WITH_D_LAYER(bare), 'ATT004'), [18]);
    assert.deepEqual(await findingLines(WITH_D_LAYER(GMAN_TRANSFORM), 'ATT004'), []);
    // The name alone, with nothing in the code showing d as a width split into heads: silent (prec-scale36).
    assert.deepEqual(await findingLines(bare, 'ATT004'), []);
  });
  it('a ratio, part count or extent times the width is no such product: the real bug stays reported', async () => {
    assert.deepEqual(await findingLines(MODEL_WIDTH_BUG, 'ATT004'), [18]);
    assert.deepEqual(await findingLines(MLP_RATIO_BUG, 'ATT004'), [20]);
    for (const other of ['n_parts', 'seq_len', 'expansion']) {
      const src = MLP_RATIO_BUG.replace(/mlp_ratio/g, other);
      assert.deepEqual(await findingLines(src, 'ATT004'), [20], other);
    }
  });
  it('a module constant bound to a number is that number, as a literal factor is: `N_QKV * d` with N_QKV = 3 is no product of names', async () => {
    // The same width written with the literal and with a module constant (the metamorphic `const` rewrite): one reading.
    const literal = WITH_D_LAYER(GMAN_TRANSFORM.replace('D = K * d', 'D = 3 * d'));
    assert.deepEqual(await findingLines(literal, 'ATT004'), [19]);
    const constant = WITH_D_LAYER(GMAN_TRANSFORM)
      .replace('D = K * d', 'D = N_QKV * d')
      .replace('import torch.nn.functional as F\n', 'import torch.nn.functional as F\n\nN_QKV = 3\n');
    assert.deepEqual(await findingLines(constant, 'ATT004'), [21]);
    // A name bound twice at module level is no constant: the product of names again.
    const rebound = constant.replace('N_QKV = 3\n', 'N_QKV = 3\nN_QKV = 4\n');
    assert.deepEqual(await findingLines(rebound, 'ATT004'), []);
  });
  it('TF1 GMAN, tf.split(q, self.K, axis=-1) (a count) beside D = K * d, is silent', async () => {
    // `d` is also a layer width of the class (`tf.layers.Dense(d)`): the name's reading stands unless the product clears it.
    const tfGman = TF_GMAN.replace(
      '        self.K, self.d, self.D = K, d, D\n',
      '        self.K, self.d, self.D = K, d, D\n        self.out = tf.layers.Dense(d)\n',
    );
    assert.deepEqual(await findingLines(tfGman, 'ATT004'), []);
    assert.deepEqual(await findingLines(tfGman.replace('        D = K * d\n', '        D = 64\n'), 'ATT004'), [16]);
  });
  it('cross-file: the model that builds the class with D = K * d clears it; the attention file alone does not', async () => {
    const attention = WITH_D_LAYER(ATTN_NO_PRODUCT);
    const files = { 'gman/__init__.py': '', 'gman/attention.py': attention, 'gman/model.py': MODEL_WITH_PRODUCT };
    assert.deepEqual(await workspaceFindingLines(files, 'gman/attention.py', 'ATT004'), []);
    const alone = { 'gman/__init__.py': '', 'gman/attention.py': attention };
    assert.deepEqual(await workspaceFindingLines(alone, 'gman/attention.py', 'ATT004'), [18]);
    // A builder that passes a width it never multiplies says nothing.
    const flat = MODEL_WITH_PRODUCT.replace('D = K * d', 'D = 64');
    assert.deepEqual(await workspaceFindingLines({ ...files, 'gman/model.py': flat }, 'gman/attention.py', 'ATT004'), [18]);
  });
});

describe('lint: split pieces have the width the API gives them (torch.split: a width; tf/np/jnp split, array_split: a count)', () => {
  it('torch.split(x, d, dim=-1) pieces are d wide; with the rank known the scale by d is the contracted size, silent', async () => {
    assert.deepEqual(await findingLines(SPLIT_WIDTH, 'ATT004'), []);
    assert.equal(
      await pieceWidth(
        'import torch\n\ndef f(x, B, T, d):\n    y = torch.split(x.view(B, T, 4 * d), d, dim=-1)\n',
        'torch.split(x.view(B, T, 4 * d), d, dim=-1)',
      ),
      'd',
    );
    assert.equal(
      await pieceWidth('import torch\n\ndef f(x, B, T, d):\n    y = x.view(B, T, 4 * d).split(4, dim=-1)\n', 'x.view(B, T, 4 * d).split(4, dim=-1)'),
      '4',
    );
  });
  it('tf.split, np.split, jnp.split and np.array_split count pieces: 4 pieces of a 4 * d axis are d wide, K pieces of K * d too', async () => {
    const tf = 'import tensorflow as tf\n\ndef f(x, B, T, d):\n    y = tf.split(tf.reshape(x, (B, T, 4 * d)), 4, axis=-1)\n';
    assert.equal(await pieceWidth(tf, 'tf.split(tf.reshape(x, (B, T, 4 * d)), 4, axis=-1)'), 'd');
    const tfK = 'import tensorflow as tf\n\ndef f(x, B, T, K, d):\n    y = tf.split(tf.reshape(x, (B, T, K * d)), K, axis=-1)\n';
    assert.equal(await pieceWidth(tfK, 'tf.split(tf.reshape(x, (B, T, K * d)), K, axis=-1)'), 'd');
    const np = 'import numpy as np\n\ndef f(x, B, T, d):\n    y = np.split(x.reshape(B, T, 4 * d), 4, axis=-1)\n';
    assert.equal(await pieceWidth(np, 'np.split(x.reshape(B, T, 4 * d), 4, axis=-1)'), 'd');
    const jnp = 'import jax.numpy as jnp\n\ndef f(x, B, T, d):\n    y = jnp.array_split(x.reshape(B, T, 4 * d), 4, axis=-1)\n';
    assert.equal(await pieceWidth(jnp, 'jnp.array_split(x.reshape(B, T, 4 * d), 4, axis=-1)'), 'd');
    // A count that is not the axis's factor gives no width (never the count itself, as torch would).
    assert.equal(await pieceWidth(tf.replace(/, 4, axis/g, ', 2, axis'), 'tf.split(tf.reshape(x, (B, T, 4 * d)), 2, axis=-1)'), undefined);
  });
  it("NumPy's split points give one piece more than points; TF's list gives one piece per size", async () => {
    const np = 'import numpy as np\n\ndef f(x, d):\n    y = np.split(x, [d, 2 * d], axis=-1)\n';
    const v = await valueOf(np, 'np.split(x, [d, 2 * d], axis=-1)');
    assert.equal(v.kind === 'tuple' ? v.elements?.length : -1, 3);
    const tf = 'import tensorflow as tf\n\ndef f(x, d):\n    y = tf.split(x, [d, 2 * d], axis=-1)\n';
    const t = await valueOf(tf, 'tf.split(x, [d, 2 * d], axis=-1)');
    assert.equal(t.kind === 'tuple' ? t.elements?.length : -1, 2);
  });
});

describe('lint: an arange in an order the code does not show is no position index nor lengths (ATT002)', () => {
  it("Music Transformer's masking of relative logits by a descending arange of distances is silent", async () => {
    assert.deepEqual(await findingLines(REL_MASKING, 'ATT002'), []);
  });
  it('the helper with real lengths, filled where the valid tokens are, stays reported, also beside the relative masking', async () => {
    assert.deepEqual(await findingLines(PAD_BUG, 'ATT002'), [14]);
    const both = `${PAD_BUG}\n\n${REL_MASKING.replace(/^import[^\n]*\n/gm, '').replace(/def sequence_mask[\s\S]*?length\.unsqueeze\(1\)\n/, '')}`;
    assert.deepEqual(await findingLines(both, 'ATT002'), [14]);
  });
  it('arange(n) and arange(k, n) are position indexes (from 0, from k); a step other than 1 or a start not written out is none', async () => {
    const src = (call: string): string => `import torch\n\ndef f(n, m):\n    p = ${call}\n`;
    const idx = async (call: string): Promise<AValue> => valueOf(src(call), call);
    assert.deepEqual((await idx('torch.arange(n)')).index, { axis: -1, offset: 0 });
    assert.deepEqual((await idx('torch.arange(1, n)')).index, { axis: -1, offset: 1 });
    for (const call of ['torch.arange(n - 1, -1, -1)', 'torch.arange(m, n)', 'torch.arange(0, n, 2)']) {
      const v = await idx(call);
      assert.equal(v.index, undefined, call);
      assert.equal(v.unorderedRange, true, call);
    }
  });
});
