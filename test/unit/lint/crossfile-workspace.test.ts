// Cross-file evidence in the forms real projects use (issue 11): names bound by star imports and by an
// __init__.py that star-imports its submodules; the trainer's half precision reaching the attention module
// through a chain of importing files, from a sibling directory, and stopped by `autocast(enabled=False)`;
// attributes set by a base class of another file (with the related location placed in that file).
import { strict as assert } from 'node:assert';
import { sourcePrecision } from '../../../src/lint/analysis/precision';
import { createLinter, type Finding } from '../../../src/lint';
import { grammar, memoryWorkspace as workspace } from './helpers';

async function lint(files: Record<string, string>, path: string): Promise<Finding[]> {
  const l = await createLinter(grammar(), { workspace: workspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l.lintPython(files[path] ?? '', { path });
}

const codes = (fs: readonly Finding[]): string[] => fs.map((f) => `${f.code}@${f.line}`);
const foreign = (f: Finding | undefined): [string, number, number][] =>
  (f?.related ?? []).filter((r) => r.path !== undefined).map((r) => [r.path ?? '', r.line, r.column]);

describe('cross-file: names bound by star imports', () => {
  const masks = (op: string) => `import torch


def padding_mask(input_ids, pad_id=0):
    pad = input_ids.${op}(pad_id)
    return pad[:, None, None, :]
`;
  const model = (importLine: string) => `import torch
import torch.nn.functional as F
${importLine}


def attend(q, k, v, input_ids):
    mask = padding_mask(input_ids)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
`;

  it('`from .masks import *`: a helper built True at padding reaches SDPA (buggy, names masks.py); built True at tokens: silent', async () => {
    const files = (op: string) => ({ 'pkg/__init__.py': '', 'pkg/masks.py': masks(op), 'pkg/model.py': model('from .masks import *') });
    const fs = await lint(files('eq'), 'pkg/model.py');
    assert.deepEqual(codes(fs), ['ATT002@8']);
    assert.match(fs[0]?.message ?? '', /from `padding_mask` in pkg\/masks\.py:5/);
    assert.deepEqual(foreign(fs[0]), [['pkg/masks.py', 5, 11]]);
    assert.deepEqual(await lint(files('ne'), 'pkg/model.py'), []);
  });

  it("an __init__.py's `from .masks import *` re-exports the helper to `from pkg import padding_mask`", async () => {
    const files = (op: string) => ({
      'pkg/__init__.py': 'from .masks import *\n',
      'pkg/masks.py': masks(op),
      'model.py': model('from pkg import padding_mask'),
    });
    assert.deepEqual(codes(await lint(files('eq'), 'model.py')), ['ATT002@8']);
    assert.deepEqual(await lint(files('ne'), 'model.py'), []);
  });

  it("a star import binds only what the module's __all__ lists, when it has one", async () => {
    const files = (all: string) => ({ 'pkg/__init__.py': '', 'pkg/masks.py': `${all}\n${masks('eq')}`, 'pkg/model.py': model('from .masks import *') });
    assert.deepEqual(codes(await lint(files('__all__ = ["padding_mask"]'), 'pkg/model.py')), ['ATT002@8']);
    assert.deepEqual(await lint(files("__all__ = ('other_helper',)"), 'pkg/model.py'), []);
  });

  it('a star import of a module that does not define the name, or of a library, binds nothing', async () => {
    const files = { 'pkg/__init__.py': '', 'pkg/other.py': 'X = 1\n', 'pkg/model.py': model('from .other import *\nfrom torch import *') };
    assert.deepEqual(await lint(files, 'pkg/model.py'), []);
  });
});

describe('cross-file: half precision set by a trainer further away', () => {
  const attention = (fill: string, extra = '') => `import torch
import torch.nn as nn


class Attention(nn.Module):
    def forward(self, q, k, v, mask):
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        scores = scores.masked_fill(mask == 0, ${fill})
        return torch.softmax(scores, dim=-1) @ v
${extra}`;
  const net = (body = 'return self.attn(x, x, x, mask)') => `import torch
import torch.nn as nn

from .layers.attention import Attention


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = Attention()

    def forward(self, x, mask):
        ${body}
`;
  const trainer = (precision: string) => `from transformers import Trainer, TrainingArguments

from nets.net import Net

model = Net()
args = TrainingArguments("out", ${precision})
Trainer(model=model, args=args).train()
`;
  const project = (fill: string, precision: string, netBody?: string) => ({
    'nets/__init__.py': '',
    'nets/layers/__init__.py': '',
    'nets/layers/attention.py': attention(fill),
    'nets/net.py': net(netBody),
    'train.py': trainer(precision),
  });

  it('TrainingArguments(fp16=True) in train.py, through net.py: a -1e9 fill is reported (names train.py); the finfo fill is fixed', async () => {
    const fs = await lint(project('-1e9', 'fp16=True'), 'nets/layers/attention.py');
    assert.deepEqual(codes(fs), ['ATT007@8']);
    assert.match(fs[0]?.message ?? '', /train\.py:6/);
    assert.deepEqual(foreign(fs[0]), [['train.py', 6, 33]]);
    assert.deepEqual(await lint(project('torch.finfo(scores.dtype).min', 'fp16=True'), 'nets/layers/attention.py'), []);
    assert.deepEqual(await lint(project('-1e9', 'fp16=False'), 'nets/layers/attention.py'), []);
  });

  it("a comment that says half precision does not hide the trainer: the related location is train.py's fp16=True", async () => {
    const prose = '\n# runs in half precision on the GPU\n';
    const files = (precision: string) => ({ ...project('-1e9', precision), 'nets/layers/attention.py': attention('-1e9', prose) });
    const fs = await lint(files('fp16=True'), 'nets/layers/attention.py');
    assert.deepEqual(codes(fs), ['ATT007@8']);
    assert.match(fs[0]?.message ?? '', /train\.py:6/);
    assert.deepEqual(foreign(fs[0]), [['train.py', 6, 33]]);
    // With no trainer, the comment is the only evidence: reported as before, pointing at the comment.
    const alone = await lint({ 'attention.py': attention('-1e9', prose) }, 'attention.py');
    assert.deepEqual(codes(alone), ['ATT007@8']);
    assert.deepEqual(foreign(alone[0]), []);
    assert.match(alone[0]?.related?.[0]?.message ?? '', /half precision/);
    // A comment that the fill fits float16 is no evidence that the file runs in it.
    assert.deepEqual(await lint({ 'attention.py': attention('-1e9', '\n# the fill fits float16\n') }, 'attention.py'), []);
  });

  it("the related location is the trainer's line, not a mention of fp16 in the model file's leading comment", async () => {
    const files = {
      'models/__init__.py': '',
      'models/attention.py': `# Attention for the fp16 trainer in scripts/.\n${attention('-1e9')}`,
      'scripts/train.py': 'from models.attention import Attention\n\nmodel = Attention().cuda().half()\n',
    };
    const fs = await lint(files, 'models/attention.py');
    assert.deepEqual(codes(fs), ['ATT007@9']);
    assert.deepEqual(
      fs[0]?.related?.map((r) => [r.path, r.line]),
      [['scripts/train.py', 3]],
    );
  });

  it('a trainer in a sibling directory (scripts/ beside models/) that calls .half() on the model', async () => {
    const files = (fill: string) => ({
      'models/__init__.py': '',
      'models/attention.py': attention(fill),
      'scripts/train.py': 'from models.attention import Attention\n\nmodel = Attention().cuda().half()\n',
    });
    const fs = await lint(files('-1e9'), 'models/attention.py');
    assert.deepEqual(codes(fs), ['ATT007@8']);
    assert.deepEqual(foreign(fs[0]), [['scripts/train.py', 3, 27]]);
    assert.deepEqual(await lint(files('torch.finfo(scores.dtype).min'), 'models/attention.py'), []);
  });

  it('a chain longer than three files, or a file of the chain that runs the attention under autocast(enabled=False): silent', async () => {
    const offBody = 'with torch.autocast("cuda", enabled=False):\n            return self.attn(x.float(), x.float(), x.float(), mask)';
    assert.deepEqual(await lint(project('-1e9', 'fp16=True', offBody), 'nets/layers/attention.py'), []);
    const far = {
      ...project('-1e9', 'fp16=True'),
      'nets/wrap.py': 'from .net import Net\n\n\nclass Wrapped(Net):\n    pass\n',
      'nets/outer.py': 'from .wrap import Wrapped\n\n\nclass Outer(Wrapped):\n    pass\n',
      'train.py': trainer('fp16=True').replace('from nets.net import Net', 'from nets.outer import Outer as Net'),
    };
    assert.deepEqual(await lint(far, 'nets/layers/attention.py'), []);
  });
});

describe('cross-file: attributes set by a base class of another file', () => {
  const base = (scale: string) => `import torch.nn as nn


class BaseAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = ${scale}
`;
  const model = `import torch

from .base import BaseAttention


class Attention(BaseAttention):
    def forward(self, q, k, v):
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
        return torch.softmax(scores, dim=-1) @ v
`;

  it('self.scale = head_dim ** 0.5 in base.py multiplied into the scores: buggy, its definition placed in base.py; ** -0.5: fixed', async () => {
    const files = (scale: string) => ({ 'attn/__init__.py': '', 'attn/base.py': base(scale), 'attn/model.py': model });
    const fs = await lint(files('self.head_dim ** 0.5'), 'attn/model.py');
    assert.deepEqual(codes(fs), ['ATT004@8']);
    assert.deepEqual(
      fs[0]?.related?.map((r) => [r.path, r.line, r.column, r.endLine, r.endColumn]),
      [['attn/base.py', 9, 9, 9, 42]],
    );
    assert.deepEqual(await lint(files('self.head_dim ** -0.5'), 'attn/model.py'), []);
  });
});

describe('cross-file: masks built in the data pipeline', () => {
  const data = (op: string) => `import torch
from torch.utils.data import Dataset


def collate(batch, pad_id=0):
    ids = torch.nn.utils.rnn.pad_sequence(batch, batch_first=True, padding_value=pad_id)
    mask = ids.${op}(pad_id)
    return ids, mask


class TextDataset(Dataset):
    def __init__(self, seqs, pad_id=0):
        self.seqs = seqs
        self.pad_id = pad_id

    def __len__(self):
        return len(self.seqs)

    def __getitem__(self, i):
        ids = self.seqs[i]
        return ids, ids.${op}(self.pad_id)
`;
  const train = (loader: string) => `import torch.nn as nn
from functools import partial
from torch.utils.data import DataLoader

from data import TextDataset, collate

attn = nn.MultiheadAttention(256, 8, batch_first=True)
emb = nn.Embedding(1000, 256)
loader = ${loader}
for ids, mask in loader:
    x = emb(ids)
    out, _ = attn(x, x, x, key_padding_mask=mask)
`;
  const pair = async (loader: string): Promise<[string[], string[]]> => [
    codes(await lint({ 'data.py': data('ne'), 'train.py': train(loader) }, 'train.py')),
    codes(await lint({ 'data.py': data('eq'), 'train.py': train(loader) }, 'train.py')),
  ];

  it('collate_fn=partial(collate, pad_id=1): a keep mask given as key_padding_mask is reported; a padding mask is not', async () => {
    assert.deepEqual(await pair('DataLoader(seqs, batch_size=8, collate_fn=partial(collate, pad_id=1))'), [['ATT002@12'], []]);
  });

  it("a Dataset's __getitem__ mask through the default collate: reported with its place in data.py; a padding mask is not", async () => {
    assert.deepEqual(await pair('DataLoader(TextDataset(seqs), batch_size=8)'), [['ATT002@12'], []]);
    const fs = await lint({ 'data.py': data('ne'), 'train.py': train('DataLoader(TextDataset(seqs), batch_size=8)') }, 'train.py');
    assert.match(fs[0]?.message ?? '', /from `__getitem__` in data\.py:21/);
  });

  it('a partial of something that is not a function, or a dataset the analysis cannot see: silent', async () => {
    assert.deepEqual(await pair('DataLoader(seqs, collate_fn=partial(make_collate(), pad_id=1))'), [[], []]);
    assert.deepEqual(await pair('DataLoader(load_dataset("x"), batch_size=8)'), [[], []]);
  });
});

describe('cross-file: Keras MultiHeadAttention given the mask positionally', () => {
  const utils = (cmp: string) => `import tensorflow as tf


def create_padding_mask(seq):
    seq = tf.cast(tf.math.${cmp}(seq, 0), tf.float32)
    return seq[:, tf.newaxis, tf.newaxis, :]
`;
  const model = `import tensorflow as tf

from utils import create_padding_mask


class EncoderLayer(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.mha = tf.keras.layers.MultiHeadAttention(num_heads=num_heads, key_dim=d_model)

    def call(self, x, training, mask):
        return self.mha(x, x, x, mask)


class Encoder(tf.keras.Model):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.layer = EncoderLayer(d_model, num_heads)

    def call(self, inp, training):
        return self.layer(inp, training, create_padding_mask(inp))
`;

  it('a padding mask (1.0 at token id 0) from utils.py as the fourth argument: reported (names utils.py); 1.0 at tokens: silent', async () => {
    const fs = await lint({ 'utils.py': utils('equal'), 'model.py': model }, 'model.py');
    assert.deepEqual(codes(fs), ['ATT002@12']);
    assert.deepEqual(foreign(fs[0]), [['utils.py', 5, 19]]);
    assert.deepEqual(await lint({ 'utils.py': utils('not_equal'), 'model.py': model }, 'model.py'), []);
  });
});

describe('cross-file: class constants and dataclass fields defined in another file', () => {
  const consts = (value: string) => `class Consts:
    MASK_VALUE = ${value}
`;
  const useConst = `import torch

from consts import Consts


def attend(q, k, v, mask):
    scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    scores = scores.masked_fill(mask == 0, Consts.MASK_VALUE)
    return torch.softmax(scores, dim=-1) @ v


def run(model, x):
    return model.half()(x)
`;
  const config = (value: string) => `from dataclasses import dataclass


@dataclass
class AttnConfig:
    dim: int = 512
    heads: int = 8
    mask_value: float = ${value}
`;
  const useConfig = `import torch
import torch.nn as nn

from config import AttnConfig


class Attention(nn.Module):
    def __init__(self, cfg: AttnConfig):
        super().__init__()
        self.cfg = cfg

    def forward(self, q, k, v, mask):
        scores = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
        scores = scores.masked_fill(mask == 0, self.cfg.mask_value)
        return torch.softmax(scores, dim=-1) @ v


model = Attention(AttnConfig()).half()
`;

  it('Consts.MASK_VALUE = -1e9 in consts.py filled in a half-precision file: reported; -1e4: silent', async () => {
    const fs = await lint({ 'consts.py': consts('-1e9'), 'model.py': useConst }, 'model.py');
    assert.deepEqual(codes(fs), ['ATT007@8']);
    // Where the fill is defined: in consts.py, at its own line and column.
    assert.deepEqual(foreign(fs[0]), [['consts.py', 2, 5]]);
    assert.deepEqual(await lint({ 'consts.py': consts('-1e4'), 'model.py': useConst }, 'model.py'), []);
  });

  it("a dataclass field's default (mask_value: float = -1e9) read through a parameter annotated with the class: reported; -1e4: silent", async () => {
    assert.deepEqual(codes(await lint({ 'config.py': config('-1e9'), 'model.py': useConfig }, 'model.py')), ['ATT007@14']);
    assert.deepEqual(await lint({ 'config.py': config('-1e4'), 'model.py': useConfig }, 'model.py'), []);
  });

  it('the same class in the linted file itself', async () => {
    const one = (value: string) => ({ 'model.py': `${consts(value)}\n\n${useConst.replace('from consts import Consts\n', '')}` });
    assert.deepEqual(codes(await lint(one('-1e9'), 'model.py')), ['ATT007@11']);
    assert.deepEqual(await lint(one('-1e4'), 'model.py'), []);
  });
});

describe('cross-file: precision flags set to False', () => {
  it('fp16=False, fp16: bool = False and bf16 = False are no evidence of half precision; fp16=True and --fp16 on by default are', () => {
    for (const off of ['args = TrainingArguments("out", fp16=False)', 'class C:\n    fp16: bool = False', 'bf16 = False', 'fp16 = None'])
      assert.deepEqual(sourcePrecision(off), { fp16: false, bf16: false }, off);
    assert.equal(sourcePrecision('args = TrainingArguments("out", fp16=True)').fp16, true);
    // Declared off (store_true, no default=True) is an offer, not a use, since session 42 (att007-amp-option-declared42.test.ts).
    assert.equal(sourcePrecision('p.add_argument("--fp16", action="store_true")').fp16, false);
    assert.equal(sourcePrecision('p.add_argument("--fp16", action="store_true", default=True)').fp16, true);
    assert.equal(sourcePrecision('TrainingArguments("out", bf16=True)').bf16, true);
  });

  it('a mixed-precision flag set to False (use_amp=False, mixed_precision: bool = False) is no evidence; one set True or read is', () => {
    for (const off of ['train(model, use_amp=False)', 'class C:\n    mixed_precision: bool = False', 'half_precision = None'])
      assert.deepEqual(sourcePrecision(off), { fp16: false, bf16: false }, off);
    for (const on of ['train(model, use_amp=True)', 'if args.use_amp:\n    pass', 'use_amp = False\nuse_amp = args.amp'])
      assert.equal(sourcePrecision(on).fp16, true, on);
  });
});
