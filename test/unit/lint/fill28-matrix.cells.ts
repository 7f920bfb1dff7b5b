// The cells of fill28-matrix.test.ts: small natural programs composed from independent dimensions of the fill
// (ATT007) and mask-after-softmax (ATT006) forms, each with what the linter should decide. Written from what the
// APIs mean: masked_fill and full_like convert their scalar to the tensor's dtype with a range check (float16
// raises below -65504), an index assignment, torch.where and an additive mask cast once (below the range: -inf);
// bfloat16 holds -1e9 and -1e10 but not float32's minimum; softmax of a row that is all -inf is NaN; 0 × inf is NaN;
// a mask applied to probabilities without renormalising leaves rows that no longer sum to one.
// The product is sampled along fixed lists (no randomness): each dimension is crossed with the others where they
// interact (the fill with the op and the precision; the -inf fill with the mask's row structure and the NaN guard;
// ATT006's masking form with the mask and the look-alike), not in full.

export type Files = Record<string, string>;

export interface MatrixCell {
  readonly id: string;
  readonly rule: 'ATT006' | 'ATT007';
  /** The project (one file for most cells); `path` is the file linted. */
  readonly files: Files;
  readonly path: string;
  /** Text on the line the one finding of `rule` belongs to; absent: the program is correct and nothing is reported. */
  readonly bugAt?: string;
  /** Why a cell that looks buggy is expected silent: the evidence is not in the code (an honest silence). */
  readonly silentBecause?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// The fills.

interface Fill {
  readonly id: string;
  /** The fill as written in PyTorch code. */
  readonly torch: string;
  /** Its value (finfo bounds as the dtype-relative marker `dtype` or float32's minimum). */
  readonly value: number | 'dtype';
}

const FILLS: readonly Fill[] = [
  { id: 'm1e9', torch: '-1e9', value: -1e9 },
  { id: 'm1e10', torch: '-1e10', value: -1e10 },
  { id: 'm1e4', torch: '-1e4', value: -1e4 },
  { id: 'm65504', torch: '-65504.0', value: -65504 },
  { id: 'ninf', torch: 'float("-inf")', value: -Infinity },
  { id: 'finfo_dtype', torch: 'torch.finfo(scores.dtype).min', value: 'dtype' },
  { id: 'finfo_f32', torch: 'torch.finfo(torch.float32).min', value: -3.4028234663852886e38 },
];
/** Fills that do not mask at all, whatever the precision. */
const NON_MASKING: readonly Fill[] = [
  { id: 'zero', torch: '0.0', value: 0 },
  { id: 'm1e_9', torch: '-1e-9', value: -1e-9 },
  { id: 'pinf', torch: 'float("inf")', value: Infinity },
];

// ---------------------------------------------------------------------------------------------------------------
// The masking ops (PyTorch): each writes `fill` where `m` (True = hide) holds into `scores`, as lines at 8 spaces.

interface Op {
  readonly id: string;
  readonly lines: (m: string, fill: string) => string;
  /** A text on the line the fill is judged at. */
  readonly at: (fill: string) => string;
  /** Casts the fill once (no range check): below the range it becomes -inf silently. */
  readonly casts: boolean;
}

const OPS: readonly Op[] = [
  { id: 'masked_fill', lines: (m, f) => `        scores = scores.masked_fill(${m}, ${f})\n`, at: () => 'masked_fill(', casts: false },
  { id: 'where', lines: (m, f) => `        scores = torch.where(${m}, ${f}, scores)\n`, at: () => 'torch.where(', casts: true },
  { id: 'index', lines: (m, f) => `        scores[${m}.expand_as(scores)] = ${f}\n`, at: () => '.expand_as(scores)] =', casts: true },
  {
    id: 'additive',
    lines: (m, f) => `        scores = scores + ${m}.to(scores.dtype) * ${f}\n`,
    at: () => 'scores = scores +',
    casts: true,
  },
  {
    id: 'full_like',
    lines: (m, f) => `        hidden = torch.full_like(scores, ${f})\n        scores = torch.where(${m}, hidden, scores)\n`,
    // A fill given by name is reported at its use (LINT-CONTRACT: "at the call when the fill is a name").
    at: () => 'torch.where(m, hidden',
    casts: false,
  },
];

// ---------------------------------------------------------------------------------------------------------------
// PyTorch attention modules.

/** Multi-head self-attention with a (B, S) key-padding mask, True at padding; `mask` lines build `m`. */
function module(opts: {
  readonly fillLines: string;
  readonly maskLines?: string;
  readonly scores?: string;
  readonly softmax?: string;
  readonly after?: string;
  readonly head?: string;
  readonly tail?: string;
}): string {
  return `${opts.head ?? ''}import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, pad_mask):
        # pad_mask: (batch, seq) bool, True at padding positions
        b, s, d = x.shape
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        scores = ${opts.scores ?? 'q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))'}
${opts.maskLines ?? '        m = pad_mask[:, None, None, :]\n'}${opts.fillLines}        weights = ${opts.softmax ?? 'scores.softmax(dim=-1)'}
${opts.after ?? ''}        out = (weights @ v).transpose(1, 2).reshape(b, s, d)
        return self.proj(out)
${opts.tail ?? ''}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Precision evidence: how the file (or a file importing it) shows the model runs.

interface Precision {
  readonly id: string;
  /** float16 ('fp16'), bfloat16 ('bf16') or full precision ('fp32') for the scores the fill writes into. */
  readonly dtype: 'fp16' | 'bf16' | 'fp32';
  /** The project, given the model file's fill lines (the file linted is model.py). */
  readonly project: (fillLines: string, op: Op) => Files;
}

const TRAIN_STEP = (ctx: string) => `

def train_step(model, x, pad_mask, optimizer):
    ${ctx}
        loss = model(x, pad_mask).float().pow(2).mean()
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
`;

const PRECISIONS: readonly Precision[] = [
  { id: 'none', dtype: 'fp32', project: (f) => ({ 'model.py': module({ fillLines: f }) }) },
  {
    id: 'half',
    dtype: 'fp16',
    project: (f) => ({ 'model.py': module({ fillLines: f, tail: '\n\ndef build(dim=512, heads=8):\n    return Attention(dim, heads).cuda().half()\n' }) }),
  },
  {
    id: 'autocast',
    dtype: 'fp16',
    project: (f) => ({ 'model.py': module({ fillLines: f, tail: TRAIN_STEP('with torch.autocast(device_type="cuda"):') }) }),
  },
  {
    id: 'autocast_bf16',
    dtype: 'bf16',
    project: (f) => ({
      'model.py': module({ fillLines: f, tail: TRAIN_STEP('with torch.autocast(device_type="cuda", dtype=torch.bfloat16):') }),
    }),
  },
  {
    id: 'gradscaler',
    dtype: 'fp16',
    project: (f) => ({
      'model.py': module({
        fillLines: f,
        tail: `

scaler = torch.cuda.amp.GradScaler()


def train_step(model, x, pad_mask, optimizer):
    loss = model(x, pad_mask).float().pow(2).mean()
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
`,
      }),
    }),
  },
  {
    id: 'lightning_16_mixed',
    dtype: 'fp16',
    project: (f) => ({
      'model.py': module({
        fillLines: f,
        head: 'import lightning as L\n',
        tail: `

def fit(module, loader):
    trainer = L.Trainer(precision="16-mixed", max_epochs=10)
    trainer.fit(module, loader)
`,
      }),
    }),
  },
  {
    id: 'trainer_other_file',
    dtype: 'fp16',
    project: (f) => ({
      'model.py': module({ fillLines: f }),
      'train.py': `import torch

from model import Attention


def main():
    model = Attention(512, 8).cuda().half()
    x = torch.randn(4, 128, 512, device="cuda", dtype=torch.float16)
    pad_mask = torch.zeros(4, 128, dtype=torch.bool, device="cuda")
    print(model(x, pad_mask).shape)


if __name__ == "__main__":
    main()
`,
    }),
  },
  ...(
    [
      ['accelerate_fp16', 'fp16', 'from accelerate import Accelerator\n', 'accelerator = Accelerator(mixed_precision="fp16")'],
      ['accelerate_bf16', 'bf16', 'from accelerate import Accelerator\n', 'accelerator = Accelerator(mixed_precision="bf16")'],
      ['training_args_fp16', 'fp16', 'from transformers import TrainingArguments\n', 'args = TrainingArguments("out", fp16=True)'],
      ['training_args_bf16', 'bf16', 'from transformers import TrainingArguments\n', 'args = TrainingArguments("out", bf16=True)'],
      ['deepspeed_bf16', 'bf16', '', 'ds_config = {"train_batch_size": 32, "bf16": {"enabled": True}}'],
      ['to_dtype_fp16', 'fp16', '', 'model = Attention(512, 8).to(device="cuda", dtype=torch.float16)'],
    ] as const
  ).map(([id, dtype, head, line]): Precision => ({
    id,
    dtype,
    project: (f) => ({ 'model.py': module({ fillLines: f, head, tail: `\n\ndef setup():\n    ${line}\n    return ${line.split(' = ')[0]}\n` }) }),
  })),
  {
    id: 'scores_float32_first',
    dtype: 'fp32',
    project: (f) => ({
      'model.py': module({
        fillLines: f,
        scores: 'q.float() @ k.float().transpose(-2, -1) / math.sqrt(q.size(-1))',
        softmax: 'scores.softmax(dim=-1).to(v.dtype)',
        tail: '\n\ndef build(dim=512, heads=8):\n    return Attention(dim, heads).cuda().half()\n',
      }),
    }),
  },
  {
    id: 'dtype_branch',
    dtype: 'fp32',
    project: (f, op) => ({
      'model.py': module({
        fillLines: `        if scores.dtype == torch.float16:\n${indent(op.lines('m', '-1e4'))}        else:\n${indent(f)}`,
        tail: '\n\ndef build(dim=512, heads=8):\n    return Attention(dim, heads).cuda().half()\n',
      }),
    }),
  },
];

function indent(lines: string): string {
  return lines
    .split('\n')
    .map((l) => (l ? `    ${l}` : l))
    .join('\n');
}

const BF16_MIN = -3.3895313892515355e38;

/** Whether a fill breaks in this precision (below the dtype's range) or anywhere (an additive -inf: 0 × inf). */
function rangeBug(fill: Fill, op: Op, dtype: Precision['dtype']): boolean {
  if (fill.value === 'dtype') return false;
  if (fill.value === -Infinity) return op.id === 'additive';
  if (dtype === 'fp16') return fill.value < -65504;
  if (dtype === 'bf16') return fill.value < BF16_MIN;
  return false;
}

function rangeCells(): MatrixCell[] {
  const cells: MatrixCell[] = [];
  for (const prec of PRECISIONS) {
    for (const op of OPS) {
      for (const fill of FILLS) {
        // The dtype branch guards finite fills; -inf and the dtype's own minimum need no branch.
        if (prec.id === 'dtype_branch' && (fill.value === 'dtype' || fill.value === -Infinity)) continue;
        const files = prec.project(op.lines('m', fill.torch), op);
        const bug = rangeBug(fill, op, prec.dtype);
        cells.push({
          id: `range/${prec.id}/${op.id}/${fill.id}`,
          rule: 'ATT007',
          files,
          path: 'model.py',
          bugAt: bug ? op.at(fill.torch) : undefined,
        });
      }
    }
  }
  // Fills that do not mask: reported in any precision, once.
  for (const prec of PRECISIONS.filter((p) => p.id === 'none' || p.id === 'half')) {
    for (const op of OPS.filter((o) => o.id !== 'additive')) {
      for (const fill of NON_MASKING) {
        cells.push({
          id: `nonmasking/${prec.id}/${op.id}/${fill.id}`,
          rule: 'ATT007',
          files: prec.project(op.lines('m', fill.torch), op),
          path: 'model.py',
          bugAt: op.at(fill.torch),
        });
      }
    }
  }
  // Zeros chosen for the masked positions (`torch.where(m, torch.zeros_like(scores), scores)`): a fill of 0.
  for (const prec of PRECISIONS.filter((p) => p.id === 'none' || p.id === 'half')) {
    cells.push({
      id: `nonmasking/${prec.id}/where_zeros_like/zero`,
      rule: 'ATT007',
      files: prec.project('        scores = torch.where(m, torch.zeros_like(scores), scores)\n', OPS[1]),
      path: 'model.py',
      bugAt: 'torch.where(m, torch.zeros_like',
    });
  }
  // Honest silences: the evidence is not in the code.
  cells.push({
    id: 'nonmasking/undecidable/index_by_parameter',
    rule: 'ATT007',
    files: {
      'model.py': module({
        fillLines: '        scores[sel] = 0.0\n',
        tail: '',
      }).replace('def forward(self, x, pad_mask):', 'def forward(self, x, pad_mask, sel=None):'),
    },
    path: 'model.py',
    silentBecause:
      'an index that comes in as a parameter may be integer indices or a boolean selection of anything (a row of the batch, a head): nothing says it marks positions to hide',
  });
  // A NaN (or inf) cleanup of the scores before the softmax writes 0 where the scores are themselves NaN: no mask.
  const cleanups: readonly [string, string][] = [
    ['where_isnan', '        scores = torch.where(torch.isnan(scores), torch.zeros_like(scores), scores)\n'],
    ['where_isnan_scalar', '        scores = torch.where(torch.isnan(scores), 0.0, scores)\n'],
    ['index_isnan', '        scores[torch.isnan(scores)] = 0.0\n'],
    ['index_isinf', '        scores[scores.isinf()] = 0.0\n'],
    ['masked_fill_isnan', '        scores = scores.masked_fill(scores.isnan(), 0.0)\n'],
  ];
  for (const [id, line] of cleanups) {
    cells.push({
      id: `nonmasking/nan_cleanup/${id}`,
      rule: 'ATT007',
      files: { 'model.py': module({ fillLines: `${OPS[0].lines('m', 'torch.finfo(scores.dtype).min')}${line}` }) },
      path: 'model.py',
    });
  }
  return cells;
}

// ---------------------------------------------------------------------------------------------------------------
// Rows emptied by a -inf fill: the mask's row structure × the op × the NaN guard.

interface RowMask {
  readonly id: string;
  readonly lines: string;
  /** A row can be all masked (every key of some query hidden). */
  readonly empties: boolean;
  readonly head?: string;
  readonly tail?: string;
  /** The project has a second file (the evidence lives there). */
  readonly other?: Files;
}

const CAUSAL = '        causal = torch.triu(torch.ones(s, s, dtype=torch.bool, device=x.device), diagonal=1)\n';
const LEFT_COLLATE = `

def collate(seqs, pad_id):
    longest = max(len(seq) for seq in seqs)
    ids = torch.full((len(seqs), longest), pad_id, dtype=torch.long)
    for row, seq in enumerate(seqs):
        ids[row, longest - len(seq):] = torch.tensor(seq)
    return ids, ids == pad_id
`;
const RIGHT_COLLATE = `

def collate(seqs, pad_id):
    longest = max(len(seq) for seq in seqs)
    ids = torch.full((len(seqs), longest), pad_id, dtype=torch.long)
    for row, seq in enumerate(seqs):
        ids[row, : len(seq)] = torch.tensor(seq)
    return ids, ids == pad_id
`;

const ROW_MASKS: readonly RowMask[] = [
  { id: 'key_padding', lines: '        m = pad_mask[:, None, None, :]\n', empties: false },
  { id: 'key_padding_right_collate', lines: '        m = pad_mask[:, None, None, :]\n', empties: false, tail: RIGHT_COLLATE },
  { id: 'key_padding_left_collate', lines: '        m = pad_mask[:, None, None, :]\n', empties: false, tail: LEFT_COLLATE },
  { id: 'causal_diagonal_kept', lines: `${CAUSAL}        m = causal\n`, empties: false },
  {
    id: 'causal_diagonal_hidden',
    lines: '        m = torch.triu(torch.ones(s, s, dtype=torch.bool, device=x.device))\n',
    empties: true,
  },
  { id: 'query_padding', lines: '        m = pad_mask[:, None, :, None]\n', empties: true },
  { id: 'query_padding_unsqueeze', lines: '        m = pad_mask.unsqueeze(1).unsqueeze(-1)\n', empties: true },
  { id: 'pair_padding', lines: '        m = pad_mask[:, None, :, None] | pad_mask[:, None, None, :]\n', empties: true },
  { id: 'causal_and_padding', lines: `${CAUSAL}        m = causal | pad_mask[:, None, None, :]\n`, empties: false },
  {
    id: 'causal_and_padding_right_collate',
    lines: `${CAUSAL}        m = causal | pad_mask[:, None, None, :]\n`,
    empties: false,
    tail: RIGHT_COLLATE,
  },
  {
    id: 'causal_and_padding_left_collate',
    lines: `${CAUSAL}        m = causal | pad_mask[:, None, None, :]\n`,
    empties: true,
    tail: LEFT_COLLATE,
  },
  {
    id: 'causal_and_padding_left_tokenizer',
    lines: `${CAUSAL}        m = causal | pad_mask[:, None, None, :]\n`,
    empties: true,
    tail: `

def encode(tokenizer, texts):
    tokenizer.padding_side = "left"
    batch = tokenizer(texts, padding=True, return_tensors="pt")
    return batch["input_ids"], batch["attention_mask"] == 0
`,
  },
  {
    id: 'causal_and_padding_left_other_file',
    lines: `${CAUSAL}        m = causal | pad_mask[:, None, None, :]\n`,
    empties: true,
    other: {
      'generate.py': `import torch

from model import Attention


def left_pad(seqs, pad_id):
    longest = max(len(seq) for seq in seqs)
    ids = torch.full((len(seqs), longest), pad_id, dtype=torch.long)
    for row, seq in enumerate(seqs):
        ids[row, longest - len(seq):] = torch.tensor(seq)
    return ids, ids == pad_id


def run(model: Attention, embed, seqs, pad_id):
    ids, pad_mask = left_pad(seqs, pad_id)
    return model(embed(ids), pad_mask)
`,
    },
  },
];

/** NaN guards on the weights: none, or one that makes the rows a -inf fill empties safe. */
const GUARDS: readonly { id: string; after: string }[] = [
  { id: 'unguarded', after: '' },
  { id: 'nan_to_num', after: '        weights = torch.nan_to_num(weights, nan=0.0)\n' },
  { id: 'masked_fill_isnan', after: '        weights = weights.masked_fill(torch.isnan(weights), 0.0)\n' },
];

function rowCells(): MatrixCell[] {
  const cells: MatrixCell[] = [];
  const ninf = 'float("-inf")';
  for (const mask of ROW_MASKS) {
    // A finite fill keeps a fully masked row finite (uniform weights, no NaN): correct on every mask.
    if (mask.empties) {
      for (const op of OPS) {
        for (const fill of ['torch.finfo(scores.dtype).min', '-1e9']) {
          cells.push({
            id: `rows/${mask.id}/${op.id}/finite_${fill.startsWith('torch') ? 'finfo_dtype' : 'm1e9'}`,
            rule: 'ATT007',
            files: { 'model.py': module({ fillLines: op.lines('m', fill), maskLines: mask.lines, tail: mask.tail }), ...mask.other },
            path: 'model.py',
          });
        }
      }
    }
    for (const op of OPS.filter((o) => o.id !== 'additive')) {
      for (const guard of GUARDS) {
        // The guards only matter where a row empties; on the others one guard is enough to show it changes nothing.
        if (!mask.empties && guard.id === 'masked_fill_isnan') continue;
        const model = module({ fillLines: op.lines('m', ninf), maskLines: mask.lines, after: guard.after, tail: mask.tail });
        cells.push({
          id: `rows/${mask.id}/${op.id}/${guard.id}`,
          rule: 'ATT007',
          files: { 'model.py': model, ...mask.other },
          path: 'model.py',
          bugAt: mask.empties && guard.id === 'unguarded' ? op.at(ninf) : undefined,
        });
      }
    }
    // An additive bias built with -inf filled where the mask hides (zeros filled), then added to the scores.
    for (const guard of GUARDS.filter((g) => g.id !== 'masked_fill_isnan')) {
      const model = module({
        fillLines: `        bias = torch.zeros(m.shape, device=x.device).masked_fill(m, ${ninf})\n        scores = scores + bias\n`,
        maskLines: mask.lines,
        after: guard.after,
        tail: mask.tail,
      });
      cells.push({
        id: `rows/${mask.id}/bias_zeros_masked_fill/${guard.id}`,
        rule: 'ATT007',
        files: { 'model.py': model, ...mask.other },
        path: 'model.py',
        bugAt: mask.empties && guard.id === 'unguarded' ? 'masked_fill(m,' : undefined,
      });
    }
  }
  return cells;
}

// ---------------------------------------------------------------------------------------------------------------
// Other frameworks: JAX (where, .at[].set), TensorFlow (where, additive, Keras mixed precision), NumPy.

function jaxProgram(fillLine: string, dtypeLine: string): string {
  return `import jax
import jax.numpy as jnp


def attention(q, k, v, pad_mask):
    # q, k, v: (batch, heads, seq, head_dim); pad_mask: (batch, seq) bool, True at padding
${dtypeLine}    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    m = pad_mask[:, None, None, :]
${fillLine}    weights = jax.nn.softmax(scores, axis=-1)
    return jnp.einsum("bhqk,bhkd->bhqd", weights, v)
`;
}

function tfProgram(fillLine: string, head: string): string {
  return `import tensorflow as tf
${head}

def attention(q, k, v, pad_mask):
    # q, k, v: (batch, heads, seq, head_dim); pad_mask: (batch, seq) bool, True at padding
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], q.dtype))
    m = pad_mask[:, tf.newaxis, tf.newaxis, :]
${fillLine}    weights = tf.nn.softmax(scores, axis=-1)
    return tf.matmul(weights, v)
`;
}

function numpyProgram(fillLine: string, dtypeLine: string): string {
  return `import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def attention(q, k, v, pad_mask):
    # q, k, v: (batch, heads, seq, head_dim); pad_mask: (batch, seq) bool, True at padding
${dtypeLine}    scores = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    m = pad_mask[:, None, None, :]
${fillLine}    weights = softmax(scores, axis=-1)
    return weights @ v
`;
}

function otherFrameworkCells(): MatrixCell[] {
  const cells: MatrixCell[] = [];
  const jaxFills = [
    ['m1e9', '-1e9', -1e9],
    ['m1e4', '-1e4', -1e4],
    ['finfo_dtype', 'jnp.finfo(scores.dtype).min', 'dtype'],
    ['zero', '0.0', 0],
  ] as const;
  const jaxOps = [
    ['where', (f: string) => `    scores = jnp.where(m, ${f}, scores)\n`, 'jnp.where('],
    ['at_set', (f: string) => `    scores = scores.at[jnp.broadcast_to(m, scores.shape)].set(${f})\n`, '.set('],
  ] as const;
  const jaxPrec = [
    ['fp32', ''],
    ['fp16', '    q, k, v = (t.astype(jnp.float16) for t in (q, k, v))\n'],
    ['bf16', '    q, k, v = (t.astype(jnp.bfloat16) for t in (q, k, v))\n'],
  ] as const;
  for (const [pid, dl] of jaxPrec) {
    for (const [oid, op, at] of jaxOps) {
      for (const [fid, f, value] of jaxFills) {
        const bug = value === 0 || (pid === 'fp16' && typeof value === 'number' && value < -65504);
        cells.push({
          id: `jax/${pid}/${oid}/${fid}`,
          rule: 'ATT007',
          files: { 'attn.py': jaxProgram(op(f), dl) },
          path: 'attn.py',
          bugAt: bug ? at : undefined,
        });
      }
    }
  }
  const tfFills = [
    ['m1e9', '-1e9', -1e9],
    ['m1e4', '-1e4', -1e4],
    ['dtype_min', 'scores.dtype.min', 'dtype'],
  ] as const;
  const tfOps = [
    ['where_fill', (f: string) => `    scores = tf.where(m, tf.fill(tf.shape(scores), tf.cast(${f}, scores.dtype)), scores)\n`, 'tf.where('],
    ['where_ones_like', (f: string) => `    scores = tf.where(m, tf.ones_like(scores) * ${f}, scores)\n`, 'tf.where('],
    ['additive', (f: string) => `    scores += tf.cast(m, scores.dtype) * ${f}\n`, 'scores +='],
  ] as const;
  const tfPrec = [
    ['fp32', ''],
    ['mixed_float16', '\ntf.keras.mixed_precision.set_global_policy("mixed_float16")\n'],
    ['mixed_bfloat16', '\ntf.keras.mixed_precision.set_global_policy("mixed_bfloat16")\n'],
  ] as const;
  for (const [pid, head] of tfPrec) {
    for (const [oid, op, at] of tfOps) {
      for (const [fid, f, value] of tfFills) {
        const bug = pid === 'mixed_float16' && typeof value === 'number' && value < -65504;
        cells.push({
          id: `tf/${pid}/${oid}/${fid}`,
          rule: 'ATT007',
          files: { 'attn.py': tfProgram(op(f), head) },
          path: 'attn.py',
          bugAt: bug ? at : undefined,
        });
      }
    }
  }
  const npFills = [
    ['m1e9', '-1e9', -1e9],
    ['finfo_dtype', 'np.finfo(scores.dtype).min', 'dtype'],
    ['ninf_key_padding', '-np.inf', -Infinity],
  ] as const;
  const npPrec = [
    ['fp64', ''],
    ['fp16', '    q, k, v = q.astype(np.float16), k.astype(np.float16), v.astype(np.float16)\n'],
  ] as const;
  for (const [pid, dl] of npPrec) {
    for (const [fid, f, value] of npFills) {
      const bug = pid === 'fp16' && typeof value === 'number' && value < -65504 && value > -Infinity;
      cells.push({
        id: `numpy/${pid}/where/${fid}`,
        rule: 'ATT007',
        files: { 'attn.py': numpyProgram(`    scores = np.where(m, ${f}, scores)\n`, dl) },
        path: 'attn.py',
        bugAt: bug ? 'np.where(' : undefined,
      });
    }
  }
  return cells;
}

// ---------------------------------------------------------------------------------------------------------------
// ATT006: a mask applied to the weights after softmax, and its correct look-alikes.

/** A self-attention module over token ids; `pad` (bool, True at padding) is built from the ids. */
function idsModule(opts: { readonly before?: string; readonly after: string; readonly methods?: string; readonly out?: string }): string {
  return `import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, vocab, dim, heads, pad_id=0, p=0.1):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.heads = heads
        self.pad_id = pad_id
        self.p = p
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, ids):
        x = self.embed(ids)
        b, s, d = x.shape
        pad = ids == self.pad_id
        keep = ~pad
        q, k, v = self.qkv(x).view(b, s, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
${opts.before ?? ''}        weights = scores.softmax(dim=-1)
${opts.after}        out = ${opts.out ?? 'weights @ v'}
        return self.proj(out.transpose(1, 2).reshape(b, s, d))
${opts.methods ?? ''}`;
}

const MASK_BEFORE = '        scores = scores.masked_fill(pad[:, None, None, :], torch.finfo(scores.dtype).min)\n';
const CAUSAL_IDS = '        causal = torch.triu(torch.ones(s, s, dtype=torch.bool, device=ids.device), diagonal=1)\n';

interface AfterForm {
  readonly id: string;
  readonly after: string;
  readonly at: string;
  readonly methods?: string;
}

const AFTER_FORMS: readonly AfterForm[] = [
  { id: 'masked_fill_keys', after: '        weights = weights.masked_fill(pad[:, None, None, :], 0.0)\n', at: 'weights.masked_fill(' },
  { id: 'multiply_keep', after: '        weights = weights * keep[:, None, None, :]\n', at: 'weights * keep' },
  { id: 'multiply_keep_float', after: '        weights = weights * keep[:, None, None, :].to(weights.dtype)\n', at: 'weights * keep' },
  {
    id: 'additive_extended',
    after: '        ext = (1.0 - keep[:, None, None, :].float()) * -10000.0\n        weights = weights + ext\n',
    at: 'weights = weights + ext',
  },
  { id: 'causal_masked_fill', after: `${CAUSAL_IDS}        weights = weights.masked_fill(causal, 0.0)\n`, at: 'weights.masked_fill(causal' },
  { id: 'tril', after: '        weights = torch.tril(weights)\n', at: 'torch.tril(weights)' },
  {
    id: 'helper',
    after: '        weights = self._hide_padding(weights, pad)\n',
    at: 'masked_fill(',
    methods: `
    def _hide_padding(self, w, pad):
        return w.masked_fill(pad[:, None, None, :], 0.0)
`,
  },
];

function att006Cells(): MatrixCell[] {
  const cells: MatrixCell[] = [];
  for (const form of AFTER_FORMS) {
    // Buggy: nothing masks the scores before the softmax, nothing renormalises after.
    cells.push({
      id: `att006/${form.id}/unmasked_scores`,
      rule: 'ATT006',
      files: { 'model.py': idsModule({ after: form.after, methods: form.methods }) },
      path: 'model.py',
      bugAt: form.at,
    });
    // Correct: renormalised over the kept keys (the weights divided by their new sum along the softmax axis): the
    // result is softmax over the kept keys exactly, exp(s_i) / Σ_kept exp(s_j).
    if (form.id !== 'additive_extended') {
      cells.push({
        id: `att006/${form.id}/renormalised`,
        rule: 'ATT006',
        files: {
          'model.py': idsModule({
            after: `${form.after}        weights = weights / weights.sum(dim=-1, keepdim=True).clamp_min(1e-9)\n`,
            methods: form.methods,
          }),
        },
        path: 'model.py',
      });
    }
  }
  // Correct look-alikes.
  cells.push({
    id: 'att006/masked_before_and_after',
    rule: 'ATT006',
    files: { 'model.py': idsModule({ before: MASK_BEFORE, after: '        weights = weights.masked_fill(pad[:, None, None, :], 0.0)\n' }) },
    path: 'model.py',
  });
  cells.push({
    id: 'att006/renormalised_product_inline',
    rule: 'ATT006',
    files: {
      'model.py': idsModule({
        after: '        w = weights * keep[:, None, None, :]\n        weights = w / w.sum(-1, keepdim=True)\n',
      }),
    },
    path: 'model.py',
  });
  cells.push({
    id: 'att006/dropout_rand_like',
    rule: 'ATT006',
    files: {
      'model.py': idsModule({
        before: MASK_BEFORE,
        after: '        if self.training:\n            weights = weights * (torch.rand_like(weights) > self.p).to(weights.dtype) / (1.0 - self.p)\n',
      }),
    },
    path: 'model.py',
  });
  cells.push({
    id: 'att006/dropout_bernoulli',
    rule: 'ATT006',
    files: {
      'model.py': idsModule({
        before: MASK_BEFORE,
        after: '        if self.training:\n            weights = weights * torch.bernoulli(torch.full_like(weights, 1.0 - self.p)) / (1.0 - self.p)\n',
      }),
    },
    path: 'model.py',
  });
  cells.push({
    id: 'att006/padded_query_rows_of_weights',
    rule: 'ATT006',
    files: { 'model.py': idsModule({ before: MASK_BEFORE, after: '        weights = weights.masked_fill(pad[:, None, :, None], 0.0)\n' }) },
    path: 'model.py',
  });
  cells.push({
    id: 'att006/padded_query_rows_of_output',
    rule: 'ATT006',
    files: { 'model.py': idsModule({ before: MASK_BEFORE, after: '', out: '(weights @ v).masked_fill(pad[:, None, :, None], 0.0)' }) },
    path: 'model.py',
  });
  cells.push({
    id: 'att006/output_times_keep_rows',
    rule: 'ATT006',
    files: { 'model.py': idsModule({ before: MASK_BEFORE, after: '', out: '(weights @ v) * keep[:, None, :, None]' }) },
    path: 'model.py',
  });
  cells.push({
    id: 'att006/test_reference_leak_check',
    rule: 'ATT006',
    files: {
      'test_attention.py': `import math

import torch


def test_padding_gets_no_weight():
    torch.manual_seed(0)
    q, k = torch.randn(2, 4, 6, 8), torch.randn(2, 4, 6, 8)
    pad = torch.zeros(2, 6, dtype=torch.bool)
    pad[0, 4:] = True
    scores = q @ k.transpose(-2, -1) / math.sqrt(8)
    scores = scores.masked_fill(pad[:, None, None, :], torch.finfo(scores.dtype).min)
    weights = scores.softmax(dim=-1)
    leaked = (weights * pad[:, None, None, :]).sum()
    assert leaked.item() < 1e-6
    assert torch.allclose(weights.sum(-1), torch.ones(2, 4, 6))
`,
    },
    path: 'test_attention.py',
  });
  cells.push({
    id: 'att006/test_reference_renormalised',
    rule: 'ATT006',
    files: {
      'test_attention.py': `import math

import torch


def reference_attention(q, k, v, keep):
    w = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(q.size(-1)), dim=-1)
    w = w * keep[:, None, None, :]
    w = w / w.sum(dim=-1, keepdim=True)
    return w @ v


def test_matches_reference(attention):
    q, k, v = torch.randn(3, 2, 2, 5, 8).unbind(0)
    keep = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
    torch.testing.assert_close(attention(q, k, v, keep), reference_attention(q, k, v, keep))
`,
    },
    path: 'test_attention.py',
  });
  // Other frameworks: the product with a 0/1 keep mask after softmax, nothing before, nothing after.
  cells.push({
    id: 'att006/tf/multiply_keep',
    rule: 'ATT006',
    files: {
      'attn.py': `import tensorflow as tf


def attention(q, k, v, ids, pad_id=0):
    keep = tf.cast(tf.not_equal(ids, pad_id), q.dtype)[:, tf.newaxis, tf.newaxis, :]
    scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], q.dtype))
    weights = tf.nn.softmax(scores, axis=-1)
    weights = weights * keep
    return tf.matmul(weights, v)
`,
    },
    path: 'attn.py',
    bugAt: 'weights = weights * keep',
  });
  cells.push({
    id: 'att006/jax/multiply_keep',
    rule: 'ATT006',
    files: {
      'attn.py': `import jax
import jax.numpy as jnp


def attention(q, k, v, ids, pad_id=0):
    keep = (ids != pad_id)[:, None, None, :]
    scores = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    weights = jax.nn.softmax(scores, axis=-1)
    weights = jnp.where(keep, weights, 0.0)
    return jnp.einsum("bhqk,bhkd->bhqd", weights, v)
`,
    },
    path: 'attn.py',
    bugAt: 'jnp.where(keep, weights, 0.0)',
  });
  cells.push({
    id: 'att006/numpy/multiply_keep',
    rule: 'ATT006',
    files: {
      'attn.py': `import numpy as np


def softmax(x, axis=-1):
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def attention(q, k, v, ids, pad_id=0):
    keep = (ids != pad_id)[:, None, None, :]
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    weights = softmax(scores, axis=-1) * keep
    return weights @ v
`,
    },
    path: 'attn.py',
    bugAt: 'softmax(scores, axis=-1) * keep',
  });
  return cells;
}

export function matrixCells(): MatrixCell[] {
  return [...rangeCells(), ...rowCells(), ...otherFrameworkCells(), ...att006Cells()];
}
