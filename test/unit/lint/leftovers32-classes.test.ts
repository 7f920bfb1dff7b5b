// Session 32 (leftovers32): classes learnt from the training misses, each with its natural example, its correct form
// (silent) and a cross-file pair.
//  1. ATT004, a projection written as data times a learned 2-D weight (`self.w_q = nn.Parameter(torch.randn(d_in,
//     d_out))` then `x @ self.w_q`; TF's `tf.Variable(tf.random.truncated_normal([d_in, d_out]))` then
//     `tf.matmul(x, w)`, also held in a literal dict or made by a helper `glorot(rows, cols)` of this or another file;
//     `(d_out, d_in)` used as `x @ self.w_q.T`) is read as `nn.Linear(d_in, d_out)`: a square root of the width going
//     in (`math.sqrt(self.d_in)`) on scores of queries that are `d_out` wide is reported as the projection's input
//     width, as it is for `nn.Linear`. Silent for the width going out, for constructions that pass one value for both
//     widths, for queries against learned keys or memory slots (`q @ self.keys`: scores, not a projection), and for
//     sizes the creation does not write as names at the call.
//  2. The role of such a product when it is written inline (the metamorphic `inline` rewrite): data times a weight whose
//     name says it is a projection's (`x_t @ W_q`, `x @ self.key_proj`: a role token with a layer-ish word) are that
//     role's projection, as `self.q_proj(x)` is, so `torch.matmul((x_t @ W_q), K.transpose(-2, -1))` forms the scores
//     that `Q = x_t @ W_q` then `torch.matmul(Q, ...)` forms. A role word alone (`h @ query`, learned queries or keys
//     themselves) and weights whose names say nothing (`x_t @ A`) give no role.
//  3. Operands written inline whose text is long (`self.key_layer(input_key).transpose(-2, -1)`, 43 characters) are
//     still named, so their product is known as q·kᵀ as it is with short names: a scale applied to its softmax weights
//     (`F.softmax(scores, dim=-1) / math.sqrt(self.hidden_dim)` inside the product with the values) is reported.
//  4. A dict the class fills with one kind of value, read under a key the code computes: `self.w = {}` then
//     `self.w[name + str(i)] = glorot(d_in, d_out)` in loops, or `self.w = {"q" + str(i): glorot(...) for i in ...}`,
//     read as `self.w["q" + str(i)]`: the value read is one of those stored (the weights, so class 1 applies). Not when
//     the dict is also bound to something else or holds values that are not tensors.
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const TORCH = `import math\nimport torch\nimport torch.nn as nn\n`;

/** A single-head attention with raw weights created by `init` (its two sizes) and scaled by `scale`; scores at line 16. */
const torchHead = (init: string, use: string, scale: string, after = ''): string => `${TORCH}

class Head(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.d_in, self.d_out = d_in, d_out
        self.w_q = nn.Parameter(${init})
        self.w_k = nn.Parameter(${init})

    def forward(self, x):
        q = x @ self.w_q${use}
        k = x @ self.w_k${use}
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.${scale})
        return torch.softmax(scores, dim=-1)
${after}`;
const AT = 16;

describe('leftovers32 class 1: ATT004 on a projection written as data times a learned weight', () => {
  it('nn.Parameter(torch.randn(d_in, d_out)) used as x @ w: sqrt(d_in) reported at the scale; sqrt(d_out) silent', async () => {
    assert.deepEqual(await findingLines(torchHead('torch.randn(d_in, d_out)', '', 'd_in'), 'ATT004'), [AT]);
    assert.deepEqual(await findingLines(torchHead('torch.randn(d_in, d_out)', '', 'd_out'), 'ATT004'), []);
    // A fan-in initialisation factor on the draw changes nothing.
    assert.deepEqual(await findingLines(torchHead('torch.randn(d_in, d_out) / math.sqrt(d_in)', '', 'd_in'), 'ATT004'), [AT]);
    assert.deepEqual(await findingLines(torchHead('torch.randn(d_in, d_out) / math.sqrt(d_in)', '', 'd_out'), 'ATT004'), []);
  });
  it('(d_out, d_in) used as x @ w.T: the product sums over d_in, so sqrt(d_in) is reported and sqrt(d_out) is silent', async () => {
    assert.deepEqual(await findingLines(torchHead('torch.randn(d_out, d_in)', '.T', 'd_in'), 'ATT004'), [AT]);
    assert.deepEqual(await findingLines(torchHead('torch.randn(d_out, d_in)', '.T', 'd_out'), 'ATT004'), []);
  });
  it('silent when every construction in view passes one value for both widths (one head as wide as its input)', async () => {
    assert.deepEqual(await findingLines(torchHead('torch.randn(d_in, d_out)', '', 'd_in', '\nhead = Head(64, 64)\n'), 'ATT004'), []);
    assert.deepEqual(await findingLines(torchHead('torch.randn(d_in, d_out)', '', 'd_in', '\nhead = Head(64, 16)\n'), 'ATT004'), [AT]);
  });
  it('silent where the sizes are not written as two different names (literals, one name twice, a length-1 query column)', async () => {
    assert.deepEqual(await findingLines(torchHead('torch.randn(64, 16)', '', 'd_in'), 'ATT004'), []);
    assert.deepEqual(await findingLines(torchHead('torch.randn(d_in, d_in)', '', 'd_in'), 'ATT004'), []);
    assert.deepEqual(await findingLines(torchHead('torch.randn(d_in, 1)', '', 'd_in'), 'ATT004'), []);
  });
  it('queries against learned keys or memory slots are scores, not a projection of the queries (unchanged)', async () => {
    const memory = (name: string, scale: string): string => `${TORCH}

class Memory(nn.Module):
    def __init__(self, d, n_slots):
        super().__init__()
        self.d = d
        self.${name} = nn.Parameter(torch.randn(d, n_slots))

    def forward(self, query):
        scores = query @ self.${name}${scale}
        return torch.softmax(scores, dim=-1)
`;
    for (const name of ['keys', 'memory']) {
      assert.deepEqual(await findingLines(memory(name, ' / math.sqrt(self.d)'), 'ATT004'), [], name);
      assert.deepEqual(await findingLines(memory(name, ' / self.d'), 'ATT004'), [13], name);
    }
  });

  /** TF2 eager attention with raw variables made by `make(a, b)`; `header` defines make; scores at line `at`. */
  const tfHead = (header: string, make: string, scale: string): string => `import math
import tensorflow as tf
${header}

class SelfAttention:
    def __init__(self, input_nums, hidden_nums):
        self.input_nums, self.hidden_nums = input_nums, hidden_nums
        self.w = {"q": ${make}, "k": ${make}}

    def __call__(self, x):
        q = tf.matmul(x, self.w["q"])
        k = tf.matmul(x, self.w["k"])
        score = tf.matmul(q, tf.transpose(k, [0, 2, 1])) / math.sqrt(self.${scale})
        return tf.nn.softmax(score, axis=-1)
`;
  const GLOROT = `\n\ndef glorot(rows, cols):\n    return tf.Variable(tf.random.truncated_normal([rows, cols], stddev=tf.math.sqrt(2.0 / (rows + cols))))\n`;
  const TF_AT = 17;
  it('TF: tf.Variable(tf.random.truncated_normal([input_nums, hidden_nums])) in a literal dict, used with tf.matmul', async () => {
    const make = 'tf.Variable(tf.random.truncated_normal([input_nums, hidden_nums]))';
    assert.deepEqual(await findingLines(tfHead('', make, 'input_nums'), 'ATT004'), [TF_AT - 4]);
    assert.deepEqual(await findingLines(tfHead('', make, 'hidden_nums'), 'ATT004'), []);
  });
  it('TF: the variable made by a helper of the file, glorot(rows, cols), read with the sizes its call writes', async () => {
    assert.deepEqual(await findingLines(tfHead(GLOROT, 'glorot(input_nums, hidden_nums)', 'input_nums'), 'ATT004'), [TF_AT]);
    assert.deepEqual(await findingLines(tfHead(GLOROT, 'glorot(input_nums, hidden_nums)', 'hidden_nums'), 'ATT004'), []);
    // The helper's sizes are not plain names at the call: not known there.
    assert.deepEqual(await findingLines(tfHead(GLOROT, 'glorot(input_nums, 2 * input_nums)', 'input_nums'), 'ATT004'), []);
    // A size that is no parameter of the helper (its own local) is not known at the call either.
    const local = `\n\ndef glorot(rows, cols):\n    width = cols\n    return tf.Variable(tf.random.truncated_normal([rows, width]))\n`;
    assert.deepEqual(await findingLines(tfHead(local, 'glorot(input_nums, hidden_nums)', 'input_nums'), 'ATT004'), []);
  });
  it('cross-file: the helper imported from init.py, and the class built in model.py with equal or different widths', async () => {
    const helper = `import tensorflow as tf${GLOROT}`;
    const attn = (scale: string): string => tfHead('from init import glorot', 'glorot(input_nums, hidden_nums)', scale);
    const lint = (scale: string, model?: string): Promise<number[]> =>
      workspaceFindingLines({ 'init.py': helper, 'attn.py': attn(scale), ...(model ? { 'model.py': model } : {}) }, 'attn.py', 'ATT004');
    assert.deepEqual(await lint('input_nums'), [TF_AT - 4]);
    assert.deepEqual(await lint('hidden_nums'), []);
    const build = (a: string, b: string): string => `from attn import SelfAttention\n\n\ndef build():\n    return SelfAttention(${a}, ${b})\n`;
    assert.deepEqual(await lint('input_nums', build('8', '16')), [TF_AT - 4]);
    assert.deepEqual(await lint('input_nums', build('16', '16')), []);
  });
});

describe('leftovers32 class 2: the role of data times a weight named for a projection', () => {
  /** One decoding step with raw weights; `scores` is line 8 (the softmax line 9). */
  const step = (scores: string, extra = ''): string => `import torch
import torch.nn.functional as F


def step(x_t, W_q, W_k, W_v${extra}):
    K = x_t @ W_k
    V = x_t @ W_v
    ${scores}
    return torch.matmul(F.softmax(scores, dim=-1), V)
`;
  it('x_t @ W_q written inline forms scores with the keys, as Q = x_t @ W_q does: ATT003 when unscaled, silent when scaled', async () => {
    assert.deepEqual(await findingLines(step('scores = torch.matmul((x_t @ W_q), K.transpose(-2, -1))'), 'ATT003'), [9]);
    assert.deepEqual(await findingLines(step('Q = x_t @ W_q\n    scores = torch.matmul(Q, K.transpose(-2, -1))'), 'ATT003'), [10]);
    assert.deepEqual(await findingLines(step('scores = torch.matmul((x_t @ W_q), K.transpose(-2, -1)) / d_k ** 0.5', ', d_k'), 'ATT003'), []);
    assert.deepEqual(await findingLines(step('scores = torch.matmul((x_t @ W_q) / d_k ** 0.5, K.transpose(-2, -1))', ', d_k'), 'ATT003'), []);
  });
  it('no role from a role word alone or from names that say nothing (silent, as before)', async () => {
    const pool = `import torch\nimport torch.nn.functional as F\n\n\ndef pool(h, query):\n    scores = h @ query\n    return torch.matmul(F.softmax(scores, dim=-1), h)\n`;
    assert.deepEqual(await findingLines(pool, 'ATT003'), []);
    const unnamed = step('scores = torch.matmul((x_t @ A), (x_t @ B).transpose(-2, -1))').replace('W_q, W_k, W_v', 'A, B, W_k, W_v');
    assert.deepEqual(await findingLines(unnamed, 'ATT003'), []);
  });
  it('cross-file: the weights made in model.py and passed to the step of attn.py', async () => {
    const model = `import torch\n\nfrom attn import step\n\n\ndef run(x, d_model, d_k):\n    W_q, W_k, W_v = (torch.randn(d_model, d_k) for _ in range(3))\n    return step(x, W_q, W_k, W_v)\n`;
    const lint = (scores: string, extra = ''): Promise<number[]> =>
      workspaceFindingLines({ 'attn.py': step(scores, extra), 'model.py': model }, 'attn.py', 'ATT003');
    assert.deepEqual(await lint('scores = torch.matmul((x_t @ W_q), K.transpose(-2, -1))'), [9]);
    assert.deepEqual(await lint('scores = torch.matmul((x_t @ W_q), K.transpose(-2, -1)) / d_k ** 0.5', ', d_k=64'), []);
  });
});

describe('leftovers32 class 3: q·kᵀ of operands with long inline texts', () => {
  /** QKV attention whose parameters are named `${p}query`, `${p}key`, `${p}value`; `out` is line 16. */
  const qkv = (p: string, out: string): string => `import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class QKVAttention(nn.Module):
    def __init__(self, query_dim, key_dim, value_dim, hidden_dim, output_dim):
        super().__init__()
        self.hidden_dim = hidden_dim
        self.query_layer = nn.Linear(query_dim, hidden_dim)
        self.key_layer = nn.Linear(key_dim, hidden_dim)
        self.value_layer = nn.Linear(value_dim, output_dim)

    def forward(self, ${p}query, ${p}key, ${p}value):
        scores = torch.matmul(self.query_layer(${p}query), self.key_layer(${p}key).transpose(-2, -1))
        ${out}
`;
  const AFTER = (p: string): string => `return torch.matmul(F.softmax(scores, dim=-1) / math.sqrt(self.hidden_dim), self.value_layer(${p}value))`;
  const BEFORE = (p: string): string => `return torch.matmul(F.softmax(scores / math.sqrt(self.hidden_dim), dim=-1), self.value_layer(${p}value))`;
  it("a scale after the softmax is reported whatever the length of the operands' text; the scale before it is silent", async () => {
    for (const p of ['', 'input_']) {
      assert.deepEqual(await findingLines(qkv(p, AFTER(p)), 'ATT004'), [17], p);
      assert.deepEqual(await findingLines(qkv(p, BEFORE(p)), 'ATT004'), [], p);
    }
  });
  it('cross-file: the module built and called in model.py (same findings)', async () => {
    const model = `from attention import QKVAttention\n\n\ndef build(d):\n    return QKVAttention(d, d, d, 64, d)\n`;
    const lint = (out: string): Promise<number[]> => workspaceFindingLines({ 'attention.py': qkv('input_', out), 'model.py': model }, 'attention.py', 'ATT004');
    assert.deepEqual(await lint(AFTER('input_')), [17]);
    assert.deepEqual(await lint(BEFORE('input_')), []);
  });
});

describe('leftovers32 class 4: a dict the class fills with one kind of value, read under a computed key', () => {
  const GLOROT = `def glorot(rows, cols):\n    return tf.Variable(tf.random.truncated_normal([rows, cols], stddev=0.1))\n`;
  /** TF2 per-head attention with weights in `self.w`, filled by `fill`; the scale is on line 21 (one-line fill) or 24 (the loop). */
  const heads = (fill: string, scale: string, header = GLOROT): string => `import math
import tensorflow as tf


${header}

class SelfAttention:
    def __init__(self, input_nums, hidden_nums, multi_head=1):
        self.multi_head = multi_head
        self.input_nums, self.hidden_nums = input_nums, hidden_nums
        ${fill}

    def __call__(self, x):
        outs = []
        for i in range(self.multi_head):
            q = tf.matmul(x, self.w["q" + str(i)])
            k = tf.matmul(x, self.w["k" + str(i)])
            score = tf.matmul(q, tf.transpose(k, [0, 2, 1]))
            score = score / math.sqrt(self.${scale})
            outs.append(tf.matmul(tf.nn.softmax(score, axis=2), x))
        return tf.concat(outs, -1)
`;
  const LOOP =
    'self.w = {}\n        for i in range(multi_head):\n            for name in ("q", "k"):\n                self.w[name + str(i)] = glorot(input_nums, hidden_nums)';
  const COMP = 'self.w = {n + str(i): glorot(input_nums, hidden_nums) for i in range(multi_head) for n in ("q", "k")}';
  const LOOP_AT = 24;
  const COMP_AT = 21;
  it('filled in loops: sqrt(input_nums) on hidden_nums-wide queries reported; sqrt(hidden_nums) silent', async () => {
    assert.deepEqual(await findingLines(heads(LOOP, 'input_nums'), 'ATT004'), [LOOP_AT]);
    assert.deepEqual(await findingLines(heads(LOOP, 'hidden_nums'), 'ATT004'), []);
  });
  it('a dict comprehension: the same', async () => {
    assert.deepEqual(await findingLines(heads(COMP, 'input_nums'), 'ATT004'), [COMP_AT]);
    assert.deepEqual(await findingLines(heads(COMP, 'hidden_nums'), 'ATT004'), []);
  });
  it('silent when the dict is bound to something else too, or holds values that are not tensors', async () => {
    const rebound = `${LOOP}\n        if input_nums > 4096:\n            self.w = load_weights()`;
    assert.deepEqual(await findingLines(heads(rebound, 'input_nums'), 'ATT004'), []);
    const mixed = `${LOOP}\n        self.w["scale"] = 0.5`;
    assert.deepEqual(await findingLines(heads(mixed, 'input_nums'), 'ATT004'), []);
  });
  it('cross-file: built in layers.py with different or equal widths', async () => {
    const layers = (a: string, b: string): string =>
      `from attention import SelfAttention\n\n\ndef build():\n    return SelfAttention(${a}, ${b}, multi_head=2)\n`;
    const lint = (model: string): Promise<number[]> =>
      workspaceFindingLines({ 'attention.py': heads(LOOP, 'input_nums'), 'layers.py': model }, 'attention.py', 'ATT004');
    assert.deepEqual(await lint(layers('8', '16')), [LOOP_AT]);
    assert.deepEqual(await lint(layers('16', '16')), []);
  });
});
