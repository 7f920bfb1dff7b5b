// Session 31 (leftovers31): classes noticed in earlier sessions, each with its natural example, its correct form
// (silent) and, where it applies, a cross-file pair.
//  1. ATT004, widths held in class attributes: `class Cfg: HEAD_DIM = 64` read as `Cfg.HEAD_DIM`, or as `cfg.HEAD_DIM`
//     after `cfg = Cfg()` at module level, is that number wherever widths are compared (a literal `/ 64` against the
//     split `view(B, T, Cfg.N_HEADS, Cfg.HEAD_DIM)`); in the file, imported (`from config import Cfg`) and
//     star-imported. Not when anything assigns the attribute, the class binds it twice, or the instance is made with
//     arguments.
//  2. ATT004, widths held in module constants a star import brings in (`from config import *`): read as the
//     explicitly imported ones are.
import { strict as assert } from 'node:assert';
import { createLinter } from '../../../src/lint';
import { findingLines, grammar, linter, memoryWorkspace, workspaceFindingLines } from './helpers';

/** A multi-head self-attention whose widths are read as `${P}D_MODEL`, `${P}N_HEADS`, `${P}HEAD_DIM`. */
const attn = (P: string, scores: string, header: string): string => `${header}

class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(${P}D_MODEL, 3 * ${P}D_MODEL)
        self.proj = nn.Linear(${P}D_MODEL, ${P}D_MODEL)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(${P}D_MODEL, dim=2)
        q = q.view(B, T, ${P}N_HEADS, ${P}HEAD_DIM).transpose(1, 2)
        k = k.view(B, T, ${P}N_HEADS, ${P}HEAD_DIM).transpose(1, 2)
        v = v.view(B, T, ${P}N_HEADS, ${P}HEAD_DIM).transpose(1, 2)
        ${scores}
        att = torch.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)
`;
const IMPORTS = `import math\nimport torch\nimport torch.nn as nn\n`;
const CFG_CLASS = `class Cfg:\n    D_MODEL = 512\n    N_HEADS = 8\n    HEAD_DIM = D_MODEL // N_HEADS  # 64\n`;
/** Imports, the config class and its instance: lines 1-10; the scores line is 25. */
const inFile = (P: string, scores: string, cls = CFG_CLASS, instance = 'cfg = Cfg()'): string => attn(P, scores, `${IMPORTS}\n${cls}\n${instance}\n`);
const AT = 25;
const DIV64 = 'att = (q @ k.transpose(-2, -1)) / 64';
const ROOT64 = 'att = (q @ k.transpose(-2, -1)) * 64 ** -0.5';

describe('leftovers31 class 1: ATT004 widths held in class attributes', () => {
  for (const P of ['Cfg.', 'cfg.']) {
    it(`${P}HEAD_DIM = 64: / 64 on the scores is 1/d (at ${AT}); 64 ** -0.5 and math.sqrt(${P}HEAD_DIM) stay silent`, async () => {
      assert.deepEqual(await findingLines(inFile(P, DIV64), 'ATT004'), [AT]);
      assert.deepEqual(await findingLines(inFile(P, 'q = q * 64 ** -0.5\n        att = (q @ k.transpose(-2, -1)) * 64 ** -0.5'), 'ATT004'), [AT + 1]);
      assert.deepEqual(await findingLines(inFile(P, ROOT64), 'ATT004'), []);
      assert.deepEqual(await findingLines(inFile(P, `att = (q @ k.transpose(-2, -1)) / math.sqrt(${P}HEAD_DIM)`), 'ATT004'), []);
    });
  }
  it('a dataclass with annotated fields (HEAD_DIM: int = 64), and a class whose body the analysis reads (a method mentions the attention)', async () => {
    const dc = `from dataclasses import dataclass\n\n@dataclass\nclass Cfg:\n    D_MODEL: int = 512\n    N_HEADS: int = 8\n    HEAD_DIM: int = 64\n`;
    assert.deepEqual(await findingLines(inFile('cfg.', DIV64, dc), 'ATT004'), [AT + 3]);
    assert.deepEqual(await findingLines(inFile('cfg.', ROOT64, dc), 'ATT004'), []);
    const read = `${CFG_CLASS}\n    def attention_scale(self):\n        return 1.0 / math.sqrt(self.HEAD_DIM)\n`;
    assert.deepEqual(await findingLines(inFile('Cfg.', DIV64, read), 'ATT004'), [AT + 3]);
    assert.deepEqual(await findingLines(inFile('Cfg.', ROOT64, read), 'ATT004'), []);
  });
  it('not constants (silent): the attribute assigned anywhere, bound twice in the class, or the instance made with arguments', async () => {
    assert.deepEqual(await findingLines(inFile('cfg.', DIV64, CFG_CLASS, 'cfg = Cfg()\ncfg.HEAD_DIM = 32'), 'ATT004'), []);
    assert.deepEqual(await findingLines(inFile('Cfg.', DIV64, `${CFG_CLASS}    HEAD_DIM = 32\n`), 'ATT004'), []);
    assert.deepEqual(await findingLines(inFile('cfg.', DIV64, CFG_CLASS, 'cfg = Cfg(HEAD_DIM=32)'), 'ATT004'), []);
    const init = `class Cfg:\n    D_MODEL = 512\n    N_HEADS = 8\n    HEAD_DIM = 64\n\n    def __init__(self, head_dim=32):\n        self.HEAD_DIM = head_dim\n`;
    assert.deepEqual(await findingLines(inFile('cfg.', DIV64, init), 'ATT004'), []);
  });
  it('cross-file: the class imported from config.py (from config import Cfg) or star-imported, each buggy form and its correct form', async () => {
    for (const header of [`${IMPORTS}\nfrom config import Cfg\n`, `${IMPORTS}\nfrom config import *\n`, `${IMPORTS}\nfrom .config import Cfg\n`]) {
      const lint = (scores: string): Promise<number[]> =>
        workspaceFindingLines({ 'config.py': CFG_CLASS, 'attn.py': attn('Cfg.', scores, header) }, 'attn.py', 'ATT004');
      assert.deepEqual(await lint(DIV64), [20], header);
      assert.deepEqual(await lint(ROOT64), [], header);
      assert.deepEqual(await lint('att = (q @ k.transpose(-2, -1)) / math.sqrt(Cfg.HEAD_DIM)'), [], header);
    }
    // An instance made in config.py (`cfg = Cfg()`), imported by name.
    const withInstance = `${CFG_CLASS}\ncfg = Cfg()\n`;
    const lintInstance = (scores: string): Promise<number[]> =>
      workspaceFindingLines({ 'config.py': withInstance, 'attn.py': attn('cfg.', scores, `${IMPORTS}\nfrom config import cfg\n`) }, 'attn.py', 'ATT004');
    assert.deepEqual(await lintInstance(DIV64), [20]);
    assert.deepEqual(await lintInstance(ROOT64), []);
    // config.py's class holds another width (32): `/ 64` is not the stated one, silent.
    const other = CFG_CLASS.replace('D_MODEL // N_HEADS  # 64', '32');
    assert.deepEqual(
      await workspaceFindingLines({ 'config.py': other, 'attn.py': attn('Cfg.', DIV64, `${IMPORTS}\nfrom config import Cfg\n`) }, 'attn.py', 'ATT004'),
      [],
    );
  });
});

const CONSTS = `D_MODEL = 512\nN_HEADS = 8\nHEAD_DIM = D_MODEL // N_HEADS\n`;

describe('leftovers31 class 2: ATT004 widths a star import brings in', () => {
  const lint = (scores: string, config = CONSTS, star = 'from config import *'): Promise<number[]> =>
    workspaceFindingLines({ 'config.py': config, 'attn.py': attn('', scores, `${IMPORTS}\n${star}\n`) }, 'attn.py', 'ATT004');
  it('from config import *: / 64 and math.sqrt(D_MODEL) reported; 64 ** -0.5 and math.sqrt(HEAD_DIM) silent', async () => {
    assert.deepEqual(await lint(DIV64), [20]);
    assert.deepEqual(await lint('att = (q @ k.transpose(-2, -1)) / math.sqrt(D_MODEL)'), [20]);
    assert.deepEqual(await lint(ROOT64), []);
    assert.deepEqual(await lint('att = (q @ k.transpose(-2, -1)) / math.sqrt(HEAD_DIM)'), []);
    assert.deepEqual(await lint(DIV64, CONSTS, 'from .config import *'), [20]);
  });
  it('silent when the name is not the module constant: left out of __all__, rebound in config.py, or bound in the importing file', async () => {
    assert.deepEqual(await lint(DIV64, `__all__ = ["D_MODEL", "N_HEADS"]\n${CONSTS}`), []);
    assert.deepEqual(await lint(DIV64, `${CONSTS}HEAD_DIM = 32\n`), []);
    assert.deepEqual(await lint(DIV64, CONSTS, 'from config import *\nHEAD_DIM = 32'), []);
  });
});

// ------------------------------------------------------------------------------------------------ ATT002
//  3. A causal and a padding mask joined with the operator of the wrong polarity (ormask30), then combined further
//     with a mask of the same meaning (`(causal | pad) & valid_rows`, `~(...)`, the other operand first): still the
//     misjoin, reported once at the inner combination. Joined correctly and combined further: silent.
//  4. The misjoin made in a helper of another workspace file and returned (`return causal | pad`): reported where the
//     importing file reads it (at the call), the combination in the other file as a related location; the helper
//     joining correctly: silent.

function program(combine: string, consumer: string, extra = ''): string {
  return `import torch
import torch.nn.functional as F


def attend(q, k, v, ids, pad_id):
    T = ids.shape[1]
    c = torch.tril(torch.ones(T, T, dtype=torch.bool, device=ids.device))[None, None]
    p = (ids != pad_id)[:, None, None, :]
    m = ${combine}
    rows = (ids != pad_id)[:, None, :, None]${extra}
${consumer}
`;
}
const FILL_KEEP = `    s = (q @ k.transpose(-2, -1)) / q.shape[-1] ** 0.5
    s = s.masked_fill(m == 0, float('-inf'))
    return s.softmax(dim=-1) @ v`;
const FILL_IGNORE = `    s = (q @ k.transpose(-2, -1)) / q.shape[-1] ** 0.5
    s = s.masked_fill(m, float('-inf'))
    return s.softmax(dim=-1) @ v`;
const SDPA = '    return F.scaled_dot_product_attention(q, k, v, attn_mask=m)';
const att002 = (src: string): Promise<number[]> => findingLines(src, 'ATT002');

describe('leftovers31 class 3: ATT002 a wrong join combined further keeps its record', () => {
  it('keep masks: (c | p) & rows, rows & (c | p), logical_and, on a later line: reported at the union (line 9); (c & p) & rows silent', async () => {
    for (const consumer of [FILL_KEEP, SDPA]) {
      assert.deepEqual(await att002(program('c | p', consumer, '\n    m = m & rows')), [9]);
      assert.deepEqual(await att002(program('(c | p) & (ids != pad_id)[:, None, :, None]', consumer)), [9]);
      assert.deepEqual(await att002(program('(ids != pad_id)[:, None, :, None] & (c | p)', consumer)), [9]);
      assert.deepEqual(await att002(program('torch.logical_and(c | p, (ids != pad_id)[:, None, :, None])', consumer)), [9]);
      assert.deepEqual(await att002(program('c & p', consumer, '\n    m = m & rows')), []);
      assert.deepEqual(await att002(program('(c & p) & (ids != pad_id)[:, None, :, None]', consumer)), []);
    }
  });
  it('ignore masks: ~(c | p) read as an ignore mask is the intersection of ignore masks, combined further still reported; ~(c & p) silent', async () => {
    assert.deepEqual(await att002(program('~(c | p)', FILL_IGNORE, '\n    m = m | ~rows')), [9]);
    assert.deepEqual(await att002(program('~(c & p)', FILL_IGNORE, '\n    m = m | ~rows')), []);
  });
});

const HELPER = (op: string): string => `import torch


def make_mask(ids, pad_id):
    T = ids.shape[1]
    causal = torch.tril(torch.ones(T, T, dtype=torch.bool, device=ids.device))[None, None]
    pad = (ids != pad_id)[:, None, None, :]
    return causal ${op} pad
`;
const USER = (extra = ''): string => `import torch

from masks import make_mask


def attend(q, k, v, ids, pad_id):
    m = make_mask(ids, pad_id)${extra}
    s = (q @ k.transpose(-2, -1)) / q.shape[-1] ** 0.5
    s = s.masked_fill(m == 0, float('-inf'))
    return s.softmax(dim=-1) @ v
`;

describe('leftovers31 class 4: ATT002 a wrong join made in a helper of another file', () => {
  it('return causal | pad in masks.py, read as a keep mask in attn.py: reported at the call, the combination a related location', async () => {
    const l = await createLinter(grammar(), { workspace: memoryWorkspace({ 'masks.py': HELPER('|'), 'attn.py': USER() }) });
    const found = l.lintPython(USER(), { path: 'attn.py' }).filter((f) => f.code === 'ATT002');
    assert.deepEqual(
      found.map((f) => f.line),
      [7],
    );
    const rel = found[0]?.related?.find((r) => r.path === 'masks.py' && r.message.includes('combined here'));
    assert.equal(rel?.line, 8);
    assert.match(found[0]?.message ?? '', /masks\.py:8/);
  });
  it('combined further in the importing file, still reported once; the helper joining with and: silent', async () => {
    const files = (op: string, extra = ''): Record<string, string> => ({ 'masks.py': HELPER(op), 'attn.py': USER(extra) });
    assert.deepEqual(await workspaceFindingLines(files('|', '\n    m = m & (ids != pad_id)[:, None, :, None]'), 'attn.py', 'ATT002'), [7]);
    assert.deepEqual(await workspaceFindingLines(files('&'), 'attn.py', 'ATT002'), []);
    assert.deepEqual(await workspaceFindingLines(files('&', '\n    m = m & (ids != pad_id)[:, None, :, None]'), 'attn.py', 'ATT002'), []);
  });
});

// ------------------------------------------------------------------------------------------------ ATT007
//  5. A -1e9 fill of scores under autocast: float16 where autocast runs on CUDA with no dtype (`torch.autocast("cuda")`,
//     `torch.cuda.amp.autocast()`), in the file or in a trainer importing it; silent where the dtype is bfloat16 (a CPU
//     autocast, `dtype=torch.bfloat16`) and where the code does not say which device it names
//     (`torch.autocast(device_type=device)`, `torch.autocast(x.device.type)`: CUDA's float16 or the CPU's bfloat16).

const ATTEND = `import torch


def attend(q, k, v, mask):
    s = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    s = s.masked_fill(mask == 0, -1e9)
    return s.softmax(dim=-1) @ v
`;
const underAutocast = (call: string): string => `${ATTEND}


def run(q, k, v, mask, device):
    with ${call}:
        return attend(q, k, v, mask)
`;

describe('leftovers31 class 5: ATT007 -1e9 fills under autocast, decided by the device and dtype the code spells', () => {
  it('CUDA autocast with no dtype, or dtype=torch.float16: the fill overflows float16 (at 6)', async () => {
    for (const call of [
      'torch.autocast("cuda")',
      'torch.autocast(device_type="cuda", dtype=torch.float16)',
      'torch.cuda.amp.autocast()',
      'torch.autocast(device, dtype=torch.float16)',
    ])
      assert.deepEqual(await findingLines(underAutocast(call), 'ATT007'), [6], call);
  });
  it('bfloat16 autocast, or a device the code does not spell: silent', async () => {
    for (const call of [
      'torch.autocast("cpu")',
      'torch.autocast("cuda", dtype=torch.bfloat16)',
      'torch.autocast(device_type=device)',
      'torch.autocast(q.device.type)',
      'torch.amp.autocast(device_type=device.type, enabled=True)',
    ])
      assert.deepEqual(await findingLines(underAutocast(call), 'ATT007'), [], call);
    assert.deepEqual(await findingLines(ATTEND, 'ATT007'), []);
  });
  it('cross-file: the trainer runs the attention under autocast("cuda") (reported) or autocast(device_type=device) (silent)', async () => {
    const train = (call: string): string =>
      `import torch\n\nfrom attn import attend\n\n\ndef step(q, k, v, mask, device):\n    with ${call}:\n        return attend(q, k, v, mask).sum()\n`;
    assert.deepEqual(await workspaceFindingLines({ 'attn.py': ATTEND, 'train.py': train('torch.autocast("cuda")') }, 'attn.py', 'ATT007'), [6]);
    assert.deepEqual(await workspaceFindingLines({ 'attn.py': ATTEND, 'train.py': train('torch.autocast(device_type=device)') }, 'attn.py', 'ATT007'), []);
  });
});

// ------------------------------------------------------------------------------------------------ local windows
//  6. Local attention over a window of keys per query (stand-alone self-attention): q `(B, G, d, H, W, 1)` times the
//     keys unfolded to `(B, G, d, H, W, k*k)`, summed over the channels of a group: scores with a key axis (the window)
//     and no query axis of their own. ATT004: a count over the width split into that count (`* self.groups /
//     self.out_ch`, `/ self.out_ch * self.groups`, `* (self.groups / self.out_ch)`) where the summed size is stated as
//     `self.out_ch // self.groups` is 1/d; its square root and `d ** -0.5` are silent. ATT003: the paper's local logits
//     are unscaled, so no scale is silent. ATT001: the softmax over the window (dim=-1) is silent, over another axis
//     reported. The same count-over-width reading on ordinary multi-head scores.

const local = (scale: string, softmaxDim = '-1'): string => `import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LocalAttention2d(nn.Module):
    def __init__(self, in_ch, out_ch, window=7, groups=8):
        super().__init__()
        self.out_ch, self.window, self.groups = out_ch, window, groups
        self.to_q = nn.Conv2d(in_ch, out_ch, 1, bias=False)
        self.to_k = nn.Conv2d(in_ch, out_ch, 1, bias=False)
        self.to_v = nn.Conv2d(in_ch, out_ch, 1, bias=False)

    def forward(self, x):
        b, _, h, w = x.shape
        cg = self.out_ch // self.groups
        pad = self.window // 2
        xp = F.pad(x, [pad, pad, pad, pad])
        q = self.to_q(x).view(b, self.groups, cg, h, w, 1)
        k = self.to_k(xp).unfold(2, self.window, 1).unfold(3, self.window, 1)
        v = self.to_v(xp).unfold(2, self.window, 1).unfold(3, self.window, 1)
        k = k.contiguous().view(b, self.groups, cg, h, w, -1)
        v = v.contiguous().view(b, self.groups, cg, h, w, -1)
        logits = ${scale}
        attn = F.softmax(logits, dim=${softmaxDim})
        return (attn * v).sum(dim=-1).view(b, -1, h, w)
`;
const LOCAL_AT = 26;

describe('leftovers31 class 6: local-window attention scores (ATT004, ATT003, ATT001)', () => {
  it('a count over the width split into it, 1/d: reported at the scale; its root, d ** -0.5 and no scale are silent', async () => {
    for (const s of [
      '(q * k).sum(dim=2) * self.groups / self.out_ch',
      '(q * k).sum(dim=2) / self.out_ch * self.groups',
      '(q * k).sum(dim=2) * (self.groups / self.out_ch)',
    ])
      assert.deepEqual(await findingLines(local(s), 'ATT004'), [LOCAL_AT], s);
    for (const s of [
      '(q * k).sum(dim=2) * math.sqrt(self.groups / self.out_ch)',
      '(q * k).sum(dim=2) * cg ** -0.5',
      '(q * k).sum(dim=2) / math.sqrt(cg)',
      '(q * k).sum(dim=2)',
    ])
      for (const code of ['ATT001', 'ATT003', 'ATT004']) assert.deepEqual(await findingLines(local(s), code), [], `${code} ${s}`);
  });
  it('the softmax over another axis than the window: ATT001', async () => {
    assert.deepEqual(await findingLines(local('(q * k).sum(dim=2) * cg ** -0.5', '3'), 'ATT001'), [LOCAL_AT + 1]);
  });
  it('ordinary multi-head scores times heads / dim, with head_dim = self.dim // self.heads: 1/d (reported); sqrt of it silent', async () => {
    const mha = (scale: string): string => `import math

import torch
import torch.nn as nn


class MHA(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.dim, self.heads = dim, heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, _ = x.shape
        head_dim = self.dim // self.heads
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, head_dim).permute(2, 0, 3, 1, 4)
        s = (q @ k.transpose(-2, -1)) ${scale}
        return (s.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, self.dim)
`;
    assert.deepEqual(await findingLines(mha('* self.heads / self.dim'), 'ATT004'), [17]);
    assert.deepEqual(await findingLines(mha('* math.sqrt(self.heads / self.dim)'), 'ATT004'), []);
    assert.deepEqual(await findingLines(mha('/ math.sqrt(head_dim)'), 'ATT004'), []);
  });
});

//  7. ATT004, a head width held by a constructor parameter that every construction binds to the width split into
//     heads (`MultiHeadAttention(h, d_k, d_model)` after `d_k = 512`, `d_model = 512`): the message says where it was
//     bound (the construction, in this file or in a file importing it) and names it as a related location.

const KERAS_MHA = `import tensorflow as tf
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
`;
const BUILD = (dk: number): string => `\n\nd_model = 512\nh = 8\nd_k = ${dk}\nlayer = MultiHeadAttention(h, d_k, d_model)\n`;

describe('leftovers31 class 7: ATT004 says where the callers bind the head width', () => {
  it('in the file: the message names the construction and its line; d_k = 64 silent', async () => {
    const l = await linter();
    const found = l.lintPython(KERAS_MHA + BUILD(512)).filter((f) => f.code === 'ATT004');
    assert.deepEqual(
      found.map((f) => f.line),
      [22],
    );
    assert.match(found[0]?.message ?? '', /`MultiHeadAttention\(h, d_k, d_model\)`, line 29/);
    assert.ok(found[0]?.related?.some((r) => r.line === 29 && r.path === undefined));
    assert.deepEqual(await findingLines(KERAS_MHA + BUILD(64), 'ATT004'), []);
  });
  it('cross-file: built in model.py, the message names model.py and the line, the construction a related location there', async () => {
    const model = (dk: number): string => `from attn import MultiHeadAttention\n\nlayer = MultiHeadAttention(8, ${dk}, 512)\n`;
    const files = { 'attn.py': KERAS_MHA, 'model.py': model(512) };
    const l = await createLinter(grammar(), { workspace: memoryWorkspace(files) });
    const found = l.lintPython(KERAS_MHA, { path: 'attn.py' }).filter((f) => f.code === 'ATT004');
    assert.deepEqual(
      found.map((f) => f.line),
      [22],
    );
    assert.match(found[0]?.message ?? '', /in model\.py:3/);
    assert.ok(found[0]?.related?.some((r) => r.path === 'model.py' && r.line === 3));
    assert.deepEqual(await workspaceFindingLines({ 'attn.py': KERAS_MHA, 'model.py': model(64) }, 'attn.py', 'ATT004'), []);
  });
});

//  8. ATT004, multi-head scores split by a count the code does not name as heads (`groups`): the square root of that
//     count over the width split into it (`math.sqrt(self.groups / self.dim)`, `(self.groups / self.dim) ** 0.5`, a
//     `self.scale` bound to it from the constructor's parameters) is 1/sqrt(head_dim), the right scale: silent (main
//     read it as the projection's input width or the groups as a sequence length); the count over the width without the
//     root, held by `self.scale`, is 1/d: reported, naming the summed size.

const grouped = (init: string, scale: string): string => `import math

import torch
import torch.nn as nn


class GroupedAttention(nn.Module):
    def __init__(self, dim, groups=8):
        super().__init__()
        self.dim, self.groups = dim, groups
        self.qkv = nn.Linear(dim, 3 * dim)
        ${init}

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.groups, self.dim // self.groups).permute(2, 0, 3, 1, 4)
        s = (q @ k.transpose(-2, -1)) ${scale}
        return (s.softmax(dim=-1) @ v).transpose(1, 2).reshape(B, T, self.dim)
`;

describe('leftovers31 class 8: ATT004 the root of a count over the width split into it is the right scale', () => {
  it('correct forms, written out or held by self.scale: silent', async () => {
    for (const [init, scale] of [
      ['pass', '* math.sqrt(self.groups / self.dim)'],
      ['pass', '* (self.groups / self.dim) ** 0.5'],
      ['self.scale = math.sqrt(groups / dim)', '* self.scale'],
      ['self.scale = math.sqrt(self.groups / self.dim)', '* self.scale'],
    ])
      assert.deepEqual(await findingLines(grouped(init, scale), 'ATT004'), [], `${init} ${scale}`);
  });
  it('self.scale = self.groups / self.dim, multiplied in: 1/d, reported with the summed size', async () => {
    const l = await linter();
    const found = l.lintPython(grouped('self.scale = self.groups / self.dim', '* self.scale')).filter((f) => f.code === 'ATT004');
    assert.deepEqual(
      found.map((f) => f.line),
      [17],
    );
    assert.match(found[0]?.message ?? '', /1\/\(self\.dim \/\/ self\.groups\)/);
  });
});
