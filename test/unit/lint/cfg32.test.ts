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
import { findingLines, workspaceFindingLines } from './helpers';

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
});
