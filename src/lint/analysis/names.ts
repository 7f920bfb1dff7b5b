// What names say. Attention code names its tensors and sizes in a small number of ways (q/k/v,
// query_layer, key_states, head_dim, d_model, n_head, key_padding_mask, attention_mask, ...). These
// heuristics are used only where the code itself gives nothing better (parameters, unknown callees).
import { msg } from '../message';
import { PHRASES } from './phrases';
import type { AxisLabel, DimInfo, MaskInfo, Role } from './values';

/** Caches a pure string → value function (names repeat a lot; the regexes behind them are not free). */
function memo<T>(fn: (s: string) => T): (s: string) => T {
  const cache = new Map<string, T>();
  return (s: string): T => {
    if (cache.has(s)) return cache.get(s) as T;
    const v = fn(s);
    if (cache.size > 20_000) cache.clear();
    cache.set(s, v);
    return v;
  };
}

/** Splits `query_layer`, `keyStates`, `xq2` into lower-case word tokens. */
export const nameTokens = memo(nameTokensUncached);
function nameTokensUncached(name: string): string[] {
  const last =
    name
      .replace(/^self\./, '')
      .split('.')
      .pop() ?? name;
  return last
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[_\d]+/)
    .filter((t) => t.length > 0);
}

const QUERY_TOKENS = new Set(['q', 'query', 'queries', 'qs', 'xq', 'qh', 'qt']);
const KEY_TOKENS = new Set(['k', 'key', 'keys', 'ks', 'xk', 'kh', 'kt']);
const VALUE_TOKENS = new Set(['v', 'value', 'values', 'vs', 'xv', 'vh']);
/** Encoder outputs that play the keys in Luong/Bahdanau-style attention. */
const CONTEXT_TOKENS = new Set(['context', 'memory', 'mem', 'encoder', 'enc']);
/** Tokens that make a name a size, mask, index or weight rather than a q/k/v tensor. */
const NOT_A_TENSOR = new Set([
  'mask',
  'len',
  'length',
  'lens',
  'size',
  'dim',
  'bias',
  'pos',
  'scale',
  'idx',
  'id',
  'ids',
  'num',
  'count',
  'shape',
  'padding',
  'weight',
  'weights',
  'cache',
  'past',
  'norm',
  'dropout',
  'drop',
  'init',
  'fn',
  'func',
]);

/**
 * The attention role a name gives a tensor: `q`, `query_layer`, `xq`, `proj_query` → query; `k`, `key_states`
 * → key; `v`, `value` → value. Names of sizes, masks and weights give none; mixtures (`qk`, `q_and_k`) give none.
 */
const roleCache = new Map<string, Role | null>();

export function roleOfName(name: string): Role | undefined {
  const hit = roleCache.get(name);
  if (hit !== undefined) return hit ?? undefined;
  const r = roleOfNameUncached(name);
  if (roleCache.size > 50_000) roleCache.clear();
  roleCache.set(name, r ?? null);
  return r;
}

function roleOfNameUncached(name: string): Role | undefined {
  const tokens = nameTokens(name);
  if (tokens.length === 0 || tokens.some((t) => NOT_A_TENSOR.has(t))) return undefined;
  return roleOfNameLoose(tokens);
}

/** Keys by their encoder-side name (`context`, `memory`, `encoder_outputs`): only meaningful next to a query. */
export const isContextName = memo((name: string): boolean => isContextNameUncached(name));
function isContextNameUncached(name: string): boolean {
  const tokens = nameTokens(name);
  return tokens.some((t) => CONTEXT_TOKENS.has(t)) && !tokens.some((t) => t === 'mask' || t === 'len' || t === 'layer');
}

/** Words that, beside a role token, name a projection layer or weight (`q_proj`, `to_q`, `W_q`, `query_dense`). */
const LAYERISH: ReadonlySet<string> = new Set([
  'proj',
  'projection',
  'linear',
  'lin',
  'fc',
  'w',
  'to',
  'dense',
  'layer',
  'net',
  'map',
  'conv',
  'in',
  'matrix',
  'transform',
  'head',
  'heads',
  'embed',
  'l',
]);

/** The role of a projection layer from its attribute name: `self.q_proj`, `self.to_q`, `self.W_q`, `self.query`. */
export const projectionRole = memo((name: string): Role | undefined => projectionRoleUncached(name));
function projectionRoleUncached(attr: string): Role | undefined {
  const tokens = nameTokens(attr);
  if (tokens.length === 0) return undefined;
  const r = roleOfNameLoose(tokens);
  if (!r) return undefined;
  // Only names that look like layers: a single role token or role + a layer-ish word.
  if (tokens.every((t) => LAYERISH.has(t) || QUERY_TOKENS.has(t) || KEY_TOKENS.has(t) || VALUE_TOKENS.has(t))) return r;
  return undefined;
}

/**
 * The role of a weight the data are multiplied by, from its name, when the name says it is a projection's weight: a role
 * token with a layer-ish word (`W_q`, `q_proj`, `key_proj`, `w_value`), not a role token alone (`self.query`, `keys`:
 * learned queries or keys themselves).
 */
export function weightRole(name: string): Role | undefined {
  const r = projectionRole(name);
  return r && nameTokens(name).some((t) => LAYERISH.has(t)) ? r : undefined;
}

/** The one role the tokens name (`q`, `key`, `values`, ...), or undefined when they name none or more than one. */
function roleOfNameLoose(tokens: string[]): Role | undefined {
  let role: Role | undefined;
  for (const t of tokens) {
    const r: Role | undefined = QUERY_TOKENS.has(t) ? 'query' : KEY_TOKENS.has(t) ? 'key' : VALUE_TOKENS.has(t) ? 'value' : undefined;
    if (!r) continue;
    if (role && role !== r) return undefined;
    role = r;
  }
  return role;
}

/** Attribute names of projections whose output packs q, k and v (`c_attn`, `qkv`, `in_proj`, `to_qkv`). */
export const isPackedProjection = memo((name: string): boolean => isPackedProjectionUncached(name));
function isPackedProjectionUncached(attr: string): boolean {
  const t = nameTokens(attr);
  return t.includes('qkv') || t.includes('kv') || (t.includes('c') && t.includes('attn')) || (t.includes('in') && t.includes('proj')) || t.includes('wqkv');
}

/** Generic projection-layer names (`self.proj`, `self.linear_in`, `self.W1`): a Linear-like layer. */
export const isProjectionName = memo((name: string): boolean => isProjectionNameUncached(name));
function isProjectionNameUncached(attr: string): boolean {
  const t = nameTokens(attr);
  return (
    t.some((x) => ['proj', 'projection', 'linear', 'lin', 'fc', 'dense', 'w'].includes(x)) ||
    (t.includes('to') && !t.some((x) => RESHAPE_TOKENS.has(x))) ||
    projectionRole(attr) !== undefined ||
    isPackedProjection(attr)
  );
}

/**
 * Words that make a `to` name a change of layout, not a projection (`split_to_heads`, `shape_to_per_head`,
 * `reshape_to_batches`, `to_multihead`): such a helper, when it is not in view, gives tensors of a rank nothing shows.
 */
const RESHAPE_TOKENS: ReadonlySet<string> = new Set([
  'split',
  'shape',
  'reshape',
  'view',
  'heads',
  'head',
  'multihead',
  'merge',
  'transpose',
  'permute',
  'batch',
  'batches',
  'flat',
  'flatten',
]);

// ------------------------------------------------------------------------------------------------ sizes

const HEAD_DIM_NAMES = new Set([
  'head_dim',
  'head_size',
  'headdim',
  'headsize',
  'd_k',
  'dk',
  'd_q',
  'dq',
  'd_head',
  'dim_head',
  'dim_per_head',
  'hd',
  'hs',
  'd_kv',
  'key_dim',
  'attention_head_size',
  'attn_head_size',
  'qk_head_dim',
  'per_head_dim',
  'size_per_head',
  'depth',
  'head_features',
  'dim_k',
  'k_dim',
  'kdim',
  'key_size',
  'd_key',
  'd_v',
  'dv',
  'hidden_size_per_attention_head',
  'hidden_size_per_head',
  'head_channels',
  'c_head',
]);
const MODEL_DIM_NAMES = new Set([
  'd_model',
  'dmodel',
  'embed_dim',
  'embed_size',
  'embedding_dim',
  'embedding_size',
  'emb_dim',
  'emb_size',
  'hidden_size',
  'hidden_dim',
  'd_hidden',
  'n_embd',
  'n_embed',
  'n_embedding',
  'model_dim',
  'd_embed',
  'dim_model',
  'n_state',
  'width',
  'dim',
  'n_dim',
  'ndim',
  'd',
  'channels',
  'in_channels',
  'n_channels',
  'num_channels',
  'in_dim',
  'input_dim',
  'd_in',
]);
const HEAD_COUNT_NAMES = new Set([
  'n_head',
  'n_heads',
  'nhead',
  'nheads',
  'num_heads',
  'num_head',
  'heads',
  'head',
  'h',
  'nh',
  'num_attention_heads',
  'n_kv_heads',
  'num_key_value_heads',
  'head_num',
  'n_heads_kv',
  'num_kv_heads',
  'n_kv_head',
  'nb_head',
  'nb_heads',
]);

function bareName(name: string): string {
  return (
    name
      .replace(/^self\./, '')
      .split('.')
      .pop() ?? name
  ).replace(/^_+/, '');
}

export const dimOfName = memo((name: string): DimInfo | undefined => dimOfNameUncached(name));
function dimOfNameUncached(name: string): DimInfo | undefined {
  const b = bareName(name);
  const lower = b.toLowerCase();
  // `sqrt_att_head_size`, `inv_sqrt_head_dim`, `head_dim_sqrt`: a root or an inverse of a width, not the width.
  if (/(?:^|_)(?:r?sqrt|inv|inverse|rsqrt)(?:_|$)/.test(lower)) return undefined;
  if (HEAD_DIM_NAMES.has(lower) || HEAD_DIM_NAMES.has(b)) return { which: 'head', text: name };
  // A prefixed per-head width (`attn_head_dim`, `qk_head_dim`, `index_head_dim`, `enc_dim_per_head`).
  if (/^[a-z]\w*_(?:head_dim|head_size|dim_head|dim_per_head|d_head)$/i.test(b) && !/rope|pos|rotary/i.test(b)) return { which: 'head', text: name };
  if (MODEL_DIM_NAMES.has(lower)) return { which: 'model', text: name };
  return undefined;
}

export const isHeadCountName = memo((name: string): boolean => isHeadCountNameUncached(name));
function isHeadCountNameUncached(name: string): boolean {
  const b = bareName(name);
  if (HEAD_COUNT_NAMES.has(b) || HEAD_COUNT_NAMES.has(b.toLowerCase()) || b === 'H') return true;
  // A prefixed count (`gpt_n_head`, `enc_num_heads`, `cross_attn_heads`, `decoder_attention_heads`).
  return /^[a-z]\w*_(?:n_heads?|nheads?|num_heads?|num_attention_heads|attn_heads|attention_heads|heads)$/i.test(b);
}

/**
 * Names of configuration objects (`config`, `cfg`, `args`, `hparams`, `attn_config`, `model_args`): holders of
 * named fields (`config.hidden_size`), never a size or a tensor themselves.
 */
export const isConfigName = memo((name: string): boolean =>
  /^(?:config|configs|cfg|conf|args|opt|opts|hparams|hps|params|options|settings|hyperparams|(?:[a-z]\w*_)(?:config|cfg|args|conf|hparams|params))$/.test(
    name.toLowerCase(),
  ),
);

/** Names that say a number is a softmax scale or temperature. */
export const isScaleName = memo((name: string): boolean => isScaleNameUncached(name));
function isScaleNameUncached(name: string): boolean {
  const b = bareName(name).toLowerCase();
  return /(^|_)(scale|scaling|scaler|scale_factor|softmax_scale|sm_scale|attn_scale|temperature|temp|tau|norm_factor|inv_sqrt_d|inv_scale|scale_attn|rsqrt_d|qk_scale|logit_scale|inv_temperature|alpha)($|_)/.test(
    b,
  );
}

const BATCH_NAMES = new Set(['b', 'bs', 'bsz', 'batch', 'batch_size', 'nbatches', 'n_batch', 'sz_b', 'nb', 'batchsize', 'num_batch', 'n_batches']);
const SEQ_NAMES = new Set([
  't',
  'l',
  's',
  'seq',
  'seq_len',
  'seqlen',
  'seq_length',
  'length',
  'len_q',
  'len_k',
  'len_v',
  'q_len',
  'k_len',
  'kv_len',
  'v_len',
  'tgt_len',
  'src_len',
  'n_ctx',
  'num_tokens',
  'n_tokens',
  'ntokens',
  'query_len',
  'key_len',
  'ctx_len',
  'context_len',
  'max_len',
  'max_length',
  'n_q',
  'n_k',
  'nq',
  'nk',
  'lq',
  'lk',
  'lkv',
  'sq',
  'sk',
  'hw',
  'num_patches',
  'n_patches',
  'seq_q',
  'seq_k',
  'time',
  'steps',
  'output_len',
  'input_len',
  'history_len',
]);

/** Axis label of a reshape argument: `B`→batch, `T`→seq, `self.n_head`→head, `hs`/`C // nh`→feat. */
export const axisLabelOfName = memo((name: string): AxisLabel | undefined => axisLabelOfNameUncached(name));
function axisLabelOfNameUncached(name: string): AxisLabel | undefined {
  const b = bareName(name);
  const lower = b.toLowerCase();
  if (BATCH_NAMES.has(lower)) return 'batch';
  if (isHeadCountName(b)) return 'head';
  if (SEQ_NAMES.has(lower) || /^(len|seq|tgt|src)_?len/.test(lower)) return 'seq';
  if (HEAD_DIM_NAMES.has(lower) || HEAD_DIM_NAMES.has(b)) return 'feat';
  if (lower === 'c' || lower === 'e' || lower === 'd' || MODEL_DIM_NAMES.has(lower)) return 'feat';
  return undefined;
}

// ------------------------------------------------------------------------------------------------ masks

/**
 * Mask polarity from a parameter's name, following the conventions of the libraries that name them:
 * PyTorch's `*key_padding_mask` / `padding_mask` are True at padding (ignore); a tokenizer's
 * `attention_mask` / BERT's `input_mask` are 1 at real tokens (keep).
 */
export const maskOfName = memo((name: string): MaskInfo | undefined => maskOfNameUncached(name));
function maskOfNameUncached(name: string): MaskInfo | undefined {
  const b = bareName(name).toLowerCase();
  if (
    /(^|_)(key_)?padding_mask$/.test(b) ||
    b === 'pad_mask' ||
    b === 'src_key_padding_mask' ||
    b === 'tgt_key_padding_mask' ||
    b === 'memory_key_padding_mask'
  ) {
    return {
      polarity: 'ignore',
      dtype: 'bool',
      padding: true,
      padAxes: [-1],
      why: msg(PHRASES.pytorchConvention, `\`${name}\``),
      byName: true,
      nameSource: b,
    };
  }
  if (b === 'attention_mask' || b === 'input_mask' || b === 'encoder_attention_mask') {
    return {
      polarity: 'keep',
      padding: true,
      padAxes: [-1],
      why: msg(PHRASES.tokenizerConvention, `\`${name}\``),
      byName: true,
      nameSource: b,
    };
  }
  // Any other *mask: a mask whose meaning the name does not tell (polarity unknown).
  if (/(^|_)mask(s)?$|^mask_/.test(b) && !/head_mask/.test(b)) return { why: `\`${name}\``, byName: true };
  return undefined;
}

/** Names that hold padding ids. */
export const isPadIdName = memo((name: string): boolean => isPadIdNameUncached(name));
function isPadIdNameUncached(name: string): boolean {
  const b = bareName(name).toLowerCase();
  return /(^|_)pad(ding)?(_token)?(_id|_idx|_index)?$/.test(b) || b === 'pad' || b === 'padding_idx' || b === 'pad_token_id' || b === 'ignore_index';
}

/** Names that hold token ids. */
export const isTokenIdsName = memo((name: string): boolean => isTokenIdsNameUncached(name));
function isTokenIdsNameUncached(name: string): boolean {
  const b = bareName(name).toLowerCase();
  return /(^|_)(input_ids|ids|token_ids|tokens|src|tgt|seq|src_seq|tgt_seq|inputs|x_ids|src_tokens|tgt_tokens|labels|words|sentence|source|target|input_seq|seq_q|seq_k|enc_inputs|dec_inputs)$/.test(
    b,
  );
}

/** Names of KV caches (`past_key_value`, `layer_past`, `kv_cache`, `cache_k`, `past_k`). */
/**
 * A name for a bias that may be an additive mask (`attn_bias`, `bias`), not one that says position (`pos_bias`,
 * `rel_bias`, `alibi_bias`, `rope_bias`): what its value holds decides, where the code shows it.
 */
export function isMaskableBiasName(name: string): boolean {
  return /bias/i.test(name) && !POSITION_BIAS.test(name);
}
/** A name that says position (a relative-position, ALiBi or rotary bias). */
export const POSITION_BIAS = /pos|rel|alibi|rope/i;

export const isCacheName = memo((name: string): boolean => isCacheNameUncached(name));
function isCacheNameUncached(name: string): boolean {
  const b = bareName(name).toLowerCase();
  return /past|cache|prev|layer_past|memory_k|cached/.test(b);
}
