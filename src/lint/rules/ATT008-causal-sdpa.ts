// ATT008: causal pitfalls of F.scaled_dot_product_attention.
import type { SdpaSite } from '../analysis/facts';
import { unparen, type PyNode } from '../syntax/tree';
import { quote, type RelatedSpec, type Rule, type RuleContext } from './rule';
import { cacheJoined, definitions, maskBuilt } from './related';

export const ATT008: Rule = {
  meta: {
    code: 'ATT008',
    name: 'causal-sdpa',
    severity: 'error',
    fix: 'none',
    docs: {
      summary: 'is_causal=True together with attn_mask, or on a KV-cache path where query and key lengths differ.',
      whatItDoes:
        "Reports `F.scaled_dot_product_attention(..., is_causal=True)` when an `attn_mask` is passed as well (not provably None), and when the keys come from a KV cache (`torch.cat([past_k, k], dim=-2)`, `layer_past`, `past_key_value.update(...)`) while the queries are only the new tokens.",
      whyIsThisBad:
        "PyTorch raises an error when both `attn_mask` and `is_causal=True` are given (or silently ignores one of them in some backends and versions). `is_causal=True` builds a top-left aligned lower-triangular mask: with L new queries against S > L cached keys, query i may only see keys 0..i, so during generation the new token attends to the first cached tokens instead of all of them.",
      example: `k = torch.cat([past_k, k], dim=-2)
v = torch.cat([past_v, v], dim=-2)
out = F.scaled_dot_product_attention(q, k, v, is_causal=True)`,
      useInstead: `k = torch.cat([past_k, k], dim=-2)
v = torch.cat([past_v, v], dim=-2)
# bottom-right aligned causal mask for L queries over S keys
L, S = q.size(-2), k.size(-2)
mask = torch.ones(L, S, dtype=torch.bool, device=q.device).tril(diagonal=S - L)
out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)`,
      whereReported:
        'At `is_causal=`, the use. Related locations: where the keys are joined with the KV cache (`torch.cat([past_k, k])`, `cache.update(...)`), the `attn_mask` passed with it and where it is built, and where a causal flag passed by name is set.',
      fixSafety: 'No automatic fix: the right mask depends on how the cache is laid out.',
      references: [
        { title: 'torch.nn.functional.scaled_dot_product_attention (is_causal, top-left alignment)', url: 'https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html' },
        { title: 'torch.nn.attention.bias.causal_lower_right', url: 'https://pytorch.org/docs/stable/generated/torch.nn.attention.bias.causal_lower_right.html' },
      ],
    },
  },

  create(ctx: RuleContext) {
    const ev = ctx.analysis;
    const reported = new Set<number>();

    /** 'true' for a literal True; 'maybe' for a flag that can be True; undefined when provably False/None. */
    const causalIs = (site: SdpaSite): 'true' | 'maybe' | undefined => {
      if (!site.causalNode) return undefined;
      const valueNode = site.causalNode.type === 'keyword_argument' ? site.causalNode.children.find((c) => c.field === 'value') : site.causalNode;
      if (!valueNode) return undefined;
      const t = ctx.text(unparen(valueNode));
      if (t === 'True') return 'true';
      if (t === 'False' || t === 'None' || t === '0') return undefined;
      // A flag computed from whether a mask exists (HF: `is_causal = causal_mask is None and q_len > 1`) excludes the mask.
      if (/\bis\s+(not\s+)?None\b/.test(t) || definitionsMention(valueNode, site, /\bis\s+(not\s+)?None\b|\bnot\s+\w*mask/)) return undefined;
      return 'maybe';
    };

    function definitionsMention(node: PyNode, site: SdpaSite, re: RegExp): boolean {
      const u = unparen(node);
      if (u.type !== 'identifier') return false;
      const defs = ev.resolve(u, ctx.text(u)) ?? [];
      void site;
      return defs.some((d) => d.value !== undefined && re.test(ctx.text(d.value)));
    }

    function resetToFalse(site: SdpaSite): boolean {
      const valueNode = site.causalNode?.type === 'keyword_argument' ? site.causalNode.children.find((c) => c.field === 'value') : site.causalNode;
      if (!valueNode) return false;
      const u = unparen(valueNode);
      if (u.type !== 'identifier') return false;
      const name = ctx.text(u);
      for (const d of ev.file.defsInScope(site.ctx.scope.id, name)) if (d.value && /^(False|0)$/.test(ctx.text(d.value))) return true;
      return false;
    }

    /** Where a causal flag passed by name is set (`is_causal = True` in the cache branch). */
    function flagDefinitions(site: SdpaSite): RelatedSpec[] {
      const valueNode = site.causalNode?.type === 'keyword_argument' ? site.causalNode.children.find((c) => c.field === 'value') : site.causalNode;
      return definitions(ev, valueNode, site.ctx, (t) => `${quote(t, 30)} is set here`);
    }

    /** The call sits under `if L == S:`-style guards that compare query and key lengths. */
    function lengthGuarded(node: PyNode): boolean {
      for (let p = node.parent; p; p = p.parent) {
        if (p.type === 'if_statement' || p.type === 'elif_clause' || p.type === 'conditional_expression') {
          const cond = p.type === 'conditional_expression' ? p.children.filter((c) => c.named)[1] : p.children.find((c) => c.field === 'condition');
          if (cond && /==/.test(ctx.text(cond)) && /shape|size|len|\b[LSTN]\b|q_len|kv_len|seq/i.test(ctx.text(cond))) return true;
        }
        if (p.type === 'function_definition') break;
      }
      return false;
    }

    return {
      sdpa(site: SdpaSite) {
        if (site.framework !== 'torch' || !site.causalNode) return;
        const causal = causalIs(site);
        if (!causal || reported.has(site.node.id)) return;
        const maskGiven = site.maskNode && site.mask && site.mask.kind !== 'none' && unparen(site.maskNode).type !== 'none';
        // A flag (not a literal True) only counts when the mask is certainly there and the code never resets the
        // flag to False itself (x-transformers: `if exists(mask) and causal: ...; causal = False`).
        const flagOk = causal === 'true' || (site.mask?.kind === 'tensor' && !site.mask.maybeNone && !resetToFalse(site));
        if (maskGiven && flagOk) {
          reported.add(site.node.id);
          const flag = causal === 'true' ? 'is_causal=True' : `is_causal=${ctx.text(site.causalNode.type === 'keyword_argument' ? site.causalNode.children.find((c) => c.field === 'value')! : site.causalNode)} (True on some calls)`;
          ctx.report({
            node: site.causalNode,
            message: `${flag} is passed together with attn_mask=${quote(ctx.text(site.maskNode!), 40)}: ${site.display} raises an error when both are set. Fold the causal mask into attn_mask, or pass only one of them.`,
            related: [{ node: site.maskNode!, message: 'attn_mask is passed here as well' }, ...maskBuilt(ev, site.mask?.mask, 'attn_mask'), ...flagDefinitions(site)],
          });
          return;
        }
        if (causal === 'true' && site.k.fromCache && !site.q.fromCache && !lengthGuarded(site.node)) {
          reported.add(site.node.id);
          ctx.report({ node: site.causalNode, message: `is_causal=True on keys ${quote(site.kNode ? ctx.text(site.kNode) : 'k', 30)} that include a KV cache: the causal mask is top-left aligned, so with fewer queries than keys the new tokens cannot see the most recent cached keys. Build a bottom-right aligned mask (tril(diagonal=S - L)) or use causal_lower_right.`,
            related: [cacheJoined(ev, site.k, `the keys ${quote(site.kNode ? ctx.text(site.kNode) : 'k', 30)}`), ...flagDefinitions(site)],
          });
        }
      },
    };
  },
};
