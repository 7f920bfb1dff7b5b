// ATT006: masking the weights after softmax without renormalising, or multiplying the scores by a 0/1
// mask as the only mask.
import type { SoftmaxSite, WeightsMaskSite } from '../analysis/facts';
import type { MaskOp } from '../analysis/values';
import { alternatives, byNode, consumersOf, hasRoles } from './evidence';
import { defineTemplates, msg } from '../message';
import { apiName, quote, type Rule, type RuleContext } from './rule';
import { maskBuilt } from './related';

const T = defineTemplates({
  maskedAfterSoftmax:
    '{0} masks the attention weights after softmax and nothing renormalises them: each row now sums to less than 1. Mask the scores before softmax (masked_fill with -inf) instead.',
  softmaxBeforeMask: 'the softmax normalises the weights here, before the mask',
  weightsUsedHere: 'the weights, rows no longer summing to 1, are used here',
  multipliesByMask:
    '{0} multiplies the scores by a 0/1 mask before softmax: exp(0) = 1, so masked keys keep a large share of the weight. Fill the masked scores with -inf (masked_fill) instead.',
  addsBooleanMask:
    '{0} adds a boolean mask to the scores: True becomes +1, not -inf, so masked keys are not removed (they are even favoured). Fill the masked scores with -inf (masked_fill) instead.',
  normalisesMasked: '{0} normalises the scores here, masked keys included',
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
        'Reports a mask applied to the attention weights after softmax (`weights.masked_fill(mask, 0)`, `weights * mask`) when the scores were not masked before the softmax and the weights are not divided by their new sum afterwards; and a multiplication of the scores by a 0/1 mask (`scores * mask`) when nothing else masks them before the softmax.',
      whyIsThisBad:
        'Zeroing weights after softmax leaves rows that sum to less than 1, so the output shrinks towards zero by however much weight the masked keys had. Multiplying the scores by 0 does not remove a key either: exp(0) = 1, so every masked key still gets a weight comparable to the real ones. Masks belong on the scores, as -inf (or a large negative number) before softmax.',
      example: `weights = F.softmax(scores, dim=-1)
weights = weights.masked_fill(pad_mask, 0.0)
out = weights @ v`,
      useInstead: `scores = scores.masked_fill(pad_mask, float("-inf"))
weights = F.softmax(scores, dim=-1)
out = weights @ v`,
      whereReported:
        'At the masking after the softmax (or the multiplication of the scores by a 0/1 mask), the use. Related locations: the softmax, where the mask is built, and where the weights are used.',
      fixSafety: 'No automatic fix: where the mask should go depends on the surrounding code.',
      references: [{ title: 'The Annotated Transformer (masking before softmax)', url: 'https://nlp.seas.harvard.edu/annotated-transformer/' }],
    },
  },

  create(ctx: RuleContext) {
    const ev = ctx.analysis;
    const queryRowsOnly = (site: WeightsMaskSite): boolean => {
      if (!site.maskNode) return false;
      const m = ev.eval(site.maskNode, site.ctx).mask;
      if (m?.padAxes && m.padAxes.length === 1 && m.padAxes[0] === -2) return true;
      return /\.unsqueeze\(\s*(-1|dim\s*=\s*-1)\s*\)\s*$|\[\s*\.\.\.\s*,\s*None\s*\]\s*$/.test(ctx.text(site.maskNode));
    };
    const reported = new Set<number>();
    const softmaxSites: SoftmaxSite[] = [];
    const post: WeightsMaskSite[] = [];
    return {
      weightsMask(site) {
        post.push(site);
      },
      softmax(site) {
        softmaxSites.push(site);
      },
      end() {
        for (const site of post) {
          if (reported.has(site.node.id)) continue;
          const w = site.weights;
          const attn = w.attn;
          if (!attn?.softmax) continue;
          if (ev.facts.postMaskRenormalised.has(site.node.id)) continue;
          // Scores masked before softmax on every path: zeroing afterwards only cleans NaN/fully-masked rows.
          const premasked = alternatives(w).some((alt) => alt.some((o) => o.kind === 'mask'));
          if (premasked) continue;
          const attention = (attn.queryText && attn.keyText) || consumersOf(ev, attn.softmax.site).length > 0;
          if (!attention) continue;
          // Zeroing whole query rows (padded queries) after softmax is harmless: only the key axis must sum to 1.
          if (queryRowsOnly(site)) continue;
          reported.add(site.node.id);
          ctx.report({
            node: site.node,
            message: msg(T.maskedAfterSoftmax, quote(ctx.text(site.node), 50)),
            // Reported at the masking (after the softmax); the softmax, the mask's origin and the product with the values are the evidence.
            related: [
              { node: attn.softmax.site, message: msg(T.softmaxBeforeMask) },
              ...(site.maskNode ? maskBuilt(ev, ev.eval(site.maskNode, site.ctx).mask) : []),
              ...consumersOf(ev, attn.softmax.site).map((c) => ({ node: c.site.node, message: msg(T.weightsUsedHere) })),
            ],
          });
        }
        for (const group of byNode(softmaxSites).values()) {
          for (const site of group) {
            const attention = hasRoles(site.input) || consumersOf(ev, site.node).length > 0;
            if (!attention) continue;
            for (const alt of alternatives(site.input)) {
              const masks = alt.filter((o): o is MaskOp => o.kind === 'mask');
              const bad = masks.filter((m) => m.how === 'mul' || m.how === 'add01');
              if (bad.length === 0 || masks.length !== bad.length) continue;
              const op = bad[0];
              if (reported.has(op.node.id)) continue;
              reported.add(op.node.id);
              ctx.report({
                node: op.node,
                message: msg(op.how === 'mul' ? T.multipliesByMask : T.addsBooleanMask, quote(ctx.text(op.node), 50)),
                related: [
                  ...(op.maskNode ? maskBuilt(ev, ev.eval(op.maskNode, site.ctx).mask) : []),
                  { node: site.node, message: msg(T.normalisesMasked, apiName(site.display)) },
                ],
              });
            }
          }
        }
      },
    };
  },
};
