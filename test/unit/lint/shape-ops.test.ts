// The shape transfer functions (src/lint/analysis/shape-ops.ts), one value in and one value out each: what a
// reshape, transpose, permute, squeeze, flatten, reduction, broadcast or product does to a tensor's rank, its
// per-axis facts and the facts kept as negative axis indices (key and query axes, softmax axis, padding axes).
// Functions that read their arguments from the call are driven through the evaluator on a small snippet.
import { strict as assert } from 'node:assert';
import { Evaluator } from '../../../src/lint/analysis/evaluator';
import { einopsAxisMap, parseEinopsPattern } from '../../../src/lint/analysis/layout';
import { createPythonParser } from '../../../src/lint/parser';
import { analyseScopes } from '../../../src/lint/analysis/scopes';
import {
  dimOfShape,
  broadcastLayout,
  indexTensor,
  stretchedBy,
  expandAsValue,
  flattenValue,
  matmulLayout,
  movedimValue,
  permuteValue,
  reducedLayout,
  reverseAxes,
  singleQueryKeyAxis,
  squeezeValue,
  transposeLastTwo,
  transposeValue,
  unsqueezeValue,
} from '../../../src/lint/analysis/shape-ops';
import { walk, type PyNode } from '../../../src/lint/syntax/tree';
import { tensor, type AValue, type AxisInfo } from '../../../src/lint/analysis/values';
import { grammar } from './helpers';

const FORMED_AT = { id: -1 } as unknown as PyNode;

/** Attention scores (B, H, L, S): keys on the last axis, queries on the one before. */
function scores(extra: Partial<AValue> = {}): AValue {
  return tensor({
    ndim: 4,
    axes: [{ label: 'batch' }, { label: 'head' }, { label: 'seq', sizeText: 'L' }, { label: 'seq', sizeText: 'S' }],
    attn: { stage: 'scores', formedAt: FORMED_AT, keyAxis: -1, queryAxis: -2 },
    ...extra,
  });
}

/** The same scores with their rank unknown (only negative-index facts). */
function scoresUnknownRank(): AValue {
  return tensor({ attn: { stage: 'scores', formedAt: FORMED_AT, keyAxis: -1, queryAxis: -2 } });
}

const labels = (v: AValue): (string | undefined)[] => (v.axes ?? []).map((a) => a.label);
const keyQuery = (v: AValue): [number | undefined, number | undefined] => [v.attn?.keyAxis, v.attn?.queryAxis];

describe('shape transfer functions (values in, values out)', () => {
  it('permuteValue moves labels and the key/query axes with their axes', () => {
    const out = permuteValue(scores(), [0, 2, 3, 1]); // (B, L, S, H)
    assert.deepEqual(labels(out), ['batch', 'seq', 'seq', 'head']);
    assert.deepEqual(keyQuery(out), [-2, -3]);
    assert.equal(out.ndim, 4);
    // A list that is not a permutation tells nothing.
    assert.equal(permuteValue(scores(), [0, 0, 1, 2]).attn, undefined);
  });

  it('transposeValue swaps two axes at known rank, and negative axes at unknown rank', () => {
    assert.deepEqual(keyQuery(transposeValue(scores(), -2, -1)), [-2, -1]);
    assert.deepEqual(keyQuery(transposeValue(scores(), 1, 2)), [-1, -3]);
    assert.deepEqual(keyQuery(transposeValue(scoresUnknownRank(), -1, -2)), [-2, -1]);
    // Positive dims at unknown rank: which axes moved is unknown, so the key and query axes are dropped.
    assert.deepEqual(keyQuery(transposeValue(scoresUnknownRank(), 0, 1)), [undefined, undefined]);
  });

  it('transposeLastTwo and reverseAxes (.mT and .T)', () => {
    assert.deepEqual(keyQuery(transposeLastTwo(scoresUnknownRank())), [-2, -1]);
    const twoD = tensor({ ndim: 2, axes: [{ label: 'seq' }, { label: 'feat', size1: true }] });
    assert.deepEqual(reverseAxes(twoD).axes, [{ label: 'feat', size1: true }, { label: 'seq' }]);
    const reversed = reverseAxes(scores());
    assert.deepEqual(keyQuery(reversed), [-4, -3]);
    assert.equal(reverseAxes(scoresUnknownRank()).attn, undefined, '.T of unknown rank: nothing known');
  });

  it('unsqueezeValue inserts a length-1 axis and shifts the facts left of it', () => {
    const out = unsqueezeValue(scores(), 1);
    assert.equal(out.ndim, 5);
    assert.deepEqual(out.axes![1], { size1: true });
    assert.deepEqual(keyQuery(out), [-1, -2]);
    assert.deepEqual(keyQuery(unsqueezeValue(scoresUnknownRank(), -2)), [-1, -3]);
  });

  it('unsqueezeValue(-1) at unknown rank: the new last axis has length 1 (and only -1 says so)', () => {
    const last = unsqueezeValue(tensor(), -1);
    assert.equal(last.ndim, undefined);
    assert.equal(last.lastSize1, true);
    assert.deepEqual(keyQuery(unsqueezeValue(scoresUnknownRank(), -1)), [-2, -3]);
    assert.equal(unsqueezeValue(tensor(), -2).lastSize1, undefined);
    assert.equal(unsqueezeValue(tensor(), 1).lastSize1, undefined);
    // Moving the new axis away from the end forgets it.
    assert.equal(transposeValue(unsqueezeValue(tensor(), -1), -1, -2).lastSize1, undefined);
    assert.equal(squeezeValue(unsqueezeValue(tensor(), -1), -1).lastSize1, undefined);
  });

  it('squeezeValue without a dim drops the one axis the code made of length 1, and forgets the layout when it cannot tell', () => {
    // (B, T, 1) from a bmm with a column, permuted to (T, B, 1): squeeze() gives (T, B), the facts kept.
    const column = tensor({ ndim: 3, axes: [{ sizeText: 'T' }, { label: 'batch' }, { size1: true }], attn: { stage: 'scores', formedAt: FORMED_AT } });
    const out = squeezeValue(column, undefined);
    assert.deepEqual([out.ndim, out.axes], [2, [{ sizeText: 'T' }, { label: 'batch' }]]);
    assert.equal(out.attn?.stage, 'scores');
    // Two length-1 axes, or none known: which axes go is not known.
    const two = tensor({ ndim: 3, axes: [{ size1: true }, { label: 'batch' }, { size1: true }] });
    assert.equal(squeezeValue(two, undefined).ndim, undefined);
    assert.equal(squeezeValue(tensor({ ndim: 2, axes: [{}, {}] }), undefined).ndim, undefined);
  });

  it('squeezeValue drops the axis; at unknown rank a negative dim keeps the axes right of it', () => {
    const pooled = tensor({ ndim: 3, axes: [{ label: 'batch' }, { label: 'seq' }, { label: 'feat', size1: true }], featLast: true });
    const out = squeezeValue(pooled, -1);
    assert.deepEqual([out.ndim, labels(out)], [2, ['batch', 'seq']]);
    assert.equal(out.featLast, undefined);
    // A Linear(d, 1) output of unknown rank: squeeze(-1) removes the length-1 axis (the FP behind a correct
    // softmax(dim=1) after squeeze(-1)).
    const logits = tensor({ lastSize1: true, featLast: true });
    const squeezed = squeezeValue(logits, -1);
    assert.equal(squeezed.lastSize1, undefined);
    assert.equal(squeezed.featLast, undefined);
    // Facts left of the squeezed axis move one place right.
    assert.deepEqual(keyQuery(squeezeValue(scoresUnknownRank(), -3)), [-1, -2]);
    assert.deepEqual(keyQuery(squeezeValue(scoresUnknownRank(), -1)), [undefined, -1]);
  });

  it('reducedLayout follows keepdim: the axis is kept with length 1 or dropped', () => {
    const x = tensor({ ndim: 3, axes: [{ label: 'batch' }, { label: 'seq' }, { label: 'feat' }], featLast: true });
    const kept = reducedLayout(x, -1, true);
    assert.deepEqual(kept.axes, [{ label: 'batch' }, { label: 'seq' }, { size1: true }]);
    assert.equal(kept.ndim, 3);
    const dropped = reducedLayout(x, -1, false);
    assert.deepEqual([dropped.ndim, dropped.axes], [2, [{ label: 'batch' }, { label: 'seq' }]]);
    assert.equal(reducedLayout(x, 1, false).featLast, true, 'reducing a middle axis keeps the features last');
    // Unknown rank: keepdims over the last axis leaves a length-1 last axis.
    assert.deepEqual(reducedLayout(tensor(), -1, true), { lastSize1: true });
    assert.deepEqual(reducedLayout(tensor(), 1, true), {});
    // Everything: a scalar, or all axes of length 1.
    assert.deepEqual(reducedLayout(x, 'all', false), { ndim: 0, axes: [] });
    assert.ok(reducedLayout(x, 'all', true).axes!.every((a) => a.size1));
    // keepdim not a literal: nothing known.
    assert.deepEqual(reducedLayout(x, -1, undefined), {});
  });

  it('matmulLayout: rows from a, columns from b, a 1-D operand loses its axis', () => {
    const x = tensor({ ndim: 3, axes: [{ label: 'batch' }, { label: 'seq' }, { label: 'feat' }] });
    const w = tensor({ ndim: 2, axes: [{}, { size1: true, sizeText: '1' }] });
    const out = matmulLayout(x, w);
    assert.equal(out.ndim, 3);
    assert.deepEqual(out.axes, [{ label: 'batch' }, { label: 'seq' }, { size1: true, sizeText: '1' }]);
    // Unknown rank on the left: only that the last axis has length 1.
    assert.deepEqual(matmulLayout(tensor(), w), { lastSize1: true });
    assert.deepEqual(matmulLayout(tensor(), tensor({ lastSize1: true })), { lastSize1: true });
    // x @ v with v 1-D: (B, T).
    const v = tensor({ ndim: 1, axes: [{}] });
    assert.deepEqual(matmulLayout(x, v), { ndim: 2, axes: [{ label: 'batch' }, { label: 'seq' }] });
    // A batch label on b's last axis comes from reversing every axis of the keys: the column does not keep it.
    const kT = tensor({ ndim: 3, axes: [{ label: 'feat' }, { label: 'seq' }, { label: 'batch' }] });
    assert.deepEqual(matmulLayout(x, kT).axes![2], {});
  });

  it('flattenValue merges axes start..end; facts right of end keep their negative index', () => {
    const out = flattenValue(scores(), 0, 1); // (B*H, L, S)
    assert.equal(out.ndim, 3);
    assert.deepEqual(out.axes![0], { label: 'batch' });
    assert.deepEqual(keyQuery(out), [-1, -2]);
    const merged = flattenValue(scores(), 2, 3); // (B, H, L*S)
    assert.deepEqual(keyQuery(merged), [undefined, undefined]);
    // Unknown rank with negative bounds: axes left of start move right.
    assert.deepEqual(keyQuery(flattenValue(tensor({ attn: { stage: 'scores', formedAt: FORMED_AT, keyAxis: -1, queryAxis: -4 } }), -3, -2)), [-1, -3]);
    assert.equal(flattenValue(scoresUnknownRank(), 0, -1).ndim, 1);
    assert.equal(flattenValue(scoresUnknownRank(), 0, 1).attn?.keyAxis, undefined);
  });

  it('movedimValue is a permutation at known rank', () => {
    const out = movedimValue(scores(), -1, 1); // (B, S, H, L)
    assert.deepEqual(labels(out), ['batch', 'seq', 'head', 'seq']);
    assert.deepEqual(keyQuery(out), [-3, -1]);
    assert.equal(movedimValue(scoresUnknownRank(), -1, 1).attn?.keyAxis, undefined);
  });

  it('broadcastLayout aligns from the right and takes the axis that is not of length 1', () => {
    const w = tensor({ ndim: 3, axes: [{ label: 'batch' }, { label: 'seq' }, { size1: true }] });
    const x = tensor({ ndim: 3, axes: [{ label: 'batch' }, { label: 'seq' }, { label: 'feat', sizeText: 'D' }] });
    assert.deepEqual(broadcastLayout(w, x), { ndim: 3, axes: [{ label: 'batch' }, { label: 'seq' }, { label: 'feat', sizeText: 'D' }] });
    const bias = tensor({ ndim: 1, axes: [{ size1: true }] });
    assert.deepEqual(broadcastLayout(w, bias).axes![2], { size1: true });
    // Against unknown rank: w's axes, its last one of length 1 only when the other operand's is too.
    assert.deepEqual(broadcastLayout(tensor({ lastSize1: true }), w), { ndim: 3, axes: [{ label: 'batch' }, { label: 'seq' }, { size1: true }] });
    assert.deepEqual(broadcastLayout(tensor(), w), { ndim: 3, axes: [{ label: 'batch' }, { label: 'seq' }, {}] });
    assert.deepEqual(broadcastLayout(tensor({ lastSize1: true }), tensor({ lastSize1: true })), { lastSize1: true });
    assert.deepEqual(broadcastLayout(tensor(), tensor()), {});
  });

  it('stretchedBy: scores plus a tensor keep their facts, with the length-1 axes the other operand has longer', () => {
    // Bahdanau energies read as scores: (B, 1, A) + (B, S, A) is (B, S, A), its axis 1 no longer of length 1.
    const s = scores({ ndim: 3, axes: [{ size1: true }, { size1: true }, {}] });
    const keys = tensor({ ndim: 3, axes: [{ size1: true }, { sizeText: 'S' }, {}] });
    const out = stretchedBy(s, keys);
    assert.deepEqual(out.axes, [{ size1: true }, {}, {}]);
    assert.equal(out.attn, s.attn, 'still the scores');
    // The row max (keepdims) stretches nothing; a bias of unknown rank may stretch any of them.
    const rowMax = tensor({ ndim: 3, axes: [{ size1: true }, { size1: true }, { size1: true }] });
    assert.deepEqual(stretchedBy(s, rowMax).axes, s.axes);
    assert.deepEqual(stretchedBy(s, tensor()).axes, [{}, {}, {}]);
    assert.equal(stretchedBy(s, { kind: 'number', num: 1 }), s, 'a number stretches nothing');
    const last1 = scores({ lastSize1: true, ndim: undefined, axes: undefined });
    assert.equal(stretchedBy(last1, tensor({ ndim: 2, axes: [{}, {}] })).lastSize1, undefined);
    assert.equal(stretchedBy(last1, tensor({ ndim: 2, axes: [{}, { size1: true }] })).lastSize1, undefined, 'scores of unknown rank: nothing known to stay 1');
  });

  it('indexTensor: a name the code says is one integer drops its axis as a literal does', () => {
    const table = tensor({ ndim: 2, axes: [{}, { label: 'feat' }], learned: true, ops: [[{ kind: 'opaque' }]] });
    const name = { type: 'identifier', start: 0, end: 1, children: [], namedChildren: [] } as unknown as PyNode;
    const evStub = { text: () => 'destination', tree: {}, resolve: () => undefined } as unknown as Parameters<typeof indexTensor>[0];
    const picked = indexTensor(evStub, table, [name], () => true);
    assert.equal(picked.ndim, 1);
    assert.equal(picked.learned, true, 'still a learned parameter (a pooling query)');
    assert.equal(picked.ops, undefined, "a learned table's initial operations are not the data's");
    assert.equal(indexTensor(evStub, table, [name], () => false).ndim, undefined, 'not known to be an integer: entries gathered');
  });

  it("broadcastLayout against a tensor of unknown rank keeps the known operand's axes, its length-1 axes stretched", () => {
    // (T, B, 1) * w, w of unknown shape: the roles stay; axis -1 may be stretched by w unless w's last axis is 1 too.
    const h = tensor({ ndim: 3, axes: [{ label: 'seq', sizeText: 'T' }, { label: 'batch' }, { label: 'feat', size1: true }] });
    assert.deepEqual(broadcastLayout(h, tensor()), { ndim: 3, axes: [{ label: 'seq', sizeText: 'T' }, { label: 'batch' }, { label: 'feat' }] });
    assert.deepEqual(broadcastLayout(tensor(), h), broadcastLayout(h, tensor()), 'either operand order');
    assert.deepEqual(broadcastLayout(h, tensor({ lastSize1: true })).axes![2], { label: 'feat', size1: true });
    // `.T` of unknown rank: its axes are not known to align with anything.
    assert.deepEqual(broadcastLayout(h, tensor({ reversedUnknownRank: true })), {});
  });

  it('einopsAxisMap sends each axis named alone on both sides to its new place', () => {
    const p = parseEinopsPattern('b h i j -> b i j h')!;
    const map = einopsAxisMap(p.lhs, p.rhs);
    assert.deepEqual([map(-1), map(-2), map(-3), map(-4)], [-2, -3, -1, -4]);
    const merged = parseEinopsPattern('b h n d -> b n (h d)')!;
    assert.equal(einopsAxisMap(merged.lhs, merged.rhs)(-1), undefined, 'd is merged with h');
    assert.equal(einopsAxisMap(merged.lhs, merged.rhs)(-2), -2);
    const ell = parseEinopsPattern('... i j -> ... j i')!;
    assert.deepEqual([einopsAxisMap(ell.lhs, ell.rhs)(-1), einopsAxisMap(ell.lhs, ell.rhs)(-3)], [-2, undefined]);
  });

  it('dimOfShape: a last axis named like the model width (D) is the head width when the tensor has a head axis', () => {
    const split = tensor({ ndim: 4, axes: [{ label: 'batch' }, { label: 'head', sizeText: 'H' }, { label: 'seq' }, { sizeText: 'D' }] });
    assert.equal(dimOfShape(split, -1).dimPow?.dim.which, 'head');
    const whole = tensor({ ndim: 3, axes: [{ label: 'batch' }, { label: 'seq' }, { sizeText: 'D' }] });
    assert.equal(dimOfShape(whole, -1).dimPow?.dim.which, 'model');
  });

  it('expandAsValue takes the other rank and keeps its own axes where they are not length 1', () => {
    const mask = tensor({ ndim: 2, axes: [{ label: 'batch' }, { size1: true }], mask: { polarity: 'ignore', padding: true, padAxes: [-1], why: 'pad' } });
    const target = tensor({ ndim: 3, axes: [{ label: 'batch' }, { label: 'seq' }, { label: 'seq' }] });
    const out = expandAsValue(mask, target);
    assert.equal(out.ndim, 3);
    // The axis the mask lacks and its length-1 axis take the target's lengths: copies of the same values (repeated).
    assert.deepEqual(out.axes, [{ label: 'batch', repeated: true }, { label: 'batch' }, { label: 'seq', repeated: true }] as AxisInfo[]);
    assert.deepEqual(out.mask?.padAxes, [-1]);
  });
});

describe('shape transfer functions through the evaluator (call arguments)', () => {
  async function valuesOf(src: string, names: string[]): Promise<Map<string, AValue>> {
    const parser = await createPythonParser(grammar());
    const tree = parser.parse(src, { full: true });
    const sr = analyseScopes(tree);
    const ev = new Evaluator(tree, sr);
    ev.run();
    const out = new Map<string, AValue>();
    for (const name of names) {
      let last: PyNode | undefined;
      walk(tree.root, (n) => {
        if (src.slice(n.start, n.end) === name && n.type === 'identifier') last = n;
        return true;
      });
      assert.ok(last, `${name} not found`);
      const n = last;
      const scope = [...sr.scopes].reverse().find((s) => s.node.start <= n.start && n.end <= s.node.end && s.kind !== 'comprehension') ?? sr.module;
      out.set(name, ev.eval(n, ev.defaultCtx(scope)));
    }
    return out;
  }

  it("indexing by an index tensor keeps the entries' scale (not a learned parameter's initial one); a zero buffer filled with them carries it, and an unscaled fill does not", async () => {
    const v = await valuesOf(
      `import math
import torch
import torch.nn as nn
class A(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.q_proj = nn.Linear(c, c)
        self.programs = nn.Parameter(torch.randn(8, c) * 0.1)
    def forward(self, x, rows, slots):
        programs = self.programs[rows]
        q = self.q_proj(x) / math.sqrt(x.shape[-1])
        raw = self.q_proj(x)
        picked = q[rows]
        scaled_buf = q.new_zeros(4, x.shape[-1])
        scaled_buf[slots] = q[rows]
        raw_buf = raw.new_zeros(4, x.shape[-1])
        raw_buf[slots] = raw[rows]
        return picked, scaled_buf, raw_buf, programs
`,
      ['picked', 'scaled_buf', 'raw_buf', 'programs'],
    );
    const scaleKinds = (name: string): string[] => (v.get(name)!.ops ?? []).flat().map((o) => o.kind);
    assert.deepEqual(scaleKinds('picked'), ['scale']);
    assert.equal(v.get('picked')!.role, 'query');
    assert.deepEqual(scaleKinds('scaled_buf'), ['scale']);
    assert.equal(v.get('scaled_buf')!.zeros, undefined);
    assert.deepEqual(scaleKinds('raw_buf'), []);
    assert.equal(v.get('raw_buf')!.zeros, true);
    // A learned parameter's initial `* 0.1` is no scale of the rows gathered from it.
    assert.deepEqual(scaleKinds('programs'), []);
  });

  it('view: a last size bound to a product (N = H * W) is a flattened grid, so a projection no longer has its features last', async () => {
    const v = await valuesOf(
      `import torch.nn as nn
class A(nn.Module):
    def __init__(self, c, nh):
        super().__init__()
        self.q_proj = nn.Linear(c, c)
        self.nh = nh
    def forward(self, x):
        B, C, H, W = x.shape
        N = H * W
        T = N
        grid = self.q_proj(x).view(B, self.nh, C // self.nh, N)
        tokens = self.q_proj(x).view(B, self.nh, T, C // self.nh)
        return grid, tokens
`,
      ['grid', 'tokens'],
    );
    assert.equal(v.get('grid')!.featLast, undefined);
    assert.equal(v.get('tokens')!.featLast, true);
  });

  it('q @ kᵀ: keys transposed with positive indices give their rank, and the query shares a known rank of 3 or more', async () => {
    const v = await valuesOf(
      `import torch
def f(q, k, table, x):
    four = torch.matmul(q, k.transpose(2, 3))
    three = q @ k.permute(0, 2, 1)
    unknown = q @ k.transpose(-2, -1)
    shared = x @ table.transpose(0, 1)
    return four, three, unknown, shared
`,
      ['four', 'three', 'unknown', 'shared'],
    );
    assert.equal(v.get('four')!.ndim, 4);
    assert.equal(v.get('three')!.ndim, 3);
    assert.equal(v.get('unknown')!.ndim, undefined);
    assert.equal(v.get('shared')!.ndim, undefined, 'a 2-D table of keys says nothing of the rank of x');
  });

  it('b, t, d, h = *x.shape, heads: the starred shape gives x its rank and each name its axis', async () => {
    const v = await valuesOf(
      `import torch
def f(x, heads):
    b, t, d, h = *x.shape, heads
    y = x
    return b, t, d, h, y
`,
      ['d', 'y'],
    );
    assert.equal(v.get('y')!.ndim, 3);
    assert.equal(v.get('d')!.dimPow?.dim.lastAxisOf, true);
  });

  it('ones_like(x) * c is a tensor filled with c (a fill value, as full_like(x, c) gives)', async () => {
    const v = await valuesOf(
      `import torch
def f(scores, m):
    neg = torch.ones_like(scores) * -1e9
    pos = 1e-9 * torch.ones_like(scores)
    scaled = m * -1e9
    return neg, pos, scaled
`,
      ['neg', 'pos', 'scaled'],
    );
    assert.equal(v.get('neg')!.fillValue, -1e9);
    assert.equal(v.get('pos')!.fillValue, 1e-9);
    assert.equal(v.get('scaled')!.fillValue, undefined);
  });

  it('reduction: keepdim / keepdims / keep_dims, and torch.max over a dim returning (values, indices)', async () => {
    const v = await valuesOf(
      `import torch
import numpy as np
import tensorflow as tf
def f(x):
    B, T, D = x.shape
    a = x.sum(dim=-1, keepdim=True)
    b = x.sum(-1)
    c = np.mean(x, axis=1, keepdims=True)
    d = tf.reduce_sum(x, axis=-1, keep_dims=True)
    e = x.max(dim=-1)
    g = x.amax(dim=-1, keepdim=True)
    return a, b, c, d, e, g
`,
      ['a', 'b', 'c', 'd', 'e', 'g'],
    );
    assert.deepEqual([v.get('a')!.ndim, v.get('a')!.axes![2]], [3, { size1: true }]);
    assert.equal(v.get('b')!.ndim, 2);
    assert.deepEqual(v.get('c')!.axes![1], { size1: true });
    assert.deepEqual([v.get('d')!.ndim, v.get('d')!.axes![2]], [3, { size1: true }]);
    assert.equal(v.get('e')!.ndim, undefined, 'torch max over a dim is a (values, indices) pair');
    assert.equal(v.get('e')!.reduced?.kind, 'max');
    assert.deepEqual(v.get('g')!.axes![2], { size1: true });
  });

  it('nn.Parameter(torch.randn(d, 1)) keeps its length-1 column through x @ w', async () => {
    const v = await valuesOf(
      `import torch
import torch.nn as nn
class P(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.w = nn.Parameter(torch.randn(d, 1))
    def forward(self, x):
        s = torch.tanh(x) @ self.w
        return s
`,
      ['s'],
    );
    assert.equal(v.get('s')!.lastSize1, true);
  });

  it('expand_dims(x, -1) / unsqueeze(-1) of a value of unknown rank end in a length-1 axis; expand, repeat, tile, concat and F.pad resize it', async () => {
    const v = await valuesOf(
      `import tensorflow as tf
import torch
import torch.nn.functional as F
def f(logits, x, y, S):
    a = tf.expand_dims(logits, -1)
    b = x.unsqueeze(-1)
    c = x.unsqueeze(-1).expand(-1, -1, S)
    d = x.unsqueeze(-1).repeat(1, 1, S)
    e = tf.tile(tf.expand_dims(logits, -1), [1, 1, S])
    g = torch.cat([x.unsqueeze(-1), y.unsqueeze(-1)], dim=-1)
    h = F.pad(x.unsqueeze(-1), (0, 1))
    return a, b, c, d, e, g, h
`,
      ['a', 'b', 'c', 'd', 'e', 'g', 'h'],
    );
    assert.equal(v.get('a')!.lastSize1, true);
    assert.equal(v.get('b')!.lastSize1, true);
    for (const name of ['c', 'd', 'e', 'g', 'h']) {
      const t = v.get(name)!;
      assert.ok(
        !t.lastSize1 && !(t.axes ?? []).some((ax) => ax.size1 && t.axes!.indexOf(ax) === t.axes!.length - 1),
        `${name}: last axis not known to be of length 1`,
      );
    }
  });

  it("elementwise activations called as functions keep their input's layout, and a length-1 last axis of unknown rank", async () => {
    const v = await valuesOf(
      `import tensorflow as tf
import torch
import torch.nn.functional as F
def f(x, y, B, T, D):
    h = x.view(B, T, D)
    a = tf.nn.relu(h)
    b = F.leaky_relu(h, 0.2)
    c = F.silu(h)
    d = torch.tanh(y.unsqueeze(-1))
    e = F.gelu(y.unsqueeze(-1))
    return a, b, c, d, e
`,
      ['a', 'b', 'c', 'd', 'e'],
    );
    for (const name of ['a', 'b', 'c']) assert.equal(v.get(name)!.ndim, 3, name);
    assert.equal(v.get('d')!.lastSize1, true);
    assert.equal(v.get('e')!.lastSize1, true);
  });

  it('view(*shape) in a helper whose *shape parameter the call fills: one axis per extra argument', async () => {
    const v = await valuesOf(
      `import torch
def split(x, *shape):
    return x.view(*shape).transpose(1, 2)
def passthrough(x, *shape):
    return x.view(*shape)
def f(B, T, H, hd, dims):
    x = torch.randn(B, T, H * hd)
    q = split(x, B, T, H, hd)
    r = passthrough(x, *dims)
    return q, r
`,
      ['q', 'r'],
    );
    assert.equal(v.get('q')!.ndim, 4);
    // A call that splats its own sizes: their number is not known.
    assert.equal(v.get('r')!.ndim, undefined);
  });

  it('stack adds an axis at dim that counts the pieces (not of length 1); a list built by appends is its pieces', async () => {
    const v = await valuesOf(
      `import torch
def f(a, b, heads, B, T, C):
    x = a.view(B, T)
    y = b.view(B, T)
    s0 = torch.stack([x, y])
    s1 = torch.stack([x, y], dim=-1)
    parts = []
    for h in heads:
        parts.append(h.view(B, T, C))
    s2 = torch.stack(parts, 1)
    c0 = torch.cat([x, y], dim=-1)
    return s0, s1, s2, c0
`,
      ['s0', 's1', 's2', 'c0'],
    );
    assert.equal(v.get('s0')!.ndim, 3);
    assert.equal(v.get('s1')!.ndim, 3);
    assert.deepEqual(v.get('s1')!.axes![2], {});
    assert.equal(v.get('s1')!.lastSize1, undefined);
    assert.equal(v.get('s2')!.ndim, 4);
    assert.equal(v.get('c0')!.ndim, 2);
  });

  it("B, T, C = x.shape names x's first axis the batch; cat keeps the labels its pieces agree on, and no length 1 on the joined axis", async () => {
    const v = await valuesOf(
      `import torch
def f(hid, enc, img):
    B, T, H = enc.shape
    N, C, W = img.shape
    r = hid.unsqueeze(1).repeat(1, T, 1)
    joined = torch.cat([r, enc], dim=2)
    ones = torch.cat([img.view(N, C, 1), img.view(N, C, 1)], dim=-1)
    return enc, img, joined, ones
`,
      ['enc', 'img', 'joined', 'ones'],
    );
    assert.equal(v.get('enc')!.axes![0].label, 'batch');
    assert.equal(v.get('img')!.axes?.[0]?.label, undefined, 'N is not a batch name');
    assert.equal(v.get('joined')!.axes![0].label, 'batch');
    assert.equal(v.get('ones')!.axes![2].size1, undefined, 'two length-1 pieces joined on that axis make length 2');
  });

  it('expand / repeat keep the facts of the axes they do not resize', async () => {
    const v = await valuesOf(
      `def f(s, enc):
    B, T, H = enc.shape
    B2, H2 = s.shape
    a = s.unsqueeze(1).expand(-1, T, -1)
    b = s.unsqueeze(1).repeat(1, T, 1)
    return a, b
`,
      ['a', 'b'],
    );
    // The length-1 axis expanded to T holds copies of one slice.
    assert.deepEqual(v.get('a')!.axes, [{}, { repeated: true }, {}]);
    assert.equal(v.get('a')!.ndim, 3);
    assert.equal(v.get('b')!.ndim, 3);
    assert.equal(v.get('b')!.axes![1].size1, undefined, 'the repeated axis is no longer of length 1');
  });

  it('split / chunk keep the rank; unbind drops the axis and counts its pieces', async () => {
    const v = await valuesOf(
      `def f(x, B, T, H, D):
    packed = x.reshape(B, T, 2, H, D)
    k, v = packed.unbind(2)
    a, b = x.reshape(B, T, H * D).chunk(2, dim=-1)
    return k, v, a, b
`,
      ['k', 'v', 'a', 'b'],
    );
    assert.deepEqual([v.get('k')!.ndim, v.get('k')!.role], [4, 'key']);
    assert.equal(v.get('v')!.ndim, 4);
    assert.equal(v.get('a')!.ndim, 3);
    assert.equal(v.get('a')!.axes![2].sizeText, undefined, 'the split axis changes size');
  });

  it('flatten / unflatten / movedim read their dims from the call', async () => {
    const v = await valuesOf(
      `import torch
def f(q, k, B, H):
    B_, H_, L, D = q.shape
    B2, H2, S, D2 = k.shape
    s = q @ k.transpose(-2, -1)
    flat = s.flatten(0, 1)
    back = flat.unflatten(0, (B, H))
    moved = s.movedim(-1, 1)
    return flat, back, moved
`,
      ['s', 'flat', 'back', 'moved'],
    );
    assert.deepEqual(keyQuery(v.get('s')!), [-1, -2]);
    assert.deepEqual([v.get('flat')!.ndim, ...keyQuery(v.get('flat')!)], [3, -1, -2]);
    assert.deepEqual([v.get('back')!.ndim, ...keyQuery(v.get('back')!)], [4, -1, -2]);
    assert.deepEqual(labels(v.get('back')!).slice(0, 2), ['batch', 'head']);
    assert.deepEqual(keyQuery(v.get('moved')!), [-3, -1]);
  });

  it('matmul and einsum name the query and key axes of the scores', async () => {
    const v = await valuesOf(
      `import torch
def f(q, k):
    left = k @ q.transpose(-2, -1)
    e = torch.einsum("bqhd,bkhd->bhkq", q, k)
    return left, e
`,
      ['left', 'e'],
    );
    assert.deepEqual(keyQuery(v.get('left')!), [-2, -1]);
    assert.deepEqual(keyQuery(v.get('e')!), [-2, -1]);
  });

  it('keys @ one learned query: a vector moves the key axis last, a length-1 column keeps it at -2 only when the layout says so', async () => {
    const v = await valuesOf(
      `import torch
from torch import nn
class Pool(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.key = nn.Linear(d, d)
        self.query = nn.Parameter(torch.randn(d))
        self.query_column = nn.Parameter(torch.randn(d, 1))
    def forward(self, x, keys):
        B, S, D = keys.shape
        vector = torch.matmul(keys, self.query)
        column = keys @ self.query_column
        k = self.key(x)  # (S, B, d)
        seq_first = k @ self.query_column
        k_view = self.key(x).view(x.size(0), x.size(1), -1)
        unlabelled = k_view @ self.query_column
        left = self.query @ keys.transpose(1, 2)
        return vector, column, seq_first, unlabelled, left
`,
      ['vector', 'column', 'seq_first', 'unlabelled', 'left'],
    );
    assert.deepEqual([v.get('vector')!.ndim, ...keyQuery(v.get('vector')!)], [2, -1, undefined]);
    assert.deepEqual([v.get('column')!.ndim, ...keyQuery(v.get('column')!)], [3, -2, -1]);
    // (S, B, d) @ (d, 1): the rows are the batch, so the keys are the sequence axis S; unlabelled rows tell nothing.
    assert.deepEqual(labels(v.get('seq_first')!), [undefined, 'batch', undefined]);
    assert.deepEqual(keyQuery(v.get('seq_first')!), [-3, -1]);
    assert.deepEqual(keyQuery(v.get('unlabelled')!), [undefined, -1]);
    // A query vector on the left loses its row: the keys are the last axis and there is no query axis.
    assert.deepEqual([v.get('left')!.ndim, ...keyQuery(v.get('left')!)], [2, -1, undefined]);
  });

  it('singleQueryKeyAxis puts the keys on the one sequence axis when the rows of (S, B, d) @ (d, 1) are the batch', () => {
    const keys = tensor({ ndim: 3, axes: [{ label: 'seq' }, { label: 'batch' }, { label: 'feat' }] });
    const column = tensor({ ndim: 2, axes: [{ label: 'feat' }, { size1: true }] });
    assert.deepEqual(singleQueryKeyAxis(keys, column, matmulLayout(keys, column)), { keyAxis: -3, queryAxis: -1 });
    // Batch-first keys and many queries keep the rows.
    const batchFirst = tensor({ ndim: 3, axes: [{ label: 'batch' }, {}, { label: 'feat' }] });
    assert.equal(singleQueryKeyAxis(batchFirst, column, matmulLayout(batchFirst, column)), 'rows');
    const many = tensor({ ndim: 3, axes: [{ label: 'batch' }, { label: 'feat' }, { label: 'seq' }] });
    assert.equal(singleQueryKeyAxis(keys, many, matmulLayout(keys, many)), 'rows');
  });

  it('indexing and view keep the key and query axes when the last axes stay', async () => {
    const v = await valuesOf(
      `def f(q, k):
    B, H, L, D = q.shape
    B2, H2, S, D2 = k.shape
    s = q @ k.transpose(-2, -1)
    first = s[0]
    viewed = s.view(B * H, L, S)
    merged = s.view(B, H, L * S)
    return first, viewed, merged
`,
      ['first', 'viewed', 'merged'],
    );
    assert.deepEqual(keyQuery(v.get('first')!), [-1, -2]);
    assert.deepEqual(keyQuery(v.get('viewed')!), [-1, -2]);
    assert.deepEqual(keyQuery(v.get('merged')!), [undefined, undefined]);
  });

  it('a broadcast product of queries and keys summed over the features is the scores (query and key axes from the length-1 axes)', async () => {
    const v = await valuesOf(
      `def f(q, k):
    B, T, D = q.shape
    B2, S, D2 = k.shape
    prod = q[:, :, None] * k[:, None, :]
    s = prod.sum(-1)
    kept = prod.sum(dim=-1, keepdim=True)
    return s, kept
`,
      ['prod', 's', 'kept'],
    );
    assert.deepEqual([v.get('prod')!.pairwise?.queryAxis, v.get('prod')!.pairwise?.keyAxis], [-3, -2]);
    assert.equal(v.get('prod')!.attn, undefined, 'not scores until summed over the features');
    assert.deepEqual([v.get('s')!.ndim, v.get('s')!.attn?.stage, ...keyQuery(v.get('s')!)], [3, 'scores', -1, -2]);
    assert.deepEqual(keyQuery(v.get('kept')!), [-2, -3]);
  });

  it("additive pairs (tanh(q' + k') projected to one feature, squeezed) are the scores, with an opaque scale", async () => {
    const v = await valuesOf(
      `import torch
import torch.nn as nn
class A(nn.Module):
    def __init__(self, d, hidden):
        super().__init__()
        self.w_q = nn.Linear(d, hidden)
        self.w_k = nn.Linear(d, hidden)
        self.v = nn.Linear(hidden, 1)
    def forward(self, query, key):
        B, T, _ = query.shape
        B2, S, _ = key.shape
        energy = torch.tanh(self.w_q(query).unsqueeze(2) + self.w_k(key).unsqueeze(1))
        swapped = energy.transpose(1, 2)
        scores = self.v(energy).squeeze(-1)
        return scores, swapped
`,
      ['energy', 'swapped', 'scores'],
    );
    assert.deepEqual([v.get('energy')!.pairwise?.queryAxis, v.get('energy')!.pairwise?.keyAxis, v.get('energy')!.pairwise?.additive], [-3, -2, true]);
    assert.deepEqual([v.get('swapped')!.pairwise?.queryAxis, v.get('swapped')!.pairwise?.keyAxis], [-2, -3]);
    const scores = v.get('scores')!;
    assert.deepEqual([scores.ndim, scores.attn?.stage, ...keyQuery(scores)], [3, 'scores', -1, -2]);
    assert.deepEqual(
      scores.ops?.map((alt) => alt.map((o) => o.kind)),
      [['opaque']],
    );
    assert.equal(scores.role, undefined, 'not the values, whatever the projection is called');
  });

  it('a parameter whose shape is unpacked is a tensor, whatever its name (`B, T, C = h.shape`)', async () => {
    const v = await valuesOf(
      `def f(h):
    B, T, C = h.shape
    y = h
    return y
`,
      ['y'],
    );
    assert.deepEqual([v.get('y')!.kind, v.get('y')!.ndim], ['tensor', 3]);
  });

  it('tf.multiply / torch.mul of a weight of unknown rank and a tensor of known rank: the layout of the tensor, as `p * x`', async () => {
    const v = await valuesOf(
      `import tensorflow as tf
import torch
def f(x, weights, w):
    h = tf.reshape(x, [-1, 6, 4])
    a = tf.multiply(weights['p'], h)
    b = tf.reduce_sum(a, 2, keep_dims=True)
    c = torch.mul(weights['w'], h)
    d = weights['p'] * h
    e = torch.mul(h, w)
    g = h * w
    return a, b, c, d, e, g
`,
      ['a', 'b', 'c', 'd', 'e', 'g'],
    );
    assert.equal(v.get('a')!.ndim, 3);
    assert.deepEqual([v.get('b')!.ndim, v.get('b')!.axes![2]], [3, { size1: true }]);
    assert.equal(v.get('c')!.ndim, 3);
    assert.deepEqual([v.get('e')!.ndim, v.get('e')!.axes], [v.get('g')!.ndim, v.get('g')!.axes]);
    assert.deepEqual(v.get('a')!.axes, v.get('d')!.axes, 'the function and the operator agree');
  });

  it("einsum records each operand's batch axes (in both operands and the output): b and h of 'bsh,bshd->bhd' and of 'bhij,bhjd->bhid', none of 'bhij,hk->bkij'", async () => {
    const src = `import torch
def f(x, v, w):
    a = torch.softmax(x, dim=-1)
    o1 = torch.einsum('bsh,bshd->bhd', a, v)
    o2 = torch.einsum('bhij,bhjd->bhid', a, v)
    o3 = torch.einsum('bhij,hk->bkij', a, w)
    return o1, o2, o3
`;
    const parser = await createPythonParser(grammar());
    const tree = parser.parse(src, { full: true });
    const ev = new Evaluator(tree, analyseScopes(tree));
    ev.run();
    const kept = ev.facts.matmul.map((m) => [m.contractA, m.keptA, m.keptB]);
    assert.deepEqual(kept, [
      [-2, [-3, -1], [-4, -2]],
      [-1, [-4, -3], [-4, -3]],
      [-3, [], []],
    ]);
  });

  it('recurrent layers: nn.LSTM / nn.GRU outputs are (T, B, H), (B, T, H) with batch_first=True, h_n (layers*dirs, B, H)', async () => {
    const v = await valuesOf(
      `import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence
class Enc(nn.Module):
    def __init__(self, d, h, bf):
        super().__init__()
        self.lstm = nn.LSTM(d, h)
        self.gru = nn.GRU(d, h, batch_first=True, bidirectional=True)
        self.rnn = nn.RNN(d, h, 1, True, True)
        self.unknown = nn.GRU(d, h, batch_first=bf)
    def forward(self, x, lengths):
        tm, (hn, cn) = self.lstm(x)
        bm, hg = self.gru(x)
        pos, _ = self.rnn(x)
        unk, _ = self.unknown(x)
        packed, _ = self.gru(pack_padded_sequence(x, lengths, batch_first=True))
        padded, lens = pad_packed_sequence(packed, batch_first=True)
        padded_tm, _ = pad_packed_sequence(packed)
        return tm, hn, cn, bm, hg, pos, unk, padded, padded_tm, packed
`,
      ['tm', 'hn', 'cn', 'bm', 'hg', 'pos', 'unk', 'padded', 'padded_tm', 'packed'],
    );
    const labelsOf = (name: string): (string | undefined)[] | undefined => v.get(name)!.axes?.map((a) => a.label);
    assert.deepEqual(labelsOf('tm'), ['seq', 'batch', 'feat']);
    assert.deepEqual(labelsOf('hn'), [undefined, 'batch', 'feat']);
    assert.deepEqual(labelsOf('cn'), [undefined, 'batch', 'feat']);
    assert.deepEqual(labelsOf('bm'), ['batch', 'seq', 'feat']);
    assert.deepEqual(labelsOf('hg'), [undefined, 'batch', 'feat'], 'h_n is (layers*dirs, B, H) whatever batch_first says');
    assert.deepEqual(labelsOf('pos'), ['batch', 'seq', 'feat'], 'batch_first as the fifth positional argument');
    assert.deepEqual(labelsOf('unk'), [undefined, undefined, 'feat'], 'a batch_first the file does not settle');
    assert.deepEqual(labelsOf('padded'), ['batch', 'seq', 'feat']);
    assert.deepEqual(labelsOf('padded_tm'), ['seq', 'batch', 'feat']);
    assert.equal(v.get('packed')!.ndim, undefined, 'run on a PackedSequence: no layout');
  });

  it('recurrent layers: Keras LSTM / GRU with return_sequences, return_state, time_major and Bidirectional', async () => {
    const v = await valuesOf(
      `from tensorflow.keras import layers
def f(x, flag):
    seq = layers.LSTM(32, return_sequences=True)(x)
    last = layers.GRU(32)(x)
    tmaj = layers.LSTM(32, return_sequences=True, time_major=True)(x)
    out, h, c = layers.LSTM(32, return_sequences=True, return_state=True)(x)
    bi = layers.Bidirectional(layers.LSTM(32, return_sequences=True))(x)
    unk = layers.LSTM(32, return_sequences=flag)(x)
    return seq, last, tmaj, out, h, c, bi, unk
`,
      ['seq', 'last', 'tmaj', 'out', 'h', 'c', 'bi', 'unk'],
    );
    const labelsOf = (name: string): (string | undefined)[] | undefined => v.get(name)!.axes?.map((a) => a.label);
    assert.deepEqual(labelsOf('seq'), ['batch', 'seq', 'feat']);
    assert.deepEqual(labelsOf('last'), ['batch', 'feat']);
    assert.deepEqual(labelsOf('tmaj'), ['seq', 'batch', 'feat']);
    assert.deepEqual(
      [labelsOf('out'), labelsOf('h'), labelsOf('c')],
      [
        ['batch', 'seq', 'feat'],
        ['batch', 'feat'],
        ['batch', 'feat'],
      ],
    );
    assert.deepEqual(labelsOf('bi'), ['batch', 'seq', 'feat']);
    assert.equal(v.get('unk')!.ndim, undefined);
  });
});
