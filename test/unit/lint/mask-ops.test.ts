// The mask lattice's transfer functions (analysis/mask-ops.ts, masks.ts, kv-cache.ts): a small program in,
// the abstract value of one expression out, compared with what PyTorch computes for it (which entries are 1,
// which side of the diagonal, which corner a causal mask starts from).
import { strict as assert } from 'node:assert';
import { Evaluator } from '../../../src/lint/analysis/evaluator';
import { truthWithCache, type FlagReader } from '../../../src/lint/analysis/kv-cache';
import { namesAMask } from '../../../src/lint/analysis/mask-ops';
import { maskMeaning, topLeftRectangle } from '../../../src/lint/analysis/masks';
import { analyseScopes } from '../../../src/lint/analysis/scopes';
import type { AValue } from '../../../src/lint/analysis/values';
import { createPythonParser } from '../../../src/lint/parser';
import { walk, type PyNode } from '../../../src/lint/syntax/tree';
import { grammar } from './helpers';

interface Program {
  readonly ev: Evaluator;
  readonly src: string;
  /** The last node whose text is `exprText` (a read, not the assignment's target). */
  node(exprText: string): PyNode;
  value(exprText: string): AValue;
}

async function program(src: string): Promise<Program> {
  const parser = await createPythonParser(grammar());
  const tree = parser.parse(src, { full: true });
  const sr = analyseScopes(tree);
  const ev = new Evaluator(tree, sr);
  ev.run();
  const node = (exprText: string): PyNode => {
    let last: PyNode | undefined;
    walk(tree.root, (n) => {
      if (src.slice(n.start, n.end) === exprText && n.type !== 'expression_statement') last = n;
    });
    assert.ok(last, `${exprText} not found`);
    return last;
  };
  return {
    ev,
    src,
    node,
    value(exprText) {
      const n = node(exprText);
      const scope = [...sr.scopes].reverse().find((s) => s.node.start <= n.start && n.end <= s.node.end && s.kind !== 'comprehension') ?? sr.module;
      return ev.eval(n, ev.defaultCtx(scope));
    },
  };
}

/** The value of the expression after `return` in a one-function program. */
async function valueOf(body: string, expr: string, params = 'x, ids, pad_id, lengths, T, S, L, d, mask'): Promise<AValue> {
  const p = await program(
    `import torch\n\ndef f(${params}):\n${body
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n')}\n    return ${expr}\n`,
  );
  return p.value(expr);
}

const polarity = (v: AValue): string => maskMeaning(v.mask).polarity;

describe('mask lattice: comparisons', () => {
  it('`ids == pad_id` is True at padding (ignore); `!=` at real tokens (keep)', async () => {
    assert.equal(polarity(await valueOf('m = ids == pad_id', 'm')), 'ignore');
    assert.equal(polarity(await valueOf('m = ids != pad_id', 'm')), 'keep');
  });
  it('`.eq(0)`, `.data.eq(0)` and `.ne(0)` of token ids', async () => {
    assert.equal(polarity(await valueOf('m = ids.eq(0)', 'm')), 'ignore');
    assert.equal(polarity(await valueOf('m = ids.data.eq(0)', 'm')), 'ignore');
    assert.equal(polarity(await valueOf('m = ids.ne(0)', 'm')), 'keep');
  });
  it('token ids against the padding id 0 by order: `ids > 0` keeps, `ids < 1` ignores; other tensors say nothing', async () => {
    assert.equal(polarity(await valueOf('m = ids > 0', 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = ids.gt(0)', 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = 0 < ids', 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = ids < 1', 'm')), 'ignore');
    assert.equal(polarity(await valueOf('m = x > 0', 'm')), 'unknown');
  });
  it('positions against lengths: `arange(S)[None, :] < lengths[:, None]` keeps, `>=` ignores', async () => {
    assert.equal(polarity(await valueOf('m = torch.arange(S)[None, :] < lengths[:, None]', 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = torch.arange(S)[None, :] >= lengths[:, None]', 'm')), 'ignore');
    assert.equal(polarity(await valueOf('m = lengths[:, None] > torch.arange(S)[None, :]', 'm')), 'keep');
  });
  it('positions against lengths in the forms data code writes them: expand, unsqueeze, `.lt`/`.ge`, through a conversion into an array', async () => {
    assert.equal(polarity(await valueOf('m = torch.arange(S).expand(x.shape[0], S) < lengths.unsqueeze(1)', 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = torch.arange(S).unsqueeze(0).lt(lengths.unsqueeze(1))', 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = torch.arange(S).unsqueeze(0).ge(lengths.unsqueeze(1))', 'm')), 'ignore');
    assert.equal(polarity(await valueOf('m = torch.arange(S)[None, :] < torch.tensor(lengths)[:, None]', 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = torch.arange(S)[None, :] >= torch.as_tensor(lengths, device=x.device).unsqueeze(1)', 'm')), 'ignore');
    assert.equal(polarity(await valueOf('import numpy as np\nm = np.arange(S)[None, :] < np.asarray(lengths)[:, None]', 'm')), 'keep');
    // A conversion of something that is not lengths says nothing.
    assert.equal(polarity(await valueOf('m = torch.arange(S)[None, :] < torch.tensor(x)[:, None]', 'm')), 'unknown');
  });
  it('positions against positions: `arange(T)[:, None] >= arange(T)[None, :]` is a lower (keep) triangle', async () => {
    const v = await valueOf('i = torch.arange(T)\nm = i[:, None] >= i[None, :]', 'm');
    assert.deepEqual([polarity(v), v.mask?.tri], ['keep', { region: 'lower', k: 0 }]);
  });
  it('carried positions spread over the query and key axes and ordered: key after query ignores, key before keeps', async () => {
    const params = 'x, q_pos, k_pos, seg, mask';
    for (const [expr, expected] of [
      ['q_pos[:, :, None] < k_pos[:, None, :]', 'ignore'],
      ['q_pos[..., :, None] <= k_pos[..., None, :]', 'ignore'],
      ['k_pos[:, None, :] > q_pos[:, :, None]', 'ignore'],
      ['q_pos[:, :, None] >= k_pos[:, None, :]', 'keep'],
      ['k_pos.unsqueeze(-2) <= q_pos.unsqueeze(-1)', 'keep'],
      ['seg[:, None, :] <= seg[:, :, None]', 'keep'],
    ])
      assert.equal(polarity(await valueOf(`m = ${expr}`, 'm', params)), expected, expr);
  });
  it('ordered values not spread across the two axes, or masks compared so, are no positions', async () => {
    const params = 'x, q_pos, k_pos, seg, mask';
    for (const expr of [
      'q_pos[:, :, None] < k_pos[:, :, None]',
      'q_pos < k_pos',
      'q_pos[:, None] == k_pos[None, :]',
      '(mask > 0)[:, :, None] < mask[:, None, :]',
    ])
      assert.equal(polarity(await valueOf(`m = ${expr}`, 'm', params)), 'unknown', expr);
  });
});

describe('mask lattice: coarsening and choices', () => {
  it('`any`/`all` over a blocks axis keep the meaning of a padding mask, for either polarity', async () => {
    for (const red of ['m.view(2, -1, 4).any(dim=-1)', 'm.view(2, -1, 4).all(-1)', 'torch.any(m.view(2, -1, 4), dim=-1)']) {
      assert.equal(polarity(await valueOf('m = ids != pad_id', red)), 'keep', red);
      assert.equal(polarity(await valueOf('m = ids == pad_id', red)), 'ignore', red);
    }
  });
  it('`any()` of a whole mask is a truth value, not a mask', async () => {
    assert.equal(polarity(await valueOf('m = ids != pad_id', 'm.any()')), 'unknown');
  });
  it('a choice between an all-True boolean mask and an identity is a keep mask; the identity alone, or all ones as floats, says nothing', async () => {
    const all = 'a = torch.ones(T, T, dtype=torch.bool)\ne = torch.eye(T, dtype=torch.bool)';
    assert.equal(polarity(await valueOf(all, 'torch.where(mask[:, None, None], e, a)')), 'keep');
    assert.equal(polarity(await valueOf(all, 'e')), 'unknown');
    assert.equal(polarity(await valueOf('a = torch.ones(T, T)\ne = torch.eye(T)', 'torch.where(mask[:, None, None], e, a)')), 'unknown');
  });
  it('a mask known only by its name stays a mask (of unknown meaning) when coarsened, so its block product is still a keep mask', async () => {
    assert.equal(polarity(await valueOf('c = torch.any(mask.view(2, -1, 4), dim=-1)', 'c')), 'unknown');
    assert.ok((await valueOf('c = torch.any(mask.view(2, -1, 4), dim=-1)', 'c')).mask);
    assert.equal(polarity(await valueOf('c = mask.view(2, -1, 4).any(-1)', 'c[..., :, None] & c[..., None, :]')), 'keep');
    const blocks = 'from einops import rearrange\nc = mask.view(2, -1, 4).any(-1)';
    assert.equal(polarity(await valueOf(blocks, "rearrange(c, '... n -> ... n ()') * rearrange(c, '... n -> ... () n')")), 'keep');
    // A causal mask's last axis is not spread so (its last two axes are already the pair): the product stays the
    // causal mask's and of itself, not a pair of padding positions.
    const tri = 'from einops import rearrange\nc = torch.ones(T, T, dtype=torch.bool).tril()';
    const product = await valueOf(tri, "rearrange(c, '... n -> ... n ()') * rearrange(c, '... n -> ... () n')");
    assert.deepEqual([product.mask?.causal, product.mask?.padAxes], [true, undefined]);
  });
  it('a query mask times a key mask (the key side flipped or rolled) is a keep mask; not when either is True at padding by construction', async () => {
    const params = 'x, ids, pad_id, q_mask, k_mask, mask';
    assert.equal(polarity(await valueOf('p = q_mask[:, :, None] * k_mask.flip(-1)[:, None, :]', 'p', params)), 'keep');
    assert.equal(polarity(await valueOf('p = q_mask[:, :, None] & torch.roll(k_mask, 1, -1)[:, None, :]', 'p', params)), 'keep');
    assert.equal(polarity(await valueOf('pad = ids == pad_id\np = q_mask[:, :, None] * pad[:, None, :]', 'p', params)), 'unknown');
  });
  it("flip and roll keep a padding mask's meaning; a flipped triangle is no causal mask", async () => {
    assert.equal(polarity(await valueOf('m = ids == pad_id', 'm.flip(-1)')), 'ignore');
    assert.equal(polarity(await valueOf('m = ids != pad_id', 'torch.roll(m, 1, -1)')), 'keep');
    assert.equal(polarity(await valueOf('m = torch.triu(torch.ones(T, T, dtype=torch.bool), 1)', 'm.flip(-1)')), 'unknown');
  });
  it('a mask redefined from itself in a loop keeps its meaning when every step keeps it, and loses it when a step flips it', async () => {
    const keep = 'm = ids != pad_id\nfor _ in range(3):\n    m = torch.any(m.view(2, -1, 2), dim=-1)';
    assert.equal(polarity(await valueOf(keep, 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = ids != pad_id\nfor _ in range(3):\n    m = ~m', 'm')), 'unknown');
    // Over two statements (the first definition read in the loop is computed from the one after it).
    const twoSteps = 'm = ids != pad_id\nfor _ in range(3):\n    m = m.view(2, -1, 2)\n    m = m.any(dim=-1)';
    assert.equal(polarity(await valueOf(twoSteps, 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = ids != pad_id\nfor _ in range(3):\n    m = m.view(2, -1, 2)\n    m = ~m', 'm')), 'unknown');
  });
  it("the items of a list of tuples iterated through enumerate(reversed(...)) are unpacked like the list's own", async () => {
    const levels =
      'levels = [(x, ids != pad_id)]\nfor _ in range(2):\n    levels.append((x, ids != pad_id))\nfor i, (h, m) in enumerate(reversed(levels)):\n    pass';
    assert.equal(polarity(await valueOf(levels, 'm')), 'keep');
    const pairs = 'levels = [(x, ids != pad_id)]\nfor pair in enumerate(levels):\n    pass';
    assert.equal((await valueOf(pairs, 'pair')).mask, undefined);
  });
  it('a choice between an all-True mask and a mask True at padding says nothing', async () => {
    assert.equal(polarity(await valueOf('a = torch.ones(T, T, dtype=torch.bool)\np = ids == pad_id', 'torch.where(mask[:, None, None], p, a)')), 'unknown');
  });
});

describe('mask lattice: negation and dtype changes', () => {
  for (const [expr, expected] of [
    ['~pad', 'keep'],
    ['pad.logical_not()', 'keep'],
    ['torch.logical_not(pad)', 'keep'],
    ['1 - pad.float()', 'keep'],
    ['pad == 0', 'keep'],
    ['pad.long() == 0', 'keep'],
    ['pad == 1', 'ignore'],
    ['pad.bool()', 'ignore'],
    ['pad.float()', 'ignore'],
    ['pad.to(torch.float16)', 'ignore'],
    ['~~pad', 'ignore'],
  ] as const) {
    it(`\`${expr}\` of a padding mask (True at padding) is ${expected}`, async () => {
      assert.equal(polarity(await valueOf('pad = ids == pad_id', expr)), expected);
    });
  }
  it('dtype conversions record the dtype', async () => {
    assert.equal((await valueOf('pad = ids == pad_id', 'pad.float()')).mask?.dtype, 'float');
    assert.equal((await valueOf('pad = ids == pad_id', '1 - pad.float()')).mask?.dtype, 'float');
  });
});

describe('mask lattice: elementwise max and min of 0/1 masks', () => {
  it('max of two masks of one polarity is their or, min their and: the polarity and the causal part survive', async () => {
    const body = 'pad = (ids == pad_id).float()\nfuture = torch.triu(torch.ones(T, T), diagonal=1)';
    for (const expr of ['torch.maximum(pad, future)', 'pad.maximum(future)', 'torch.minimum(pad, future)', 'torch.fmax(pad, future)']) {
      const v = await valueOf(body, expr);
      assert.equal(polarity(v), 'ignore', expr);
      assert.equal(v.mask?.causal, true, expr);
      assert.equal(v.mask?.padding, true, expr);
    }
  });
  it('tf.maximum of the tutorial masks (equal(seq, 0) and 1 - band_part(ones, -1, 0)) is True/1 at positions to ignore', async () => {
    const p = await program(`import tensorflow as tf

def masks(seq, tar):
    pad = tf.cast(tf.math.equal(seq, 0), tf.float32)[:, tf.newaxis, tf.newaxis, :]
    look_ahead = 1 - tf.linalg.band_part(tf.ones((tf.shape(tar)[1], tf.shape(tar)[1])), -1, 0)
    both = tf.maximum(pad, look_ahead)
    return both
`);
    assert.equal(polarity(p.value('both')), 'ignore');
  });
  it('max of a keep and an ignore mask, of an additive mask, or of a mask and a number says nothing about polarity', async () => {
    const body = 'pad = (ids == pad_id).float()\nkeep = (ids != pad_id).float()\nbias = torch.triu(torch.full((T, T), float("-inf")), diagonal=1)';
    assert.equal(polarity(await valueOf(body, 'torch.maximum(pad, keep)')), 'unknown');
    assert.notEqual(polarity(await valueOf(body, 'torch.maximum(bias, pad)')), 'ignore');
    assert.equal(polarity(await valueOf(body, 'torch.maximum(pad, torch.zeros_like(pad))')), 'unknown');
  });
});

describe('mask polarity stated by use: a function that fills where its mask parameter is True', () => {
  const fn = (fill: string, extra = '') =>
    `import torch\n\ndef f(q, k, mask):\n    dots = q @ k.transpose(-2, -1)\n${extra}    dots = dots.masked_fill(${fill})\n    return mask\n`;
  it('a large negative fill through indexing and shape ops states True = blocked (weak evidence, as a name is)', async () => {
    for (const fill of ['mask, float("-inf")', 'mask[:, None, None, :], -1e9', 'mask.unsqueeze(1).bool(), -torch.finfo(dots.dtype).max']) {
      const m = (await program(fn(fill))).value('mask').mask;
      assert.equal(m?.polarity, 'ignore', fill);
      assert.equal(m?.byName, true, fill);
    }
  });
  it('no statement: a fill with 0, an inverted fill, or both ways in one function', async () => {
    for (const [fill, extra] of [
      ['mask, 0.0', ''],
      ['~mask, float("-inf")', ''],
      ['mask, float("-inf")', '    dots = dots.masked_fill(mask == 0, 0.0)\n'],
    ]) {
      assert.equal((await program(fn(fill, extra))).value('mask').mask?.polarity, undefined, fill);
    }
  });
});

describe('mask polarity stated by use against a name: a keep-named parameter filled where True and inverted elsewhere', () => {
  const fn = (body: string) =>
    `import torch\nimport torch.nn.functional as F\n\ndef f(q, k, v, attention_mask, fast):\n    dots = q @ k.transpose(-2, -1)\n${body}    return attention_mask\n`;
  const fill = '    dots = dots.masked_fill(attention_mask[:, None, None, :], float("-inf"))\n';
  it('a fill where True and `~` / logical_not for SDPA agree: True = ignore, outweighing the name', async () => {
    for (const inverted of ['~attention_mask', 'attention_mask.logical_not()', 'torch.logical_not(attention_mask)']) {
      const body = `    if fast:\n        return F.scaled_dot_product_attention(q, k, v, ${inverted})\n${fill}`;
      assert.equal((await program(fn(body))).value('attention_mask').mask?.polarity, 'ignore', inverted);
    }
  });
  it('one use alone keeps the name (keep): the fill alone, the inversion alone, or the inversion inside the fill', async () => {
    for (const body of [
      fill,
      '    out = F.scaled_dot_product_attention(q, k, v, ~attention_mask)\n',
      '    dots = dots.masked_fill(~attention_mask, float("-inf"))\n',
    ]) {
      assert.equal((await program(fn(body))).value('attention_mask').mask?.polarity, 'keep', body);
    }
  });
});

describe('masks added to the scores', () => {
  const maskOps = (v: AValue): string[] => (v.ops ?? []).flatMap((alt) => alt.flatMap((o) => (o.kind === 'mask' ? [o.how] : [])));
  const scores = 'q = x\ns = q @ x.transpose(-2, -1)';
  it('a 0/1 mask known by construction is added as 0/1 (add01), whatever its dtype', async () => {
    assert.deepEqual(maskOps(await valueOf(`${scores}\nm = (ids != pad_id).float()[:, None, None, :]`, 's + m')), ['add01']);
    assert.deepEqual(maskOps(await valueOf(`${scores}\nm = (ids == pad_id)[:, None, None, :]`, 's + m')), ['add01']);
    const dflt = await valueOf(`${scores}\nif mask is None:\n    mask = torch.ones_like(ids)\nm = mask[:, None, None, :]`, 's + m');
    assert.deepEqual(maskOps(dflt), ['add01']);
  });
  it('an additive mask, and a mask known only by its name, are added as additive masks', async () => {
    assert.deepEqual(maskOps(await valueOf(`${scores}\nm = (1.0 - (ids != pad_id).float()) * -10000.0`, 's + m')), ['add']);
    assert.deepEqual(maskOps(await valueOf(scores, 's + attention_mask', 'x, ids, attention_mask')), ['add']);
  });
});

describe('mask lattice: shape ops keep polarity', () => {
  for (const expr of [
    'pad.unsqueeze(1).repeat_interleave(4, dim=0)',
    'pad.unsqueeze(1)',
    'pad[:, None, None, :]',
    'pad.unsqueeze(1).expand(-1, T, -1)',
    'pad.unsqueeze(1).repeat(1, T, 1)',
    'pad.view(-1, 1, 1, S)',
  ]) {
    it(`\`${expr}\` is still True at padding`, async () => {
      assert.equal(polarity(await valueOf('pad = ids.data.eq(0)', expr)), 'ignore');
    });
  }
  it('a mask returned by a helper of the same file keeps its polarity at the caller', async () => {
    const p = await program(`import torch

def pad_mask(seq_q, seq_k):
    b, lq = seq_q.size()
    b, lk = seq_k.size()
    m = seq_k.data.eq(0).unsqueeze(1)
    return m.expand(b, lq, lk)

def caller(ids):
    mask = pad_mask(ids, ids)
    return mask
`);
    assert.equal(polarity(p.value('mask')), 'ignore');
  });
});

describe('mask lattice: a padding mask spread over both axes', () => {
  for (const expr of [
    'mask[:, None, :, None] * mask[:, None, None, :]',
    "rearrange(mask, 'b i -> b () i ()') * rearrange(mask, 'b j -> b () () j')",
    'mask.unsqueeze(-1) & mask.unsqueeze(1)',
  ])
    it(`\`${expr}\` keeps a pair only where both positions are kept: keep, padded along queries and keys`, async () => {
      const v = await valueOf('from einops import rearrange', expr);
      assert.equal(polarity(v), 'keep');
      assert.deepEqual(v.mask?.padAxes, [-2, -1]);
      assert.equal(v.mask?.byName, undefined);
    });
  it('two different masks, or one placed twice on the same axis, are not a pair', async () => {
    assert.notEqual((await valueOf('', 'mask[:, None, :] * pad[:, :, None]', 'mask, pad')).mask?.padAxes?.length, 2);
    assert.equal(polarity(await valueOf('', 'mask[:, None, :] * mask[:, None, :]')), 'unknown');
  });
  it('a mask known to be True at padding is not read as keep by the product', async () => {
    assert.notEqual(polarity(await valueOf('pad = ids == pad_id', 'pad[:, None, :, None] * pad[:, None, None, :]')), 'keep');
  });
});

describe('None tests narrow what reaches a read', () => {
  const src = (cond: string) => `import torch

def exists(val):
    return val is not None

def f(mask=None):
    if ${cond}:
        mask = mask[:, None, :] * mask[:, :, None]
    if ${cond}:
        return mask
`;
  for (const cond of ['mask is not None', 'exists(mask)'])
    it(`after \`if ${cond}: mask = ...\` the parameter reaches a later read only as None`, async () => {
      const p = await program(src(cond));
      const reads = [...p.src.matchAll(/return mask/g)];
      assert.equal(reads.length, 1);
      assert.equal(polarity(p.value('mask')), 'keep');
    });
  it('another condition (`if training:`) narrows nothing', async () => {
    const p = await program(src('mask is not None').replace(/if mask is not None:\n        mask =/, 'if training:\n        mask ='));
    assert.equal(polarity(p.value('mask')), 'unknown');
  });
});

describe('mask lattice: triangles', () => {
  it('tril of ones keeps (on and below the diagonal), triu(…, 1) ignores the future', async () => {
    const lower = await valueOf('', 'torch.tril(torch.ones(T, T))');
    assert.deepEqual([polarity(lower), lower.mask?.tri, lower.mask?.align], ['keep', { region: 'lower', k: 0 }, 'top-left']);
    const upper = await valueOf('', 'torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)');
    assert.deepEqual([polarity(upper), upper.mask?.tri, upper.mask?.align], ['ignore', { region: 'upper', k: 1 }, 'top-left']);
  });
  it('a variable diagonal keeps the polarity without claiming the exact triangle', async () => {
    const v = await valueOf('', 'torch.triu(torch.ones_like(x), diagonal=d)');
    assert.equal(polarity(v), 'ignore');
    assert.equal(v.mask?.tri, undefined);
    assert.equal(v.mask?.causal, true);
    assert.equal(polarity(await valueOf('', '1 - torch.triu(torch.ones_like(x), diagonal=d)')), 'keep');
    assert.equal(polarity(await valueOf('', 'torch.ones(T, T).tril(d)')), 'keep');
  });
  it('a band cut by two variable diagonals is not taken for one triangle', async () => {
    // tril(w) keeps, then triu(-w) of it is the band |i - j| <= w: not the future side of anything.
    const band = await valueOf('w = d', 'torch.ones(T, T, dtype=torch.bool).tril(w).triu(-w)');
    assert.notEqual(polarity(band), 'ignore');
  });
  it('a NumPy triangle brought in with torch.from_numpy keeps its meaning', async () => {
    const p = await program(`import numpy as np
import torch

def subsequent_mask(size):
    m = np.triu(np.ones((1, size, size)), k=1).astype('uint8')
    return torch.from_numpy(m) == 0
`);
    assert.equal(polarity(p.value('torch.from_numpy(m)')), 'ignore');
    assert.equal(polarity(p.value('torch.from_numpy(m) == 0')), 'keep');
  });
  it('the diagonal shows the alignment: 0 is top-left, S - L bottom-right; the sizes come from ones(L, S)', async () => {
    const tl = await valueOf('', 'torch.tril(torch.ones(L, S))');
    assert.equal(maskMeaning(tl.mask).causal, 'causal-top-left');
    assert.deepEqual(tl.mask?.sizes, ['L', 'S']);
    assert.ok(topLeftRectangle(tl.mask));
    const br = await valueOf('', 'torch.ones(L, S, dtype=torch.bool).tril(diagonal=S - L)');
    assert.equal(maskMeaning(br.mask).causal, 'causal-bottom-right');
    assert.ok(!topLeftRectangle(br.mask));
    const brUpper = await valueOf('', 'torch.triu(torch.ones(L, S, dtype=torch.bool), diagonal=S - L + 1)');
    assert.deepEqual([polarity(brUpper), maskMeaning(brUpper.mask).causal], ['ignore', 'causal-bottom-right']);
    // A square mask: the corner does not matter.
    assert.ok(!topLeftRectangle((await valueOf('', 'torch.tril(torch.ones(T, T))')).mask));
  });
  it('positions compared over L queries and S keys: a top-left triangle with its sizes', async () => {
    const v = await valueOf('i = torch.arange(L)\nj = torch.arange(S)', 'j[None, :] <= i[:, None]');
    assert.deepEqual([polarity(v), maskMeaning(v.mask).causal, v.mask?.sizes], ['keep', 'causal-top-left', ['L', 'S']]);
    assert.ok(topLeftRectangle(v.mask));
  });
  it('slices of a causal buffer: rows from 0 are top-left, the last rows bottom-right', async () => {
    const p = await program(`import torch
import torch.nn as nn

class A(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.register_buffer("bias", torch.tril(torch.ones(n, n)).view(1, 1, n, n))

    def top(self, L, S):
        return self.bias[:, :, :L, :S]

    def bottom(self, L, S):
        return self.bias[:, :, S - L:S, :S]
`);
    const top = p.value('self.bias[:, :, :L, :S]');
    assert.deepEqual([polarity(top), maskMeaning(top.mask).causal, top.mask?.sizes], ['keep', 'causal-top-left', ['L', 'S']]);
    const bottom = p.value('self.bias[:, :, S - L:S, :S]');
    assert.deepEqual([polarity(bottom), maskMeaning(bottom.mask).causal], ['keep', 'causal-bottom-right']);
  });
  it('~ of a causal slice flips the polarity and keeps the alignment', async () => {
    const v = await valueOf('m = torch.tril(torch.ones(L, S)).bool()', '~m');
    assert.deepEqual([polarity(v), maskMeaning(v.mask).causal], ['ignore', 'causal-top-left']);
  });
});

describe('mask lattice: additive masks and fills', () => {
  it('`(1.0 - m) * -10000.0` of a keep mask is additive, built from an ignore mask (right)', async () => {
    const v = await valueOf('m = (ids != pad_id).float()', '(1.0 - m) * -10000.0');
    assert.deepEqual([polarity(v), v.mask?.builtFrom], ['additive', 'ignore']);
  });
  it('`m * -10000.0` of a keep mask is additive, built from the keep mask (inverted)', async () => {
    const v = await valueOf('m = (ids != pad_id).float()', 'm * -10000.0');
    assert.deepEqual([polarity(v), v.mask?.builtFrom], ['additive', 'keep']);
  });
  it('`zeros.masked_fill(m, -inf)` and `torch.where(m, 0, -inf)` build additive masks', async () => {
    const filled = await valueOf('pad = ids == pad_id\nz = torch.zeros(S, S)', "z.masked_fill(pad, float('-inf'))");
    assert.deepEqual([polarity(filled), filled.mask?.builtFrom], ['additive', 'ignore']);
    const chosen = await valueOf('keep = ids != pad_id', "torch.where(keep, 0.0, float('-inf'))");
    assert.deepEqual([polarity(chosen), chosen.mask?.builtFrom], ['additive', 'keep']);
  });
  it('an additive mask read as a 0/1 mask is True where it masks: `.bool()` ignores, `1 - m` and `~` keep', async () => {
    const causal = "b = torch.triu(torch.full((S, S), float('-inf')), 1)";
    assert.equal(polarity(await valueOf(causal, 'b.bool()')), 'ignore');
    assert.equal(polarity(await valueOf(causal, 'b.to(torch.bool)')), 'ignore');
    assert.equal(polarity(await valueOf(causal, '1 - b')), 'keep');
    assert.equal(polarity(await valueOf(causal, '~b.bool()')), 'keep');
    // The causal triangle survives the reading: True above the diagonal, as `triu(ones, 1)` would be.
    assert.equal((await valueOf(causal, 'b.bool()')).mask?.tri?.region, 'upper');
    // A float conversion keeps it additive.
    assert.equal(polarity(await valueOf(causal, 'b.float()')), 'additive');
  });
  it('comparing an additive mask with 0 gives back a boolean keep mask', async () => {
    assert.equal(polarity(await valueOf("b = torch.zeros(S, S).masked_fill(ids == pad_id, float('-inf'))", 'b == 0')), 'keep');
  });
  it('a mask parameter that defaults to all ones is a keep mask (1 = keep), whatever its name', async () => {
    const p = await program(`import torch

def f(input_ids, attention_mask=None):
    if attention_mask is None:
        attention_mask = torch.ones_like(input_ids)
    return attention_mask
`);
    const v = p.value('attention_mask');
    assert.equal(polarity(v), 'keep');
    assert.equal(v.mask?.byName, undefined);
    // Without the default only the name speaks: the lattice calls that unknown.
    const q = await program('def g(attention_mask):\n    return attention_mask\n');
    assert.equal(polarity(q.value('attention_mask')), 'unknown');
  });
});

describe('data loaders', () => {
  it('iterating DataLoader(..., collate_fn=f) gives what f returns; without a collate function nothing is known', async () => {
    const src = (loader: string) => `import torch
from torch.utils.data import DataLoader


def collate(batch):
    ids = torch.stack([b[0] for b in batch])
    return ids, ids != 0


def loop(ds):
    for ids, keep in ${loader}:
        use(keep)
`;
    const p = await program(src('DataLoader(ds, batch_size=8, collate_fn=collate)'));
    assert.equal(polarity(p.value('keep')), 'keep');
    const q = await program(src('DataLoader(ds, batch_size=8)'));
    assert.equal(q.value('keep').mask, undefined);
  });
});

describe('rows cut from a square causal mask', () => {
  const base = 'm = torch.tril(torch.ones(S, S, dtype=torch.bool))';
  it('the first L rows stay top-left over L queries and S keys; the last L rows are bottom-right', async () => {
    const top = await valueOf(base, 'm[:L]');
    assert.deepEqual([top.mask?.align, top.mask?.sizes], ['top-left', ['L', 'S']]);
    assert.equal(topLeftRectangle(top.mask), true);
    for (const rows of ['m[-L:]', 'm[S - L:]', 'm[S - L:S]']) {
      const bottom = await valueOf(base, rows);
      assert.equal(bottom.mask?.align, 'bottom-right', rows);
      assert.equal(topLeftRectangle(bottom.mask), false, rows);
    }
    // Rows from an offset that is not the end: alignment unknown.
    assert.equal((await valueOf(base, 'm[T:L]')).mask?.align, undefined);
    assert.equal(polarity(await valueOf(base, 'm[:L]')), 'keep');
  });
});

describe('KV caches: flags read per world (cache present / absent)', () => {
  async function flag(src: string, expr: string): Promise<{ cached: boolean | '?'; uncached: boolean | '?' }> {
    const p = await program(src);
    const reader: FlagReader = { text: (n) => p.src.slice(n.start, n.end), definitions: (n) => p.ev.resolve(n, p.src.slice(n.start, n.end)) };
    return truthWithCache(reader, p.node(expr));
  }
  it('`cache is not None or self.causal` is True whenever the cache is present', async () => {
    assert.deepEqual(await flag('def f(self, cache):\n    g(is_causal=cache is not None or self.causal)\n', 'cache is not None or self.causal'), {
      cached: true,
      uncached: '?',
    });
  });
  it('a boolean about caching is not the cache: `use_cache`, `prev_causal`', async () => {
    assert.deepEqual(await flag('def f(use_cache, prev_causal):\n    g(is_causal=use_cache or prev_causal)\n', 'use_cache or prev_causal'), {
      cached: '?',
      uncached: '?',
    });
    assert.deepEqual(await flag('def f(past_kv):\n    g(is_causal=not past_kv)\n', 'not past_kv'), { cached: false, uncached: true });
  });
  it('`past is None` (causal only at prefill) is False with the cache', async () => {
    assert.deepEqual(await flag('def f(past):\n    g(is_causal=past is None)\n', 'past is None'), { cached: false, uncached: true });
  });
  it('a flag set to True inside the `past_kv is not None` branch is True with the cache', async () => {
    const src = `def f(q, past_kv=None):
    is_causal = False
    if past_kv is not None:
        is_causal = True
    g(is_causal=is_causal)
`;
    assert.deepEqual(await flag(src, 'is_causal'), { cached: true, uncached: false });
  });
  it('a flag set in a branch unrelated to the cache stays unknown', async () => {
    const src = `def f(q, past_kv, causal):
    is_causal = False
    if causal:
        is_causal = True
    g(is_causal=is_causal)
`;
    assert.deepEqual(await flag(src, 'is_causal'), { cached: '?', uncached: '?' });
  });
  it('`True if past is None else False` and the else branch of `if past is None:`', async () => {
    assert.deepEqual(await flag('def f(past):\n    g(is_causal=True if past is None else False)\n', 'True if past is None else False'), {
      cached: false,
      uncached: true,
    });
    const src = `def f(past):
    if past is None:
        c = False
    else:
        c = True
    g(is_causal=c)
`;
    assert.deepEqual(await flag(src, 'c'), { cached: true, uncached: false });
  });
  it('elif arms: each runs only when every earlier condition failed', async () => {
    const src = (second: string) => `def f(past, training):
    if past is None:
        c = False
    elif training:
        c = ${second}
    else:
        c = True
    g(is_causal=c)
`;
    assert.deepEqual(await flag(src('True'), 'c'), { cached: true, uncached: false });
    assert.deepEqual(await flag(src('False'), 'c'), { cached: '?', uncached: false });
  });
  it('a redefinition that may be skipped (under a further if, in a loop or a try body) leaves the earlier value alive', async () => {
    const src = (body: string) => `def f(past, training, layers):
    is_causal = False
${body}
    g(is_causal=is_causal)
`;
    const inCacheArm = '    if past is not None:\n        is_causal = True';
    assert.deepEqual(await flag(src(inCacheArm), 'is_causal'), { cached: true, uncached: false });
    assert.deepEqual(await flag(src('    with ctx():\n' + inCacheArm.replace(/^/gm, '    ')), 'is_causal'), { cached: true, uncached: false });
    for (const outer of ['if training:', 'for layer in layers:', 'while layers:', 'try:']) {
      const nested = `    ${outer}\n${inCacheArm.replace(/^/gm, '    ')}${outer === 'try:' ? '\n    except ValueError:\n        pass' : ''}`;
      assert.deepEqual(await flag(src(nested), 'is_causal'), { cached: '?', uncached: false }, outer);
    }
    // Set True directly in a loop or a try body: it may or may not have run.
    assert.deepEqual(await flag(src('    for layer in layers:\n        is_causal = True'), 'is_causal'), { cached: '?', uncached: '?' });
  });
  it('state the class extends by concatenation is a KV cache whatever it is called; a concatenation not stored back is not', async () => {
    const src = (storeBack: string) => `import torch


class Memory:
    def __init__(self):
        self.keys = None

    def extend(self, k):
        if self.keys is not None:
            k = torch.cat([self.keys, k], dim=-2)
        ${storeBack}
        return k
`;
    for (const store of ['self.keys = k', 'self.keys, self.other = k, None']) {
      const p = await program(src(store));
      assert.equal(p.value('torch.cat([self.keys, k], dim=-2)').fromCache, true, store);
    }
    const direct = await program(`import torch


class Memory:
    def push(self, k):
        self.keys = torch.cat([self.keys, k], dim=-2)
        return self.keys
`);
    assert.equal(direct.value('torch.cat([self.keys, k], dim=-2)').fromCache, true);
    const notStored = await program(src('self.count = 1'));
    assert.equal(notStored.value('torch.cat([self.keys, k], dim=-2)').fromCache, undefined);
  });
  it('`self.kv_cache.update(...)` returns keys and values that include the cache, whatever kv_cache is', async () => {
    const p = await program(`import torch.nn as nn

class A(nn.Module):
    def __init__(self):
        super().__init__()
        self.kv_cache = None

    def forward(self, k, v, pos):
        k, v = self.kv_cache.update(pos, k, v)
        return k
`);
    assert.equal(p.value('k').fromCache, true);
  });
});

describe('mask consumers: what True/1 means to the code that reads the mask', () => {
  async function sites(src: string): Promise<{ display: string; param: string; expects: string; mask: string }[]> {
    const p = await program(src);
    return p.ev.facts.mask.map((s) => ({ display: s.display, param: s.param, expects: s.expects, mask: p.src.slice(s.maskNode.start, s.maskNode.end) }));
  }
  it('nn.MultiheadAttention reads key_padding_mask and attn_mask as True = ignore; SDPA attn_mask as True = attend', async () => {
    const found = await sites(`import torch
import torch.nn as nn
import torch.nn.functional as F

class A(nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = nn.MultiheadAttention(64, 4, batch_first=True)

    def forward(self, x, pad, causal, q, k, v):
        y = self.mha(x, x, x, key_padding_mask=pad, attn_mask=causal)[0]
        return F.scaled_dot_product_attention(q, k, v, attn_mask=causal)
`);
    assert.deepEqual(
      found.map((s) => `${s.display}:${s.param}:${s.expects}`),
      ['nn.MultiheadAttention:key_padding_mask:ignore', 'nn.MultiheadAttention:attn_mask:ignore', 'F.scaled_dot_product_attention:attn_mask:keep'],
    );
  });
  it('masked_fill and index assignment fill where True; torch.where keeps where True when the fill is the other branch', async () => {
    const found = await sites(`import torch

def f(q, k, mask):
    scores = q @ k.transpose(-2, -1)
    a = scores.masked_fill(mask, float('-inf'))
    b = torch.where(mask, scores, torch.full_like(scores, float('-inf')))
    scores[mask] = float('-inf')
    return a, b, scores
`);
    assert.deepEqual(
      found.map((s) => `${s.display}:${s.expects}`),
      ['masked_fill:ignore', 'torch.where:keep', 'index assignment:ignore'],
    );
  });
  it('a 0/1 mask times a large negative number is read as "1 = fill" (an additive mask under construction)', async () => {
    const found = await sites(`import torch

def f(scores, ids, pad_id):
    keep = (ids != pad_id).float()
    return scores + keep[:, None, None, :] * -1e9
`);
    assert.deepEqual(
      found.map((s) => `${s.display}:${s.expects}:${s.mask}`),
      ['additive mask:ignore:keep[:, None, None, :]'],
    );
  });
});

describe('joins keep what both paths share', () => {
  it('weights from a softmax on either branch (`a if upcast else b`) are still softmax weights over the same axis', async () => {
    const p = await program(`import torch.nn.functional as F

def f(q, k, upcast):
    s = q @ k.transpose(-2, -1)
    w = F.softmax(s.float(), dim=-1).type_as(s) if upcast else F.softmax(s, dim=-1)
    return w
`);
    const w = p.value('w');
    assert.equal(w.attn?.stage, 'weights');
    assert.equal(w.attn?.softmax?.axis, -1);
    // Different axes on the two paths: no single softmax stands for both.
    const q = await program(`import torch.nn.functional as F

def f(q, k, upcast):
    s = q @ k.transpose(-2, -1)
    w = F.softmax(s, dim=-2) if upcast else F.softmax(s, dim=-1)
    return w
`);
    assert.equal(q.value('w').attn?.softmax, undefined);
  });
});

describe('mask lattice: dicts carry their values by key', () => {
  it('a dict literal read back by its key keeps the mask stored there, either polarity', async () => {
    assert.equal(polarity(await valueOf('batch = {"input_ids": ids, "pad": ids == pad_id}', 'batch["pad"]')), 'ignore');
    assert.equal(polarity(await valueOf('batch = {"input_ids": ids, "pad": ids != pad_id}', 'batch["pad"]')), 'keep');
  });
  it('`dict(k=v)` and a helper returning a dict carry the value too', async () => {
    assert.equal(polarity(await valueOf('batch = dict(input_ids=ids, keep=ids != pad_id)', 'batch["keep"]')), 'keep');
    const p = await program(`import torch

def collate(ids, pad_id):
    return {"input_ids": ids, "mask": ids.eq(pad_id)}

def step(ids, pad_id):
    batch = collate(ids, pad_id)
    mask = batch["mask"]
    return mask
`);
    assert.equal(polarity(p.value('mask')), 'ignore');
  });
  it('the construction stored under "attention_mask" decides over the key name (a tokenizer keep mask)', async () => {
    assert.equal(polarity(await valueOf('enc = {"attention_mask": ids == pad_id}', 'enc["attention_mask"]')), 'ignore');
    // A dict the code does not show is still read as a tokenizer's output.
    assert.equal(polarity(await valueOf('enc = tok(ids)', 'enc["attention_mask"]')), 'keep');
  });
  it('a later key overrides an earlier one; a known `**` splat brings its keys, an unknown one or a computed key leaves the dict unknown', async () => {
    assert.equal(polarity(await valueOf('b = {"m": ids == pad_id, "m": ids != pad_id}', 'b["m"]')), 'keep');
    assert.equal(polarity(await valueOf('a = {"m": ids == pad_id}\nb = {**a, "x": ids}', 'b["m"]')), 'ignore');
    assert.equal(polarity(await valueOf('b = {"m": ids == pad_id, **mask}', 'b["m"]')), 'unknown');
    assert.equal(polarity(await valueOf('b = {"m": ids == pad_id, d: ids}', 'b["m"]')), 'unknown');
  });
});

describe('mask lattice: ones and zeros filled at a mask', () => {
  it('ones filled 0 where a mask is True is that mask flipped; zeros filled 1 is the mask itself', async () => {
    assert.equal(polarity(await valueOf('m = torch.ones_like(ids).masked_fill(ids == pad_id, 0)', 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = torch.ones_like(ids).masked_fill(ids != pad_id, 0)', 'm')), 'ignore');
    assert.equal(polarity(await valueOf('m = torch.zeros_like(ids).masked_fill(ids == pad_id, 1)', 'm')), 'ignore');
    assert.equal(polarity(await valueOf('m = torch.zeros(T, T, dtype=torch.bool).masked_fill(ids != pad_id, True)', 'm')), 'keep');
  });
  it('other fills, other targets, or a mask known only by name say nothing', async () => {
    assert.equal(polarity(await valueOf('m = torch.ones_like(ids).masked_fill(ids == pad_id, 1)', 'm')), 'unknown');
    assert.equal(polarity(await valueOf('m = torch.zeros_like(ids).masked_fill(ids == pad_id, 0)', 'm')), 'unknown');
    assert.equal(polarity(await valueOf('m = x.masked_fill(ids == pad_id, 0)', 'm')), 'unknown');
    assert.equal(polarity(await valueOf('m = torch.ones_like(ids).masked_fill(mask, 0)', 'm')), 'unknown');
  });
  it('zeros filled with -inf where a mask is True is additive, and the fill is checked as masked_fill (True = masked)', async () => {
    const p = await program(`import torch

def bias_of(ids, pad_id):
    bias = torch.zeros(ids.shape).masked_fill(ids != pad_id, float("-inf"))
    return bias
`);
    assert.equal(polarity(p.value('bias')), 'additive');
    const site = p.ev.facts.mask.find((s) => s.display === 'masked_fill');
    assert.equal(site?.expects, 'ignore');
    assert.equal(maskMeaning(site?.mask.mask).polarity, 'keep');
  });
});

describe('mask lattice: names', () => {
  it('a name says mask when it holds the noun (`mask`, `attn_mask`, `tmask`, `causal_masks`), not the participle of a masked value', () => {
    for (const name of ['mask', 'attn_mask', 'tmask', 'causal_masks', 'maskT', 'mask_bias', 'key_padding_mask']) assert.ok(namesAMask(name), name);
    for (const name of ['masked_logp', 'masked_scores', 'masked', 'unmasked_ratio', 'maskedLogits']) assert.ok(!namesAMask(name), name);
    // Both words in one name: the noun decides.
    assert.ok(namesAMask('masked_positions_mask'));
  });
});

describe('mask lattice: regions written into zeros', () => {
  it("ones written per example up to its length are a keep mask; ones written into one fixed row say nothing of the mask's meaning", async () => {
    const perExample = 'm = torch.zeros(x.shape[0], S)\nfor i in range(x.shape[0]):\n    m[i, : lengths[i]] = 1';
    assert.equal(polarity(await valueOf(perExample, 'm')), 'keep');
    assert.equal(polarity(await valueOf('m = torch.zeros(T, S, dtype=torch.bool)\nm[-1, :L] = True', 'm')), 'unknown');
    assert.equal(polarity(await valueOf('m = torch.zeros(T, S)\nm[0, :L] = 1', 'm')), 'unknown');
  });
  it('the other per-example fills: 1 written from each length on marks the padding; ones cut to 0 from the length keep, before it ignore', async () => {
    const loop = (init: string, fill: string): string => `m = torch.${init}(x.shape[0], S, dtype=torch.bool)\nfor i in range(x.shape[0]):\n    m[i, ${fill}`;
    assert.equal(polarity(await valueOf(loop('zeros', 'lengths[i]:] = True'), 'm')), 'ignore');
    assert.equal(polarity(await valueOf(loop('ones', 'lengths[i]:] = False'), 'm')), 'keep');
    assert.equal(polarity(await valueOf(loop('ones', ':lengths[i]] = False'), 'm')), 'ignore');
    // 0/1 floats read the same way.
    assert.equal(polarity(await valueOf('m = torch.ones(x.shape[0], S)\nfor i, n in enumerate(lengths):\n    m[i, n:] = 0', 'm')), 'keep');
    // Writing what is already there (1 on ones, 0 on zeros) builds nothing.
    assert.equal(polarity(await valueOf(loop('ones', ':lengths[i]] = True'), 'm')), 'unknown');
    assert.equal(polarity(await valueOf(loop('zeros', 'lengths[i]:] = False'), 'm')), 'unknown');
    // Not per example (no batch index): a fixed number of leading keys dropped from every row, whose 1s are kept keys.
    assert.equal(polarity(await valueOf('m = torch.ones(x.shape[0], T, S)\nm[:, :, :d] = 0', 'm')), 'unknown');
    // Both kinds of slice in one write mark no one region.
    assert.equal(
      polarity(await valueOf('m = torch.zeros(x.shape[0], T, S)\nfor i in range(x.shape[0]):\n    m[i, :lengths[i], lengths[i]:] = 1', 'm')),
      'unknown',
    );
  });
  it("one example's mask in a helper (`m = zeros(L); m[:n] = True`) is a keep mask when its bound is a value, not a literal", async () => {
    assert.equal(polarity(await valueOf('n = x.size(-1)\nm = torch.zeros(L, dtype=torch.bool)\nm[:n] = True', 'm')), 'keep');
    assert.equal(polarity(await valueOf('n = x.size(-1)\nm = torch.ones(L, dtype=torch.bool)\nm[n:] = False', 'm')), 'keep');
    assert.equal(polarity(await valueOf('n = x.size(-1)\nm = torch.zeros(L, dtype=torch.bool)\nm[n:] = True', 'm')), 'ignore');
    assert.equal(polarity(await valueOf('m = torch.zeros(L, dtype=torch.bool)\nm[:1] = True', 'm')), 'unknown');
  });
});

describe('mask lattice: additive biases built in zeros', () => {
  it('zeros filled with -inf where a mask of unknown meaning is True are an additive bias, also when a branch fills them', async () => {
    assert.equal(polarity(await valueOf('b = torch.zeros(T, S)\nb = b.masked_fill(mask, float("-inf"))', 'b')), 'additive');
    const branch = 'b = torch.zeros(x.shape[0], 4, T, S)\nif mask is not None:\n    b.masked_fill_(mask, float("-inf"))';
    assert.equal(polarity(await valueOf(branch, 'b')), 'additive');
    // Zeros filled with 0 mask nothing.
    assert.equal(polarity(await valueOf('b = torch.zeros(T, S)\nb = b.masked_fill(mask, 0.0)', 'b')), 'unknown');
  });
  it('zeros plus a mask is that mask: a 0/1 mask stays 0/1, one of unknown meaning is additive', async () => {
    assert.equal(polarity(await valueOf('b = torch.zeros(T, S)\nb += mask', 'b')), 'additive');
    assert.equal(polarity(await valueOf('b = torch.zeros(x.shape[0], S)\nb = b + (ids != pad_id)', 'b')), 'keep');
  });
});
