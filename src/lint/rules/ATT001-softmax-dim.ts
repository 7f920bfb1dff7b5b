// ATT001: softmax over an axis that is not the key axis of the attention scores.
import { torchImplicitSoftmaxDim } from '../analysis/apis';
import type { MatmulSite, SoftmaxSite } from '../analysis/facts';
import { axesOf, axisAt, negAxis, type AttnInfo } from '../analysis/values';
import {
  alternatives,
  byNode,
  calledByTest,
  changedAtIndicesBefore,
  consumersOf,
  definingNames,
  hasRoles,
  normalisedDim,
  wasRenormalised,
  type Consumer,
} from './evidence';
import { asCalledAt, definedHere, definitions } from './related';
import { defineTemplates, msg, type MessageArg, type MessageParts } from '../message';
import { PHRASES } from '../analysis/phrases';
import { isHeadCountName } from '../analysis/names';
import { functionScope } from '../analysis/cache-paths';
import type { Def } from '../analysis/scopes';
import { childByField, enclosingFunction, namedChildren, unparen, type PyNode } from '../syntax/tree';
import { apiName, insertKeyword, quote, type FixSpec, type RelatedSpec, type Rule, type RuleContext } from './rule';

/** What a placeholder's sizes may sit beside: `device=`/`dtype=` keywords and a `**factory_kwargs` splat. */
const PLACEHOLDER_KWARGS = new Set(['keyword_argument', 'dictionary_splat']);
const SEQUENCES = new Set(['tuple', 'list']);
const SHAPE_READS = new Set(['shape', 'size', 'ndim', 'device', 'dtype']);
const PLACEHOLDER_LITERALS = new Set(['integer', 'float', 'string', 'true', 'false', 'none']);
const PLACEHOLDER_COMPOUNDS = new Set(['unary_operator', 'binary_operator', 'tuple', 'list']);

const T = defineTemplates({
  axisLength1: 'axis {0} of {1} has length 1, so every weight is 1.0',
  length1Activation:
    '{0} applies its softmax activation to its own output of one unit: the softmax runs over that axis of length 1, so every weight is 1.0 whatever the input. Give the layer no activation and normalise over the axis that holds the alternatives (attention scores (batch, L, 1): reshape them to (batch, L) first), or use a sigmoid for one probability.',
  length1Learned:
    '{0} normalises the learned parameter {1} over {2}, an axis of length 1: every weight is 1.0 whatever the parameter learns. Normalise over the axis that holds the alternatives.',
  length1Value:
    '{0} normalises {1} over {2}, an axis of length 1: every weight is 1.0 whatever the input. Normalise over the axis that holds the alternatives.',
  batchAxis: 'axis {0} of {1} is the batch axis ({2}), so the weights are normalised across different examples',
  headsAxis: 'axis {0} of {1} is the heads axis ({2}), so the weights are normalised across the heads, not over the keys',
  headsPaired:
    'axis {0} of {1} is a heads axis ({2}): q and k are laid out with the heads after the tokens, (…, T, H, hd), so q @ kᵀ pairs heads with heads and the weights are normalised across the heads, not over the keys (move the heads before the tokens)',
  batchAxisUnsized: 'axis {0} of {1} is the batch axis (batch), so the weights are normalised across different examples',
  noDimLegacyRule: "without dim, PyTorch's legacy rule picks dim {0} for {1}-D input, not the key axis {2}",
  overEveryElement: 'it normalises over every element of the scores at once, not over the keys of each query',
  alsoQueryAxis: "{0}; axis {1} is the query axis, so each key's weights would sum to 1 across the queries",
  summedOverAxisIn: 'the weights are then summed over axis {0} in {1}',
  noAxis: 'no axis',
  defaultAxis: 'its default axis {0}',
  noDim: 'no dim',
  appliedWithout: '{0} is applied to {1} with {2}: {3}. Pass {4}={5} (the key axis).',
  notKeyAxis: "{0} normalises {1} over {2}, which is not the key axis: {3}. Each query's weights must sum to 1 over the keys.",
  scoresFormedKeyAxis: 'the scores are formed here; their key axis is {0}',
  scoresFormed: 'the scores are formed here',
  summedHere: 'the weights are summed over axis {0} here (the product with the values)',
  appliedHere: '{0} is applied to the scores here',
  theAttentionWeights: 'the attention weights',
  contractsOverQueries:
    "{0} sums {1} over axis {2}, their query axis: the softmax normalised them over the keys (axis {3}), so each output mixes the values with one key's weights across the queries instead of one query's distribution over the keys. Contract over the key axis (transpose the weights, or put them on the left: weights @ v).",
  scoresFormedSoftmaxKeyAxis: 'the scores are formed here; the softmax makes their key axis ({0}) sum to 1',
  setDimFix: 'Set {0}={1} (softmax over the keys; changes the weights)',
  addDimFix: 'Add {0}={1} (softmax over the keys; changes the weights)',
  theScoresCode: 'the attention scores {0}',
  theScoresOf: 'the attention scores of {0} and {1}',
  theScores: 'the attention scores',
});

/** A product with the values that sums softmax weights (over the keys) over their query axis. */
interface Contraction {
  consumer: Consumer;
  weights: MatmulSite['a'];
  attn: AttnInfo;
  keyAxis: number;
  contracted: number;
}

interface Verdict {
  site: SoftmaxSite;
  wrong: boolean;
  right: boolean;
  /** The softmax is over an axis of length 1 (wrong for any input, attention scores or not). */
  length1?: boolean;
  /** The key axis (negative) when known, for the fix and the message. */
  keyAxis?: number;
  why: MessageArg;
}

export const ATT001: Rule = {
  meta: {
    code: 'ATT001',
    name: 'softmax-dim',
    severity: 'error',
    fix: 'unsafe',
    docs: {
      summary: 'Softmax over an axis that is not the key axis of the attention scores.',
      whatItDoes:
        "Checks that the softmax applied to attention scores normalises over the key axis: the axis that comes from the keys in `q @ k.transpose(-2, -1)` (or the key index of an einsum), and the axis that is summed over when the weights multiply the values. It also reports a softmax without `dim` on attention scores whose rank the code shows (PyTorch then picks an axis by a legacy rule: dim 0 for 3-D input, dim 1 for 4-D input; a rank the code does not show says nothing, since for 2-D input, one example's (T, S) scores, the rule picks the last axis, the key axis), a softmax over an axis of length 1 (not where only a test's call makes it so: a call from a test module importing the file, `test_*.py`, `*_test.py`, `conftest.py` or a file under `test`/`tests`, or from a test function of the file, feeding a shape-generic `attend(q, k, v)` one made-up key to see it get all the weight, says nothing of the shapes the model runs with; a model file's call still decides; scores from `nn.Linear(..., 1)`, from `x @ w` with `w = nn.Parameter(torch.randn(d, 1))`, from a `sum(..., keepdim=True)` / `keepdims=True` / `keep_dims=True`, or from `unsqueeze(-1)` / `expand_dims(x, -1)` whatever the rank of x; not a layer whose size is 1 only by the default of a constructor parameter that no call in view settles, `nn.Linear(dim, n_languages)` with `n_languages=1`, which callers set, nor a view or reshape size read from such a default, `view(T, B, H, K)` with `K = self.kernel_size` and `kernel_size=1` in `__init__`, nor a value computed only from a zeros placeholder attribute, `self.rel = torch.zeros(1, 1, 1, 3)` in `__init__` (its only assignment in view; `zeros` or `empty`, literal sizes) expanded and projected by the module's own layers with sizes read off `.shape` and no value the method is given (ConViT's torchscript stand-in, replaced by the real positions before use: attention of constant zeros is written for the tensor that replaces them), while a placeholder combined with the input, a learned parameter or a placeholder set by a base class of another file keeps its length-1 axis; `keras.layers.Activation(\"softmax\")` normalises the last axis as `keras.layers.Softmax()` does; Keras `Dense(1, activation=\"softmax\")` (or `activation=tf.nn.softmax`), also wrapped in `TimeDistributed`, applies its softmax to its one output unit; a value with no sign of being attention scores, such as a learned parameter of shape (1, L) made by a helper, is reported for what it is, without the key-axis wording), and a softmax over the axis the code itself shapes as the batch (`B, T, C = x.shape` whose first name is a batch name, reshapes, or a recurrent layer built in the same file: `nn.LSTM`/`nn.GRU`/`nn.RNN` return `(T, B, H)` outputs unless `batch_first=True` (then `(B, T, H)`), `pad_packed_sequence` as its `batch_first` says, `h_n` is `(layers * directions, B, H)`, Keras `LSTM`/`GRU`/`SimpleRNN` return `(B, T, H)` with `return_sequences=True` (also in `Bidirectional`) and `(B, H)` otherwise; a `batch_first` the file does not settle leaves the layout unknown; the labels survive a `cat` whose pieces agree on them and a product with a weight of unknown shape, `outputs * w`, whose axes are aligned from the right), as in additive attention energies `(B, S)` normalised with `dim=0` (energies count as attention scores when they are named so, feed a product with the values, or are filled out with a mask (`masked_fill(pad, -inf)`) before the softmax). A shape comment alone never makes the softmax's axis the batch (session 48): a comment calling it so (`# [batch size, src len]`, `# (T, S, B)`, a stale `# (B, S)`) may be stale or describe another layout, and only the code's own layout decides; a comment naming the batch or the heads twice (`# (b, bs, s)`) labels neither. Likewise a softmax over the axis the code shapes as the heads (`view(b, i, j, self.heads)`, or the output of `nn.Linear(d, heads)` in a shape the code states; a shape comment alone, `attn_logits  # (batch, i, j, heads)`, is no evidence, session 48) of scores named or masked as attention: the fix names the last sequence axis. Likewise the last axis of scores whose q and k the code lays out with the heads after the tokens, (…, T, H, hd) (NumPy's `reshape(B, H, T, dk).transpose(0, 2, 1, 3)`, a fused view unbound with no permute), with the keys turned by a full permutation (`k.transpose(0, 1, 3, 2)`, `k.permute(0, 1, 3, 2)`): q @ kᵀ then pairs heads with heads and the softmax normalises across the heads (no fix is offered: the layout must change; keys turned by a swap of their last two axes are ATT005's finding, at the swap, and not reported here; a layout stated only in a comment says nothing; a size named like a head count is no heads axis where the same reshape shows another size splitting the width into heads, `reshape(B * W, heads, C // heads, H)` of a `(B, C, H, W)` feature map, H its height). A softmax over an axis that the product with the weights keeps apart (an einsum that names it in both operands and in its output) while it sums the weights over another axis is reported too, whatever the other operand is called: `einsum(\"b s h, b s h d -> b h d\", softmax(logits, dim=-1), x)` normalises over the heads and pools over the tokens. The rank of the scores comes from the code (a reshape, `B, T, C = x.size()` or `b, n, d, h = *x.shape, self.heads`, a shape comment, also one shape stated for several names: `# q, k, v: (B, H, T, d)`) or from the product itself (`k.transpose(2, 3)` swaps the last two axes of 4-D keys, `k.permute(0, 2, 1)` lists every axis of 3-D keys, and the queries share the rank of the keys). The layout is followed through `permute`, `transpose`, `squeeze`/`unsqueeze`, `view`/`reshape`, `flatten`/`unflatten`, `movedim`, `expand`/`repeat`/`expand_as`, `chunk`/`split`/`unbind` with indexing and tuple unpacking, `stack` (a new axis, also of a list built by `append` in a loop), reductions, broadcasts (a product `q[:, :, None] * k[:, None]` summed over the features, or additive pairs `v(tanh(Wq(q)[:, :, None] + Wk(k)[:, None])).squeeze(-1)`, is read as the scores, its key axis the one where q has length 1), einsum and einops. Keys against one learned query (attention pooling, `keys @ self.query`): a query vector of shape (d,) drops its axis, so the keys are the last axis of the scores (B, S); a query column (d, 1) leaves them at -2 when the layout of the keys says the rows are the sequence (batch-first keys, or keys whose rank the code does not show), on the one sequence axis when the rows are the batch (sequence-first (S, B, d) keys), and otherwise the key axis is not known and only a softmax over the length-1 query axis or over the batch is reported. The values of that product are the tensor named as values, or the very tensor the keys (or queries) of the scores came from (`bmm(softmax(p @ q.T), q)` in co-attention, also through a layout function or a name bound to one: `tf.transpose(trg, [0, 2, 1])`, `trg_t = trg.permute(0, 2, 1)`). The `dim=` of TensorFlow 1 (`tf.nn.softmax(x, dim=...)`) is read as `axis=`. A softmax over another axis of scores that another softmax also normalises over their key axis (dual-softmax matching, `softmax(sim, 1) * softmax(sim, 2)`) is deliberate and not reported. So is a soft assignment that pools (DiffPool, MemPool): scores with no query or key named, normalised per node over the clusters and used transposed, `S.transpose(1, 2) @ x`, so that each row of the product pools the node features into one cluster; and a softmax assigned to a name that says it assigns members to clusters (`cluster_assignment = softmax(agreement, dim=0)`, then summed per cluster over the members), a competition over the cluster centres as in Slot Attention. Likewise assignment attention named by its class or function (`slot`, `assign`: GroupViT's `GroupViTAssignAttention` assigns each image token to one group token with `softmax(attn, dim=-2)`), also through a helper that takes the axis as a parameter (`hard_softmax(logits, dim)` called as `hard_softmax(attn, dim=-2)` from such a class), judged by where the helper is called; the same helper called with `dim=-2` from a class named for attention over keys is still reported. A length-1 axis of a tensor added to a value whose shape is not known (`Wq(q.unsqueeze(1)) + processed_inputs` in additive attention) is not known to stay length 1: the other operand may stretch it. When the softmax is over the key axis but the product with the values sums the weights over their query axis (`V.T @ weights`, `torch.bmm(value, attention)` without transposing the weights), the finding is reported at that product, where the bug is. PyTorch's `axis=` alias of `dim=` (`scores.softmax(axis=-1)`, `torch.softmax(x, axis=-1)`; also the NumPy-backed Tensor classes of from-scratch frameworks) is read as the dim. A length-1 axis of scores stays so only where what is added to them (a bias, the other half of additive energies `W(s)[:, None, :] + U(h)`) has length 1 there too. One query picked by a loop counter (`q[i]` with `for i in range(n)`) drops the query axis: its scores are a vector, and a sum over every element of them is over the keys. So a softmax over every element (`scipy.special.softmax` or `mx.softmax` without an axis, `e / e.sum()`) is reported only on scores whose rank the code shows, or whose query the code turns (`keys @ query.T`: a matrix of queries): otherwise one query's vector is as likely as a matrix. A shape comment offering alternatives (`# [B, K, 1] or [B, K, C]`) states neither shape, so no length-1 axis is read from it. A transpose by positive dims of a tensor whose rank is not known (`self.energy(h).transpose(1, 2)`, Linear(..., 1) scores turned into a row) may move its last axis, and `w.view(n, 1)` appends a unit axis after the one that was last: a length-1 or softmax axis is not carried across either as the last axis. The product with the values divided by the weights' own sum over the axis it summed them over (`torch.bmm(w, v) / w.sum(-1, keepdim=True)`) is a weighted mean: the weights are renormalised there after the fact, and the softmax over the other axis (a soft assignment over slots or parts) is not reported. A shape comment may write `?` for a size known at run time only, as TensorFlow 1 and Keras print a batch axis (`# (?, maxlen, 1)`: rank 3, last axis of length 1). The softmax's backward pass written out (`dS = P * (dP - (P * dP).sum(-1, keepdims=True))`) is a gradient of the scores, not weights, so `dS.T @ Q` is no product of weights over their query axis. So is a softmax classifier's cross-entropy gradient written by hand (session 49): the softmax's output changed in place at picked positions before its product (`probs[np.arange(N), y] -= 1`, softmax minus the one-hot labels, also on a copy, `dscores = probs.copy()`) sums to 0 along each row, so `X.T.dot(probs)` is the weight gradient, not weights summed over their queries; a fill at picked positions (`w[idx] = 0`) leaves them weights.",
      whyIsThisBad:
        'Each query must distribute a total weight of 1 over the keys. A softmax over the query axis (`dim=-2`), the heads or the batch produces weights that sum to 1 in the wrong direction: rows of the attention matrix no longer sum to 1, padding and causal masks stop meaning what they should, and the model trains on a different function than the one in the paper. The code runs without any error, which is why this bug survives.',
      example: `scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, L, S)
weights = F.softmax(scores, dim=-2)  # normalises over the queries
out = weights @ v`,
      useInstead: `scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, L, S)
weights = F.softmax(scores, dim=-1)  # over the keys S
out = weights @ v`,
      whereReported:
        "At the softmax's `dim` argument, the use (at the call, or at the `nn.Softmax(...)` constructor, when no dim is written). Related locations: where the scores are formed (with their key axis), the product of the weights with the values (the axis it sums over), and where an `nn.Softmax` layer is applied.",
      fixSafety:
        'The fix sets `dim` to the key axis (or adds `dim=-1`). It changes the computed weights, so it is offered as an unsafe quick fix and never applied by a fix-all.',
      references: [
        { title: 'torch.nn.functional.softmax', url: 'https://pytorch.org/docs/stable/generated/torch.nn.functional.softmax.html' },
        { title: 'Attention Is All You Need, section 3.2.1', url: 'https://arxiv.org/abs/1706.03762' },
      ],
    },
  },

  create(ctx: RuleContext) {
    const ev = ctx.analysis;
    const sites: SoftmaxSite[] = [];

    /**
     * The softmax runs over the key axis, but the product with the values sums the weights over their query
     * axis (`V.T @ weights`, `bmm(value, attention)` without transposing the weights): reported at the product.
     */
    /**
     * The products that use the softmax's output as weights: not one whose operand the code changed in place at
     * indexed positions first (`probs[np.arange(N), y] -= 1`, a softmax classifier's cross-entropy gradient).
     */
    const weightConsumers = (site: SoftmaxSite): Consumer[] => consumersOf(ev, site.node).filter((c) => !changedAtIndicesBefore(ev, c, site.node));

    const contractionsOverQueries = (site: SoftmaxSite): Contraction[] => {
      const key = site.input.attn?.keyAxis;
      if (!hasRoles(site.input) || key === undefined || normalisedDim(site) !== key) return [];
      if (wasRenormalised(ev, site.node) || isSlotAttention(site)) return [];
      const out: Contraction[] = [];
      for (const c of weightConsumers(site)) {
        if (c.softmaxCtxId !== undefined && c.softmaxCtxId !== site.ctx.id) continue;
        if (!c.withValues || c.normalised === undefined || c.contracted === undefined) continue;
        const weights = c.site.a.attn?.softmax?.site === site.node ? c.site.a : c.site.b;
        const w = weights.attn;
        if (w?.keyAxis !== c.normalised || w.queryAxis === undefined || c.contracted !== w.queryAxis) continue;
        out.push({ consumer: c, weights, attn: w, keyAxis: w.keyAxis, contracted: c.contracted });
      }
      return out;
    };

    /**
     * The softmaxed value is computed from a placeholder attribute and nothing the method is given: a module attribute
     * whose only assignment in view is `torch.zeros(1, 1, 1, 3)` (or `empty`, literal sizes, some of them 1) in
     * `__init__`, passed through the module's own layers and reshaped with sizes read off the inputs' `.shape`, but
     * never combined with an input's values (timm ConViT's `self.rel_indices = torch.zeros(1, 1, 1, 3)`, a
     * "torchscript hack" that `forward` replaces with (1, N, N, 3) before `get_attention` runs; a cut that keeps
     * `__init__` and that method only loses the replacement). Attention computed from constant zeros is meant to run
     * on the tensor that replaces them, so the placeholder's literal 1s are not the axis lengths the softmax sees.
     */
    const fromPlaceholderOnly = (site: SoftmaxSite): boolean => {
      const start = site.inputNode;
      const fn = enclosingFunction(site.node);
      const scope = functionScope(ev, site.node);
      const owner = scope?.ownerClass;
      const self = scope?.selfName;
      if (!start || !fn || !owner || !self) return false;
      let placeholder = false;
      let budget = 400;
      const seen = new Set<number>();
      /** `self.rel = torch.zeros(1, 1, 1, 3)` in `__init__`: literal sizes, some of them 1 (keywords and splats aside). */
      const isPlaceholder = (d: Def): boolean => {
        const v = d.value && d.scope.name === '__init__' ? unparen(d.value) : undefined;
        /* c8 ignore next -- the grammar gives every call a function; the type makes it optional */
        if (v?.type !== 'call' || !/(^|\.)(zeros|empty)$/.test(ctx.text(childByField(v, 'function') ?? v))) return false;
        /* c8 ignore next -- the grammar gives every call its arguments; the type makes the field optional */
        let sizes = namedChildren(childByField(v, 'arguments') ?? v).filter((n) => !PLACEHOLDER_KWARGS.has(n.type));
        const [only] = sizes;
        if (sizes.length === 1 && only && SEQUENCES.has(only.type)) sizes = namedChildren(only);
        return sizes.length >= 2 && sizes.every((n) => n.type === 'integer') && sizes.some((n) => ctx.text(n) === '1');
      };
      /** `x.shape`, `x.size(...)`: the sizes of a tensor, not its values. */
      const shapeRead = (n: PyNode): boolean => {
        const p = n.parent;
        /* c8 ignore next -- the grammar gives every attribute its object and name; the types make them optional */
        return p?.type === 'attribute' && childByField(p, 'object')?.id === n.id && SHAPE_READS.has(ctx.text(childByField(p, 'attribute') ?? p));
      };
      /** A local of the method: a value computed the same way, or sizes unpacked from a shape (`B, N, C = x.shape`). */
      const localValue = (d: Def): boolean => {
        if (d.kind !== 'assign' || !d.value || enclosingFunction(d.target)?.id !== fn.id) return false;
        return d.path.length === 0 ? visit(d.value) : /\.(shape|size\(\))$/.test(ctx.text(unparen(d.value)));
      };
      const visit = (node: PyNode): boolean => {
        const u = unparen(node);
        // A bound on the walk (the definitions already followed are not followed again).
        /* c8 ignore next -- a bound no real method reaches (400 nodes); the walk stops there */
        if (--budget < 0) return false;
        if (PLACEHOLDER_LITERALS.has(u.type) || shapeRead(u)) return true;
        if (u.type === 'attribute') {
          /* c8 ignore next -- the grammar gives every attribute its object; the type makes it optional */
          const obj = childByField(u, 'object') ?? u;
          if (obj.type !== 'identifier' || ctx.text(obj) !== self) return visit(obj);
          // `self.layer(...)`: the module's own layer, judged by its arguments.
          if (u.parent?.type === 'call' && childByField(u.parent, 'function')?.id === u.id) return true;
          /* c8 ignore next -- the grammar gives every attribute its name; the type makes it optional */
          const defs = ev.classAttrDefs(owner, `self.${ctx.text(childByField(u, 'attribute') ?? u)}`);
          const ok = defs.length === 1 && defs.every((d) => ev.owns(d.scope) && isPlaceholder(d));
          placeholder ||= ok;
          return ok;
        }
        if (u.type === 'identifier') {
          /* c8 ignore next -- a name read in a method has the method's scope; the type allows none */
          const defs = ev.resolve(u, ctx.text(u)) ?? [];
          return defs.length > 0 && defs.every((d) => seen.has(d.id) || (seen.add(d.id), localValue(d)));
        }
        if (u.type === 'call') {
          // A method of a tensor (`t.expand(...)`, `t.permute(...)`) or a layer of the module: callee and arguments.
          /* c8 ignore next -- the grammar gives every call a function; the type makes it optional */
          const callee = childByField(u, 'function') ?? u;
          /* c8 ignore next -- the grammar gives every call its arguments and every keyword_argument a value; the types make them optional */
          const args = namedChildren(childByField(u, 'arguments') ?? u).map((a) => (a.type === 'keyword_argument' ? (childByField(a, 'value') ?? a) : a));
          return callee.type === 'attribute' && visit(callee) && args.every((a) => visit(a));
        }
        return PLACEHOLDER_COMPOUNDS.has(u.type) && namedChildren(u).every((c) => visit(c));
      };
      return visit(start) && placeholder;
    };

    const judge = (site: SoftmaxSite): Verdict | undefined => {
      const input = site.input;
      const attnEvidence = hasRoles(input);
      const consumers = weightConsumers(site).filter((c) => c.softmaxCtxId === undefined || c.softmaxCtxId === site.ctx.id);
      const renorm = wasRenormalised(ev, site.node);
      const nd = normalisedDim(site);
      // A softmax over an axis of length 1 always returns 1.0: wrong whatever the code computes.
      if (typeof site.dim === 'number') {
        const ax = axisAt(input, site.dim) ?? (nd === -1 && input.lastSize1 ? { size1: true } : undefined);
        // ...unless only a test's call makes it length 1 (`attend(q, k1, v1)` with one made-up key, to see it get all
        // the weight): the function leaves the axis to its callers, and a test's shapes are not the model's.
        if (ax?.size1 && !fromPlaceholderOnly(site) && !calledByTest(ev, site.ctx))
          return {
            site,
            wrong: true,
            right: false,
            keyAxis: undefined,
            length1: true,
            why: msg(T.axisLength1, site.dim, describeInput(ctx, site)),
          };
      }
      if (renorm) return undefined;
      // Softmax over the batch axis mixes different examples: wrong for any attention, whatever its form
      // (additive attention energies (B, S) normalised over dim=0, the layout read from the code's own shapes).
      const dimNum = site.dim;
      const axes = axesOf(input);
      if (typeof dimNum === 'number' && axes && axes.length >= 2) {
        const n = axes.length;
        const at = ((dimNum % n) + n) % n; // the axis' index from the left
        const ax = axes[at];
        if (
          ax?.label === 'batch' &&
          // A batch label from a shape comment alone (`# [batch size, src len]`, a stale `# (B, S)`) is no evidence: the
          // code's own layout (a reshape, a shape unpack, a recurrent layer) must say it.
          !ax.stated &&
          (attnEvidence || input.attn !== undefined || consumers.length > 0 || maskedBeforeSoftmax(input) || attentionName(ctx, site))
        ) {
          // The key axis: the last sequence axis besides the batch ((B, S), or (B, T, S) whose last axis is the keys').
          const seqs = axes.flatMap((a, i) => (a.label === 'seq' && i !== at ? [i] : []));
          const last = seqs.pop();
          const key = input.attn?.keyAxis ?? (last !== undefined ? last - n : n === 2 && at === 0 ? -1 : undefined);
          return {
            site,
            wrong: true,
            right: false,
            keyAxis: key,
            why:
              ax.sizeText !== undefined
                ? msg(T.batchAxis, dimNum, describeInput(ctx, site), ax.sizeText)
                : msg(T.batchAxisUnsized, dimNum, describeInput(ctx, site)),
          };
        }
      }
      // Scores of q and k laid out with the heads after the tokens: their key axis holds heads. Reported here when the
      // keys were turned by a permutation; a swap of their last two axes (`k.transpose(-2, -1)`) is where ATT005
      // reports the same mistake, once.
      const paired = input.attn?.headsPaired;
      if (paired && !input.attn?.headsPairedBySwap && nd !== undefined && nd === input.attn?.keyAxis && !isSlotAttention(site))
        return { site, wrong: true, right: false, keyAxis: undefined, why: msg(T.headsPaired, nd, describeInput(ctx, site), paired) };
      // Scores whose key axis the analysis knows are judged against it below, whatever a comment calls the axes.
      const heads = input.attn?.keyAxis === undefined ? overHeadsAxis(site, consumers, attnEvidence) : undefined;
      if (heads) return heads;
      // Slot Attention's competition (softmax over the queries, the slots) is deliberate: the class or function
      // that computes it is named for it, or the queries are the slots themselves.
      if (isSlotAttention(site) || dualNormalisation(site)) return undefined;
      const keyAxis = input.attn?.keyAxis;
      let right = false;
      /** Why the dim is wrong, one reason per piece of evidence (none: not shown wrong). */
      const reasons: MessageArg[] = [];
      const key: number | undefined = attnEvidence ? keyAxis : undefined;
      // Keys against one learned query whose key axis the layout leaves unknown ((X, Y, d) @ (d, 1)): only the
      // length-1 query axis is known, so a default or every-element softmax has no key axis to be judged against.
      const keysUnknown = attnEvidence && keyAxis === undefined && input.attn?.queryAxis !== undefined;
      if (site.dim === 'implicit') {
        if ((!attnEvidence && consumers.length === 0) || keysUnknown) return undefined;
        const ndim = input.ndim;
        // A rank the code does not show says nothing: PyTorch's legacy rule picks the last axis of 2-D input (one
        // example's (T, S) scores: the key axis) and the only axis of 1-D input; only 3-D (dim 0, the batch) and 4-D
        // input (dim 1, the heads) are normalised over the wrong axis.
        if (ndim === undefined) return undefined;
        const implicit = negAxis(torchImplicitSoftmaxDim(ndim), ndim);
        const target = key ?? -1;
        if (implicit === target) return undefined;
        return {
          site,
          wrong: true,
          right: false,
          keyAxis: target,
          why: msg(T.noDimLegacyRule, torchImplicitSoftmaxDim(ndim), ndim, target + ndim),
        };
      }
      if (site.dim === 'all') {
        // Over every element of one-axis scores (one query: `keys @ query`) is over the keys.
        if ((!attnEvidence && consumers.length === 0) || input.ndim === 1 || keysUnknown) return undefined;
        // Scores of a rank the code does not show: one query's scores (a vector, `keys @ query`, `q @ K.T` for one q)
        // are as likely as many, and for one query every element is a key; a query the code turns (`keys @ query.T`)
        // is a matrix of queries.
        if (input.ndim === undefined && !/\.(T|mT)$|transpose|permute|swapaxes/.test(`${input.attn?.queryText}`)) return undefined;
        return {
          site,
          wrong: true,
          right: false,
          keyAxis: key ?? -1,
          why: msg(T.overEveryElement),
        };
      }
      if (nd === undefined) return undefined;
      if (attnEvidence && keyAxis !== undefined) {
        if (nd === keyAxis) right = true;
        else {
          /* c8 ignore next -- the analysis states why whenever it sets a key axis (AttnInfo.keyAxisWhy); the type keeps them apart */
          const keyWhy = input.attn?.keyAxisWhy ?? msg(PHRASES.keyAxisIs, keyAxis);
          reasons.push(input.attn?.queryAxis === nd ? msg(T.alsoQueryAxis, keyWhy, String(site.dim)) : keyWhy);
        }
      }
      /** The axes the products with the values sum the weights over (negative, in the softmax's input). */
      const summed = new Set<number>();
      for (const c of consumers) {
        // Only the product with the values says which axis is the key axis (talking-heads mixing, MoE
        // combinations and other post-softmax products do not), or a product that keeps the softmax's axis apart
        // in both operands and its output while it sums the weights over another axis ('bsh,bshd->bhd').
        if (!(c.withValues || c.normalisedKept) || c.normalised === undefined || c.contracted === undefined) continue;
        if (!attnEvidence && pooledByAssignment(c, nd)) continue;
        if (dividedByOwnSum(c)) continue;
        if (c.normalised === c.contracted) right = true;
        else {
          reasons.push(msg(T.summedOverAxisIn, c.contracted, quote(ev.text(c.site.node), 50)));
          // The weights' axes as seen by the product are the softmax's own when the softmax axis kept its index.
          if (c.normalised === nd) summed.add(c.contracted);
        }
      }
      const [why] = reasons;
      if (why === undefined) return undefined;
      // Unnamed scores: the one axis the product with the values sums over is the key axis the fix names.
      const [only] = summed.size === 1 ? [...summed] : [];
      return { site, wrong: true, right, keyAxis: key ?? only, why };
    };

    /**
     * A softmax over the axis the code itself shapes as the heads (`# (batch, i, j, heads)`, or the output of a
     * projection to the head count, `nn.Linear(d, heads)`, in a shape the code states), of attention scores
     * (named so, masked before the softmax, or formed from a query and a key) that also have a sequence axis: each
     * position's weights would sum to 1 across the heads. The key axis is the last sequence axis (named in the shape,
     * not batch, heads or features). Not when a product with the values sums over that very axis.
     */
    function overHeadsAxis(site: SoftmaxSite, consumers: readonly Consumer[], attnEvidence: boolean): Verdict | undefined {
      const input = site.input;
      const axes = axesOf(input);
      const dim = site.dim;
      if (typeof dim !== 'number' || !axes || axes.length < 3) return undefined;
      const n = axes.length;
      const at = ((dim % n) + n) % n;
      const ax = axes[at];
      // The code shapes the axis as the heads, or it is the output of a projection to the head count (`nn.Linear(d, heads)`).
      const projectedHeads =
        at === n - 1 && (ax?.label === 'feat' || !!ax?.stated) && input.proj?.outText !== undefined && isHeadCountName(input.proj.outText)
          ? input.proj.outText
          : undefined;
      // A heads label from a shape comment alone (`# (batch, i, j, heads)`) is no evidence: the code's layout must say it.
      const headsText = ax?.label === 'head' && !ax.stated ? ax.sizeText : projectedHeads;
      if (headsText === undefined) return undefined;
      if (!(attnEvidence || maskedBeforeSoftmax(input) || attentionName(ctx, site))) return undefined;
      // A product that sums the weights over this very axis (a mixture of the heads' outputs) says it is the alternatives.
      if (consumers.some((c) => c.contracted !== undefined && c.contracted === c.normalised)) return undefined;
      const seqs = axes.flatMap((a, i) => (i !== at && a.sizeText !== undefined && a.label !== 'batch' && a.label !== 'head' && a.label !== 'feat' ? [i] : []));
      const last = seqs.pop();
      if (last === undefined) return undefined;
      return {
        site,
        wrong: true,
        right: false,
        keyAxis: last - n,
        why: msg(T.headsAxis, dim, describeInput(ctx, site), headsText),
      };
    }

    /**
     * Soft-assignment pooling (DiffPool's and MemPool's `S.transpose(1, 2) @ x`): scores with no query or key named,
     * each row normalised over the clusters, then transposed so that the clusters are the product's rows and the
     * features are pooled over the nodes. No product with values: one output row per cluster, as the softmax's axis says.
     */
    /**
     * `torch.bmm(w, v) / w.sum(-1, keepdim=True)`: the product with the values divided by the weights' own sum over
     * the axis it summed them over is a weighted mean over that axis, the weights renormalised there after the fact
     * (a soft assignment normalised over the slots, each slot then averaging the pixels it was given).
     */
    function dividedByOwnSum(c: Consumer): boolean {
      const product = c.site.node;
      const parent = product.parent;
      /* c8 ignore next -- a product found in a statement always has a parent node; the type allows a root */
      if (!parent) return false;
      // The text after the product in its parent: `/ w.sum(-1, keepdim=True)...` when the product is divided.
      const after = ev
        .text(parent)
        .slice(product.end - parent.start)
        .replace(/\s+/g, '');
      const weights = [c.site.aNode, c.site.bNode].filter((n) => n !== undefined).map((n) => ev.text(n).replace(/\s+/g, ''));
      return weights.some(
        (w) => after.startsWith(`/${w}.sum(${c.contracted},keepdim=True)`) || after.startsWith(`/${w}.sum(dim=${c.contracted},keepdim=True)`),
      );
    }

    function pooledByAssignment(c: Consumer, nd: number): boolean {
      // The weights, moved so that their normalised axis is the rows, are the left operand; the right one is pooled.
      if (c.normalised === nd || c.normalised !== -2 || c.contracted !== -1 || c.site.a.attn?.stage !== 'weights') return false;
      return c.site.b.role === undefined;
    }

    /** Identifiers only (strings removed), so that neither prose nor an einsum spec can name a slot. */
    function slotNamed(code: string | undefined): boolean {
      return code !== undefined && /(?:^|[^A-Za-z0-9])slots?(?![A-Za-z0-9])|Slot/.test(code.replace(/(['"])(?:\\.|(?!\1).)*\1/g, ''));
    }

    /**
     * The same scores are also normalised over their key axis by another softmax: the code computes both
     * directions on purpose (dual softmax in matching, token/slot competition under a configuration flag).
     */
    function dualNormalisation(site: SoftmaxSite): boolean {
      const formed = site.input.attn?.formedAt;
      if (!formed) return false;
      return ev.facts.softmaxFormedAt(formed).some((o) => {
        const key = o.input.attn?.keyAxis;
        return o.node !== site.node && key !== undefined && normalisedDim(o) === key;
      });
    }

    /**
     * Slot Attention and assignment attention (GroupViT's `GroupViTAssignAttention`, token-to-cluster assignment):
     * the class or function says so (`slot`, `assign`; not `cluster` alone, which names the pooling of
     * `cluster_profiles` as much as an assignment). A softmax in a helper that takes its axis as a
     * parameter (`hard_softmax(logits, dim)`) is judged by where it is called from, in that call's context: the
     * class or function of the call (`hard_softmax(attn, dim=-2)` in `GroupViTAssignAttention.get_attn`).
     */
    function isSlotAttention(site: SoftmaxSite): boolean {
      const assigning = (n: string) => /slot|assign/i.test(n);
      if (definingNames(ev, site.node).some(assigning)) return true;
      const dimValue = site.dimValueNode ? unparen(site.dimValueNode) : undefined;
      if (site.ctx.callSite && dimValue?.type === 'identifier' && definingNames(ev, site.ctx.callSite).some(assigning)) return true;
      return slotNamed(site.input.attn?.queryText) || assignmentTarget(ctx, site);
    }

    return {
      softmax(site) {
        sites.push(site);
      },
      end() {
        const contractions = new Map<number, Contraction>();
        for (const site of sites)
          for (const c of contractionsOverQueries(site)) if (!contractions.has(c.consumer.site.node.id)) contractions.set(c.consumer.site.node.id, c);
        for (const c of contractions.values()) reportContraction(c);
        for (const group of byNode(sites).values()) {
          const verdicts = group.map(judge).filter((v): v is Verdict => v !== undefined);
          const wrong = verdicts.find((v) => v.wrong && !v.right);
          if (!wrong) continue;
          // A different context showing the dim right does not clear a context where it is provably wrong
          // (a helper called with 3-D and with 4-D scores is wrong for one of them).
          report(wrong);
        }
      },
    };

    function report(v: Verdict): void {
      const site = v.site;
      const where = site.dimNode ?? site.ownerNode;
      const dimText: MessageArg = site.dimNode
        ? ctx.text(site.dimNode)
        : site.dim === 'all'
          ? msg(T.noAxis)
          : typeof site.dim === 'number'
            ? msg(T.defaultAxis, site.dim) // only TF, Keras and JAX softmaxes have a numeric default (PyTorch's is implicit)
            : msg(T.noDim);
      /* c8 ignore next -- judge() always names the axis to pass for a softmax without dim (-1 when the key axis is unknown) */
      const suggested = v.keyAxis ?? -1;
      // A value with no sign of being attention scores (a learned parameter, a helper's output): say what it is, not what a key axis is.
      const plain = v.length1 && site.inputNode && !site.input.attn && !hasRoles(site.input);
      const message = site.layer?.softmaxActivation
        ? msg(T.length1Activation, quote(ctx.text(site.layer.ctor), 60))
        : plain
          ? msg(site.input.learned ? T.length1Learned : T.length1Value, apiName(site.display), quote(ctx.text(site.inputNode), 40), dimText)
          : site.dim === 'implicit' || site.dim === 'all'
            ? msg(T.appliedWithout, apiName(site.display), describeInput(ctx, site), dimText, v.why, site.framework === 'torch' ? 'dim' : 'axis', suggested)
            : msg(T.notKeyAxis, apiName(site.display), asCalledAt(describeInput(ctx, site), site.ctx), dimText, v.why);
      ctx.report({ node: where, message, fix: fixFor(v), related: relatedFor(site) });
    }

    /** The evidence: where the scores were formed, the product with the values, the layer's application. */
    function relatedFor(site: SoftmaxSite): RelatedSpec[] {
      const out: RelatedSpec[] = [];
      const a = site.input.attn;
      if (a?.formedAt) out.push({ node: a.formedAt, message: a.keyAxis !== undefined ? msg(T.scoresFormedKeyAxis, a.keyAxis) : msg(T.scoresFormed) });
      else if (site.inputNode) {
        // Scores computed by a layer of the code's own (`self.attn(x)`, a Linear to one feature): where it is defined.
        const input = unparen(site.inputNode);
        const producer = input.type === 'call' ? childByField(input, 'function') : input;
        out.push(...definitions(ev, producer, site.ctx, (t) => definedHere(t), 1));
      }
      for (const c of weightConsumers(site)) {
        if (c.withValues && c.contracted !== undefined) out.push({ node: c.site.node, message: msg(T.summedHere, c.contracted) });
      }
      if (site.layer && site.ownerNode !== site.node) out.push({ node: site.node, message: msg(T.appliedHere, apiName(site.display)) });
      return out;
    }

    function reportContraction({ consumer: c, weights, attn, keyAxis, contracted }: Contraction): void {
      const node = c.site.node;
      const w = weights === c.site.a ? c.site.aNode : c.site.bNode;
      /* c8 ignore next -- weights carry the softmax's attention info only when evaluated from an operand's node */
      const wText = w ? quote(ctx.text(w), 30) : msg(T.theAttentionWeights);
      const message = msg(T.contractsOverQueries, quote(ctx.text(node), 50), wText, String(contracted), String(keyAxis));
      ctx.report({ node, message, related: [{ node: attn.formedAt, message: msg(T.scoresFormedSoftmaxKeyAxis, String(keyAxis)) }] });
    }

    function fixFor(v: Verdict): FixSpec | undefined {
      const site = v.site;
      const key = v.keyAxis;
      if (key === undefined) return undefined;
      const param = site.framework === 'torch' ? 'dim' : 'axis';
      if (site.dimValueNode && typeof site.dim === 'number') {
        return {
          title: msg(T.setDimFix, param, key),
          safety: 'unsafe',
          edits: [{ start: site.dimValueNode.start, end: site.dimValueNode.end, newText: String(key) }],
        };
      }
      // A hand-written softmax over everything (`e / e.sum()`) needs keepdims as well as an axis: no fix.
      if (!site.dimNode && site.argListNode && site.framework !== 'user' && (site.dim === 'implicit' || site.dim === 'all')) {
        return {
          title: msg(T.addDimFix, param, key),
          safety: 'unsafe',
          edits: [insertKeyword(site.argListNode, (n) => ctx.text(n), `${param}=${key}`)],
        };
      }
      return undefined;
    }
  },
};

/** Positions of the softmax's input were filled out with a mask first (`masked_fill`): the masked softmax of attention. */
function maskedBeforeSoftmax(input: SoftmaxSite['input']): boolean {
  return alternatives(input).some((alt) => alt.some((o) => o.kind === 'mask' && o.how === 'fill'));
}

/** The softmax's input or its assignment target is named as attention energies or weights (`attention`, `energy`, `scores`, `alpha`). */
function attentionName(ctx: RuleContext, site: SoftmaxSite): boolean {
  const names: string[] = [];
  if (site.inputNode && (site.inputNode.type === 'identifier' || site.inputNode.type === 'attribute')) names.push(ctx.text(site.inputNode));
  let p = site.node.parent;
  while (p && p.type === 'parenthesized_expression') p = p.parent;
  const left = p && p.type === 'assignment' ? p.children.find((c) => c.field === 'left') : undefined;
  if (left) names.push(ctx.text(left));
  return names.some((n) => /att|energ|align|score|alpha/i.test(n));
}

/**
 * The softmax is assigned to a name that says it is a soft assignment to clusters (`cluster_assignment =
 * softmax(agreement, dim=0)`, AlphaFold's MSA clustering): each member spread over the clusters, the competition
 * over the queries (the cluster centres) that Slot Attention also has, then summed per cluster over the members.
 */
function assignmentTarget(ctx: RuleContext, site: SoftmaxSite): boolean {
  let p = site.node.parent;
  while (p && p.type === 'parenthesized_expression') p = p.parent;
  const left = p && p.type === 'assignment' ? p.children.find((c) => c.field === 'left') : undefined;
  return left !== undefined && left.type === 'identifier' && /assign|cluster/i.test(ctx.text(left));
}

function describeInput(ctx: RuleContext, site: SoftmaxSite): MessageParts {
  if (site.inputNode) return msg(T.theScoresCode, quote(ctx.text(site.inputNode), 40));
  const a = site.input.attn;
  if (a?.queryText && a.keyText) return msg(T.theScoresOf, quote(a.queryText, 30), quote(a.keyText, 30));
  return msg(T.theScores);
}
