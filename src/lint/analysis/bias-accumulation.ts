// Where a 0/1 mask goes into a bias made of zeros (ATT006): the reference form of `scaled_dot_product_attention` builds
// `attn_bias = torch.zeros(L, S)`, fills it with -inf where a boolean mask hides, and adds any other mask to it
// (`attn_bias += attn_mask`), meant for additive masks; a caller that hands it a float 0/1 mask makes the bias 0/1,
// and the scores' sum with the bias then adds 0/1. The line that treats the mask as additive is the accumulation.
import type { Evaluator } from './evaluator';
import { liveInCtx } from './flags';
import { addsZeroOne } from './ops';
import type { Ctx } from './facts';
import { unparen, type PyNode } from '../syntax/tree';

/**
 * The statement `bias += mask` that makes the bias read at `maskNode` (in `scores += bias`) a 0/1 mask, when it is the
 * one accumulation of that name reaching the read in this context, every other definition reaching it is one it adds
 * to (the zeros, where an `if attn_mask is not None:` around it is skipped; a fill in an arm this call cannot take,
 * `if is_causal:` called with False, does not reach), and what it adds is a 0/1 mask the code builds.
 */
export function zeroOneIntoBias(ev: Evaluator, maskNode: PyNode | undefined, ctx: Ctx): PyNode | undefined {
  const u = maskNode && unparen(maskNode);
  if (u?.type !== 'identifier') return undefined;
  const defs = liveInCtx(ev, ev.resolve(u, ev.text(u)) ?? [], ctx);
  const augs = defs.filter((d) => d.kind === 'aug');
  const d = augs.length === 1 ? augs[0] : undefined;
  if (!d?.value || (d.op !== '+' && d.op !== '+=')) return undefined;
  const prev = liveInCtx(ev, d.prev ?? [], ctx);
  if (!defs.every((x) => x === d || prev.includes(x))) return undefined;
  if (prev.length === 0 || !prev.every((p) => ev.evalDef(p, ctx).zeros === true)) return undefined;
  const m = ev.eval(d.value, ctx).mask;
  if (!m || !addsZeroOne(m)) return undefined;
  return d.target.parent?.type === 'augmented_assignment' ? d.target.parent : undefined;
}
