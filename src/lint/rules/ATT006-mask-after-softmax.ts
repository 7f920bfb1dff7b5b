// ATT006: masking the weights after softmax without renormalising, or multiplying the scores by a 0/1
// mask as the only mask.
import type { Ctx, FillSite, SoftmaxSite, WeightsMaskSite } from '../analysis/facts';
import { axisAt, type MaskOp } from '../analysis/values';
import { alternatives, byNode, consumersOf, hasRoles, type Consumer } from './evidence';
import { defineTemplates, msg, type MessageArg, type MessageParts } from '../message';
import { apiName, quote, type Rule, type RuleContext } from './rule';
import { childByField, enclosingFunction, type PyNode } from '../syntax/tree';
import { armDeadInCtx } from '../analysis/flags';
import { zeroOneIntoBias } from '../analysis/bias-accumulation';
import { asCalledAt, maskBuilt } from './related';
import { discardedSite } from '../analysis/discarded';
import { returnedUnreadAt } from '../analysis/mask-ops';
import { filledWith, isDropoutMask, maskedAfterItsSoftmax, rescaledAsDropout, selectsWholeRows } from '../analysis/post-softmax-masks';

const T = defineTemplates({
  maskedAfterSoftmax:
    '{0} masks the attention weights after softmax and nothing renormalises them: each row now sums to less than 1. Mask the scores before softmax (masked_fill with -inf) instead.',
  additiveAfterSoftmax:
    '{0} adds an additive mask to the attention weights after softmax: the large negative entries are added to probabilities (with -inf they become -inf or NaN), so the masked keys are not removed and the rows no longer sum to 1. Add the mask to the scores before the softmax.',
  softmaxBeforeMask: 'the softmax normalises the weights here, before the mask',
  weightsUsedHere: 'the weights, rows no longer summing to 1, are used here',
  multipliesByMask:
    '{0} multiplies the scores by a 0/1 mask before softmax: exp(0) = 1, so masked keys keep a large share of the weight. Fill the masked scores with -inf (masked_fill) instead.',
  multipliesByFilled:
    '{0} multiplies the scores by a mask that holds {1} where it masks ({2} is built by {3}), not 0: the masked scores are scaled by it, not removed (a negative score times a large negative number becomes a large positive one). Add it to the scores as an additive mask (0 where kept), or fill the masked scores with -inf (masked_fill), instead.',
  addsBooleanMask:
    '{0} adds a boolean mask to the scores: True becomes +1, not -inf, so masked keys are not removed (they are even favoured). Fill the masked scores with -inf (masked_fill) instead.',
  addsZeroOneMask:
    '{0} adds a 0/1 mask to the scores ({1}): its entries become +1 and 0, not 0 and -inf, so masked keys are not removed. Turn it into an additive mask first ((1 - mask) × a large negative number for a keep mask) or fill the masked scores with -inf (masked_fill).',
  normalisesMasked: '{0} normalises the scores here, masked keys included',
  scoresMaskedLate:
    '{0} masks the scores after the softmax has already been taken from them: the weights used below never see this mask. Mask the scores before the softmax.',
  normalisesBeforeMasked: '{0} normalises the scores here, before they are masked',
  weightsWithoutMask: 'the weights, computed without the mask, are used here',
  maskedByHelper: '{0} (the weights are multiplied by the mask in {1}, {2})',
});

export const ATT006: Rule = {
  meta: {
    code: 'ATT006',
    name: 'mask-after-softmax',
    severity: 'warning',
    fix: 'none',
    docs: {
      summary: 'Masking after softmax without renormalising, or multiplying the scores by a 0/1 mask as the only mask.',
      whatItDoes:
        'Reports a mask applied to the attention weights after softmax (`weights.masked_fill(mask, 0)`, `weights * mask`, a causal triangle cut from them, `torch.tril(weights)` or `w.softmax(-1).tril()`, and `-inf` written into them in place, `w[~keep] = float("-inf")`, also by a helper method the weights are passed to before their product with the values, `self._mask_padding(att, lengths)`, that product written in the same function or in a module it calls afterwards (`self.readout(memory, att)`), and on weights from one of several scorer modules chosen by a switch (`self.score = DotScore()` or `AdditiveScore(...)`), each returning its softmax, one only under a flag left at its default True where the module is built; also after a softmax chosen between two branches over the same axis, `softmax(s.float()).type_as(s) if upcast else softmax(s)`) when the scores were not masked before the softmax (an in-place fill of a view of them masks them: `scores.view(B, H, T, S).masked_fill_(pad, -inf)`, `scores[:, :, :T].masked_fill_(...)`, through `view`, `transpose`, `permute`, `unsqueeze`, `squeeze`, `narrow`, `select` and basic indexing, which always share the storage; not through `reshape`, `contiguous` or `flatten`, which may copy, nor indexing by a tensor, which does) and the weights are not divided by their new sum afterwards; an additive mask the code shows is one (a 0/1 mask times a large negative number, `(1.0 - m) * -10000.0`, zeros filled with -inf where a mask is True) added to the weights after softmax (`w = w + ext_mask`, `w += bias`), whatever masked the scores before or renormalises after: it adds a large negative number (or -inf, which makes NaN) to probabilities; and a multiplication of the scores by a 0/1 mask (`scores * mask`), or an addition of one (`scores + pad_mask` for a mask the code shows is boolean: built by a comparison, or described as `bool` where it comes in; a name alone such as `key_padding_mask` does not say so, since PyTorch accepts a float additive one too; `scores + attention_mask[:, None, None, :]` where the code shows the mask is a tokenizer 1/0 keep mask, also across files and inherited helpers: a mask never turned into `(1.0 - m) * -10000.0`), when nothing else masks them before the softmax. A mask known only by its name (`attention_mask` may be additive already) is not taken for a 0/1 one. Left alone: a mask that selects whole rows (a NaN guard such as `w.masked_fill(mask.all(dim=-1, keepdim=True), 0.0)`, `torch.isnan(w)`, `~keep.any(-1)[:, None, None, None]`, padded queries `m[:, None, :, None]`; likewise a mask the shapes the code shows to be the same all along the axis the softmax normalised, length 1 there, expanded or tiled from length 1, or lacking that axis: routing weights softmaxed over the capsules, axis 1 of (batch, capsules, items), then zeroed at the padded items by `tf.tile(tf.expand_dims(keep, 1), [1, K, 1])` or `keep[:, None, :]`, each distribution kept or zeroed whole), hand-written dropout (`torch.bernoulli(...)`, `torch.rand_like(w) > p`, or a mask the code did not build to hide keys rescaled by the reciprocal of a keep probability, `w * saved_mask * pinv` with `pinv = 1.0 / (1.0 - p)`, as a backward pass recomputing the dropout of a fused kernel does, or a select of the weights so rescaled, `np.where(mask, w_dp, 0)` with `w_dp = w * scale` and `scale = 1 / (1 - ratio)`), a masked copy of the weights that never meets the values (kept for logging, or handed out of view: weights masked and returned with no product with the values and no caller in view, which the code running them may renormalise or only display; a product in an `if`/`elif` arm the call cannot take is no meeting: `einsum(rule, a, b)` dispatching on `USE_EINSUM = True` or on the rule string, called as `einsum(\"se,sc->sec\", gates, x)` by a mixture-of-experts gate, never runs its `elif rule == \"se,se->s\":` product), and the 0/1 product before a softmax whose weights are masked again and renormalised after it (the `masked_softmax` of AllenNLP), and masked weights whose row sums the code itself takes over the softmax axis (`share = w.sum(-1)`: a distribution split into parts whose shares are weighed elsewhere). Where calls of the file or of a file importing it reach a helper that normalises the scores and masks the weights (`weights(scores, mask)` returning `softmax(scores) * mask`, `attend(q, k, v, causal)` doing `softmax(scores) * causal`), those calls decide what the mask is and whether the scores were masked before the softmax: a helper whose every caller masks them first, or passes no mask, is not reported, one with a caller that passes a 0/1 or boolean mask to scores not masked before is; with no caller in view, a mask parameter alone is not reported. String switches are decided per call site: an arm that no call in view takes (`if self.mode == "scaled":` with the module built as `Attention(dim, mode="scaled")`, `mask(scores, kind="key")`; also arms tested by membership in a tuple, list or set of string literals, `if kind in ("k", "key", "keys"):`) is no evidence (a caller passing None takes no arm of a string: `mask_mode=None` runs no `if mask_mode == "tril":`), nor is a softmax in an arm a call cannot take (`if use_softmax:` in a helper called with `use_softmax=False`: a cache-importance helper that sums the masked scores raw, whose every call asking for the mask switches the softmax off), and neither is a product of the scores with a mask known only by its name in an arm for that mask (`if gate_mask is not None:`, `!= None`) reached through a wrapper that passes its own `gate_mask=None` on, where the calls in view leave it out or pass None: a product with None never runs (with no caller in view, or a caller passing a 0/1 mask, it is reported). Queries and keys broadcast against each other and multiplied elementwise by a tensor of unknown meaning before their features are summed (a graph transformer\'s edge features, `(Q[:, :, :, None, :] * K[:, :, None, :, :] * E).sum(-1)`) still form the scores: an additive mask added to that sum masks them before the softmax, so zeroing padded rows after it only cleans them. Features masked before the scores are formed (`x = x * x_mask`) are no mask of the scores, and the blend `scores * m + (1 - m) * -1e9` is read as the `where` it is, from the expression whatever is known of `m`, also subtracted (`torch.mul(scores, m) - 10000.0 * (1.0 - m)`) and with the minimum of a TensorFlow dtype as the fill (`(1.0 - m) * dot.dtype.min`), or a fill too small to mask (`(1.0 - m) * -1e-9`, reported by ATT007); with a fill the code does not show (a constructor argument, a config field, a name imported from outside the workspace: `w * b + self.fill * (1 - b)`) it is still that `where`, and no evidence either way. So is a 0/1 mask times such a value added to the scores beside the product (`scores = torch.mul(scores, 1.0 - pad)`, then `scores += pad * self.neg`): an additive mask if the value is a large negative number, so the product is not reported as the only mask. A name says mask by the noun (`keep_mask`), not the participle: `masked_logp` is a value after masking, so `(p * masked_logp).sum(-1)` is the entropy of the weights, not a mask. Scores masked before the softmax through a bias built in zeros (`bias.masked_fill_(mask, float("-inf"))` for a boolean mask, `bias += mask` for a float one, each in its branch) and added to them are masked, so zeroing the same positions after the softmax (the reference form of `scaled_dot_product_attention`) only cleans fully masked rows. A 0/1 mask added into such a bias (`bias += attn_mask` in the arm for masks that are not boolean, with a caller passing `(x.sum(-1) != 0).float()`: padded frames are zero vectors, so the comparison is True at the real ones) is a 0/1 mask added to the scores, reported where it goes into the bias; a fill of the bias in an `if` arm the call cannot take (`if is_causal:` called with False) is no part of it. A fill whose result is discarded (`weights.masked_fill(pad, 0.0)` or `scores.masked_fill(pad, -inf)` as a statement of its own, an out-of-place op) masks nothing, before or after the softmax: it is not judged here (ATT007 reports a discarded fill of the scores). A bias parameter added to the scores (`scores + attn_bias`, `bias`) is what its callers build, not what its name says: zeros filled with -inf where a padding or causal mask is True mask the scores, so zeroing those rows after the softmax only cleans them, while a position bias (ALiBi distances) masks nothing and the zeroing is reported; with no caller in view (this file or a file importing it) nothing says which, and it is not reported. A name that says position (`position_bias`, `rel_bias`, `alibi`) is a position bias. A tensor of ones times the dtype\'s minimum (`torch.ones(L, S) * torch.finfo(dtype).min`, then `.triu(1)`) is filled with a large negative number, as `torch.full` with it is: an additive mask, not a 0/1 one. Scores masked before the softmax by a causal triangle alone (`masked_fill(~causal, -inf)`, a `triu(1)` bias of -inf) are not masked over the padded keys: a key mask applied to the weights after it (`w * keep[:, None, None, :]`, `w.masked_fill(~keep[:, None, None, :], 0)`, `torch.where(keep[...], w, 0)`, the mask also built in another file) is reported when the code shows the mask after varies over the keys alone (built from the tokens, or a (batch, keys) mask indexed `[:, None, None, :]`) and nothing renormalises; a mask after that is the same key mask filled before, or a query or causal one, is not. Weights handed to a helper of another workspace file that divides them by their own sum and returns that, with no other step (`renormalise(w.masked_fill(~keep, 0.0))` with `return w / (w.sum(-1, keepdim=True) + eps)` in utils.py), are renormalised, as with a helper of the same file; a helper that divides by their norm, scales the result or returns another value does not renormalise them. Weights handed to a helper of another workspace file that multiplies them by a mask passed with them, as it is or in another dtype, and hands them back with no other step (`w = restrict(w, keep[:, None, :])` with `return w * allowed` in utils.py) are masked after the softmax at that call, as with a helper of the same file: the caller\'s mask is judged (query rows, dropout, a mask before the softmax), and the message names the helper\'s product. Likewise scores multiplied by a 0/1 mask here and handed to a helper of another workspace file whose softmax normalises them with no mask of its own on the way (`w = normalise(s * keep)` with `return torch.softmax(scores, dim=-1)` in utils.py) are reported at the product, as before a softmax of the file; the helper\'s softmax is named. Logits filled with a large negative number before the softmax are masked whatever else the code shows of them (a graph-attention layer\'s `LeakyReLU(a1 . h_i + a2 . h_j)`, a helper\'s parameter, score blocks joined by `torch.cat`), with a mask named so or a boolean the fill computes (`adj <= 0`, `~keep`, `torch.logical_not(mask)`, `mask.eq(0)`): zeroing the same positions after the softmax only cleans rows with no key left. Scores multiplied by a 0/1 mask and then filled with -inf (or a large negative number) where a boolean mask selects on their trailing axes, every leading axis taken whole (`KQ = KQ * causal; KQ[:, :, ~causal] = float("-inf")`, also `KQ[..., ~causal]`), are masked before the softmax: the product is redundant, not the only mask (session 49); a fill that does not mask (`= 0.0`) or that takes part of a leading axis leaves the product reported.',
      whyIsThisBad:
        'Zeroing weights after softmax leaves rows that sum to less than 1, so the output shrinks towards zero by however much weight the masked keys had. Multiplying the scores by 0 does not remove a key either: exp(0) = 1, so every masked key still gets a weight comparable to the real ones. Masks belong on the scores, as -inf (or a large negative number) before softmax.',
      example: `weights = F.softmax(scores, dim=-1)
weights = weights.masked_fill(pad_mask, 0.0)
out = weights @ v`,
      useInstead: `scores = scores.masked_fill(pad_mask, float("-inf"))
weights = F.softmax(scores, dim=-1)
out = weights @ v`,
      whereReported:
        "At the masking after the softmax (or the multiplication of the scores by a 0/1 mask), the use. Related locations: the softmax, where the mask is built, and where the weights are used; for a helper judged as a file importing it calls it (the mask being that call's argument), that call, which the message names (`(as called at pkg/model.py:9)`).",
      fixSafety: 'No automatic fix: where the mask should go depends on the surrounding code.',
      references: [{ title: 'The Annotated Transformer (masking before softmax)', url: 'https://nlp.seas.harvard.edu/annotated-transformer/' }],
    },
  },

  create(ctx: RuleContext) {
    const ev = ctx.analysis;
    const queryRowsOnly = (site: WeightsMaskSite): boolean => {
      const m = ev.eval(site.maskNode, site.ctx).mask;
      if (m?.padAxes && m.padAxes.length === 1 && m.padAxes[0] === -2) return true;
      return /\.unsqueeze\(\s*(-1|dim\s*=\s*-1)\s*\)\s*$|\[\s*\.\.\.\s*,\s*None\s*\]\s*$/.test(ctx.text(site.maskNode));
    };
    /**
     * The mask's values are the same all along the axis the softmax normalised (a negative index, right-aligned as
     * broadcasting aligns): that axis has length 1 in the mask, holds copies of one slice (`tf.tile(m[:, None], [1, K,
     * 1])` under a softmax over axis 1), or the mask has fewer axes and broadcasts along it. Read from the shapes the
     * code shows; an unknown rank or axis says nothing.
     */
    const constantAlongSoftmaxAxis = (site: WeightsMaskSite): boolean => {
      const axis = site.weights.attn?.softmax?.axis;
      if (axis === undefined) return false;
      const m = ev.eval(site.maskNode, site.ctx);
      if (m.kind !== 'tensor' || m.ndim === undefined || site.weights.ndim === undefined) return false;
      if (m.ndim < -axis) return m.ndim >= 1 && site.weights.ndim >= -axis;
      const ax = axisAt(m, axis);
      return !!ax && (!!ax.size1 || !!ax.repeated);
    };
    /** Only a causal triangle the code built masked the scores before the softmax, on every path. */
    const causalOnlyBefore = (site: WeightsMaskSite): boolean =>
      alternatives(site.weights).every((alt) => {
        const masks = alt.filter((o): o is MaskOp => o.kind === 'mask');
        return (
          masks.length > 0 &&
          masks.every((o) => {
            if (o.unshown || !o.maskNode || o.how === 'mul' || o.how === 'add01') return false;
            const m = ev.eval(o.maskNode, site.ctx).mask;
            return !!m && !!m.causal && !m.byName && !m.padding && !m.padAxes;
          })
        );
      });
    /**
     * A mask over the key axis only, shown by the code: built from the tokens (padding on the key side), or a 2-D
     * (batch, keys) mask broadcast over heads and queries by its indexing (`m[:, None, None, :]`, `.unsqueeze(1).unsqueeze(2)`).
     */
    const keyAxisMask = (site: WeightsMaskSite): boolean => {
      const m = ev.eval(site.maskNode, site.ctx).mask;
      if (m?.causal || m?.tri) return false;
      if (m && !m.byName && m.padAxes?.length === 1 && m.padAxes[0] === -1) return true;
      return /\[\s*:\s*,\s*None\s*,\s*None\s*(,\s*:\s*)?\]\s*$|\.unsqueeze\(\s*1\s*\)\s*\.unsqueeze\(\s*[12]\s*\)\s*$/.test(ctx.text(site.maskNode));
    };
    /** A key mask applied after a softmax whose scores only a causal triangle masked (two different masks). */
    const keyMaskAfterCausalOnly = (site: WeightsMaskSite): boolean => causalOnlyBefore(site) && keyAxisMask(site);
    const reported = new Set<number>();
    /** The product consumes the weights with this post-softmax masking applied. */
    const carriesPostMask = (c: Consumer, site: WeightsMaskSite): boolean =>
      [c.site.a, c.site.b].some((w) => w.attn?.softmax?.site === site.weights.attn?.softmax?.site && !!w.attn?.postMask?.includes(site.node));
    /** The softmax's weights are masked again after it and renormalised (so masked keys end at exactly 0). */
    const maskedAndRenormalisedAfter = (site: SoftmaxSite): boolean =>
      post.some((p) => p.weights.attn?.softmax?.site === site.node && ev.facts.postMaskRenormalised.has(p.node.id));
    /**
     * A helper called with the weights wrote into them in place (`self._mask_attention(att, ...)` doing
     * `att[~mask] = -inf`) before the product, in the function that calls it: the product reads the written tensor.
     */
    const mutatedBeforeBy = (c: Consumer, site: WeightsMaskSite): boolean => {
      const call = site.ctx.callSite;
      if (!site.inPlace || !call) return false;
      const fn = c.site.ctx.scope.node;
      if (call.end <= c.site.node.start && fn.start <= call.start && call.end <= fn.end) return true;
      // The product sits in a module or helper the same function calls after the in-place helper
      // (`self._mask_attention(att, n)`, then `self.apply_att(y, att)` doing `torch.bmm(att, y)`).
      const via = c.site.ctx.callSite ?? c.site.node;
      return via.start >= call.end && enclosingFunction(via) === enclosingFunction(call);
    };
    /**
     * A mask known only by its name that reaches the product through a parameter with no caller in view (a wrapper's
     * `gate_mask=None` passed on as `attention(..., gate_mask=gate_mask)`), where a reading of the same call through
     * more callers (the wrapper as its callers in view call it) has no such product, or multiplies by None there: those
     * calls leave the mask out (None by default), so the `if gate_mask is not None:` arm holding the product is one none
     * of them takes.
     */
    const notTakenByCallers = (site: SoftmaxSite, op: MaskOp, readings: readonly SoftmaxSite[]): boolean => {
      /* c8 ignore next: a product of the scores with a mask is always recorded with its mask (ops.ts, multiply); the type keeps it optional */
      if (!op.maskNode) return false;
      const v = ev.eval(op.maskNode, site.ctx);
      // This reading's calls pass None for the mask (`if m != None:` is no None test the evaluator narrows by).
      if (v.kind === 'none') return true;
      if (!v.unbound || (v.mask && !v.mask.byName)) return false;
      // The same call (in the wrapper) read as the wrapper's own callers call it.
      const deeper = readings.filter((r) => r !== site && r.ctx.depth > site.ctx.depth && r.ctx.callSite?.id === site.ctx.callSite?.id);
      // In a deeper reading the product is absent, or multiplies by the None the calls pass (`if m != None:` is no
      // None test the evaluator narrows by, but a product with None never runs).
      const takes = (r: SoftmaxSite): boolean =>
        alternatives(r.input).some((alt) =>
          alt.some((o) => o.kind === 'mask' && o.node === op.node && !!o.maskNode && ev.eval(o.maskNode, r.ctx).kind !== 'none'),
        );
      return deeper.length > 0 && !deeper.some(takes);
    };
    /**
     * The message for scores times a mask: a mask the function fills with a negative number
     * (`m = torch.full((N, N), fill_value=-1e6)`, then `m[block] = 1`) is named with that number, not called 0/1.
     */
    const multipliedMessage = (op: MaskOp, at: Ctx, quoted: MessageArg): MessageParts => {
      const filled = filledWith(ev, op.maskNode, at);
      return filled ? msg(T.multipliesByFilled, quoted, filled.value, quote(filled.name), quote(filled.built, 50)) : msg(T.multipliesByMask, quoted);
    };
    /**
     * The masked weights leave their function as they are (mask-ops' returnedUnreadAt): the masking is returned (alone
     * or in a tuple), or binds a name (`w = w * m`, in place `w *= m`) that only return statements read afterwards, handing it back
     * whole (not `return w.log()`).
     */
    const returnedUnread = (node: PyNode): boolean => {
      // In place (`w *= m`), the site is the statement's target, and the statement's value is the target itself.
      const inPlace = node.parent?.type === 'augmented_assignment' ? node.parent : undefined;
      return returnedUnreadAt(ev, inPlace ?? node, inPlace && childByField(inPlace, 'left'), true);
    };
    const softmaxSites: SoftmaxSite[] = [];
    const post: WeightsMaskSite[] = [];
    const scoreFills: FillSite[] = [];
    return {
      // A fill whose result is discarded has no position: nothing is masked, before or after the softmax.
      fill(site) {
        if (discardedSite(ev, site)) return;
        if (site.target.attn?.stage === 'scores' && site.how !== 'add') scoreFills.push(site);
      },
      weightsMask(site) {
        if (discardedSite(ev, site)) return;
        post.push(site);
      },
      softmax(site) {
        softmaxSites.push(site);
      },
      end() {
        // Where calls in view reach a post-softmax mask (a helper `weights(scores, mask)` that normalises the scores its
        // callers hand it), they decide what came before the softmax: the reading with no caller, where the scores are
        // an unknown parameter, is no evidence that they were not masked.
        // Calls from files importing this one (importer-calls.ts) decide as calls of the file do.
        const isCalled = (s: WeightsMaskSite): boolean => s.ctx.callSite !== undefined || s.ctx.calledAt !== undefined;
        const calledPost = new Set(post.filter(isCalled).map((s) => s.node.id));
        for (const site of post) {
          if (reported.has(site.node.id)) continue;
          if (!isCalled(site) && calledPost.has(site.node.id)) continue;
          const w = site.weights;
          const attn = w.attn;
          if (!attn?.softmax) continue;
          // An additive mask (a large negative number or -inf where masked) added to the weights is wrong whatever
          // came before it or follows: nothing before the softmax or after it makes probabilities plus -1e9 weights.
          if (site.additive) {
            // The masked weights reach the product with the values (not a masked copy kept for logging).
            const consumers = consumersOf(ev, attn.softmax.site);
            if (!consumers.some((c) => carriesPostMask(c, site))) continue;
            reported.add(site.node.id);
            // `w += bias`: the statement, not its target.
            const holder = site.node.parent?.type === 'augmented_assignment' ? site.node.parent : site.node;
            ctx.report({
              node: holder,
              message: msg(T.additiveAfterSoftmax, asCalledAt(quote(ctx.text(holder), 50), site.ctx)),
              related: [
                { node: attn.softmax.site, message: msg(T.softmaxBeforeMask) },
                ...maskBuilt(ev, ev.eval(site.maskNode, site.ctx).mask),
                ...consumers.map((c) => ({ node: c.site.node, message: msg(T.weightsUsedHere) })),
              ],
            });
            continue;
          }
          if (ev.facts.postMaskRenormalised.has(site.node.id)) continue;
          // Scores masked before softmax on every path: zeroing afterwards only cleans NaN/fully-masked rows.
          const premasked = alternatives(w).some((alt) => alt.some((o) => o.kind === 'mask'));
          // ...unless the code shows the mask before was a causal triangle only and the one after is another mask, over
          // the keys (a padding mask multiplied in after a causal softmax): the padded keys kept their share.
          if (premasked && !keyMaskAfterCausalOnly(site)) continue;
          // Zeroing whole query rows (padded queries) after softmax is harmless: only the key axis must sum to 1.
          if (queryRowsOnly(site)) continue;
          // A mask that does not vary along the axis the softmax normalised (length 1 there, copies of one slice, or no
          // such axis at all) zeroes whole distributions, never part of one: every row left still sums to 1.
          if (constantAlongSoftmaxAxis(site)) continue;
          // A NaN guard: rows with no key left (`mask.all(-1, keepdim=True)`) or NaN rows zeroed; the others still sum to 1.
          if (selectsWholeRows(ev, site.maskNode, site.ctx)) continue;
          // Dropout written by hand: a random keep mask, right in expectation.
          if (isDropoutMask(ev, site.maskNode)) continue;
          // Rescaled by 1 / (1 - p) (`w * saved_mask * pinv`): inverted dropout, unless the code built the mask to
          // hide keys (a padding or causal mask is never rescaled so; the product is then still reported).
          const built = ev.eval(site.maskNode, site.ctx).mask;
          if (rescaledAsDropout(ev, site.node) && !(built?.polarity && !built.byName)) continue;
          // The masked weights must reach a product with the values the code shows (a masked copy kept for logging does
          // not). With no product found, weights of named q and k count unless they are handed out of view: returned as
          // they are with no caller in view (of this file, or of a file importing it), to code that may renormalise them
          // or only display them.
          const consumers = consumersOf(ev, attn.softmax.site);
          if (consumers.length === 0 && !(attn.queryText && attn.keyText && (isCalled(site) || !returnedUnread(site.node)))) continue;
          if (consumers.length > 0 && !consumers.some((c) => carriesPostMask(c, site) || mutatedBeforeBy(c, site))) continue;
          reported.add(site.node.id);
          ctx.report({
            node: site.node,
            message: msg(
              T.maskedAfterSoftmax,
              site.helper
                ? msg(T.maskedByHelper, quote(ctx.text(site.node), 50), `\`${site.helper.name}\``, site.helper.ref)
                : asCalledAt(quote(ctx.text(site.node), 50), site.ctx),
            ),
            // Reported at the masking (after the softmax); the softmax, the mask's origin and the product with the values are the evidence.
            related: [
              { node: attn.softmax.site, message: msg(T.softmaxBeforeMask) },
              ...maskBuilt(ev, ev.eval(site.maskNode, site.ctx).mask),
              ...consumersOf(ev, attn.softmax.site).map((c) => ({ node: c.site.node, message: msg(T.weightsUsedHere) })),
            ],
          });
        }
        // The scores masked after the softmax was already taken from them: the weights never see the mask.
        for (const site of scoreFills) {
          if (reported.has(site.node.id)) continue;
          const late = maskedAfterItsSoftmax(ev, site);
          if (!late) continue;
          reported.add(site.node.id);
          ctx.report({
            node: site.node,
            message: msg(T.scoresMaskedLate, asCalledAt(quote(ctx.text(site.node), 50), site.ctx)),
            related: [
              { node: late.softmax.node, message: msg(T.normalisesBeforeMasked, late.softmax.display) },
              // A fill of the scores is a masked_fill, where or index assignment: its mask is always written.
              ...maskBuilt(ev, site.maskNode && ev.eval(site.maskNode, site.ctx).mask),
              { node: late.use, message: msg(T.weightsWithoutMask) },
            ],
          });
        }
        // Scores this file hands to a helper of another file that softmaxes them with no mask of its own there: a 0/1
        // product applied here is the only mask before that softmax, as it would be before one of this file.
        for (const site of ev.facts.foreignSoftmax) {
          for (const alt of alternatives(site.input)) {
            const masks = alt.filter((o): o is MaskOp => o.kind === 'mask');
            const op = masks.length === 1 ? masks[0] : undefined;
            if (op?.how !== 'mul' || reported.has(op.node.id)) continue;
            reported.add(op.node.id);
            ctx.report({
              node: op.node,
              message: multipliedMessage(op, site.ctx, quote(ctx.text(op.node), 50)),
              related: [
                ...maskBuilt(ev, op.maskNode && ev.eval(op.maskNode, site.ctx).mask),
                { node: site.node, message: msg(T.normalisesMasked, `\`${site.helper.name}\` (${site.helper.ref})`) },
              ],
            });
          }
        }
        for (const group of byNode(softmaxSites).values()) {
          // Where calls in view reach the softmax (`self.attn = Attention(dim, mode="scaled")`), they decide its
          // switches; the reading with no caller, every arm open, is no evidence of a path that none of them takes.
          const called = group.filter((s) => s.ctx.callSite !== undefined || s.ctx.calledAt !== undefined);
          const readings = called.length > 0 ? called : group;
          for (const site of readings) {
            // A softmax in an `if` arm this call cannot take (`if use_softmax:` in a helper called with
            // `use_softmax=False`) never normalises these scores: masked or not, that call sums them raw.
            if (ev.owns(site.ctx.scope) && armDeadInCtx(ev, site.node, site.ctx)) continue;
            const attention = hasRoles(site.input) || consumersOf(ev, site.node).length > 0;
            if (!attention) continue;
            // AllenNLP's masked_softmax: softmax(x * mask), then the weights masked again and renormalised.
            if (maskedAndRenormalisedAfter(site)) continue;
            for (const alt of alternatives(site.input)) {
              // A term the code does not show (`+ attn_bias` with no caller in view) is no mask beside the 0/1 one.
              // A mask the code shows times a value it does not show (`scores += m * self.neg`) may be that mask.
              const masks = alt.filter((o): o is MaskOp => o.kind === 'mask' && (!o.unshown || !!o.scaledByUnshown));
              const bad = masks.filter((m) => m.how === 'mul' || m.how === 'add01');
              const op = bad[0];
              if (op === undefined || masks.length !== bad.length) continue; // none bad, or not all of them
              if (reported.has(op.node.id)) continue;
              if (op.how === 'mul' && notTakenByCallers(site, op, readings)) continue;
              reported.add(op.node.id);
              const added = op.maskNode && ev.eval(op.maskNode, site.ctx).mask;
              // A 0/1 mask added into a bias of zeros (`attn_bias += attn_mask`) that the scores then take: reported where
              // the mask goes into the bias, the line that treats it as additive (the scores' sum is right for the
              // additive masks the bias is meant for).
              const into = op.how === 'add01' ? zeroOneIntoBias(ev, op.maskNode, site.ctx) : undefined;
              if (into) reported.add(into.id);
              const at = into ?? op.node;
              const quoted = asCalledAt(quote(ctx.text(at), 50), site.ctx);
              ctx.report({
                node: at,
                // A 0/1 mask that is not boolean is known from its construction: its meaning (and, from another
                // file, where it was built) is named.
                message:
                  op.how === 'mul'
                    ? multipliedMessage(op, site.ctx, quoted)
                    : added && added.dtype !== 'bool'
                      ? msg(T.addsZeroOneMask, quoted, added.why)
                      : msg(T.addsBooleanMask, quoted),
                related: [...maskBuilt(ev, added), { node: site.node, message: msg(T.normalisesMasked, apiName(site.display)) }],
              });
            }
          }
        }
      },
    };
  },
};
