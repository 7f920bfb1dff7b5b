// The keyword prefilters: text tests that decide, before any parsing or evaluation, which code the linter looks
// at. All are built from the API table (api-table.ts), so an API added there is seen at every level:
//
//   file           a file without any of it is not parsed at all (index.ts, MIGHT_HAVE_FINDINGS);
//   block          top-level blocks parsed (syntax/blocks.ts, SITE_TEXT);
//   body           function and class bodies copied from the parse tree (syntax/tree.ts, RELEVANT);
//   activeFunction functions evaluated on their own (analysis/evaluator.ts, SITE_TEXT);
//   rootStatement  statements evaluated eagerly (analysis/evaluator.ts, ROOT_TEXT).
//
// Each level is the table's API names plus the evidence that level needs beyond API names, listed below by what
// it stands for (fill values, mask keyword arguments, scale and layout words): never names of projects.
import { API_TABLE, lastName, type ApiRow } from './api-table';

export interface Prefilters {
  readonly file: RegExp;
  readonly block: RegExp;
  readonly body: RegExp;
  readonly activeFunction: RegExp;
  readonly rootStatement: RegExp;
}

/** The values masked positions are filled with: -inf, -1e9 and the like, torch.finfo(...).min. */
const FILL_VALUES = String.raw`inf\b|1e\d|finfo`;
/** A softmax written by hand (exp over a sum). */
const HAND_WRITTEN_SOFTMAX = String.raw`\bexp\(`;
/** Masks handed on by keyword to the code's own attention functions and layers. */
const MASK_KEYWORD_ARGUMENTS = String.raw`(?:attention|attn|padding|src|tgt|memory)_mask\s*=`;
/** The code's own attention classes (`MultiHeadSelfAttention`, `MultiScaleAttention`): their calls pass masks and scores along. */
const OWN_ATTENTION_CLASSES = String.raw`Multi[Hh]ead|Multi\w*Attention`;
/** The code's own attention functions, modules and variables by name (`self.attn(x, mask)`, `attention_weights`). */
const ATTENTION_WORDS = String.raw`attn|attention|Multi`;
/** Masks, causal flags and products written as methods (`x.mul(m)`, `s.div(d)`, `times`). */
const MASKING_WORDS = String.raw`mask|causal|times|mul\(|div\(`;
/** An einops pattern with a group of two axes before or after its arrow (`(h d) ->`, `-> b (h d)`), inside one string. */
const EINOPS_GROUP = String.raw`\([ \t]*[A-Za-z_]\w*[ \t]+[A-Za-z_]\w*[ \t]*\)[^'"\n]*->|->[^'"\n]*\([ \t]*[A-Za-z_]\w*[ \t]+[A-Za-z_]\w*[ \t]*\)`;
/** What a statement needs to be evaluated eagerly beyond a site: a head split, a renormalisation, a NaN guard, a scale. */
const ROOT_WORDS = String.raw`//|\.sum\(|nan|scal|sqrt|rsqrt|temperature|register_buffer`;
/**
 * What makes a function or class body worth copying beyond a site: scales, layouts, caches, precision, q/k names, and
 * FlexAttention's mask_mod(b, h, q_idx, kv_idx) (its key index parameter, as PyTorch names it), and an einops pattern
 * that splits or merges an axis (`"b n (h d) -> b h n d"`, `"b h n d -> b n (h d)"`): a module whose forward only
 * projects its input and splits it into heads is read where its instances are called, so that the head axis survives
 * the call (a size read off it, `k.size(1)`, is then known to count heads).
 */
const BODY_WORDS = String.raw`attn|atten|mask|normalize\(|\.sum\(|scale|sqrt|transpose|permute|swapaxes|causal|cache|register_buffer|float16|half|autocast|quer|\bkeys?\b|\bkv_idx\b|${EINOPS_GROUP}`;

/**
 * A layer's weight named in a string (`state_dict[prefix + "q_proj.weight"]`, `name.endswith("q_proj.weight")`):
 * a conversion or a load hook that may fold the attention scale into the weights (evaluator.ts: foldedEntryScales).
 */
const WEIGHT_ENTRIES = String.raw`\.(?:weight|kernel)\b[^'"\n]*['"]`;

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The text that stands for a use of the row's API: its name's last part (a call of it, for common words), or its operator. */
export function useText(row: ApiRow): string {
  if (row.text !== undefined) return row.text;
  const name = escape(lastName(row));
  return row.callOnly ? String.raw`\b${name}\(` : name;
}

/**
 * The names of the table's mask and causal arguments that say what they are on their own (`attn_mask`,
 * `key_padding_mask`, `is_causal`; a bare `mask` says nothing).
 */
export function maskArgumentNames(table: readonly ApiRow[]): string[] {
  const out = new Set<string>();
  for (const row of table) {
    for (const m of row.masks ?? []) if (m.name.includes('_')) out.add(m.name);
    if (row.kernel?.causalParam) out.add(row.kernel.causalParam);
  }
  return [...out];
}

/**
 * The alternatives joined, without repeats and without plain words that contain another plain word of the list
 * (`TransformerEncoderLayer` when `Transformer` is there): the same text matches, with fewer alternatives to try.
 */
function alternation(parts: readonly string[]): string {
  const unique = [...new Set(parts)];
  const plain = unique.filter((p) => /^\w+$/.test(p));
  return unique.filter((p) => !/^\w+$/.test(p) || !plain.some((q) => q !== p && p.includes(q))).join('|');
}

export function buildPrefilters(table: readonly ApiRow[]): Prefilters {
  const apis = alternation(table.map(useText));
  const maskArguments = alternation(maskArgumentNames(table).map(escape));
  const regex = (...parts: string[]): RegExp => new RegExp(parts.filter((p) => p.length > 0).join('|'));
  const active = regex(apis, maskArguments, FILL_VALUES, MASKING_WORDS, ATTENTION_WORDS);
  return {
    file: regex(apis, maskArguments, HAND_WRITTEN_SOFTMAX, FILL_VALUES, OWN_ATTENTION_CLASSES),
    block: regex(apis, maskArguments, MASK_KEYWORD_ARGUMENTS, FILL_VALUES, String.raw`\btimes`, OWN_ATTENTION_CLASSES, WEIGHT_ENTRIES),
    body: regex(apis, maskArguments, FILL_VALUES, OWN_ATTENTION_CLASSES, BODY_WORDS, WEIGHT_ENTRIES),
    activeFunction: active,
    rootStatement: regex(active.source, ROOT_WORDS),
  };
}

/** The prefilters of the linter, from the API table. */
export const PREFILTERS: Prefilters = buildPrefilters(API_TABLE);
