// Evidence that a batch is padded on the left, which is what makes a causal mask combined with a key-padding mask
// empty whole rows (a left-pad query may only see earlier keys, all of them padding). Right padding, what training
// code and seq2seq decoders use, never does: every real query sees the real keys before it. Read from the code
// (a tokenizer's `padding_side="left"`, a sequence written right-aligned into a padded buffer,
// `mask[row, longest - len(ids):] = 1`, padding of the missing length joined in front, `np.concatenate([np.zeros(K - n), x])`), in the linted file or a workspace file importing it. A comment that mentions
// left padding is no evidence (`# 0 at the LEFT padding`, `# no left-padding here`): it may deny it, or describe another
// code path; the code that pads is.
import type { Evaluator } from './evaluator';
import { importingChain } from './importers';

/** `padding_side="left"` / `padding_side = 'left'` (Hugging Face tokenizers), in code or a keyword argument. */
const PADDING_SIDE_LEFT = /\bpadding_side\s*=\s*["']left["']/;
/** A right-aligned write into a padded buffer: `buf[row, longest - len(ids):] = ...` (the padding stays on the left). */
const RIGHT_ALIGNED_WRITE = /\[[^\]\n]*-\s*len\([^()\n]*\)\s*:\s*\]\s*=[^=]/;
/**
 * Padding joined in front of the data: a constant block whose length along the join is a maximum less a length,
 * written first (`np.concatenate([np.zeros((1, K - tlen, d)), seg], axis=1)`, `torch.cat([torch.zeros(max_len - n), x])`),
 * as decision-transformer loaders left-pad each trajectory.
 */
const PAD_JOINED_FIRST =
  /\b(?:concatenate|cat|concat|hstack)\(\s*\[\s*(?:np|numpy|torch|jnp|tf)\.(?:zeros|ones|full)\(\s*\(?\s*(?:1\s*,\s*)?[A-Za-z_][\w.]*\s*-\s*[A-Za-z_(]/;
const MAX_CHAIN_HOPS = 3;
const MAX_IMPORTERS = 8;

function saysLeftPadding(source: string): boolean {
  return PADDING_SIDE_LEFT.test(source) || RIGHT_ALIGNED_WRITE.test(source) || PAD_JOINED_FIRST.test(source);
}

/** Per linted file (one evaluator): the answer, read once whatever the number of fills that ask. */
const shown = new WeakMap<Evaluator, boolean>();

/** Whether the linted file, or a workspace file importing it (up to a few hops), pads on the left. */
export function leftPaddingShown(ev: Evaluator): boolean {
  let answer = shown.get(ev);
  if (answer === undefined) shown.set(ev, (answer = readLeftPadding(ev)));
  return answer;
}

function readLeftPadding(ev: Evaluator): boolean {
  if (saysLeftPadding(ev.tree.source)) return true;
  const link = ev.link;
  if (!link?.importers) return false;
  for (const path of importingChain(link, MAX_CHAIN_HOPS, MAX_IMPORTERS)) {
    const m = link.workspace.module(path);
    if (m && saysLeftPadding(m.tree.source)) return true;
  }
  return false;
}
