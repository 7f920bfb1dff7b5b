// The mask-polarity matrix (ATT002): how real code establishes a mask's meaning (builders), carries it
// (carriers) and hands it to an API whose convention is documented (consumers). Each cell is one small program,
// written twice: with the builder form whose meaning the consumer expects (correct: no finding) and with the
// opposite form (inverted: a finding). Every program is written here, by hand, from the libraries' documented
// conventions; none is copied from a repository.

/** What a mask's True/1 entries mean. */
export type Meaning = 'keep' | 'ignore';

/** A mask's shape family: a (B, S) padding mask, or an (L, L) causal mask. */
export type Family = 'pad' | 'causal';

/** The library the program is written for: PyTorch modules, or JAX/Flax and TensorFlow/Keras functions. */
export type Framework = 'torch' | 'jax' | 'tf';

export interface Builder {
  readonly name: string;
  readonly framework?: Framework;
  readonly family: Family;
  /** The expression that builds the mask, True/1 at the positions to keep, and the one True/1 at those to ignore. */
  readonly keep: string;
  readonly ignore: string;
  /** Module-level lines the builder needs (a tokenizer). */
  readonly setup?: string;
}

/**
 * A carrier: how the mask gets from where it is built to where it is used, shape and meaning unchanged.
 * `helpers` are module-level definitions; `body` the forward's lines that end with the mask in `mask`.
 */
export interface Carrier {
  readonly name: string;
  /**
   * The consumer is in another function (`attention_fn(x, q, k, v, mask, ids, L)`) or another module's forward
   * (`self.attn(x, q, k, v, mask, ids, L)`), which the mask reaches as an argument.
   */
  readonly callee?: 'function' | 'module';
  /** The builder's helper (`masks.py`) or the consumer's module (`attention.py`) is in another file of the workspace. */
  readonly crossFile?: 'helper' | 'module';
  carry(expr: string): { readonly helpers: string; readonly body: string; readonly init?: string };
}

export interface Consumer {
  readonly name: string;
  readonly framework?: Framework;
  /** What the consumer's mask argument expects True/1 to mean (its documentation). */
  readonly expects: Meaning;
  readonly families: readonly Family[];
  /** Module-level lines (imports are shared); `init` lines of `__init__`; `use` lines of forward that read `mask`. */
  readonly init?: string;
  use(family: Family): string;
}

const ARGS = 'ids, pad_id, lengths, S, L, texts';

export const BUILDERS: readonly Builder[] = [
  { name: 'pad id compared', family: 'pad', keep: 'ids != pad_id', ignore: 'ids == pad_id' },
  { name: 'pad id by .ne/.eq', family: 'pad', keep: 'ids.ne(pad_id)', ignore: 'ids.eq(pad_id)' },
  { name: 'padding id 0 by .ne(0)/.eq(0)', family: 'pad', keep: 'ids.ne(0)', ignore: 'ids.eq(0)' },
  { name: 'torch.ne/torch.eq', family: 'pad', keep: 'torch.ne(ids, pad_id)', ignore: 'torch.eq(ids, pad_id)' },
  {
    name: 'positions against lengths',
    family: 'pad',
    keep: 'torch.arange(S, device=ids.device)[None, :] < lengths[:, None]',
    ignore: 'torch.arange(S, device=ids.device)[None, :] >= lengths[:, None]',
  },
  { name: '~ of a comparison', family: 'pad', keep: '~(ids == pad_id)', ignore: '~(ids != pad_id)' },
  { name: 'logical_not', family: 'pad', keep: 'torch.logical_not(ids == pad_id)', ignore: 'torch.logical_not(ids != pad_id)' },
  { name: '1 - m, then .bool()', family: 'pad', keep: '(1 - (ids == pad_id).long()).bool()', ignore: '(1 - (ids != pad_id).long()).bool()' },
  { name: '== 0 of a 0/1 mask', family: 'pad', keep: '(ids == pad_id).long() == 0', ignore: '(ids != pad_id).long() == 0' },
  {
    name: "tokenizer's attention_mask",
    family: 'pad',
    setup: 'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")',
    keep: 'tokenizer(texts, padding=True, return_tensors="pt")["attention_mask"].bool()',
    ignore: 'tokenizer(texts, padding=True, return_tensors="pt")["attention_mask"] == 0',
  },
  {
    name: 'lengths compared the other way round',
    family: 'pad',
    keep: 'lengths.unsqueeze(1) > torch.arange(S, device=lengths.device).unsqueeze(0)',
    ignore: 'lengths.unsqueeze(1) <= torch.arange(S, device=lengths.device).unsqueeze(0)',
  },
  {
    name: "tokenizer's attention_mask as an attribute",
    family: 'pad',
    setup: 'tokenizer = AutoTokenizer.from_pretrained("bert-base-uncased")',
    keep: 'tokenizer(texts, padding=True, return_tensors="pt").attention_mask.bool()',
    ignore: 'tokenizer(texts, padding=True, return_tensors="pt").attention_mask == 0',
  },
  { name: 'float 1 - m', family: 'pad', keep: '(1.0 - (ids == pad_id).float()).bool()', ignore: '(1.0 - (ids != pad_id).float()).bool()' },
  { name: '.logical_not() method', family: 'pad', keep: '(ids == pad_id).logical_not()', ignore: '(ids != pad_id).logical_not()' },
  {
    name: 'ones with padding filled 0 / zeros with padding set 1',
    family: 'pad',
    keep: 'torch.ones_like(ids).masked_fill(ids == pad_id, 0).bool()',
    ignore: 'torch.zeros_like(ids).masked_fill(ids == pad_id, 1).bool()',
  },
  {
    name: 'tril / triu(ones, 1)',
    family: 'causal',
    keep: 'torch.tril(torch.ones(L, L, dtype=torch.bool))',
    ignore: 'torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)',
  },
  { name: 'tril/triu as methods', family: 'causal', keep: 'torch.ones(L, L).tril().bool()', ignore: 'torch.ones(L, L).triu(1).bool()' },
  {
    name: 'positions against positions',
    family: 'causal',
    keep: 'torch.arange(L)[:, None] >= torch.arange(L)[None, :]',
    ignore: 'torch.arange(L)[:, None] < torch.arange(L)[None, :]',
  },
  {
    name: 'additive causal mask read as bool',
    family: 'causal',
    keep: '~nn.Transformer.generate_square_subsequent_mask(L).bool()',
    ignore: 'nn.Transformer.generate_square_subsequent_mask(L).bool()',
  },
  // JAX / Flax: jnp comparisons, flax's builders (True = attend).
  { name: 'jnp pad id compared', framework: 'jax', family: 'pad', keep: 'ids != pad_id', ignore: 'ids == pad_id' },
  {
    name: 'flax make_attention_mask',
    framework: 'jax',
    family: 'pad',
    keep: 'nn.make_attention_mask(ids != pad_id, ids != pad_id)[:, 0, 0, :]',
    ignore: 'nn.make_attention_mask(ids == pad_id, ids == pad_id)[:, 0, 0, :]',
  },
  {
    name: 'jnp lengths',
    framework: 'jax',
    family: 'pad',
    keep: 'jnp.arange(S)[None, :] < lengths[:, None]',
    ignore: 'jnp.arange(S)[None, :] >= lengths[:, None]',
  },
  {
    name: 'jnp tril / triu',
    framework: 'jax',
    family: 'causal',
    keep: 'jnp.tril(jnp.ones((L, L), dtype=bool))',
    ignore: 'jnp.triu(jnp.ones((L, L), dtype=bool), k=1)',
  },
  {
    name: 'flax make_causal_mask',
    framework: 'jax',
    family: 'causal',
    keep: 'nn.make_causal_mask(ids)[0, 0]',
    ignore: 'jnp.logical_not(nn.make_causal_mask(ids)[0, 0])',
  },
  // TensorFlow: sequence_mask keeps the positions before each length.
  {
    name: 'tf.sequence_mask',
    framework: 'tf',
    family: 'pad',
    keep: 'tf.sequence_mask(lengths, S)',
    ignore: 'tf.logical_not(tf.sequence_mask(lengths, S))',
  },
  { name: 'tf.not_equal / tf.equal', framework: 'tf', family: 'pad', keep: 'tf.not_equal(ids, pad_id)', ignore: 'tf.equal(ids, pad_id)' },
  {
    name: 'tf band_part',
    framework: 'tf',
    family: 'causal',
    keep: 'tf.cast(tf.linalg.band_part(tf.ones((L, L)), -1, 0), tf.bool)',
    ignore: 'tf.cast(1 - tf.linalg.band_part(tf.ones((L, L)), -1, 0), tf.bool)',
  },
];

const indent = (s: string, n = 8): string =>
  s
    .split('\n')
    .map((l) => (l ? ' '.repeat(n) + l : l))
    .join('\n');

export const CARRIERS: readonly Carrier[] = [
  { name: 'assignment', carry: (e) => ({ helpers: '', body: `mask = ${e}` }) },
  {
    name: 'helper return',
    carry: (e) => ({ helpers: `def build_mask(${ARGS}):\n    return ${e}\n`, body: `mask = build_mask(${ARGS})` }),
  },
  {
    name: 'tuple return',
    carry: (e) => ({
      helpers: `def prepare(${ARGS}):\n    m = ${e}\n    return ids, m\n`,
      body: `ids, mask = prepare(${ARGS})`,
    }),
  },
  {
    name: 'dict of a batch',
    carry: (e) => ({ helpers: '', body: `batch = {"input_ids": ids, "mask": ${e}}\nmask = batch["mask"]` }),
  },
  {
    name: 'self attribute',
    carry: (e) => ({ helpers: '', body: `self.set_mask(${ARGS})\nmask = self.mask`, init: `def set_mask(self, ${ARGS}):\n    self.mask = ${e}\n` }),
  },
  { name: '.to(device)', carry: (e) => ({ helpers: '', body: `mask = (${e}).to(x.device)` }) },
  { name: 'reshape, contiguous, detach', carry: (e) => ({ helpers: '', body: `mask = (${e}).reshape(ids.shape).contiguous().detach()` }) },
  {
    name: 'dict from a collate function',
    carry: (e) => ({
      helpers: `def collate(${ARGS}):\n    return {"input_ids": ids, "pad_mask": ${e}}\n`,
      body: `batch = collate(${ARGS})\nmask = batch["pad_mask"]`,
    }),
  },
  {
    name: 'keyword argument of a helper',
    carry: (e) => ({ helpers: 'def attend(q, k, v, x, mask=None):\n    return mask\n', body: `mask = attend(q, k, v, x, mask=${e})` }),
  },
  { name: 'helper in another file', crossFile: 'helper', carry: (e) => ({ helpers: '', body: `mask = build_mask(${ARGS})\n# ${e}` }) },
  { name: 'module in another file', crossFile: 'module', callee: 'module', carry: (e) => ({ helpers: '', body: `mask = ${e}` }) },
  { name: 'argument of a function', callee: 'function', carry: (e) => ({ helpers: '', body: `mask = ${e}` }) },
  { name: "argument of a submodule's forward", callee: 'module', carry: (e) => ({ helpers: '', body: `mask = ${e}` }) },
];

export const CONSUMERS: readonly Consumer[] = [
  {
    name: 'SDPA attn_mask',
    expects: 'keep',
    families: ['pad', 'causal'],
    use: (f) => `return F.scaled_dot_product_attention(q, k, v, attn_mask=${f === 'pad' ? 'mask[:, None, None, :]' : 'mask'})`,
  },
  {
    name: 'nn.MultiheadAttention',
    expects: 'ignore',
    families: ['pad', 'causal'],
    init: 'self.mha = nn.MultiheadAttention(64, 4, batch_first=True)',
    use: (f) => `out, _ = self.mha(x, x, x, ${f === 'pad' ? 'key_padding_mask' : 'attn_mask'}=mask)\nreturn out`,
  },
  {
    name: 'nn.TransformerEncoder',
    expects: 'ignore',
    families: ['pad', 'causal'],
    init: 'self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(64, 4, batch_first=True), num_layers=2)',
    use: (f) => `return self.encoder(x, ${f === 'pad' ? 'src_key_padding_mask' : 'mask'}=mask)`,
  },
  {
    name: 'masked_fill -inf',
    expects: 'ignore',
    families: ['pad', 'causal'],
    use: (f) =>
      [
        'scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))',
        `scores = scores.masked_fill(${f === 'pad' ? 'mask[:, None, None, :]' : 'mask'}, float("-inf"))`,
        'return scores.softmax(dim=-1) @ v',
      ].join('\n'),
  },
  {
    name: 'torch.where',
    expects: 'keep',
    families: ['pad', 'causal'],
    use: (f) =>
      [
        'scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))',
        `scores = torch.where(${f === 'pad' ? 'mask[:, None, None, :]' : 'mask'}, scores, float("-inf"))`,
        'return scores.softmax(dim=-1) @ v',
      ].join('\n'),
  },
  {
    name: 'additive (1 - m) * -10000',
    expects: 'keep',
    families: ['pad'],
    use: () =>
      [
        'scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))',
        'scores = scores + (1.0 - mask[:, None, None, :].float()) * -10000.0',
        'return scores.softmax(dim=-1) @ v',
      ].join('\n'),
  },
  {
    name: 'masked_fill of mask == 0',
    expects: 'keep',
    families: ['pad', 'causal'],
    use: (f) =>
      [
        'scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))',
        `scores = scores.masked_fill(${f === 'pad' ? 'mask[:, None, None, :]' : 'mask'} == 0, -1e9)`,
        'return F.softmax(scores, dim=-1) @ v',
      ].join('\n'),
  },
  {
    name: 'in-place masked_fill_ of ~mask',
    expects: 'keep',
    families: ['pad', 'causal'],
    use: (f) =>
      [
        'scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))',
        `scores.masked_fill_(~${f === 'pad' ? 'mask.unsqueeze(1).unsqueeze(2)' : 'mask'}, float("-inf"))`,
        'return torch.matmul(scores.softmax(dim=-1), v)',
      ].join('\n'),
  },
  {
    name: 'additive where(m, 0, -inf) to SDPA',
    expects: 'keep',
    families: ['pad', 'causal'],
    use: (f) =>
      [
        `bias = torch.where(${f === 'pad' ? 'mask[:, None, None, :]' : 'mask'}, 0.0, float("-inf"))`,
        'return F.scaled_dot_product_attention(q, k, v, attn_mask=bias)',
      ].join('\n'),
  },
  {
    name: 'additive m * min',
    expects: 'ignore',
    families: ['pad'],
    use: () =>
      [
        'scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))',
        'scores = scores + mask[:, None, None, :].to(scores.dtype) * torch.finfo(scores.dtype).min',
        'return scores.softmax(dim=-1) @ v',
      ].join('\n'),
  },
  {
    name: 'MHA positional key_padding_mask',
    expects: 'ignore',
    families: ['pad'],
    init: 'self.mha = nn.MultiheadAttention(64, 4, batch_first=True)',
    use: () => 'return self.mha(x, x, x, mask, need_weights=False)[0]',
  },
  {
    name: 'nn.TransformerDecoderLayer',
    expects: 'ignore',
    families: ['pad', 'causal'],
    init: 'self.layer = nn.TransformerDecoderLayer(64, 4, batch_first=True)',
    use: (f) => `return self.layer(x, x, ${f === 'pad' ? 'tgt_key_padding_mask' : 'tgt_mask'}=mask)`,
  },
  {
    name: 'additive zeros.masked_fill(m, -inf) to SDPA',
    expects: 'ignore',
    families: ['pad', 'causal'],
    use: (f) =>
      [
        `bias = torch.zeros(${f === 'pad' ? 'mask.shape' : 'L, L'}, dtype=q.dtype).masked_fill(mask, float("-inf"))`,
        `return F.scaled_dot_product_attention(q, k, v, attn_mask=${f === 'pad' ? 'bias[:, None, None, :]' : 'bias'})`,
      ].join('\n'),
  },
  {
    name: 'SDPA, mask expanded over heads and queries',
    expects: 'keep',
    families: ['pad'],
    use: () =>
      [
        'b, h, t, _ = q.shape',
        'attn_mask = mask.view(b, 1, 1, -1).expand(b, h, t, -1)',
        'return F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)',
      ].join('\n'),
  },
  {
    name: 'nn.TransformerDecoder memory padding',
    expects: 'ignore',
    families: ['pad'],
    init: 'self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(64, 4, batch_first=True), num_layers=2)',
    use: () => 'return self.decoder(x, x, memory_key_padding_mask=mask)',
  },
  {
    name: 'transformers model from a config',
    expects: 'keep',
    families: ['pad'],
    init: 'self.bert = BertModel(BertConfig())',
    use: () => 'return self.bert(ids, attention_mask=mask.long())[0]',
  },
  {
    name: "transformers' _prepare_4d_attention_mask",
    expects: 'keep',
    families: ['pad'],
    use: () => ['bias = _prepare_4d_attention_mask(mask.long(), q.dtype)', 'return F.scaled_dot_product_attention(q, k, v, attn_mask=bias)'].join('\n'),
  },
  {
    name: 'transformers model',
    expects: 'keep',
    families: ['pad'],
    init: 'self.bert = AutoModel.from_pretrained("bert-base-uncased")',
    use: () => 'return self.bert(input_ids=ids, attention_mask=mask.long()).last_hidden_state',
  },
  {
    name: 'flax dot_product_attention',
    framework: 'jax',
    expects: 'keep',
    families: ['pad', 'causal'],
    use: (f) => `return nn.dot_product_attention(q, k, v, mask=${f === 'pad' ? 'mask[:, None, None, :]' : 'mask[None, None]'})`,
  },
  {
    name: 'jnp.where',
    framework: 'jax',
    expects: 'keep',
    families: ['pad', 'causal'],
    use: (f) =>
      [
        "scores = jnp.einsum('bhqd,bhkd->bhqk', q, k) / jnp.sqrt(q.shape[-1])",
        `scores = jnp.where(${f === 'pad' ? 'mask[:, None, None, :]' : 'mask'}, scores, -1e9)`,
        "return jnp.einsum('bhqk,bhkd->bhqd', jax.nn.softmax(scores, axis=-1), v)",
      ].join('\n'),
  },
  {
    name: 'keras MultiHeadAttention',
    framework: 'tf',
    expects: 'keep',
    families: ['pad', 'causal'],
    use: (f) =>
      [
        'mha = tf.keras.layers.MultiHeadAttention(num_heads=4, key_dim=16)',
        `return mha(x, x, attention_mask=${f === 'pad' ? 'mask[:, None, :]' : 'mask[None]'})`,
      ].join('\n'),
  },
  {
    name: 'keras MultiHeadAttention, positional',
    framework: 'tf',
    expects: 'keep',
    families: ['pad'],
    use: () => ['mha = tf.keras.layers.MultiHeadAttention(num_heads=4, key_dim=16)', 'return mha(x, x, x, mask[:, None, :])'].join('\n'),
  },
  {
    name: 'keras MultiHeadAttention value_mask',
    framework: 'tf',
    expects: 'keep',
    families: ['pad'],
    use: () => ['mha = keras.layers.MultiHeadAttention(num_heads=4, key_dim=16)', 'return mha(x, x, value_mask=mask)'].join('\n'),
  },
  {
    name: 'tf.where',
    framework: 'tf',
    expects: 'keep',
    families: ['pad', 'causal'],
    use: (f) =>
      [
        'scores = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))',
        `scores = tf.where(${f === 'pad' ? 'mask[:, None, None, :]' : 'mask'}, scores, -1e9)`,
        'return tf.matmul(tf.nn.softmax(scores, axis=-1), v)',
      ].join('\n'),
  },
];

const IMPORTS = [
  'import math',
  'import torch',
  'import torch.nn as nn',
  'import torch.nn.functional as F',
  'from transformers import AutoModel, AutoTokenizer, BertConfig, BertModel',
  'from transformers.modeling_attn_mask_utils import _prepare_4d_attention_mask',
].join('\n');

/** One program: the builder's form of the given meaning, carried by the carrier, used by the consumer. */
const CALLEE_PARAMS = 'x, q, k, v, mask, ids, L';

/**
 * A workspace of two files for the cross-file carriers: the builder's helper in `masks.py`, or the consumer's module
 * in `attention.py`, imported by `model.py`. Both files are linted: a module judged as its importer calls it is
 * reported in its own file.
 */
export function workspaceProgram(b: Builder, meaning: Meaning, c: Carrier, u: Consumer): Record<string, string> {
  const expr = meaning === 'keep' ? b.keep : b.ignore;
  const header = (extra: string): string => `${IMPORTS}\n${extra}\n`;
  if (c.crossFile === 'helper') {
    const masks = [header(''), ...(b.setup ? [b.setup, ''] : []), `def build_mask(${ARGS}):`, `    return ${expr}`, ''].join('\n');
    const model = program(b, meaning, { name: c.name, carry: () => ({ helpers: '', body: `mask = build_mask(${ARGS})` }) }, u).replace(
      IMPORTS,
      `${IMPORTS}\nfrom masks import build_mask`,
    );
    return { 'masks.py': masks, 'model.py': model };
  }
  const attention = [
    header(''),
    'class Attention(nn.Module):',
    '    def __init__(self):',
    indent(['super().__init__()', ...(u.init ? [u.init] : [])].join('\n')),
    '',
    `    def forward(self, ${CALLEE_PARAMS}):`,
    indent(u.use(b.family)),
    '',
  ].join('\n');
  const call = { ...u, init: 'self.attn = Attention()', use: () => `return self.attn(${CALLEE_PARAMS})` };
  const model = program(b, meaning, { name: c.name, carry: () => ({ helpers: '', body: `mask = ${expr}` }) }, call).replace(
    IMPORTS,
    `${IMPORTS}\nfrom attention import Attention`,
  );
  return { 'attention.py': attention, 'model.py': model };
}

export function program(b: Builder, meaning: Meaning, c: Carrier, u: Consumer): string {
  const carried = c.carry(meaning === 'keep' ? b.keep : b.ignore);
  if (c.callee === 'function') {
    const fn = `def attention_fn(${CALLEE_PARAMS}):\n${indent(u.use(b.family), 4)}\n`;
    const call = { ...u, init: undefined, use: () => `return attention_fn(${CALLEE_PARAMS})` };
    return program(b, meaning, { name: c.name, carry: (e) => ({ ...c.carry(e), helpers: fn }) }, call);
  }
  if (c.callee === 'module') {
    const inner = [
      'class Attention(nn.Module):',
      '    def __init__(self):',
      indent(['super().__init__()', ...(u.init ? [u.init] : [])].join('\n')),
      '',
      `    def forward(self, ${CALLEE_PARAMS}):`,
      indent(u.use(b.family)),
      '',
    ].join('\n');
    const call = { ...u, init: 'self.attn = Attention()', use: () => `return self.attn(${CALLEE_PARAMS})` };
    return program(b, meaning, { name: c.name, carry: (e) => ({ ...c.carry(e), helpers: inner }) }, call);
  }
  if (b.framework === 'jax' || b.framework === 'tf') {
    // Functions, not modules: `self` carriers do not apply (cells() leaves them out).
    const imports = b.framework === 'jax' ? 'import jax\nimport jax.numpy as jnp\nimport flax.linen as nn' : 'import keras\nimport tensorflow as tf';
    return [
      imports,
      '',
      ...(carried.helpers ? [carried.helpers] : []),
      `def attention_block(x, q, k, v, ${ARGS}):`,
      indent(carried.body, 4),
      indent(u.use(b.family), 4),
      '',
    ].join('\n');
  }
  const init = ['super().__init__()', ...(u.init ? [u.init] : [])].join('\n');
  return [
    IMPORTS,
    '',
    ...(b.setup ? [b.setup, ''] : []),
    ...(carried.helpers ? [carried.helpers] : []),
    'class Block(nn.Module):',
    '    def __init__(self):',
    indent(init),
    '',
    ...(carried.init ? [indent(carried.init, 4)] : []),
    `    def forward(self, x, q, k, v, ${ARGS}):`,
    indent(carried.body),
    indent(u.use(b.family)),
    '',
  ].join('\n');
}

export interface Cell {
  readonly id: string;
  readonly builder: Builder;
  readonly carrier: Carrier;
  readonly consumer: Consumer;
}

/** Every builder × carrier × consumer whose shapes fit. */
export function cells(): Cell[] {
  const out: Cell[] = [];
  for (const b of BUILDERS)
    for (const c of CARRIERS)
      for (const u of CONSUMERS) {
        if (!u.families.includes(b.family) || (b.framework ?? 'torch') !== (u.framework ?? 'torch')) continue;
        if (c.callee === 'function' && u.init) continue;
        if (c.crossFile && b.framework && b.framework !== 'torch') continue;
        if (
          b.framework &&
          b.framework !== 'torch' &&
          (c.callee === 'module' || c.name === 'self attribute' || c.name === 'reshape, contiguous, detach' || c.name === '.to(device)')
        )
          continue;
        out.push({ id: `${b.name} | ${c.name} | ${u.name}`, builder: b, carrier: c, consumer: u });
      }
  return out;
}
