// A generated matrix of ATT007 (fill value) programs composed from independent dimensions: the fill form (masked_fill,
// masked_fill_, torch.where, an additive `(1 - keep) * F`, a blend `scores * keep + (1 - keep) * F`, an index
// assignment `scores[~keep] = F`, a bias added in place `scores += bias`, tf.where, jnp.where), the fill value, the
// precision the scores run in (float32, `.half()`, autocast, bfloat16, AMP in a trainer file), the mask's row
// structure (key padding, causal with the diagonal kept, causal + right or left padding, query and key padding) and
// where the value is defined (inline, a module constant, a dataclass config, another file). Each composed program
// is either correct (nothing is reported, by any rule) or buggy by the definitions of docs/rules/ATT007-fill-value.md
// (exactly one ATT007 finding, on the line of the fill). Written from what the APIs mean: masked_fill converts its
// scalar to the tensor's dtype with a range check and the other forms cast silently, so below float16's -65504 a
// fill becomes -inf or raises; bfloat16 holds -1e9 and -1e30; a row that is all -inf is NaN after softmax; 0 × inf
// is NaN; zero, a tiny or a positive fill does not mask. `TODAY` lists the cells today's linter decides otherwise
// (what it reports, `RULE@line`; [] = silent): the test fails when a gap closes or a passing cell breaks.
import { strict as assert } from 'node:assert';
import { createLinter, type ExtendedLinter } from '../../../src/lint';
import { grammar, memoryWorkspace } from './helpers';

type Files = Record<string, string>;
interface Cell {
  readonly id: string;
  readonly files: Files;
  readonly path: string;
  /** Text on the line of the one ATT007 finding; absent: the program is correct. */
  readonly bugAt?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Fill values: the text (PyTorch), and what it is.

type Kind = 'ninf' | 'finite' | 'dtype_min' | 'nonmasking';
interface Value {
  readonly id: string;
  readonly torch: string;
  readonly kind: Kind;
  readonly n: number;
}
const VALUES: readonly Value[] = [
  { id: 'math_ninf', torch: '-math.inf', kind: 'ninf', n: -Infinity },
  { id: 'float_ninf', torch: "float('-inf')", kind: 'ninf', n: -Infinity },
  { id: 'm1e9', torch: '-1e9', kind: 'finite', n: -1e9 },
  { id: 'm1e4', torch: '-1e4', kind: 'finite', n: -1e4 },
  { id: 'm10000', torch: '-10000.0', kind: 'finite', n: -10000 },
  { id: 'm65504', torch: '-65504', kind: 'finite', n: -65504 },
  { id: 'finfo_dtype', torch: 'torch.finfo(scores.dtype).min', kind: 'dtype_min', n: NaN },
  { id: 'm1e30', torch: '-1e30', kind: 'finite', n: -1e30 },
  { id: 'p1e_9', torch: '1e-9', kind: 'nonmasking', n: 1e-9 },
  { id: 'm1e_9', torch: '-1e-9', kind: 'nonmasking', n: -1e-9 },
  { id: 'zero', torch: '0.0', kind: 'nonmasking', n: 0 },
];
const value = (id: string): Value => VALUES.find((v) => v.id === id)!;

// ---------------------------------------------------------------------------------------------------------------
// Fill forms (PyTorch): lines at 8 spaces writing F where `hide` (True = hidden) holds.

interface Form {
  readonly id: string;
  readonly lines: (f: string) => string;
  readonly at: string;
  /** F multiplies a 0/1 mask: -inf makes 0 × inf = NaN at every kept position. */
  readonly multiplies: boolean;
}
const FORMS: readonly Form[] = [
  { id: 'masked_fill', lines: (f) => `        scores = scores.masked_fill(hide, ${f})\n`, at: 'scores.masked_fill(hide', multiplies: false },
  { id: 'masked_fill_', lines: (f) => `        scores.masked_fill_(hide, ${f})\n`, at: 'scores.masked_fill_(hide', multiplies: false },
  {
    id: 'torch_where',
    lines: (f) => `        keep = ~hide\n        scores = torch.where(keep, scores, ${f})\n`,
    at: 'torch.where(keep',
    multiplies: false,
  },
  {
    id: 'additive',
    lines: (f) => `        keep = (~hide).to(scores.dtype)\n        scores = scores + (1.0 - keep) * ${f}\n`,
    at: 'scores = scores + (1.0 - keep)',
    multiplies: true,
  },
  {
    id: 'blend',
    lines: (f) => `        keep = (~hide).to(scores.dtype)\n        scores = scores * keep + (1.0 - keep) * ${f}\n`,
    at: 'scores = scores * keep',
    multiplies: true,
  },
  { id: 'index', lines: (f) => `        keep = ~hide\n        scores[~keep.expand_as(scores)] = ${f}\n`, at: 'scores[~keep', multiplies: false },
  { id: 'masked_fill_eq', lines: (f) => `        scores = scores.masked_fill(~hide == 0, ${f})\n`, at: 'scores.masked_fill(~hide == 0', multiplies: false },
  { id: 'torch_where_hide', lines: (f) => `        scores = torch.where(hide, ${f}, scores)\n`, at: 'torch.where(hide', multiplies: false },
  {
    id: 'additive_ignore',
    lines: (f) => `        scores = scores + hide.to(scores.dtype) * ${f}\n`,
    at: 'scores = scores + hide',
    multiplies: true,
  },
  {
    id: 'bias_then_add',
    lines: (f) => `        bias = (1.0 - (~hide).to(scores.dtype)) * ${f}\n        scores += bias\n`,
    at: 'bias = (1.0',
    multiplies: true,
  },
  {
    id: 'bias_where',
    lines: (f) => `        bias = torch.where(hide, ${f}, 0.0)\n        scores = scores + bias\n`,
    at: 'bias = torch.where',
    multiplies: false,
  },
  {
    id: 'bias_inplace',
    lines: (f) => `        bias = torch.zeros_like(scores).masked_fill(hide, ${f})\n        scores += bias\n`,
    at: 'bias = torch.zeros_like',
    multiplies: false,
  },
];

// ---------------------------------------------------------------------------------------------------------------
// Masks: lines building `hide`; `empties`: some query row can have every key hidden.

const CAUSAL = '        causal = torch.triu(torch.ones(s, s, dtype=torch.bool, device=x.device), diagonal=1)\n';
const LEFT_COLLATE = `

def collate(seqs, pad_id):
    longest = max(len(seq) for seq in seqs)
    ids = torch.full((len(seqs), longest), pad_id, dtype=torch.long)
    for row, seq in enumerate(seqs):
        ids[row, longest - len(seq):] = torch.tensor(seq)
    return ids, ids == pad_id
`;
interface Mask {
  readonly id: string;
  readonly lines: string;
  readonly empties: boolean;
  /**
   * Every row the mask can hide is built by code in view (not a parameter known by its name, `pad_mask`): a fill that
   * rounds to -inf in half precision (not masked_fill's error) harms only where `empties`.
   */
  readonly rowsShown?: boolean;
  readonly tail?: string;
}
const MASKS: readonly Mask[] = [
  { id: 'key_padding', lines: '        hide = pad_mask[:, None, None, :]\n', empties: false },
  { id: 'causal', lines: `${CAUSAL}        hide = causal\n`, empties: false, rowsShown: true },
  { id: 'causal_padding', lines: `${CAUSAL}        hide = causal | pad_mask[:, None, None, :]\n`, empties: false },
  {
    id: 'causal_left_padding',
    lines: `${CAUSAL}        hide = causal | pad_mask[:, None, None, :]\n`,
    empties: true,
    tail: LEFT_COLLATE,
  },
  { id: 'query_key_padding', lines: '        hide = pad_mask[:, None, :, None] | pad_mask[:, None, None, :]\n', empties: true },
];

// ---------------------------------------------------------------------------------------------------------------
// Where the value is defined.

interface Site {
  readonly id: string;
  /** The fill expression used in the form, given the value's text. */
  readonly use: string;
  readonly head: (v: string) => string;
  readonly init: string;
  /** Lines at 4 spaces in the class body, before `__init__`. */
  readonly classBody?: (v: string) => string;
  /** Extra parameters of `forward`. */
  readonly param?: (v: string) => string;
  readonly other?: (v: string) => Files;
}
const SITES: readonly Site[] = [
  { id: 'inline', use: '', head: () => '', init: '' },
  { id: 'module_constant', use: 'MASK_VALUE', head: (v) => `\nMASK_VALUE = ${v}\n`, init: '' },
  {
    id: 'config',
    use: 'self.mask_value',
    head: (v) =>
      `from dataclasses import dataclass\n\n\n@dataclass\nclass AttentionConfig:\n    dim: int = 512\n    heads: int = 8\n    mask_value: float = ${v}\n`,
    init: '        self.mask_value = AttentionConfig().mask_value\n',
  },
  {
    id: 'class_attribute',
    use: 'self.MASK_VALUE',
    head: () => '',
    init: '',
    classBody: (v) => `    MASK_VALUE = ${v}\n\n`,
  },
  {
    id: 'default_argument',
    use: 'mask_value',
    head: () => '',
    init: '',
    param: (v) => `, mask_value=${v}`,
  },
  {
    id: 'other_file',
    use: 'MASK_VALUE',
    head: () => '\nfrom constants import MASK_VALUE\n',
    init: '',
    other: (v) => ({ 'constants.py': `import math\n\nimport torch\n\nMASK_VALUE = ${v}\n` }),
  },
];

// ---------------------------------------------------------------------------------------------------------------
// Precision of the scores.

type Dtype = 'fp32' | 'fp16' | 'bf16';
interface Prec {
  readonly id: string;
  readonly dtype: Dtype;
  readonly tail: string;
  readonly other?: Files;
}
const PRECS: readonly Prec[] = [
  { id: 'fp32', dtype: 'fp32', tail: '' },
  { id: 'half', dtype: 'fp16', tail: '\n\ndef build(dim=512, heads=8):\n    return Attention(dim, heads).cuda().half()\n' },
  {
    id: 'autocast',
    dtype: 'fp16',
    tail: `

def train_step(model, x, pad_mask, optimizer):
    with torch.autocast(device_type="cuda"):
        loss = model(x, pad_mask).float().pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
`,
  },
  {
    id: 'bf16_dtype',
    dtype: 'bf16',
    tail: '\n\ndef build(dim=512, heads=8):\n    return Attention(dim, heads).to(device="cuda", dtype=torch.bfloat16)\n',
  },
  {
    id: 'autocast_bf16',
    dtype: 'bf16',
    tail: `

def train_step(model, x, pad_mask, optimizer):
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
        loss = model(x, pad_mask).float().pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
`,
  },
  {
    id: 'half_trainer_file',
    dtype: 'fp16',
    tail: '',
    other: {
      'infer.py': `import torch

from model import Attention


@torch.no_grad()
def main():
    model = Attention(512, 8).cuda().half().eval()
    x = torch.randn(2, 64, 512, device="cuda", dtype=torch.float16)
    pad_mask = torch.zeros(2, 64, dtype=torch.bool, device="cuda")
    print(model(x, pad_mask).shape)


if __name__ == "__main__":
    main()
`,
    },
  },
  {
    id: 'amp_trainer_file',
    dtype: 'fp16',
    tail: '',
    other: {
      'train.py': `import torch

from model import Attention


def train(loader, epochs=10):
    model = Attention(512, 8).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
    scaler = torch.cuda.amp.GradScaler()
    for _ in range(epochs):
        for x, pad_mask in loader:
            with torch.autocast(device_type="cuda", dtype=torch.float16):
                loss = model(x.cuda(), pad_mask.cuda()).float().pow(2).mean()
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad()
`,
    },
  },
];
const prec = (id: string): Prec => PRECS.find((p) => p.id === id)!;

function torchModule(o: { fill: string; mask: Mask; head: string; init: string; tail: string; classBody?: string; param?: string }): string {
  return `import math

import torch
import torch.nn as nn
${o.head}

class Attention(nn.Module):
${o.classBody ?? ''}    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
${o.init}
    def forward(self, x, pad_mask${o.param ?? ''}):
        # pad_mask: (batch, seq) bool, True at padding positions
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
${o.mask.lines}${o.fill}        weights = scores.softmax(dim=-1)
        out = (weights @ v).transpose(1, 2).reshape(b, s, d)
        return self.proj(out)
${o.tail}${o.mask.tail ?? ''}`;
}

const BF16_MIN = -3.3895313892515355e38;
/** The forms that write the fill with masked_fill, which converts it with a range check and raises. */
const RAISES = new Set(['masked_fill', 'masked_fill_', 'masked_fill_eq', 'bias_inplace']);

/** Buggy by the rule page's definitions. */
function buggy(form: Form, v: Value, dtype: Dtype, mask: Mask): boolean {
  switch (v.kind) {
    case 'nonmasking':
      return true;
    case 'ninf':
      return form.multiplies || mask.empties;
    case 'dtype_min':
      return false;
    case 'finite':
      // `torch.where(hide, -1e9, 0.0)` of two Python numbers is float32 (PyTorch's default dtype), and so is its sum
      // with float16 scores: no range is exceeded.
      if (form.id === 'bias_where') return false;
      // masked_fill raises on a value out of range; every other form makes it -inf, NaN only in a row all masked.
      if (mask.rowsShown && !mask.empties && !RAISES.has(form.id)) return false;
      return dtype === 'fp16' ? v.n < -65504 : dtype === 'bf16' ? v.n < BF16_MIN : false;
  }
}

function torchCell(group: string, form: Form, v: Value, p: Prec, mask: Mask, site: Site): Cell | undefined {
  // A zero multiplied into an additive mask, or written into a bias, is no natural program.
  if (v.id === 'zero' && (form.multiplies || form.id.startsWith('bias'))) return undefined;
  const fill = site.id === 'inline' ? v.torch : site.use;
  const files: Files = {
    'model.py': torchModule({
      fill: form.lines(fill),
      mask,
      head: site.head(v.torch),
      init: site.init,
      tail: p.tail,
      classBody: site.classBody?.(v.torch),
      param: site.param?.(v.torch),
    }),
    ...p.other,
    ...site.other?.(v.torch),
  };
  return {
    id: `${group}/${form.id}/${v.id}/${p.id}/${mask.id}/${site.id}`,
    files,
    path: 'model.py',
    bugAt: buggy(form, v, p.dtype, mask) ? form.at : undefined,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// TensorFlow and JAX: the `where` forms.

function tfProgram(f: string, head: string): string {
  return `import math

import tensorflow as tf
${head}

def attention(q, k, v, pad_mask):
    # q, k, v: (batch, heads, seq, head_dim); pad_mask: (batch, seq) bool, True at padding
    scores = tf.matmul(q, k, transpose_b=True) / math.sqrt(q.shape[-1])
    keep = tf.logical_not(pad_mask[:, tf.newaxis, tf.newaxis, :])
    scores = tf.where(keep, scores, tf.ones_like(scores) * ${f})
    weights = tf.nn.softmax(scores, axis=-1)
    return tf.matmul(weights, v)
`;
}
function jaxProgram(f: string, dtypeLine: string): string {
  return `import jax
import jax.numpy as jnp


def attention(q, k, v, pad_mask):
    # q, k, v: (batch, heads, seq, head_dim); pad_mask: (batch, seq) bool, True at padding
${dtypeLine}    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    keep = ~pad_mask[:, None, None, :]
    scores = jnp.where(keep, scores, ${f})
    weights = jax.nn.softmax(scores, axis=-1)
    return jnp.einsum("bhqk,bhkd->bhqd", weights, v)
`;
}
function frameworkCells(): Cell[] {
  const cells: Cell[] = [];
  const text = (v: Value, fw: 'tf' | 'jax'): string =>
    v.kind === 'ninf'
      ? v.id === 'math_ninf'
        ? fw === 'tf'
          ? '-math.inf'
          : '-jnp.inf'
        : v.torch
      : v.kind === 'dtype_min'
        ? fw === 'tf'
          ? 'scores.dtype.min'
          : 'jnp.finfo(scores.dtype).min'
        : v.torch;
  const tfPrec: readonly [string, Dtype, string][] = [
    ['fp32', 'fp32', ''],
    ['mixed_float16', 'fp16', '\ntf.keras.mixed_precision.set_global_policy("mixed_float16")\n'],
    ['mixed_bfloat16', 'bf16', '\ntf.keras.mixed_precision.set_global_policy("mixed_bfloat16")\n'],
  ];
  const jaxPrec: readonly [string, Dtype, string][] = [
    ['fp32', 'fp32', ''],
    ['fp16', 'fp16', '    q, k = q.astype(jnp.float16), k.astype(jnp.float16)\n'],
    ['bf16', 'bf16', '    q, k = q.astype(jnp.bfloat16), k.astype(jnp.bfloat16)\n'],
  ];
  const where: Form = { id: 'where', lines: () => '', at: '', multiplies: false };
  for (const v of VALUES) {
    for (const [pid, dtype, head] of tfPrec) {
      cells.push({
        id: `tf/tf_where/${v.id}/${pid}`,
        files: { 'attn.py': tfProgram(text(v, 'tf'), head) },
        path: 'attn.py',
        bugAt: buggy(where, v, dtype, MASKS[0]) ? 'tf.where(keep' : undefined,
      });
    }
    for (const [pid, dtype, line] of jaxPrec) {
      cells.push({
        id: `jax/jnp_where/${v.id}/${pid}`,
        files: { 'attn.py': jaxProgram(text(v, 'jax'), line) },
        path: 'attn.py',
        bugAt: buggy(where, v, dtype, MASKS[0]) ? 'jnp.where(keep' : undefined,
      });
    }
  }
  return cells;
}

export function fill30Cells(): Cell[] {
  const out: (Cell | undefined)[] = [];
  const inline = SITES[0];
  // Values × forms × precisions (key padding, inline).
  for (const form of FORMS) for (const v of VALUES) for (const p of PRECS) out.push(torchCell('precision', form, v, p, MASKS[0], inline));
  // Where the value is defined × forms × a few values × float32 / half.
  for (const site of SITES.slice(1))
    for (const form of FORMS)
      for (const vid of ['m1e9', 'm1e4', 'float_ninf', 'm1e_9'])
        for (const pid of ['fp32', 'half', 'amp_trainer_file']) out.push(torchCell('site', form, value(vid), prec(pid), MASKS[0], site));
  // Mask row structure × forms × the fills that care (float32 and half).
  for (const mask of MASKS.slice(1))
    for (const form of FORMS)
      for (const vid of ['math_ninf', 'float_ninf', 'finfo_dtype', 'm1e9'])
        for (const pid of ['fp32', 'half']) out.push(torchCell('mask', form, value(vid), prec(pid), mask, inline));
  return [...out.filter((c): c is Cell => c !== undefined), ...frameworkCells()];
}

const TODAY: Readonly<Record<string, readonly string[]>> = {};

function decided(l: ExtendedLinter, cell: Cell): string[] {
  const src = cell.files[cell.path] ?? '';
  const lines = src.split('\n');
  return l.lintPython(src, { path: cell.path }).map((f) => `${f.code}@${lines[f.line - 1]?.trim()}`);
}
function expected(cell: Cell): string[] {
  if (!cell.bugAt) return [];
  const line = (cell.files[cell.path] ?? '').split('\n').find((l) => l.includes(cell.bugAt!));
  assert.ok(line, `${cell.id}: the program holds ${JSON.stringify(cell.bugAt)}`);
  return [`ATT007@${line.trim()}`];
}

describe('fill30 matrix: ATT007 fill forms × values × precision × mask rows × definition site', function () {
  this.timeout(300_000);
  const cells = fill30Cells();
  let single: ExtendedLinter;
  before(async () => {
    single = await createLinter(grammar(), { onInternalError: (e) => assert.fail(String(e)) });
  });

  it('has distinct cell ids, several hundred of them, and every TODAY entry names a cell', () => {
    const ids = new Set(cells.map((c) => c.id));
    assert.equal(ids.size, cells.length);
    assert.ok(cells.length >= 400 && cells.length <= 3000, `${cells.length} cells`);
    for (const id of Object.keys(TODAY)) assert.ok(ids.has(id), `TODAY names ${id}, not a cell`);
  });

  const groups = new Map<string, Cell[]>();
  for (const c of cells) {
    const g = c.id.split('/').slice(0, 2).join('/');
    groups.set(g, [...(groups.get(g) ?? []), c]);
  }
  for (const [group, members] of groups) {
    it(`${group} (${members.length} programs)`, async () => {
      const wrong: string[] = [];
      for (const cell of members) {
        const l =
          Object.keys(cell.files).length > 1
            ? await createLinter(grammar(), { workspace: memoryWorkspace(cell.files), onInternalError: (e) => assert.fail(String(e)) })
            : single;
        const got = decided(l, cell);
        const want = TODAY[cell.id] ?? expected(cell);
        if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${cell.id}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
      }
      if (process.env.FILL30_DUMP) for (const w of wrong) console.log(`WRONG ${w}`);
      assert.deepEqual(wrong, []);
    });
  }
});
