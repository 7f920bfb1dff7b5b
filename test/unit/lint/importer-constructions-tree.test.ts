// Session 40 (eng-core-s40): the constructions of a class read from syntax trees, not from the source text.
//
// ATT004 rests some decisions on what the code that builds a class passes to its constructor (importer-calls.ts):
// `nn.Linear(n_embd, head_size)` keeps the width when every construction of `Head` passes the same value for both
// (`Head(n_embd, block_size, n_embd)`: one head as wide as the embedding), and a head width bound by every construction
// to the whole width split into heads (`MultiHeadAttention(h, d_k, d_model)` with `d_k = d_model = 512`, `h = 8`) is
// all heads' width. Those constructions were found with regular expressions over the source text, which gave up on a
// comment or a string inside the call, took `Head(...)` written in a docstring for a construction, read a line
// continuation into an argument, and missed a constructor's fallback (`head_size = head_size or n_embd`) followed by a
// comment or written on one line (`if head_size is None: head_size = n_embd`). They are now `call` nodes of the trees:
// the linted file's parsed whole (a model class with no attention text is left out of the analysed tree) and the
// importing files' as the workspace parsed them; arguments are the `argument_list`'s children, a keyword argument by
// its name, an unpacked one (`*args`, `**cfg`) unknown.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { findingLines, grammar, memoryWorkspace, workspaceFindingLines } from './helpers';

// x: (B, T, C); q, k: (B, T, head_size); the scores (B, T, T): `C ** -0.5` is right only when head_size is C.
const HEAD = (fallback: string, build: string): string => `import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, n_embd, block_size, head_size=None, name="head"):
        super().__init__()
        ${fallback}
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        k, q = self.key(x), self.query(x)
        wei = q @ k.transpose(-2, -1) * C ** -0.5
        return wei.softmax(dim=-1) @ self.value(x)


class Block(nn.Module):
    def __init__(self, n_embd, block_size, n_head):
        super().__init__()
        self.sa = ${build}
`;
const PASS = 'pass';
const REPORTED = [16];
/** The line of the scale in a source whose constructor takes more lines than HEAD's one. */
const scaleLine = (src: string): number[] => [src.split('\n').findIndex((l) => l.includes('C ** -0.5')) + 1];

describe('importer-calls: constructions read from the syntax tree (ATT004)', () => {
  describe('comments and strings inside the call', () => {
    it('a comment holding parentheses inside the call is not an argument: one head as wide as the input, silent', async () => {
      const build = `Head(\n            n_embd,  # the input width (C)\n            block_size,\n            n_embd,  # one head as wide as it (see Head())\n        )`;
      assert.deepEqual(await findingLines(HEAD(PASS, build), 'ATT004'), []);
    });
    it('the same call narrowing the head (n_embd // n_head) stays reported', async () => {
      const build = `Head(\n            n_embd,  # the input width (C)\n            block_size,\n            n_embd // n_head,  # a head's share (see Head())\n        )`;
      assert.deepEqual(await findingLines(HEAD(PASS, build), 'ATT004'), REPORTED);
    });
    it('a string holding parentheses is an argument like any other: silent, and reported when the head narrows', async () => {
      assert.deepEqual(await findingLines(HEAD(PASS, 'Head(n_embd, block_size, n_embd, name="head(0)")'), 'ATT004'), []);
      assert.deepEqual(await findingLines(HEAD(PASS, 'Head(n_embd, block_size, n_embd // n_head, name="head(0)")'), 'ATT004'), REPORTED);
    });
    it('`Head(...)` written in a docstring or a comment is no construction', async () => {
      const doc = `Head(n_embd, block_size, n_embd)\n        """Heads as built here; never Head(n_embd, block_size, n_embd // n_head)."""\n        # e.g. Head(n_embd, block_size, 16)`;
      assert.deepEqual(await findingLines(HEAD(PASS, doc), 'ATT004'), []);
      const narrowed = `Head(n_embd, block_size, n_embd // n_head)\n        """Unlike Head(n_embd, block_size, n_embd), one head per share."""`;
      assert.deepEqual(await findingLines(HEAD(PASS, narrowed), 'ATT004'), REPORTED);
    });
  });

  describe('arguments split across lines, in any keyword order', () => {
    it('split across lines, the last by keyword: silent; narrowed: reported', async () => {
      assert.deepEqual(
        await findingLines(HEAD(PASS, 'Head(\n            n_embd,\n            block_size,\n            head_size=n_embd,\n        )'), 'ATT004'),
        [],
      );
      assert.deepEqual(
        await findingLines(HEAD(PASS, 'Head(\n            n_embd,\n            block_size,\n            head_size=n_embd // n_head,\n        )'), 'ATT004'),
        REPORTED,
      );
    });
    it('a line continuation inside the call is no part of an argument', async () => {
      assert.deepEqual(await findingLines(HEAD(PASS, 'Head(n_embd, block_size, n_embd \\\n            )'), 'ATT004'), []);
    });
    it('every argument by keyword, in another order than the parameters', async () => {
      assert.deepEqual(await findingLines(HEAD(PASS, 'Head(head_size=n_embd, block_size=block_size, n_embd=n_embd)'), 'ATT004'), []);
      assert.deepEqual(await findingLines(HEAD(PASS, 'Head(head_size=n_embd // n_head, n_embd=n_embd, block_size=block_size)'), 'ATT004'), REPORTED);
      // `block_size` by keyword and `n_embd` positional: the keyword is not counted among the positions.
      assert.deepEqual(await findingLines(HEAD(PASS, 'Head(n_embd, head_size=block_size, block_size=block_size)'), 'ATT004'), REPORTED);
    });
    it('arguments unpacked from a dict (`**cfg`) say nothing: the width is not shown kept, reported', async () => {
      assert.deepEqual(await findingLines(HEAD(PASS, 'Head(**cfg)'), 'ATT004'), REPORTED);
      assert.deepEqual(await findingLines(HEAD(PASS, 'Head(n_embd, *rest)'), 'ATT004'), REPORTED);
    });
  });

  describe('a constructor that falls back to the input width, written three ways', () => {
    for (const fallback of [
      'head_size = head_size or n_embd  # one head as wide as the input (C)',
      'head_size = n_embd if head_size is None else head_size  # (C)',
      'if head_size is None: head_size = n_embd',
      'if head_size is None:  # default (C)\n            head_size = n_embd',
      'head_size = (head_size if head_size is not None\n                     else n_embd)',
    ])
      it(`${fallback.split('\n')[0]}: built without a head size, silent; with a narrower one, reported`, async () => {
        assert.deepEqual(await findingLines(HEAD(fallback, 'Head(n_embd, block_size)'), 'ATT004'), []);
        const narrowed = HEAD(fallback, 'Head(n_embd, block_size, n_embd // n_head)');
        assert.deepEqual(await findingLines(narrowed, 'ATT004'), scaleLine(narrowed));
      });
    it('a fallback to another width, or of another name, is none', async () => {
      assert.deepEqual(await findingLines(HEAD('head_size = head_size or block_size', 'Head(n_embd, block_size)'), 'ATT004'), REPORTED);
      assert.deepEqual(await findingLines(HEAD('size = head_size or n_embd', 'Head(n_embd, block_size)'), 'ATT004'), REPORTED);
      const negated = HEAD('if head_size is not None:\n            head_size = n_embd', 'Head(n_embd, block_size)');
      assert.deepEqual(await findingLines(negated, 'ATT004'), scaleLine(negated));
    });
    it('a fallback in a function nested in the constructor is not the constructor`s', async () => {
      const nested = 'def pick(head_size):\n            head_size = head_size or n_embd\n            return head_size';
      const src = HEAD(nested, 'Head(n_embd, block_size)');
      assert.deepEqual(await findingLines(src, 'ATT004'), scaleLine(src));
    });
  });

  describe('a construction in another file (cross-file pair)', () => {
    const head = HEAD(PASS, 'None').replace(/\nclass Block[\s\S]*$/, '\n');
    const model = (call: string): string => `from head import Head


class Model:
    def __init__(self, n_embd=64, block_size=32, n_head=4):
        self.heads = [${call} for _ in range(n_head)]
`;
    it('built in model.py with comments and strings in the call: read there, silent; narrowed there: reported', async () => {
      const wide = 'Head(n_embd, block_size,  # (C)\n                      n_embd, name="h(i)")';
      const narrow = 'Head(n_embd, block_size,  # (C)\n                      n_embd // n_head, name="h(i)")';
      assert.deepEqual(await workspaceFindingLines({ 'head.py': head, 'model.py': model(wide) }, 'head.py', 'ATT004'), []);
      assert.deepEqual(await workspaceFindingLines({ 'head.py': head, 'model.py': model(narrow) }, 'head.py', 'ATT004'), REPORTED);
    });
    it('alone, the same file has no construction in view: reported', async () => {
      assert.deepEqual(await findingLines(head, 'ATT004'), REPORTED);
    });
  });

  describe('the construction a finding names (firstConstruction)', () => {
    const KERAS_MHA = `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer


class MultiHeadAttention(Layer):
    """Built as MultiHeadAttention(h, d_k, d_model)."""

    def __init__(self, h, d_k, d_model):
        super().__init__()
        self.heads = h
        self.d_k = d_k
        self.W_q = Dense(d_model)
        self.W_k = Dense(d_model)
        self.W_v = Dense(d_model)

    def split(self, x):
        x = tf.reshape(x, shape=(tf.shape(x)[0], tf.shape(x)[1], self.heads, -1))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.split(self.W_q(queries))
        k = self.split(self.W_k(keys))
        v = self.split(self.W_v(values))
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.d_k, tf.float32))
        return tf.matmul(tf.nn.softmax(scores), v)
`;
    const build = (dk: number): string =>
      `\n\nd_model = 512\nh = 8\nd_k = ${dk}\nlayer = MultiHeadAttention(\n    h,  # heads (8)\n    d_k,\n    d_model,\n)\n`;
    it('is the call, not its name in a docstring; a comment in the call does not hide it', async () => {
      const l = await createLinter(grammar());
      const found = l.lintPython(KERAS_MHA + build(512)).filter((f) => f.code === 'ATT004');
      assert.deepEqual(
        found.map((f) => f.line),
        [24],
      );
      assert.match(found[0]?.message ?? '', /`MultiHeadAttention\(.*`, line 31/);
      assert.ok(found[0]?.related?.some((r) => r.line === 31 && r.path === undefined));
      assert.deepEqual(await findingLines(KERAS_MHA + build(64), 'ATT004'), []);
    });
    it('built with `**cfg`: the binding is not shown, silent', async () => {
      assert.deepEqual(await findingLines(`${KERAS_MHA}\n\ncfg = dict(h=8, d_k=512, d_model=512)\nlayer = MultiHeadAttention(**cfg)\n`, 'ATT004'), []);
    });
    it('cross-file: the construction in model.py, with a comment inside, is named there', async () => {
      const model = `from attn import MultiHeadAttention\n\nlayer = MultiHeadAttention(8,  # heads\n                           512, 512)\n`;
      const l = await createLinter(grammar(), { workspace: memoryWorkspace({ 'attn.py': KERAS_MHA, 'model.py': model }) });
      const found = l.lintPython(KERAS_MHA, { path: 'attn.py' }).filter((f) => f.code === 'ATT004');
      assert.deepEqual(
        found.map((f) => f.line),
        [24],
      );
      assert.match(found[0]?.message ?? '', /in model\.py:3/);
    });
  });
});

// The names a construction passes are module-level constants only where nothing else binds them: read from the trees
// too (assignment targets, parameters, `for` targets, `as` aliases; `from model import n_embd` in an importing file).
// The text's regular expressions took a comment (`# n_embd = 32`) or a keyword argument (`build(n_embd=n_embd)`) for
// a binding, and missed an import spelt over several lines.
const ONE_HEAD = (extra: string): string => `import torch
import torch.nn as nn
from torch.nn import functional as F

# sizes: n_embd = 32 (the embedding), block_size = 8
block_size = 8
n_embd = 32


class Head(nn.Module):
    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)

    def forward(self, x):
        B, T, C = x.shape
        k, q = self.key(x), self.query(x)
        wei = q @ k.transpose(-2, -1) * C**-0.5
        return F.softmax(wei, dim=-1) @ self.value(x)
${extra}`;

describe('importer-calls: module-level widths bound nowhere else, read from the tree (ATT004)', () => {
  const model = '\n\nclass Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.sa_head = Head(n_embd)\n';
  it('`Head(n_embd)` with n_embd a module constant: silent, whatever the comments say', async () => {
    assert.deepEqual(await findingLines(ONE_HEAD(model), 'ATT004'), []);
  });
  it('a keyword argument of that name binds nothing: silent', async () => {
    assert.deepEqual(await findingLines(ONE_HEAD(`${model}\n\ndef build():\n    return Model(n_embd=n_embd)\n`), 'ATT004'), []);
  });
  it('a function taking n_embd, or a loop or an assignment rebinding it, makes the name no constant: reported', async () => {
    for (const extra of [
      '\n\ndef build(n_embd):\n    return Head(n_embd)\n',
      '\n\nheads = [Head(n_embd) for n_embd in (8, 16)]\n',
      `${model}\n\nn_embd += 32\n`,
      `${model}\n\nwith open("cfg") as n_embd:\n    pass\n`,
    ])
      assert.deepEqual(await findingLines(ONE_HEAD(extra), 'ATT004'), [20], extra);
  });
  it('cross-file: an importing file that takes the name from the module (over several lines) passes the constant: silent', async () => {
    const head = ONE_HEAD('');
    const train = (imports: string, body = ''): string => `${imports}\n\n${body}model = Head(n_embd)\n`;
    // (importers.ts finds the importing files by their first import line: `(Head,` must be on it.)
    const multiLine = 'from model import (Head,\n                   n_embd)';
    assert.deepEqual(await workspaceFindingLines({ 'model.py': head, 'train.py': train(multiLine) }, 'model.py', 'ATT004'), []);
    assert.deepEqual(await workspaceFindingLines({ 'model.py': head, 'train.py': train('from model import Head, n_embd') }, 'model.py', 'ATT004'), []);
    // Its own n_embd, or the name taken under another name: not the constant.
    assert.deepEqual(
      await workspaceFindingLines({ 'model.py': head, 'train.py': train('from model import Head', 'n_embd = 64\n') }, 'model.py', 'ATT004'),
      [20],
    );
    assert.deepEqual(
      await workspaceFindingLines({ 'model.py': head, 'train.py': train('from model import Head, n_embd as width', 'n_embd = width\n') }, 'model.py', 'ATT004'),
      [20],
    );
  });
});

// argumentNumber: a construction's argument named by a module-level constant bound once (`d_k = 512`), read from the
// tree: a construction passing the constants by keyword (`MultiHeadAttention(h=h, d_k=d_k, d_model=d_model)`) binds
// nothing, so the head width bound to the whole width split into heads is reported as it is for positional arguments.
describe('importer-calls: constants passed by keyword are still bound once (ATT004)', () => {
  const KERAS = `import tensorflow as tf
from tensorflow.keras.layers import Dense, Layer


class MultiHeadAttention(Layer):
    def __init__(self, h, d_k, d_model):
        super().__init__()
        self.heads = h
        self.d_k = d_k
        self.W_q = Dense(d_model)
        self.W_k = Dense(d_model)
        self.W_v = Dense(d_model)

    def split(self, x):
        x = tf.reshape(x, shape=(tf.shape(x)[0], tf.shape(x)[1], self.heads, -1))
        return tf.transpose(x, perm=(0, 2, 1, 3))

    def call(self, queries, keys, values):
        q = self.split(self.W_q(queries))
        k = self.split(self.W_k(keys))
        v = self.split(self.W_v(values))
        scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.d_k, tf.float32))
        return tf.matmul(tf.nn.softmax(scores), v)


d_model = 512
h = 8
`;
  it('d_k = 512 by keyword: reported; d_k = 64 by keyword: silent', async () => {
    assert.deepEqual(await findingLines(`${KERAS}d_k = 512\nlayer = MultiHeadAttention(h=h, d_k=d_k, d_model=d_model)\n`, 'ATT004'), [22]);
    assert.deepEqual(await findingLines(`${KERAS}d_k = 64\nlayer = MultiHeadAttention(h=h, d_k=d_k, d_model=d_model)\n`, 'ATT004'), []);
  });
  it('d_k bound twice, or a parameter of a function of the file: not a constant, silent', async () => {
    assert.deepEqual(await findingLines(`${KERAS}d_k = 512\nd_k = 64\nlayer = MultiHeadAttention(h, d_k, d_model)\n`, 'ATT004'), []);
    assert.deepEqual(await findingLines(`${KERAS}d_k = 512\nlayer = MultiHeadAttention(h, d_k, d_model)\n\n\ndef make(d_k):\n    return d_k\n`, 'ATT004'), []);
  });
});

// width-products.ts: a constructor parameter (`n_embd`) that every construction fills with a name the building file
// multiplies into a wider width (`Linear(n_embd, groups * n_embd)`) is one piece of that width, not the model width.
// With constructions read from the tree, a construction passing a string (`f"{name}-MHSA"`) is read like any other
// (the text's reading gave up on it), and a factor that is a module constant bound to a number (`N_QKV * n_embd`,
// `N_QKV = 3`: a fused projection's width) is that number in the building file too, as it is in the class's own
// (the metamorphic `const` rewrite of t29v-06 keeps its true finding).
const NP_MHSA = `import math

import numpy as np

from .tensor import Linear, Model, Softmax


class MultiHeadSelfAttention(Model):
    def __init__(self, n_embd, block_size, n_heads=8, name=""):
        self.n_embd = n_embd
        self.n_heads = n_heads
        self.attn = Linear(n_embd, 3 * n_embd, use_bias=False, name=f"{name}-attn")
        self.bias = np.tril(np.ones(shape=(1, 1, block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k0, q0, v0 = self.attn(x).split(3, axis=2)
        k = k0.reshape(B, T, self.n_heads, C // self.n_heads).transpose(0, 2, 1, 3)
        q = q0.reshape(B, T, self.n_heads, C // self.n_heads).transpose(0, 2, 1, 3)
        v = v0.reshape(B, T, self.n_heads, C // self.n_heads).transpose(0, 2, 1, 3)
        att = (q @ k.transpose(0, 1, 3, 2)) / math.sqrt(self.n_embd)
        att.data *= self.bias[:, :, :T, :T]
        att.data[att.data == 0.0] = -np.inf
        out = Softmax(att) @ v
        return out.transpose(0, 2, 1, 3).reshape(B, T, C)
`;
const NP_BLOCK = (factor: string, label: string): string => `

N_QKV = 3


class Block(Model):
    def __init__(self, n_embd, block_size, n_heads=8, name="", groups=2):
        self.attn = MultiHeadSelfAttention(n_embd, block_size, n_heads, ${label})
        self.mlp0 = Linear(n_embd, ${factor} * n_embd, name=f"{name}-mlp0")
`;

describe('importer-calls: the constructions width-products reads, strings and module constants included (ATT004)', () => {
  for (const label of ['f"{name}-MHSA"', 'name'])
    it(`built with ${label}: a constant factor (N_QKV * n_embd) is a number, reported; a name (groups * n_embd), silent`, async () => {
      assert.deepEqual(await findingLines(NP_MHSA + NP_BLOCK('N_QKV', label), 'ATT004'), [21]);
      assert.deepEqual(await findingLines(NP_MHSA + NP_BLOCK('groups', label), 'ATT004'), []);
    });
  it('cross-file: the block built in model.py, its product there', async () => {
    const model = (factor: string): string =>
      `from .attn import MultiHeadSelfAttention\nfrom .tensor import Linear, Model${NP_BLOCK(factor, 'f"{name}-MHSA"')}`;
    const files = (factor: string): Record<string, string> => ({ 'pkg/__init__.py': '', 'pkg/attn.py': NP_MHSA, 'pkg/model.py': model(factor) });
    assert.deepEqual(await workspaceFindingLines(files('N_QKV'), 'pkg/attn.py', 'ATT004'), [21]);
    assert.deepEqual(await workspaceFindingLines(files('groups'), 'pkg/attn.py', 'ATT004'), []);
  });
});
