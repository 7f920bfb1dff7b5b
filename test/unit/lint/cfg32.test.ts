// Session 32 (cfg32): values read from config objects. A value the code does not show (a constructor argument, a field
// of a config whose class is not in view, a name imported from outside the workspace) reads as unknown, never as a guess;
// a config field whose class and construction are in view reads as its value. Classes, each with its natural example
// (reported), its correct form (silent) and the forms a naive reading would misread (silent):
//  1. ATT002: a mask filled with a value the code does not show (`m.float().masked_fill(m == 0, self.fill)`) is no
//     longer a known 0/1 mask: handed to nn.TransformerEncoder it is not reported as one.
//  2. ATT006: a 0/1 mask times a value the code does not show, added to the scores (`scores += m * self.neg`), may be
//     the additive mask: a product of the scores with the 0/1 mask beside it is not reported as the only mask.
//  3. ATT004: a projection to the input's width times a count the code does not show (`nn.Linear(d, d * n_parts)`) is
//     not one that narrows: sqrt of the input width on one of its parts is not reported as the model width.
//  4. Config fields as values: a config instance held in a class attribute (`cfg = Cfg()` in the class body) or
//     passed to `__init__` (`self.cfg = cfg`) and built in view (`Cfg()`, `Cfg(neg=-1e4)`), its class a dataclass or a
//     plain class in the file or in config.py: `self.cfg.x` is the default, or the value the construction passes.
import { strict as assert } from 'node:assert';
import { findingLines, linter, workspaceFindingLines } from './helpers';

// ------------------------------------------------------------------------------------------------ class 1 (ATT002)

/** A causal mask built as a float and handed to nn.TransformerEncoder; `build` is the line that finishes it (line 16). */
const encoderMask = (build: string, extraInit = '', params = ''): string => `import math
import torch
import torch.nn as nn


class TransformerModel(nn.Module):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers${params}):
        super().__init__()
        ${extraInit || 'self.ninp = ninp'}
        layer = nn.TransformerEncoderLayer(ninp, nhead, nhid)
        self.transformer_encoder = nn.TransformerEncoder(layer, nlayers)
        self.encoder = nn.Embedding(ntoken, ninp)

    def _square_subsequent_mask(self, sz):
        mask = (torch.triu(torch.ones(sz, sz)) == 1).transpose(0, 1)
        ${build}
        return mask

    def forward(self, src):
        src_mask = self._square_subsequent_mask(len(src))
        return self.transformer_encoder(self.encoder(src), src_mask)
`;
const MASK_AT = 21;

// ------------------------------------------------------------------------------------------------ class 2 (ATT006)

/** Scores multiplied by a 0/1 mask, then an additive term `extra` (line 17). */
const mulMasked = (extra: string, params = '', init = 'self.d = d'): string => `import math
import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, d${params}):
        super().__init__()
        ${init}

    def forward(self, q, k, v, attention_mask):
        # attention_mask: (B, 1, T, S), 1 at real tokens, 0 at padding
        pad = torch.le(attention_mask, 0.5).to(torch.float32)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        scores = torch.mul(scores, 1.0 - pad)
        ${extra}
        w = torch.softmax(scores, dim=-1)
        return torch.matmul(w, v)
`;
const MUL_AT = 15;

// ------------------------------------------------------------------------------------------------ class 3 (ATT004)

/** One head whose q, k, v are parts of one projection of width `out` (line 10); the scale is on line 14. */
const oneHead = (out: string, params = ', n_parts'): string => `import math
import torch
from torch import nn


class SingleHeadAttention(nn.Module):
    def __init__(self, head_size${params}):
        super().__init__()
        self.d_k = head_size
        self.proj = nn.Linear(head_size, ${out})

    def forward(self, x):
        query, key, value = self.proj(x).chunk(3, dim=-1)
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(self.d_k)
        p_attn = scores.softmax(dim=-1)
        return torch.matmul(p_attn, value)
`;
const SCALE_AT = 14;

// ------------------------------------------------------------------------------------------------ class 4 (values)

/**
 * A half-precision model whose fill is a config field (`self.cfg.mask_fill`, line 28); `build` constructs it (line 34+).
 * The config dataclass (lines 8-12) declares `mask_fill: float = ${fill}`.
 */
const fp16Model = (fill: string, build: string): string => `import math
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class AttnConfig:
    d_model: int = 512
    n_head: int = 8
    mask_fill: float = ${fill}


class Attention(nn.Module):
    def __init__(self, cfg: AttnConfig):
        super().__init__()
        self.cfg = cfg
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)

    def forward(self, x, mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(self.cfg.d_model, dim=2)
        q = q.view(B, T, self.cfg.n_head, C // self.cfg.n_head).transpose(1, 2)
        k = k.view(B, T, self.cfg.n_head, C // self.cfg.n_head).transpose(1, 2)
        v = v.view(B, T, self.cfg.n_head, C // self.cfg.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))
        att = att.masked_fill(mask == 0, self.cfg.mask_fill)
        att = torch.softmax(att, dim=-1)
        return (att @ v).transpose(1, 2).reshape(B, T, C)


def main(mask):
    ${build}
    x = torch.randn(2, 16, 512).cuda().half()
    return model(x, mask)
`;
const FILL_AT = 28;
const HALF = (cfg: string): string => `model = Attention(${cfg}).cuda().half()`;
const ARGPARSE = `import argparse

    p = argparse.ArgumentParser()
    p.add_argument("--mask_fill", type=float, default=-1e4)
    args = p.parse_args()
    model = Attention(AttnConfig(mask_fill=args.mask_fill)).cuda().half()`;

/** A config instance held in a class attribute of the attention module (`cfg = Cfg()`), its fill a field (line 19). */
const classAttrConfig = (fill: string, instance = 'Cfg()'): string => `import math
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Cfg:
    neg: float = ${fill}


class Attention(nn.Module):
    cfg = ${instance}

    def forward(self, q, k, v, mask):
        # q, k, v: (B, H, T, D)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        scores = scores.masked_fill(mask == 0, self.cfg.neg)
        return torch.matmul(torch.softmax(scores, dim=-1), v)
`;
const CLS_FILL_AT = 19;

const CASES: readonly (readonly [id: string, code: string, what: string, lines: readonly number[], src: string])[] = [
  ['c1_float01', 'ATT002', 'a float 0/1 causal mask handed to nn.TransformerEncoder', [MASK_AT], encoderMask('mask = mask.float()')],
  [
    'c1_ok_inf',
    'ATT002',
    'the mask filled with -inf and 0.0 (additive)',
    [],
    encoderMask('mask = mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, 0.0)'),
  ],
  [
    'c1_ok_param_fill',
    'ATT002',
    'the fill a constructor argument (not shown): unknown, silent',
    [],
    encoderMask('mask = mask.float().masked_fill(mask == 0, self.fill).masked_fill(mask == 1, 0.0)', 'self.fill = fill', ', fill'),
  ],
  [
    'c1_ok_config_fill',
    'ATT002',
    'the fill a field of a config passed in, its class not in view: silent',
    [],
    encoderMask('mask = mask.float().masked_fill(mask == 0, self.cfg.neg).masked_fill(mask == 1, 0.0)', 'self.cfg = cfg', ', cfg'),
  ],
  ['c2_mul_only', 'ATT006', 'the scores times a 0/1 keep mask as the only mask', [MUL_AT], mulMasked('pass')],
  ['c2_ok_additive', 'ATT006', 'with pad * -10000.0 added', [], mulMasked('scores += pad * -10000.0')],
  [
    'c2_ok_param',
    'ATT006',
    'with pad times a constructor argument added (not shown): silent',
    [],
    mulMasked('scores += pad * self.neg', ', neg', 'self.neg = neg'),
  ],
  ['c2_ok_param_left', 'ATT006', 'the same written neg * pad: silent', [], mulMasked('scores = scores + self.neg * pad', ', neg', 'self.neg = neg')],
  [
    'c2_ok_config',
    'ATT006',
    'with pad times a config field, its class not in view: silent',
    [],
    mulMasked('scores += pad * self.cfg.neg', ', cfg', 'self.cfg = cfg'),
  ],
  ['c2_small', 'ATT006', 'with pad times 1.0 added (no mask)', [MUL_AT], mulMasked('scores += pad * 1.0')],
  ['c3_narrow', 'ATT004', 'nn.Linear(head_size, n_parts) cut in three: sqrt(head_size) is the input width', [SCALE_AT], oneHead('n_parts')],
  ['c3_ok_fused', 'ATT004', 'nn.Linear(head_size, head_size * 3) cut in three', [], oneHead('head_size * 3', '')],
  ['c3_ok_unshown', 'ATT004', 'nn.Linear(head_size, head_size * n_parts) cut in three: each part may be head_size wide', [], oneHead('head_size * n_parts')],
  ['c3_ok_unshown_left', 'ATT004', 'nn.Linear(head_size, n_parts * head_size)', [], oneHead('n_parts * head_size')],
  ['c4_default_fp16', 'ATT007', 'the default -1e9 of a config built with no arguments, in float16', [FILL_AT], fp16Model('-1e9', HALF('AttnConfig()'))],
  ['c4_ok_default_fits', 'ATT007', 'the default -1e4 (fits float16)', [], fp16Model('-1e4', HALF('AttnConfig()'))],
  [
    'c4_ok_overridden',
    'ATT007',
    'the default -1e9 overridden at construction: AttnConfig(mask_fill=-1e4)',
    [],
    fp16Model('-1e9', HALF('AttnConfig(mask_fill=-1e4)')),
  ],
  ['c4_overridden_bad', 'ATT007', 'a fitting default overridden with -1e9 at construction', [FILL_AT], fp16Model('-1e4', HALF('AttnConfig(mask_fill=-1e9)'))],
  ['c4_other_field', 'ATT007', 'a construction that sets another field only: the default holds', [FILL_AT], fp16Model('-1e9', HALF('AttnConfig(d_model=512)'))],
  ['c4_ok_argparse', 'ATT007', 'the field set at run time by argparse: unknown, silent', [], fp16Model('-1e9', ARGPARSE)],
  [
    'c4_ok_differing',
    'ATT007',
    'two constructions that differ, either of which may reach the model (AttnConfig(), AttnConfig(mask_fill=-1e4)): unknown, silent',
    [],
    fp16Model('-1e9', `configs = {"big": AttnConfig(), "small": AttnConfig(mask_fill=-1e4)}\n    ${HALF('configs[mask.name]')}`),
  ],
  [
    'c4_differing_in_view',
    'ATT007',
    'two constructions that differ, the model built in float16 from the one with -1e9 (that instance is known)',
    [FILL_AT],
    fp16Model('-1e9', `${HALF('AttnConfig()')}\n    small = Attention(AttnConfig(mask_fill=-1e4))`),
  ],
  [
    'c4_near_zero_default',
    'ATT007',
    'a near-zero default (-1e-9) of a config built with no arguments',
    [FILL_AT],
    fp16Model('-1e-9', 'model = Attention(AttnConfig())').replace('.cuda().half()', ''),
  ],
  [
    'c4_namedtuple',
    'ATT007',
    'a NamedTuple config built with no arguments: its default -1e9',
    [FILL_AT - 1],
    fp16Model('-1e9', HALF('AttnConfig()'))
      .replace('from dataclasses import dataclass', 'from typing import NamedTuple')
      .replace('@dataclass\nclass AttnConfig:', 'class AttnConfig(NamedTuple):'),
  ],
  [
    'c4_ok_namedtuple_positional',
    'ATT007',
    'a NamedTuple config built AttnConfig(512, 8, -1e4): the positional value wins',
    [],
    fp16Model('-1e9', HALF('AttnConfig(512, 8, -1e4)'))
      .replace('from dataclasses import dataclass', 'from typing import NamedTuple')
      .replace('@dataclass\nclass AttnConfig:', 'class AttnConfig(NamedTuple):'),
  ],
  ['c4_class_attr', 'ATT007', 'a class-attribute config (cfg = Cfg()) whose fill field is -1e-9', [CLS_FILL_AT], classAttrConfig('-1e-9')],
  ['c4_ok_class_attr', 'ATT007', 'the same with -1e9', [], classAttrConfig('-1e9')],
  ['c4_ok_class_attr_override', 'ATT007', 'a class-attribute config built Cfg(neg=-1e9) over a -1e-9 default', [], classAttrConfig('-1e-9', 'Cfg(neg=-1e9)')],
];

describe('cfg32: values read from config objects', () => {
  for (const [id, code, what, lines, src] of CASES) {
    it(`${id}: ${what} (${code} ${lines.length === 0 ? 'silent' : `at ${lines.join(', ')}`})`, async () => {
      assert.deepEqual(await findingLines(src, code), lines);
    });
  }

  it('class 1-2 cross-file: a fill imported from a module outside the workspace is unknown; from config.py it is its value', async () => {
    const outside = encoderMask('mask = mask.float().masked_fill(mask == 0, NEG).masked_fill(mask == 1, 0.0)').replace(
      'import torch.nn as nn\n',
      'import torch.nn as nn\nfrom settings import NEG\n',
    );
    assert.deepEqual(await workspaceFindingLines({ 'pkg/model.py': outside }, 'pkg/model.py', 'ATT002'), []);
    const inside = outside.replace('from settings import NEG', 'from pkg.config import NEG');
    const files = (neg: string): Record<string, string> => ({ 'pkg/__init__.py': '', 'pkg/config.py': `NEG = ${neg}\n`, 'pkg/model.py': inside });
    assert.deepEqual(await workspaceFindingLines(files('float("-inf")'), 'pkg/model.py', 'ATT002'), []);
    const mul = mulMasked('scores += pad * NEG').replace('import torch.nn as nn\n', 'import torch.nn as nn\nfrom settings import NEG\n');
    assert.deepEqual(await workspaceFindingLines({ 'pkg/attn.py': mul }, 'pkg/attn.py', 'ATT006'), []);
  });

  it('class 4 cross-file: the config in config.py, the model in model.py, built in train.py (default reported, overridden silent)', async () => {
    const model = fp16Model('-1e9', 'pass')
      .replace(/@dataclass\nclass AttnConfig:[\s\S]*?\n\n\n/, '')
      .replace('from dataclasses import dataclass\n', '')
      .replace('import torch.nn as nn\n', 'import torch.nn as nn\n\nfrom config import AttnConfig\n')
      .replace(/\n\ndef main[\s\S]*$/, '\n');
    const config = `from dataclasses import dataclass\n\n\n@dataclass\nclass AttnConfig:\n    d_model: int = 512\n    n_head: int = 8\n    mask_fill: float = -1e9\n`;
    const train = (cfg: string): string =>
      `import torch\n\nfrom config import AttnConfig\nfrom model import Attention\n\n\ndef main(mask):\n    model = Attention(${cfg}).cuda().half()\n    return model(torch.randn(2, 16, 512).cuda().half(), mask)\n`;
    const at = model.split('\n').findIndex((l) => l.includes('self.cfg.mask_fill')) + 1;
    const files = (cfg: string): Record<string, string> => ({ 'config.py': config, 'model.py': model, 'train.py': train(cfg) });
    assert.deepEqual(await workspaceFindingLines(files('AttnConfig()'), 'model.py', 'ATT007'), [at]);
    assert.deepEqual(await workspaceFindingLines(files('AttnConfig(mask_fill=-1e4)'), 'model.py', 'ATT007'), []);
    assert.deepEqual(await workspaceFindingLines(files('AttnConfig(mask_fill=args.fill)'), 'model.py', 'ATT007'), []);
  });

  it('class 4: the related location of a fill read from a config field is the field, in its own file', async () => {
    const l = await linter();
    const f = l.lintPython(fp16Model('-1e9', HALF('AttnConfig()'))).find((x) => x.code === 'ATT007');
    assert.ok(f?.related?.some((r) => r.line === 12 && r.message.includes('self.cfg.mask_fill')));
  });
});
