// ATT003: attention scores reach softmax without any 1/sqrt(d) scaling.
import { isWidthConstant, type SdpaSite, type SoftmaxSite } from '../analysis/facts';
import type { AttnInfo, AValue, ScaleOp } from '../analysis/values';
import { callArgs } from '../syntax/python';
import { childByField, namedChildren, unparen, type PyNode } from '../syntax/tree';
import {
  alternatives,
  byNode,
  isT5Family,
  unitScaleNearby,
  unitScaleInRelatedClass,
  hasOpaque,
  qkNormalised,
  scaleOmittedOnPurpose,
  scaleOps,
  testReference,
  graphPattern,
  isTestModulePath,
} from './evidence';
import { defineTemplates, msg } from '../message';
import { apiName, parenthesize, quote, type FixSpec, type Rule, type RuleContext } from './rule';
import { definitions, factorDefinitions } from './related';
import { importerCallPassing } from '../analysis/importer-calls';
import { roleOfName } from '../analysis/names';
import { originRef } from '../analysis/portable';
import { orphanedByBrokenParse } from '../analysis/broken-parse';
import { queryInitCarriesScale } from './init-scale';

const T = defineTemplates({
  sdpaUnitScale: '{0} is told scale={1}, but {2} and {3} were not scaled by 1/sqrt(d) beforehand: the scores reach the softmax unscaled.',
  definedNoFactor: '{0} is defined here, with no 1/sqrt(d) factor',
  unscaledScores:
    'The scores {0} reach {1} without a 1/sqrt(d) scale (none on the scores, none folded into {2} or {3}): the softmax saturates as the head size grows.',
  scoresFormedFrom: 'the scores {0} are formed here, from {1} and {2}',
  unscaledScoresElsewhere:
    'The scores {0} reach {1} without a 1/sqrt(d) scale: {2} forms them in {3} from {4} and {5} with none, and none is applied here. The softmax saturates as the head size grows.',
  scoresReturnedBy: 'the scores {0} come from {1} here, unscaled',
  formedUnscaledThere: 'the scores are formed here, with no 1/sqrt(d) scale',
  normalisesUnscaled: '{0} normalises them here, unscaled',
  divideFix: 'Divide the scores by sqrt({0}.shape[-1]) (changes the weights)',
});

/** Methods and attributes that only rearrange a tensor (its values are unchanged). */
const SHAPE_METHODS = new Set([
  'transpose',
  'permute',
  'view',
  'reshape',
  'contiguous',
  'float',
  'half',
  'to',
  'type_as',
  'astype',
  'unsqueeze',
  'squeeze',
  'flatten',
  'unflatten',
  'swapaxes',
  'swapdims',
  'movedim',
  'expand',
  'expand_dims',
  't',
  'detach',
]);
const SHAPE_ATTRIBUTES = new Set(['T', 'mT']);
const SHAPE_FUNCTIONS = new Set(['rearrange', 'transpose', 'swapaxes']);
const MODULE_NAMES = new Set(['torch', 'np', 'numpy', 'jnp', 'tf', 'mx']);

/** A fused kernel told scale=1.0, with the nodes its report quotes. */
interface UnitScaleCall {
  readonly site: SdpaSite;
  readonly scaleNode: PyNode;
  readonly qNode: PyNode;
  readonly kNode: PyNode;
}

/** Attention scores q·kᵀ whose query and keys are named (what the message and the fix quote). */
type DotProductScores = AttnInfo & { readonly queryText: string; readonly keyText: string };

export const ATT003: Rule = {
  meta: {
    code: 'ATT003',
    name: 'missing-scale',
    severity: 'warning',
    fix: 'unsafe',
    docs: {
      summary: 'Dot-product scores go into softmax with no 1/sqrt(d) scale.',
      whatItDoes:
        "Follows the scores `q @ k.transpose(-2, -1)` (also `matmul`, `bmm`, `einsum`) to the softmax and reports when no scaling happens anywhere on the way: not on the scores, not folded into `q` or `k`, not through `scale=` or `baddbmm(alpha=...)`; a scale folded into q before q is cut into equal pieces, one per head (`q = torch.chunk(q * self.scaling, chunks=self.heads, dim=-1)`, then `q[h]` in a loop over the heads), is on every piece (session 47). The queries and keys may be written inline as data times a weight whose name says it is a projection's (`torch.matmul((x_t @ W_q), K.transpose(-2, -1))`, as `Q = x_t @ W_q` then `torch.matmul(Q, ...)`, or `self.q_proj(x)`); a role word alone (`h @ query`) or a name that says nothing (`x_t @ A`) gives no role. A model unscaled by design and stated so by code is left alone: a class of the file tied to the scores' class by inheritance (the class itself, one derived from it or its base) that hands a kernel `softmax_scale=1.0`, or `scale=1.0` to a call named for attention (the eager attention of GPT-Neo beside its flash class calling `_flash_attention_forward(..., softmax_scale=1.0)`); an unrelated class doing so says nothing. Attention pooling against one learned query, a parameter of shape (d,), (d, 1) on the right of the keys or (1, d) on their left (`keys @ self.query`, or an einsum that sums every index of the parameter away: `\"bsd,d->bs\"`; also broadcast over the batch, `self.query.unsqueeze(0).expand(B, -1, -1)` of shape (B, 1, d), or one query per head, a (heads, head_dim) parameter: `einsum(\"bhsd,hd->bhs\", k, self.query)`, `k @ self.query.unsqueeze(-1)`), is not scaled dot-product attention between two sequences: the parameter learns its own norm, and pooling layers do not scale it, so it is not reported (additive `v(tanh(W k))` scores are no dot product at all); nor is local attention over a window of keys unfolded around each query (stand-alone self-attention, `(q * k).sum(dim=2)` with q `(B, G, d, H, W, 1)` and the keys `(B, G, d, H, W, k*k)`), whose logits the paper leaves unscaled. A learned matrix of several queries against the keys (the Set Transformer PMA, per head too, Perceiver latents: `self.queries @ k.transpose(-2, -1)`) is scaled dot-product attention and is reported unscaled. A temperature written as the square root of a whole number (`self.temperature = 64 ** 0.5`, as `math.sqrt(64)`) is the 1/sqrt(d) scale with d written out, not a fixed temperature, and so is a constant temperature that is the root of the width the scores' product sums over as the code states it (`self.temperature = 8` over heads `view(B, T, 8, 64)`), or that width itself (ATT004's finding then). A factor the code writes whose value it does not show (`1 / np.sqrt(d_key) * Q @ K.T` with `d_key` read from a config dict, also on q that a helper returns as an unnamed product `x @ w` split into heads) is a scale of unknown value, not none. Scores that pass through a function it cannot see into, q and k returned by one (a loader imported from a module it cannot read, `q, k, v, out = load_checkouts(...)`, which may return q already scaled; in a workspace whose file defines it, that function's code decides), and code that says the scale is omitted on purpose (T5 folds it into the initialisation), are left alone, as is the T5 family by its code: a class or function named for it or annotated with its config (`def __init__(self, config: T5Config)` of the class whose `__call__` forms the scores), or a file that builds T5's bucketed relative position bias (`config.relative_attention_num_buckets`, as MLX's `RelativePositionBias` does). Scores of q and k that each pass through a normalisation layer first (qk-norm: `q, k = self.q_norm(q), self.k_norm(k)` with LayerNorm or RMSNorm, a GroupNorm on the fused `qkv` they are split from, as in Axial-DeepLab) are not reported: the norm's learned gain sets the scale of the logits (a norm on the layer's input, `x = nn.LayerNorm()(x)` before the projections, is no such thing); so are scores a helper forms from q and k that every call of it in the file passes normalised (`self._attend(self.q_norm(q), self.k_norm(k), v)`, followed through up to three callers; a rotary embedding applied after the norm keeps it). So are q and k each divided by their own L2 norm written out (session 47: `def unit(x, eps): return x / mx.maximum(mx.sqrt(mx.sum(x * x, axis=-1, keepdims=True)), eps)`, also `x.pow(2).sum(-1).sqrt()` or `(x ** 2).sum(-1) ** 0.5`, with an epsilon clamped or added; in this file, or in a workspace file whose helper returns them so): cosine logits, whose temperature is a constant; read through a learned gain bound to ones (`* self.q_gain`, `self.q_gain = mx.ones(...)`), a rotary embedding written out by a helper of the file that multiplies by a `cos(...)` and a `sin(...)` (`rotate_pairs(q, angles)`), and keys joined with cached ones by a method of another object that one class of the file defines and whose body concatenates the keys it is handed (`k, v = cache.extend(layer, k, v)`); what the helpers are called says nothing. Neither is a test's reference computation (a `test_…` function, or a method of a `Test…` class, that compares results with `assert_allclose`, `assertAllClose`, `assert_close` or `allclose`, or asserts a difference under a tolerance, `assert error < 1e-3`, unittest's `self.assertLess(max_diff, 5e-5)`, also with its arguments over several lines, or `assertAlmostEqual`; also `assert(abs(a - b).max() < 1e-4)`, or a module-level helper of the file it hands its results to that asserts so, `compare(\"scores\", ref, tri)` with `assert abserr < 0.05 and relerr < 0.1`, session 47), or a helper whose every caller in the file is such a test, or a helper that does the comparison itself and only tests call (`_flash_testing_helper` asserting `allclose(out, ref_o)`, called by `test_single_prompt`): it must reproduce the convention of the code under test, and the test fails if the two differ; a kernel told `scale=1.0` in such a reference (checked against a kernel run at the same scale) is not reported either. Nor is a graph pattern to be matched (a function handed as the pattern to torch.fx's `replace_pattern(gm, pattern, replacement)` or `replace_pattern_with_filters`, or as the `search_fn` of Inductor's `register_replacement`): it must reproduce the traced graph, which has no scale when the model applied it earlier, and does not run; the replacement does, and is checked. A helper function whose q or k is a parameter is cleared by a caller that passes them scaled, in the same file or, in a workspace, in a file that imports it (`attention(q * self.scale, k, v)` in `layers.py`); in the same file also when the helper and its callers are defined after the module's first top-level compound statement (`try: from flash_attn import flash_attn_func` / `except ImportError:`, `if not hasattr(tl, \"sort\"):`), which once hid them from the file's functions. A function or method handed both its queries and its keys as parameters (`def attend(q, k, v, mask=None)`, a module's `forward(self, query, key, value)`; the parameters themselves or shape steps of them, `k.transpose(-2, -1)`, `rearrange(q, ...)`, `q[:, :, -n:]`) that no call in view reaches (no caller in the file, none in a workspace file importing it, and no mention of its name in the file but its definition: a function handed on, `torch.vmap(attend)` or `replace_pattern(gm, pattern, replacement)`, is still judged; keys joined from parameters, `torch.cat([global_k, local_k], dim=2)`, count as parameters) is not reported: its caller may scale q first or pass a pre-scaled tensor (T5-style code folds the scale into the query projection's initialiser), and that caller is not in view. With a caller in view, the caller's context decides (one passing unscaled projections is reported); queries or keys the function projects itself (`q = self.to_q(x)`) are judged as before. A call from a test module (`test_*.py`, `*_test.py`, `conftest.py`, or a file under a `test` or `tests` folder) is no such caller: it feeds the helper made-up tensors (`jnp.ones(...)`, `np.random.randn(...)`) to check shapes or to compare with a reference written the same way, and says nothing of how the model's caller scales q (t5x's `dot_product_attention`, whose module folds the scale into the query initialiser); with only such calls in view the helper is judged as one with no caller, and a call from a model file still decides. A dtype cast of a parameter (`query = query.astype(jnp.float32)`) keeps it the parameter. (Counted in session 45: none of the 12 true ATT003 findings of the regression and training sets has a caller in a test module, and the 4 folder cases of the readable sets that hold a test module are all clean.) (Measured in session 44: of the 16 true ATT003 findings of the readable sets, none is such a helper with no caller in view (10 project q and k inside, 5 have a caller in the file, 1 projects a data parameter); the pinned repositories cut as the labelled sets cut them gave 10 places of that shape, none true: 7 false, 2 undecided, 1 listed false.) A fused kernel told `scale=1.0` (which switches its own 1/sqrt(E) off) is reported when q and k reach it unscaled in every context that reaches it: a helper whose caller passes a pre-scaled q is right, and a scale chosen by a flag with SDPA's default on one path (`scale=None if self.scale else 1.0`) is a deliberate option, not reported. A projection built with the scale folded into its weights (`self.in_proj = ScaledLinear(d, 2 * h * hd, initial_scale=hd ** -0.25)`: a keyword named for a scale whose value is a negative power of a width) scales its outputs, q and k alike, and so does a projection whose weights the code scales in place by a negative power of a width (`with torch.no_grad(): self.q_proj.weight.mul_(head_dim ** -0.5)`, `.weight.data *= s`, `.weight.copy_(self.q_proj.weight * s)`, Keras `self.wq.kernel.assign(self.wq.kernel * s)`), or whose state-dict entry a conversion function or a load hook of the same file scales so (`state_dict[prefix + \"q_proj.weight\"] *= 1 / math.sqrt(head_dim)`, or under `if name.endswith(\"q_proj.weight\"):`); an in-place initialisation (`normal_`, `zero_`) or a factor that is no width (`mul_(0.5)`) scales nothing. Mesh TensorFlow's convention, which T5 follows, folds the scale into the query projection's initialisation instead (session 49): the query weights are drawn with a standard deviation that takes a negative square root of the key weights' sizes and one more (`nn.init.normal_(self.q.weight, std=(d_model * d_kv) ** -0.5)` beside `nn.init.normal_(self.k.weight, std=d_model ** -0.5)`, also `1 / math.sqrt(...)`, a factor on both, or the method form `module.q.weight.data.normal_(mean=0.0, std=...)`), so the unscaled q·kᵀ starts at the variance the 1/sqrt(d_kv) scale would give it, and it is not reported; the two initialisations must be of the projections the code applies to make q and k (`self.q(x)`, or the one layer handed to a function called by name that applies it, `project(hidden_states, self.k, ...)` as HF's T5 projects its keys; followed through a few reassignments), in their class or, in this file or a workspace file importing it, in one arm of `if isinstance(module, Cls)` naming the class; the same std for both, a constant one (`0.02`), or the query's alone says nothing. One row of a learned table of queries picked by an integer (`self.queries[destination]` with `destination: int`, a pseudo-query per layer) is such a learned query; a learned projection picked so (`x @ self.w_q[layer]`) is not, and its unscaled scores are reported. Weights read only through argmax (`one_hot(w.argmax(-1))`, a hard choice of one rule or expert) use no weight, and the argmax is the same whatever scales the logits: not reported. Single-head attention over convolution features (torch's `nn.Conv1d`/`nn.Conv2d`/`nn.Conv3d`, flax's `nn.Conv`: a SAGAN or non-local block, a point cloud's offset attention), its scores formed by a matmul or an einsum, is unscaled by design and not reported; split into several heads, it is. Scores in a file that does not parse, formed after the break in statements the parser cut off from their function (a triple-quoted string at column 0 inside a `try:` body ends the function for the parser, and the indented statements after it are left at module level, where `query` and `key` are unbound), are not reported: what the function did to q and k before the break (`query = query * scaling`) is not in view; scores in the part of the function the parse kept are judged as before (session 49).",
      whyIsThisBad:
        'The dot product of two d-dimensional vectors with unit-variance entries has variance d. Without dividing by sqrt(d), the logits grow with the head size, the softmax saturates to one-hot rows, and its gradients vanish: training becomes slow or unstable, and larger heads make it worse.',
      example: `scores = q @ k.transpose(-2, -1)
weights = scores.softmax(dim=-1)`,
      useInstead: `scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
weights = scores.softmax(dim=-1)`,
      whereReported:
        'At the scores as they enter the softmax, the use (for `scale=1.0` on a fused kernel, at the call; for scores formed by a caller and handed to a softmax helper of the file, `softmax_rows(scores)` with exp / sum inside, the argument of that call). Related locations: where q·kᵀ is formed, where q (and k) are defined, and the softmax; for scores a helper of another workspace file forms and returns, the call here and the product there, which the message names (`` `raw_scores` forms them in pkg/scores.py:5 ``).',
      fixSafety:
        "The fix divides the scores by sqrt of the query's last dimension. It changes the weights, so it is offered as an unsafe quick fix and never applied by a fix-all.",
      references: [
        { title: 'Attention Is All You Need, section 3.2.1 (scaled dot-product attention)', url: 'https://arxiv.org/abs/1706.03762' },
        {
          title: 'torch.nn.functional.scaled_dot_product_attention (default scale 1/sqrt(E))',
          url: 'https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html',
        },
      ],
    },
  },

  create(ctx: RuleContext) {
    /** Softmax sites whose weights are scaled afterwards (ATT004 reports those): indexed once per file. */
    let scaledAfter: Set<PyNode> | undefined;
    const ev = ctx.analysis;
    /** Per name: whether the file names it anywhere but in its own `def` lines (namedOutsideDefinition). */
    const namedElsewhere = new Map<string, boolean>();
    const sites: SoftmaxSite[] = [];
    const sdpaSites: SdpaSite[] = [];
    const reported = new Set<number>();
    /** The scores when `v` is q·kᵀ of a query and keys (not Luong-style encoder context, not convolution features). */
    const dotProductScores = (v: AValue): DotProductScores | undefined => {
      const a = v.attn;
      if (!a || a.stage !== 'scores' || !a.queryText || !a.keyText || !a.keyIsKey) return undefined;
      // Attention pooling against one learned query vector: the parameter learns its own norm (no 1/sqrt(d) by design).
      if (a.learnedPoolingQuery) return undefined;
      // Projections to a handful of features (scalar q/k): sqrt(d) is about 1.
      const width = a.queryProj?.outText !== undefined ? Number(a.queryProj.outText) : NaN;
      if (Number.isInteger(width) && width <= 3) return undefined;
      // SAGAN / non-local blocks: single-head attention over convolution features, unscaled by design.
      if (v.fromConv && !v.multiHead) return undefined;
      // Local attention over a window of keys per query (stand-alone self-attention: `(q * k).sum(dim=2)` with the keys
      // unfolded around each position): the paper's logits are unscaled, so a missing 1/sqrt(d) is no departure.
      if (a.local) return undefined;
      return { ...a, queryText: a.queryText, keyText: a.keyText };
    };
    /**
     * A fixed softmax temperature (`self.temp = 0.5`): a constant named as a temperature that no dimension
     * enters. It sharpens or flattens the weights but does not undo the growth of q·k with d.
     */
    const fixedTemperature = (op: ScaleOp, widths: () => ReadonlySet<string>): boolean =>
      op.constant !== undefined && !!op.named && /temp|tau/i.test(op.named) && !isWidthConstant(op.constant, widths());
    /** Every path from q and k to here is free of scaling and of unknown functions. */
    const noScale = (v: AValue): boolean => {
      // The sizes the scores' product sums over as the code states them (`view(B, T, 8, 64)`): a temperature that is
      // one of them, its square root or an inverse (`self.temperature = 8` over 64 features) is a width's scale.
      const widths = (): ReadonlySet<string> => ev.facts.contractedSizes(v.attn?.formedAt);
      for (const alt of alternatives(v)) {
        if (scaleOps(alt).some((op) => !fixedTemperature(op, widths)) || hasOpaque(alt)) return false;
      }
      return true;
    };
    const unscaled = (site: SoftmaxSite): boolean => dotProductScores(site.input) !== undefined && noScale(site.input);
    return {
      softmax(site) {
        sites.push(site);
      },
      sdpa(site: SdpaSite) {
        sdpaSites.push(site);
      },
      end() {
        // scale=1.0 switches SDPA's own 1/sqrt(E) off: q and k must then be scaled by hand, in every context that
        // reaches the call (a helper whose caller passes a pre-scaled q is right; its own unbound reading is no evidence).
        for (const group of byNode(sdpaSites).values()) {
          const judged = group.map(unitScaleUnscaled);
          const [first] = judged;
          if (first && judged.every((j) => j !== undefined)) reportUnitScale(first);
        }
        reportUnscaledSoftmaxes();
      },
    };

    /** The call, its scale=1.0 and its q and k, when q and k reach it unscaled in this context. */
    function unitScaleUnscaled(site: SdpaSite): UnitScaleCall | undefined {
      const { scaleNode, qNode, kNode } = site;
      // A scale that may be None on some path (`scale=None if self.scale else 1.0`, a name set to 1.0 in one branch)
      // leaves SDPA's own 1/sqrt(E) on that path: only 1.0 on every path is evidence.
      if (!scaleNode || site.scale?.kind !== 'number' || site.scale.num !== 1 || site.scale.maybeNone) return undefined;
      if (!qNode || !kNode || site.q.role !== 'query' || site.k.role !== 'key') return undefined;
      if (site.q.fromConv || site.q.normalized || site.k.normalized || !noScale(site.q) || !noScale(site.k)) return undefined;
      return { site, scaleNode, qNode, kNode };
    }

    function reportUnitScale({ site, scaleNode, qNode, kNode }: UnitScaleCall): void {
      // A test's reference (a kernel checked against another one run at the same scale=1.0) follows the kernel under test.
      if (scaleOmittedOnPurpose(ev, site.node) || testReference(ev, site.node) || reported.has(site.node.id)) return;
      reported.add(site.node.id);
      ctx.report({
        node: site.node,
        message: msg(T.sdpaUnitScale, apiName(site.display), ctx.text(scaleNode), quote(ctx.text(qNode), 20), quote(ctx.text(kNode), 20)),
        related: [
          ...factorDefinitions(ev, scaleNode, site.ctx, 1),
          ...definitions(ev, qNode, site.ctx, (t) => msg(T.definedNoFactor, quote(t, 20))),
          ...definitions(ev, kNode, site.ctx, (t) => msg(T.definedNoFactor, quote(t, 20))),
        ],
      });
    }

    function reportUnscaledSoftmaxes(): void {
      for (const group of byNode(sites).values()) {
        // Every context must agree (a caller that passes a pre-scaled q clears the helper).
        const [site] = group; // byNode's groups are never empty: the `site &&` / `!site` below never decide
        const a = site && dotProductScores(site.input);
        if (!site || !a || !group.every(unscaled)) continue;
        if (postSoftmaxScale(site)) continue;
        if (onlyArgmaxed(site)) continue;
        if (
          scaleOmittedOnPurpose(ev, site.node) ||
          isT5Family(ev, site.node) ||
          unitScaleNearby(ev, site.node) ||
          unitScaleInRelatedClass(ev, site.node) ||
          testReference(ev, site.node) ||
          graphPattern(ev, site.node)
        )
          continue;
        if (qkNormalised(ev, a.formedAt, a.queryText, a.keyText)) continue;
        // Scores a broken parse cut off from their function (indented statements left at module level after a syntax
        // error): what the function did to q and k before the break is not in view (session 49).
        if (orphanedByBrokenParse(ev.tree, a.formedAt)) continue;
        // The 1/sqrt(d) folded into the query projection's initialisation (Mesh TensorFlow / T5: a std with one more size).
        if (ev.facts.matmulAt(a.formedAt).some((m) => queryInitCarriesScale(ev, site.node, m.aNode, m.bNode))) continue;
        // A helper whose callers in the files that import it pass a pre-scaled q (or k).
        if (scaledByImporters(site)) continue;
        // A helper handed its queries and keys, with no caller in view: how the scale arrives is not shown.
        if (helperWithoutCaller(group, site, a)) continue;
        // The logits as they enter the softmax (its input argument); the product itself when it is inline.
        const target = site.inputNode ?? scoresArgumentAtCall(site, a.formedAt) ?? a.formedAt;
        if (reported.has(target.id)) continue;
        reported.add(target.id);
        // Scores a helper of another file formed and returned: that helper and its place are named (its q and k are
        // that file's text), and the place is linked (engine.ts: linkForeignEvidence).
        const there = a.formedIn;
        if (there) ev.noteForeignEvidence({ path: there.path, line: there.line, column: there.column, message: msg(T.formedUnscaledThere) });
        const message = there
          ? msg(
              T.unscaledScoresElsewhere,
              quote(ctx.text(a.formedAt), 50),
              apiName(site.display),
              `\`${there.name}\``,
              originRef(there),
              quote(a.queryText, 20),
              quote(a.keyText, 20),
            )
          : msg(T.unscaledScores, quote(ctx.text(a.formedAt), 50), apiName(site.display), quote(a.queryText, 20), quote(a.keyText, 20));
        // Reported where the scores enter the softmax; their product and the softmax are the evidence.
        ctx.report({
          node: target,
          message,
          fix: fixFor(site, target),
          related: [
            {
              node: a.formedAt,
              message: there
                ? msg(T.scoresReturnedBy, quote(ctx.text(a.formedAt), 40), `\`${there.name}\``)
                : msg(T.scoresFormedFrom, quote(ctx.text(a.formedAt), 40), quote(a.queryText, 20), quote(a.keyText, 20)),
            },
            ...definitions(ev, a.queryNode, site.ctx, (t) => msg(T.definedNoFactor, quote(t, 20)), 1),
            { node: site.node, message: msg(T.normalisesUnscaled, apiName(site.display)) },
          ],
        });
      }
    }

    /**
     * Scores formed by a caller and handed to a softmax helper of the file (`softmax_rows(scores)` with a hand-written
     * exp / sum inside): the argument at that call, where they enter the softmax, as a library softmax's is.
     */
    function scoresArgumentAtCall(site: SoftmaxSite, formedAt: PyNode): PyNode | undefined {
      const call = site.ctx.callSite;
      const bindings = site.ctx.bindings;
      if (!call || !bindings || call.type !== 'call') return undefined;
      const fn = site.ctx.scope;
      const args = callArgs(ev.tree, call);
      const p = fn.params.find((q) => bindings.get(q.name)?.attn?.formedAt === formedAt);
      if (!p) return undefined;
      const kw = args.keywords.get(p.name);
      if (kw) return kw.value;
      // Bound by position (a call with a `*` spread binds nothing: the evaluator makes no context for it).
      /* c8 ignore next -- a parameter bound without a keyword is positional, so it has an index */
      return p.index === undefined ? undefined : args.positional[p.index - (fn.selfName ? 1 : 0)];
    }

    /**
     * The softmax is in a module-level function whose q or k is a parameter, and a workspace file that imports
     * this one calls it with that argument already scaled (`attention(q * self.scale, k, v)`).
     */
    function scaledByImporters(site: SoftmaxSite): boolean {
      const fn = site.ctx.scope;
      if (fn.kind !== 'function' || fn.parent?.kind !== 'module' || !fn.name) return false;
      const params = fn.params.filter((p) => p.name === site.input.attn?.queryText || roleOfName(p.name) === 'query' || roleOfName(p.name) === 'key');
      const scaled = (v: AValue): boolean => {
        const alts = alternatives(v);
        return alts.length > 0 && alts.every((alt) => scaleOps(alt).length > 0);
      };
      return importerCallPassing(ev, fn.name, params, scaled) !== undefined;
    }

    /** Whether the file names `name` anywhere but in its own `def` lines; once per name and file. */
    function namedOutsideDefinition(name: string): boolean {
      let named = namedElsewhere.get(name);
      if (named === undefined) {
        const source = ctx.text(ev.tree.root);
        const mentions = source.split(new RegExp(`\\b${name}\\b`)).length;
        const definitions = source.split(new RegExp(`\\bdef\\s+${name}\\b`)).length;
        named = mentions > definitions;
        namedElsewhere.set(name, named);
      }
      return named;
    }

    /**
     * A function or method handed its queries and its keys as parameters (`def attend(q, k, v, mask=None)`, a module's
     * `forward(self, query, key, value)`) that no call in view reaches: every context is the function's own unbound
     * reading, with no caller in the file nor in a workspace file importing it. Its caller may scale q first or pass a
     * pre-scaled tensor (T5-style models fold the scale into the query projection's initialisation), and that caller
     * is not in view, so the missing factor is no evidence. The queries and keys must be the parameters themselves, or
     * shape steps of them (`q.transpose(1, 2)`, `k.view(B, T, H, D)`, `rearrange(k, ...)`); a projection inside the
     * function (`q = self.to_q(x)`) makes them the function's own, and it is judged. With a caller in view, the caller's
     * context decides, as before (a caller that scales q clears it; one that does not is reported).
     */
    function helperWithoutCaller(group: readonly SoftmaxSite[], site: SoftmaxSite, a: DotProductScores): boolean {
      // A call in view, of this file or of an importing one, binds the parameters in a context of its own. A call from a
      // test file (`layers_test.py`, `tests/test_layers.py`) is no such caller: it feeds the helper made-up tensors
      // (`jnp.ones(...)`, `np.random.randn(...)`) to check shapes or compare with a reference written the same way, and
      // says nothing of how the model's own caller scales q (t5x's `dot_product_attention`, scaled by its module).
      if (group.some((s) => s.ctx.bindings !== undefined && !isTestModulePath(s.ctx.calledAt?.path))) return false;
      const fn = site.ctx.scope;
      if (fn.kind !== 'function') return false;
      // A function the file names anywhere but its own definition is handed on or called in a way the contexts do not
      // show (`replace_pattern(gm, pattern, replacement)`, `jax.vmap(attend)`, `partial(attend, ...)`): not unreached.
      if (namedOutsideDefinition(fn.name)) return false;
      const params = new Set(fn.params.map((p) => p.name));
      return ev.facts.matmulAt(a.formedAt).some((m) => [m.aNode, m.bNode].every((n) => fromParameter(n, params, 0)));
    }

    /** `node` is a parameter of the function, or shape steps of one, through local reassignments (`q = q.view(...)`). */
    function fromParameter(node: PyNode | undefined, params: ReadonlySet<string>, depth: number): boolean {
      // A few steps at most: a longer chain (or one carried around a loop) is not read as the parameter.
      if (!node || depth > 4) return false;
      const n = unparen(node);
      // Parameters joined along an axis (`torch.cat([global_k, local_k], dim=2)`, `jnp.concatenate((k_cache, k))`).
      const joined = joinedParts(n);
      if (joined) return joined.every((part) => fromParameter(part, params, depth + 1));
      const base = shapeStepBase(n);
      if (!base) return false;
      const name = ctx.text(base);
      const defs = ev.resolve(base, name) ?? [];
      return (
        defs.length > 0 &&
        defs.every((d) => (d.kind === 'param' ? params.has(name) : d.kind === 'assign' && d.path.length === 0 && fromParameter(d.value, params, depth + 1)))
      );
    }

    /** The parts of `torch.cat([a, b], dim)` (also `concat`, `concatenate`, a tuple of parts), or undefined. */
    function joinedParts(n: PyNode): PyNode[] | undefined {
      if (n.type !== 'call') return undefined;
      const f = childByField(n, 'function');
      // `torch.cat(`, `jnp.concatenate(`, `cat(`: the name after the last dot.
      /* c8 ignore next -- a call node always has its function */
      const name = /(\w+)$/.exec(ctx.text(f ?? n))?.[1];
      if (name !== 'cat' && name !== 'concat' && name !== 'concatenate') return undefined;
      /* c8 ignore next -- a call node always has its argument list */
      const list = namedChildren(childByField(n, 'arguments') ?? n).map(unparen)[0];
      return list?.type === 'list' || list?.type === 'tuple' ? namedChildren(list) : undefined;
    }

    /**
     * The identifier under shape steps: `k.transpose(-2, -1)`, `q[:, :, -n:]`, `k.mT`, `torch.transpose(k, 1, 2)`,
     * `rearrange(q, 'b n (h d) -> b h n d', h=h)`; undefined for anything else (a projection, arithmetic, a call).
     */
    function shapeStepBase(n: PyNode): PyNode | undefined {
      if (n.type === 'identifier') return n;
      // `q[:, :, -n:]`, `k.mT`, `k.transpose(-2, -1)`, `torch.transpose(k, 1, 2)`, `rearrange(q, ...)`.
      const inner = n.type === 'subscript' ? childByField(n, 'value') : n.type === 'attribute' ? shapeAttributeObject(n) : shapeCallOperand(n);
      return inner ? shapeStepBase(unparen(inner)) : undefined;
    }

    /** `k.T`, `k.mT`: the tensor. */
    function shapeAttributeObject(n: PyNode): PyNode | undefined {
      const [obj, attr] = namedChildren(n);
      return attr && SHAPE_ATTRIBUTES.has(ctx.text(attr)) ? obj : undefined;
    }

    /** The tensor a shape call rearranges: `k.view(...)`'s receiver, `torch.transpose(k, ...)`'s or `rearrange(q, ...)`'s first argument. */
    function shapeCallOperand(n: PyNode): PyNode | undefined {
      if (n.type !== 'call') return undefined;
      const [f, args] = namedChildren(n);
      /* c8 ignore next -- a call node always has its argument list */
      const first = args ? namedChildren(args)[0] : undefined;
      // A bare function takes the tensor first (`rearrange(q, ...)`).
      if (f?.type === 'identifier') return SHAPE_FUNCTIONS.has(ctx.text(f)) ? first : undefined;
      if (f?.type !== 'attribute') return undefined;
      const [obj, attr] = namedChildren(f);
      /* c8 ignore next -- an attribute node always has its object and its attribute name */
      if (!obj || !attr || !SHAPE_METHODS.has(ctx.text(attr))) return undefined;
      // A module's function takes the tensor first (`torch.transpose(k, 1, 2)`); a method's receiver is the tensor.
      return MODULE_NAMES.has(ctx.text(obj)) ? first : obj;
    }

    /**
     * `w = torch.softmax(q @ keys.t(), dim=-1)` read only through `w.argmax(-1)` (a hard choice of one rule or
     * expert, `one_hot(w.argmax(-1))`): no weight is used, and the argmax is the same whatever scales the logits.
     */
    function onlyArgmaxed(site: SoftmaxSite): boolean {
      // `name = softmax(...)` as a statement of its own, then every other mention of name in the function is `name.argmax(`.
      /* c8 ignore next -- a softmax call always sits in a statement, so it has a parent and a grandparent; the type allows a root */
      const line = ctx.text(site.node.parent?.parent ?? site.node);
      const m = /^(\w+)\s*=\s*(.*)$/s.exec(line);
      let fn: PyNode | null = site.node;
      while (fn && fn.type !== 'function_definition') fn = fn.parent;
      if (!m || !fn || m[2] !== ctx.text(site.node)) return false;
      const name = m[1];
      const body = ctx.text(fn);
      const mentions = [...body.matchAll(new RegExp(`\\b${name}\\b(\\.argmax\\()?`, 'g'))].map((x) => x[0]);
      return mentions.length > 1 && mentions.filter((t) => t === name).length === 1;
    }

    /** A scale applied after softmax is reported by ATT004 instead. */
    function postSoftmaxScale(site: SoftmaxSite): boolean {
      if (!scaledAfter) {
        scaledAfter = new Set();
        for (const s of ev.facts.scale) if (s.op.on === 'weights' && s.target.attn?.softmax?.site) scaledAfter.add(s.target.attn.softmax.site);
      }
      return scaledAfter.has(site.node);
    }

    function fixFor(site: SoftmaxSite, target: PyNode): FixSpec | undefined {
      const q = site.input.attn?.queryNode;
      if (!q || unparen(q).type !== 'identifier') return undefined;
      if (target !== site.input.attn?.formedAt && assignedBetween(q, target)) return undefined;
      const qText = ctx.text(q);
      const mathImported = ev.file.importsMath;
      const factor = mathImported ? `math.sqrt(${qText}.shape[-1])` : ev.numpyStyleTranspose ? `np.sqrt(${qText}.shape[-1])` : `${qText}.shape[-1] ** 0.5`;
      const t = ctx.text(target);
      const divided = `${parenthesize(target, t)} / ${factor}`;
      // `scores.softmax(dim=-1)`: the quotient becomes the receiver, so it needs its own parentheses.
      const receiver = target.parent?.type === 'attribute' && target.field === 'object';
      return {
        title: msg(T.divideFix, qText),
        safety: 'unsafe',
        edits: [{ start: target.start, end: target.end, newText: receiver ? `(${divided})` : divided }],
      };
    }

    /** True when `name` is reassigned between its use at the matmul and the softmax. */
    function assignedBetween(nameNode: PyNode, until: PyNode): boolean {
      const name = ctx.text(nameNode);
      return ev.file.definedBetween(name, nameNode.end, until.start);
    }
  },
};
