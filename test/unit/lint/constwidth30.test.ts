// Session 30 (constwidth30): widths held in module-level constants (ATT004, wrong scale). A module-level name bound
// once to a number, or to an expression of such names (`HEAD_DIM = D_MODEL // N_HEADS`), and never rebound, is read as
// that size wherever widths are read: the split's sizes, Linear sizes, the scale's factor; in the file and through
// `from .config import D_MODEL, N_HEADS`. Classes, each with its correct form silent:
//  1. The scores divided by the head width held in a constant (`scores / HEAD_DIM`): 1/d, not 1/sqrt(d).
//  2. A named scale built from the constant (`self.scale = HEAD_DIM ** -0.5`) applied twice on one path.
//  3. A literal width (`64 ** -0.5`) twice on one path, where the split states the width as `HEAD_DIM`.
//  4. The model width on per-head scores (`math.sqrt(D_MODEL)`) with `nn.Linear(D_MODEL, 3 * D_MODEL)` split in heads.
//  5. Not constants: a name rebound in the module, or assigned in a function, stays unread (silent).
import { strict as assert } from 'node:assert';
import { findingLines, workspaceFindingLines } from './helpers';

const CONSTS = `D_MODEL = 512
N_HEADS = 8
HEAD_DIM = D_MODEL // N_HEADS
`;

/** A multi-head self-attention whose widths are module constants; `SCALE_LINE` and `SCORES_LINE` vary per case. */
const attn = (scaleInit: string, scores: string, header = `import math\nimport torch\nimport torch.nn as nn\n\n${CONSTS}`): string => `${header}

class SelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Linear(D_MODEL, 3 * D_MODEL)
        self.proj = nn.Linear(D_MODEL, D_MODEL)
        ${scaleInit}

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(D_MODEL, dim=2)
        q = q.view(B, T, N_HEADS, HEAD_DIM).transpose(1, 2)
        k = k.view(B, T, N_HEADS, HEAD_DIM).transpose(1, 2)
        v = v.view(B, T, N_HEADS, HEAD_DIM).transpose(1, 2)
        ${scores}
        att = torch.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y)
`;

/** The same constants with the head width written as a number. */
const LIT = `import math\nimport torch\nimport torch.nn as nn\n\n${CONSTS.replace('D_MODEL // N_HEADS', '64')}`;

// Line numbers: imports and constants take lines 1-8, the class starts at 10, the scores line is 23.
const SCORES = 23;
const FOR_TEST = attn('self.scale = HEAD_DIM ** -0.5', 'att = (q @ k.transpose(-2, -1)) * self.scale');

const CASES: readonly (readonly [id: string, cls: string, what: string, lines: readonly number[], code: string])[] = [
  ['c1_dim', '1', 'the scores divided by HEAD_DIM', [SCORES], attn('pass', 'att = (q @ k.transpose(-2, -1)) / HEAD_DIM')],
  ['c1_ok_sqrt', '1', 'the scores divided by math.sqrt(HEAD_DIM)', [], attn('pass', 'att = (q @ k.transpose(-2, -1)) / math.sqrt(HEAD_DIM)')],
  ['c1_ok_inv', '1', 'the scores times 1 / math.sqrt(HEAD_DIM)', [], attn('pass', 'att = (q @ k.transpose(-2, -1)) * (1 / math.sqrt(HEAD_DIM))')],
  [
    'c1_ok_expr',
    '1',
    'the scores divided by math.sqrt(D_MODEL // N_HEADS)',
    [],
    attn('pass', 'att = (q @ k.transpose(-2, -1)) / math.sqrt(D_MODEL // N_HEADS)'),
  ],
  ['c1_ok_named', '1', 'self.scale = HEAD_DIM ** -0.5 applied once', [], FOR_TEST],
  [
    'c1_dim_literal_const',
    '1',
    'the scores divided by HEAD_DIM = 64 (a constant bound to a number)',
    [SCORES],
    attn('pass', 'att = (q @ k.transpose(-2, -1)) / HEAD_DIM', LIT),
  ],
  [
    'c1_ok_literal_const',
    '1',
    'the scores divided by math.sqrt(HEAD_DIM), HEAD_DIM = 64',
    [],
    attn('pass', 'att = (q @ k.transpose(-2, -1)) / math.sqrt(HEAD_DIM)', LIT),
  ],
  [
    'c2_twice_literal_const',
    '2',
    'self.scale = HEAD_DIM ** -0.5 (HEAD_DIM = 64) on q and again on the scores',
    [SCORES + 1],
    attn('self.scale = HEAD_DIM ** -0.5', 'q = q * self.scale\n        att = (q @ k.transpose(-2, -1)) * self.scale', LIT),
  ],
  [
    'c2_ok_literal_const',
    '2',
    'self.scale = HEAD_DIM ** -0.5 (HEAD_DIM = 64) once',
    [],
    attn('self.scale = HEAD_DIM ** -0.5', 'att = (q @ k.transpose(-2, -1)) * self.scale', LIT),
  ],
  [
    'c2_twice',
    '2',
    'self.scale = HEAD_DIM ** -0.5 applied to q and again to the scores',
    [SCORES + 1],
    attn('self.scale = HEAD_DIM ** -0.5', 'q = q * self.scale\n        att = (q @ k.transpose(-2, -1)) * self.scale'),
  ],
  [
    'c3_literal_twice',
    '3',
    '64 ** -0.5 on q and again on the scores, the split stating HEAD_DIM',
    [SCORES + 1],
    attn('pass', 'q = q * 64 ** -0.5\n        att = (q @ k.transpose(-2, -1)) * 64 ** -0.5'),
  ],
  ['c3_literal_dim', '3', 'the scores divided by 64, the split stating HEAD_DIM', [SCORES], attn('pass', 'att = (q @ k.transpose(-2, -1)) / 64')],
  ['c3_ok_literal', '3', 'the scores times 64 ** -0.5 once', [], attn('pass', 'att = (q @ k.transpose(-2, -1)) * 64 ** -0.5')],
  [
    'c3_literal_root_twice',
    '3',
    'math.sqrt(64) on the scores twice, the split stating HEAD_DIM',
    [SCORES + 1],
    attn('pass', 'att = (q @ k.transpose(-2, -1)) / math.sqrt(64)\n        att = att / math.sqrt(64)'),
  ],
  ['c3_ok_literal_root', '3', 'the scores divided by math.sqrt(64) once', [], attn('pass', 'att = (q @ k.transpose(-2, -1)) / math.sqrt(64)')],
  [
    'c3_kernel',
    '3',
    'scale=1.0 / 64 handed to SDPA, the split stating HEAD_DIM',
    [SCORES],
    attn(
      'pass',
      'att = F.scaled_dot_product_attention(q, k, v, scale=1.0 / 64)',
      `import math\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n${CONSTS}`,
    ),
  ],
  [
    'c3_ok_kernel',
    '3',
    'scale=64 ** -0.5 handed to SDPA',
    [],
    attn(
      'pass',
      'att = F.scaled_dot_product_attention(q, k, v, scale=64 ** -0.5)',
      `import math\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n${CONSTS}`,
    ),
  ],
  ['c4_model', '4', 'math.sqrt(D_MODEL) on the per-head scores', [SCORES], attn('pass', 'att = (q @ k.transpose(-2, -1)) / math.sqrt(D_MODEL)')],
  ['c4_model_pow', '4', 'D_MODEL ** -0.5 on the per-head scores', [SCORES], attn('pass', 'att = (q @ k.transpose(-2, -1)) * D_MODEL ** -0.5')],
  [
    'c4_ok_head',
    '4',
    'sqrt(D_MODEL // N_HEADS) beside nn.Linear(D_MODEL, 3 * D_MODEL)',
    [],
    attn('pass', 'att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(D_MODEL // N_HEADS))'),
  ],
  [
    'c5_rebound',
    '5',
    'D_MODEL rebound at module level: / 64 is not placed',
    [],
    attn('pass', 'att = (q @ k.transpose(-2, -1)) / 64', `import math\nimport torch\nimport torch.nn as nn\n${CONSTS}D_MODEL = 1024`),
  ],
  [
    'c5_in_function',
    '5',
    'HEAD_DIM assigned in a function too: / 64 is not placed',
    [],
    attn(
      'pass',
      'att = (q @ k.transpose(-2, -1)) / 64',
      `import math\nimport torch\nimport torch.nn as nn\n${CONSTS.replace('HEAD_DIM = D_MODEL // N_HEADS\n', 'HEAD_DIM = 64\ndef f():\n    HEAD_DIM = 32\n    return HEAD_DIM')}`,
    ),
  ],
  [
    'c5_true_division',
    '5',
    'HEAD_DIM = D_MODEL / N_HEADS (a float expression) is not read: / 64 is not placed',
    [],
    attn('pass', 'att = (q @ k.transpose(-2, -1)) / 64', `import math\nimport torch\nimport torch.nn as nn\n${CONSTS.replace('//', '/')}`),
  ],
];

/** The same module taking its constants from config.py. */
const imported = (scores: string, from = 'config'): string =>
  attn(
    'pass',
    scores,
    `import math\nimport torch\nimport torch.nn as nn\n\nfrom ${from} import D_MODEL, N_HEADS, HEAD_DIM\n\n# the widths are those of config.py\n`,
  );

describe('constwidth30: ATT004 widths held in module constants', () => {
  for (const [id, cls, what, lines, code] of CASES) {
    it(`class ${cls}, ${id}: ${what} (${lines.length === 0 ? 'silent' : `at ${lines.join(', ')}`})`, async () => {
      assert.deepEqual(await findingLines(code, 'ATT004'), lines);
    });
  }
  it('cross-file: constants imported from config.py (absolute and relative import), each buggy form and its correct form', async () => {
    for (const from of ['config', '.config']) {
      const lint = (scores: string): Promise<number[]> =>
        workspaceFindingLines({ 'config.py': CONSTS, 'attn.py': imported(scores, from) }, 'attn.py', 'ATT004');
      assert.deepEqual(await lint('att = (q @ k.transpose(-2, -1)) / 64'), [SCORES], from);
      assert.deepEqual(await lint('att = (q @ k.transpose(-2, -1)) / math.sqrt(D_MODEL)'), [SCORES], from);
      assert.deepEqual(await lint('att = (q @ k.transpose(-2, -1)) / HEAD_DIM'), [SCORES], from);
      assert.deepEqual(await lint('att = (q @ k.transpose(-2, -1)) * 64 ** -0.5'), [], from);
      assert.deepEqual(await lint('att = (q @ k.transpose(-2, -1)) / math.sqrt(HEAD_DIM)'), [], from);
      assert.deepEqual(await lint('att = (q @ k.transpose(-2, -1)) / math.sqrt(D_MODEL // N_HEADS)'), [], from);
    }
    // A config whose HEAD_DIM is another number (32): `/ 64` is not the stated width, silent.
    const other = CONSTS.replace('HEAD_DIM = D_MODEL // N_HEADS', 'HEAD_DIM = 32');
    assert.deepEqual(await workspaceFindingLines({ 'config.py': other, 'attn.py': imported('att = (q @ k.transpose(-2, -1)) / 64') }, 'attn.py', 'ATT004'), []);
  });
});
