// ATT005: the keys are transposed the wrong way before q @ kᵀ.
import type { MatmulSite } from '../analysis/facts';
import { axisAt, writtenSizes, type AValue } from '../analysis/values';
import { dottedName, intLiteral } from '../syntax/python';
import { childByField, namedChildren, unparen, walk, type PyNode } from '../syntax/tree';
import { consumersOf, resultDiscarded } from './evidence';
import { defineTemplates, msg, type MessageParts } from '../message';
import { quote, type FixSpec, type RelatedSpec, type Rule, type RuleContext } from './rule';
import { asCalledAt, definitions, foreignHelperReturn, liveDefinitions } from './related';

const T = defineTemplates({
  keysLayoutHere: 'the keys {0} get their layout here',
  keysLayoutInHelper: 'the keys get their layout here, in {0}',
  queriesLayoutHere: 'the queries {0} get their layout here',
  reversesAxes: '{0} on {1}-D keys {2} reverses every axis; q @ kᵀ needs only the last two axes swapped.',
  tFails: '{0} on {1}-D keys {2} fails (t() needs 2-D); q @ kᵀ needs only the last two axes swapped.',
  swapsWrongAxes:
    '{0} swaps axes {1} and {2} of the {3}-D keys {4}, not the last two (sequence and features): the product no longer compares each query with each key.',
  permutesWrongAxes:
    '{0} puts axis {1} of the {2}-D keys {3} second to last, but their features are axis {4}: q @ k contracts the query features with that axis, not with the key features. Permute so the features come second to last and the tokens last ({5}).',
  transposesQuery:
    '{0} transposes the query instead of the keys: with token-major q and k (features last) this contracts over the tokens and gives a (d × d) matrix, not (L × S) scores.',
  keysNotTransposed:
    '{0} multiplies the queries by the keys {1} without transposing them: with token-major q and k (features last) it contracts the query features with the key tokens, not (L × S) scores over the features.',
  keysReshaped:
    '{0} reshapes the keys {1} to swap their last two sizes ({2}) instead of transposing them: view and reshape keep the order of the elements, so each "key" row now mixes the features of several tokens. Use {3}.',
  keysViewedFeaturesFirst:
    '{0} views the token-major keys {1} with the per-head features before the tokens ({2}) for q @ kᵀ: view and reshape keep the order of the elements, so this is not a transpose and each "key" column mixes the features of several tokens. Split the heads with the tokens first, then swap the last two axes ({3}).',
  pairsHeads:
    '{0} swaps the last two axes of the keys {1}, but those are the heads and the per-head features ({2}): with the heads after the tokens, q @ kᵀ compares the heads of one token with each other, never a query token with a key token. Move the heads before the tokens in q, k and v first ({3}).',
  scoresFormed: 'the scores are formed here',
  transposeKeysFix: 'Transpose the keys instead (changes the result)',
  useSwapFix: 'Use {0} (changes the result)',
  passTransposeFix: 'Pass {0} to {1} (changes the result)',
});

export const ATT005: Rule = {
  meta: {
    code: 'ATT005',
    name: 'key-transpose',
    severity: 'error',
    fix: 'unsafe',
    docs: {
      summary: 'The keys are transposed over the wrong axes for q @ kᵀ.',
      whatItDoes:
        'Looks at the right operand of the score product `q @ k...`: scores nothing reads are skipped (a product assigned to a name that later code only feeds into further assignments of the same name, `w = softmax(w)`, never used nor returned: a leftover eager computation beside the kernel call that does the work, as in the multi-scale attention of SAM 2); with batched keys of known rank, `k.transpose(0, 1)`, `k.transpose(1, 2)` on 4-D keys, `k.T` and `k.t()` do not swap the last two axes, and `q.transpose(-2, -1) @ k` (with token-major q and k, i.e. not a channel-first layout) contracts the tokens instead of the features (unless the weights then meet the values over their features, as channel attention does: `attn @ v.transpose(-2, -1)` or `v @ attn.transpose(-2, -1)`), and `q @ k` / `torch.matmul(q, k)` with token-major q and k of the same known rank, normalised by a softmax (or gated by a sigmoid, as sigmoid attention does), has no transpose at all (a call that transposes its second operand itself, `tf.matmul(q, k, transpose_b=True)`, is right, and so are keys projected along the sequence, Linformer\'s `proj_k(k.transpose(1, 2))`, whose features come before their last axis). Keys "transposed" with a reshape, `k.view(B, H, D, L)` where `B, H, L, D = k.size()` (or `k.reshape(k.size(0), k.size(2), k.size(1))`, or sizes written where the function made the keys, `k = proj(x).reshape(b, n, h, d).permute(0, 2, 1, 3)` then `k.reshape(b, h, d, n)`; not sizes a shape comment states, nor two equal last sizes), keep the order of their elements and are reported at the reshape, and so are token-major keys (a Linear output, features last) viewed with a per-head feature size before the tokens, `k.view(B, H, hd, -1)`, for `q @ k` (keys transposed or channel-first before the view are right). A permutation of token-major keys of known rank that does not put their features second to last, `q @ k.permute(0, 2, 1, 3)` on (B, T, H, hd) keys, contracts the query features with another axis and is reported (`k.permute(0, 2, 3, 1)` is right). Keys and queries split into heads after the tokens, (B, T, H, hd) (a fused `qkv.reshape(B, N, 3, H, hd).permute(2, 0, 1, 3, 4)`, or a head split with no transpose), whose last two axes are swapped for `q @ k.transpose(-2, -1)` compare the heads of one token with each other and are reported at the transpose (`permute(2, 0, 3, 1, 4)`, heads before tokens, is right; a layout read only from a comment says nothing). A view whose last size is a flattened grid (`N = H * W`) puts the tokens last (channel-first q and k, where `q.transpose(-2, -1) @ k` is right). One reshape splits the width into heads once: where another of its sizes is the width over one head-named size (`reshape(B * W, heads, C // heads, H)` of a `(B, C, H, W)` feature map, `dh = C // heads`), that size is the heads and the other head-named ones are not (the height `H` of axial attention along the rows). The rank and layout come from the code (`view`, `reshape`, `permute`, `flatten`/`unflatten`, `movedim`, `chunk`/`split`/`unbind`, the pieces of a split joined back, `torch.cat(torch.split(k, size, dim=2), dim=0)` the heads folded into the batch axis with the rank kept, while `torch.stack(...)` of the pieces of a projection puts the heads on a new leading axis, `(H, B, T, size)`, whose rank is taken only from a stated shape (`# [H, B, T_k, size]`; otherwise the keys are not judged, and `transpose(2, 3)` of them is not reported), and a stack of other pieces has one axis more than each piece, `rearrange`, Linear outputs, `B, T, C = x.size()`, shape comments); a method of the module that is not in view is read as a Linear layer only when its name says projection (`to_k`, `k_proj`, `fc`), not when a `to` in it names a change of layout (`split_to_heads`, `shape_to_per_head`: the rank of what it returns is not in view, and the keys are not judged). In a helper whose keys have no rank in view (`def attention(q, k, v)` transposing `k.transpose(1, 2)`, `k.T`, or by the function form of the library, `torch.transpose(k, 0, 1)`), the rank is the one the calls of the files importing it pass: keys split into heads there (4-D) are reported, 2-D or 3-D ones for which the axes written are the last two are not.',
      whyIsThisBad:
        'The score matrix must be (…, L, S): queries against keys, contracted over the feature axis. Swapping the batch and sequence axes, or reversing every axis with `.T`, either fails on a shape mismatch only for some shapes or silently mixes examples of the batch (or features with tokens) when the sizes happen to agree, which is exactly the case in small tests.',
      example: `k = self.k_proj(x).view(B, T, n_head, hd).transpose(1, 2)  # (B, nh, T, hd)
att = q @ k.transpose(1, 2)`,
      useInstead: `k = self.k_proj(x).view(B, T, n_head, hd).transpose(1, 2)  # (B, nh, T, hd)
att = q @ k.transpose(-2, -1)`,
      whereReported:
        'At the transposed operand of the score product, the use (a reshape standing in for the transpose: at the reshape, with the product as a related location). Related locations: where the keys (and the queries) get their layout (`view(...).transpose(1, 2)`, a parameter; for keys a helper of another workspace file returns, `k = split_heads(x, h)`, also the return of that helper there).',
      fixSafety:
        'The fix rewrites the transpose to swap the last two axes (`.transpose(-2, -1)`, or `.swapaxes(-2, -1)` for NumPy/JAX). It changes the result, so it is offered as an unsafe quick fix and never applied by a fix-all.',
      references: [
        { title: 'torch.Tensor.transpose', url: 'https://pytorch.org/docs/stable/generated/torch.transpose.html' },
        { title: 'torch.Tensor.T (deprecated on tensors of rank other than 2)', url: 'https://pytorch.org/docs/stable/tensors.html#torch.Tensor.T' },
      ],
    },
  },

  create(ctx: RuleContext) {
    const ev = ctx.analysis;
    const reported = new Set<number>();
    /** Reported at the transposed operand (the use); where the keys (and queries) get their layout is the evidence. */
    const report = (node: PyNode, message: MessageParts, fix?: FixSpec, related?: RelatedSpec[]): void => {
      if (reported.has(node.id)) return;
      reported.add(node.id);
      ctx.report({ node, message, fix, related });
    };
    const layoutOf = (node: PyNode, site: MatmulSite, what: 'keys' | 'queries'): RelatedSpec[] => [
      ...definitions(ev, node, site.ctx, (t) => msg(what === 'keys' ? T.keysLayoutHere : T.queriesLayoutHere, quote(t, 24)), 1),
      // A helper of another file that splits the heads: its return there.
      ...(what === 'keys' ? foreignHelperReturn(ev, node, site.ctx, (helper) => msg(T.keysLayoutInHelper, helper)) : []),
    ];

    const isKey = (v: AValue): boolean => v.role === 'key';
    const isQuery = (v: AValue): boolean => v.role === 'query';
    const swapName = (): string => (ev.numpyStyleTranspose ? 'swapaxes' : 'transpose');

    /** q @ k.transpose(0, 1) / q @ k.T / q @ k.t() with keys of known rank ≥ 3. */
    function checkKeyOperand(site: MatmulSite, b: PyNode): void {
      const t = transposeOf(b);
      if (!t) return;
      const k = ev.eval(t.base, site.ctx);
      if (!isKey(k)) return;
      // bmm/baddbmm take 3-D operands only: keys of unknown rank are 3-D there.
      const n = k.ndim ?? (/bmm$/.test(site.display) ? 3 : undefined);
      const kText = quote(ctx.text(t.base), 24);
      if (t.kind === 'T' || t.kind === 't') {
        if (n === undefined || n < 3) return;
        report(
          b,
          msg(t.kind === 'T' ? T.reversesAxes : T.tFails, quote(ctx.text(b), 30), n, asCalledAt(kText, site.ctx)),
          fix(b, t.base),
          layoutOf(t.base, site, 'keys'),
        );
        return;
      }
      if (t.kind === 'transpose' && !ev.numpyStyleTranspose) {
        if (n === undefined || n < 3 || t.a === undefined || t.b === undefined) return;
        const pa = t.a < 0 ? t.a + n : t.a;
        const pb = t.b < 0 ? t.b + n : t.b;
        const pair = new Set([pa, pb]);
        if (pair.has(n - 1) && pair.has(n - 2)) return;
        // Only when the last axis of k is its feature axis (token-major): otherwise the layout is unusual.
        const last = axisAt(k, -1);
        if (k.channelFirst || (last?.label && last.label !== 'feat')) return;
        report(b, msg(T.swapsWrongAxes, quote(ctx.text(b), 30), t.a, t.b, n, kText), fix(b, t.base), layoutOf(t.base, site, 'keys'));
      }
    }

    /**
     * `q @ k.transpose(-2, -1)` with q and k split into heads after the tokens, (…, T, H, hd): the code's layout (a
     * view or reshape sized with the head count and the per-head width, a permute that leaves the heads second to
     * last) puts the heads where the tokens belong, so the product pairs heads with heads. Layouts read only from
     * comments say nothing.
     */
    function checkKeysHeadsLast(site: MatmulSite, a: PyNode, b: PyNode): void {
      const t = transposeOf(b);
      if (!t || !(t.kind === 'mT' || t.kind === 'transpose') || site.transB) return;
      const k = ev.eval(t.base, site.ctx);
      const q = ev.eval(a, site.ctx);
      const n = k.ndim;
      if (!isKey(k) || n === undefined || n < 3 || q.ndim !== n || k.channelFirst || q.channelFirst) return;
      if (t.kind === 'transpose') {
        if (t.a === undefined || t.b === undefined) return;
        const pair = new Set([t.a < 0 ? t.a + n : t.a, t.b < 0 ? t.b + n : t.b]);
        if (!pair.has(n - 1) || !pair.has(n - 2)) return;
      }
      // The last two axes as the code labels them (a label read from a comment does not count).
      const lastTwo = (v: AValue): string => [axisAt(v, -2), axisAt(v, -1)].map((x) => (x && !x.stated ? x.label : '')).join(',');
      if (lastTwo(k) !== 'head,feat' || lastTwo(q) !== 'head,feat') return;
      const lead = Array.from({ length: n - 3 }, () => '…');
      const now = [...lead, 'T', 'H', 'hd'].join(', ');
      const want = [...lead, 'H', 'T', 'hd'].join(', ');
      report(b, msg(T.pairsHeads, quote(ctx.text(b), 30), quote(ctx.text(t.base), 24), now, want), undefined, layoutOf(t.base, site, 'keys'));
    }

    /**
     * `q @ k.permute(0, 2, 1, 3)`: a permutation of keys of known rank whose features are last (token-major, not
     * channel-first) that does not bring the features second to last, with queries of the same rank ending in their
     * features. The product then contracts the query features with another axis of the keys.
     */
    function checkKeyPermute(site: MatmulSite, a: PyNode, b: PyNode): void {
      const p = permuteOf(b);
      if (!p) return;
      const k = ev.eval(p.base, site.ctx);
      const q = ev.eval(a, site.ctx);
      const n = p.perm.length;
      // Negative axes counted from the end; the axis the permutation puts second to last.
      const perm = p.perm.map((x) => (x + n) % n);
      const second = perm.slice(-2, -1).join('');
      if (
        site.transB ||
        !isKey(k) ||
        k.ndim !== n ||
        q.ndim !== n ||
        axisAt(k, -1)?.label !== 'feat' ||
        axisAt(q, -1)?.label !== 'feat' ||
        second === '' ||
        second === String(n - 1)
      )
        return;
      // The suggested order: the other axes as the code permutes them, then the features, then the token axis (the
      // one the keys' layout labels as the sequence; without one, only the swap of the last two is named).
      const tokens = Array.from({ length: n }, (_, i) => axisAt(k, i)?.label).indexOf('seq');
      const right = [...perm.filter((x) => x !== n - 1 && x !== tokens), n - 1, tokens];
      const hint = quote(tokens >= 0 ? `${ctx.text(p.base)}.permute(${right.join(', ')})` : `${ctx.text(p.base)}.${swapName()}(-2, -1)`, 48);
      report(
        b,
        msg(T.permutesWrongAxes, quote(ctx.text(b), 30), second, n, quote(ctx.text(p.base), 24), n - 1, hint),
        undefined,
        layoutOf(p.base, site, 'keys'),
      );
    }

    /** `k.permute(0, 2, 1, 3)` / `k.permute((0, 2, 1, 3))` / `torch.permute(k, (0, 2, 1, 3))`: integer literals only. */
    function permuteOf(node: PyNode): { base: PyNode; perm: number[] } | undefined {
      const n = unparen(node);
      const f = n.type === 'call' ? childByField(n, 'function') : undefined;
      const args = childByField(n, 'arguments');
      const attr = f?.type === 'attribute' ? childByField(f, 'attribute') : undefined;
      const obj = f && childByField(f, 'object');
      if (!f || !args || !attr || !obj) return undefined;
      const method = ctx.text(attr);
      if (method === 'contiguous') return permuteOf(obj);
      let list = namedChildren(args);
      const fnForm = dottedName(ev.tree, f)?.join('.') === 'torch.permute';
      const base = fnForm ? list[0] : obj;
      if (fnForm) list = list.slice(1);
      const [first] = list;
      const inner = first && unparen(first);
      if (list.length === 1 && inner && (inner.type === 'tuple' || inner.type === 'list')) list = namedChildren(inner);
      const perm = list.map((x) => intLiteral(ev.tree, x));
      if (method !== 'permute' || !base || perm.length === 0 || perm.some((x) => x === undefined)) return undefined;
      return { base, perm: perm as number[] };
    }

    /** q.transpose(-2, -1) @ k with token-major q and k. */
    function checkQueryTransposed(site: MatmulSite, a: PyNode, b: PyNode): void {
      const t = transposeOf(a);
      if (!t || !(t.kind === 'mT' || (t.kind === 'transpose' && isLastTwo(t.a, t.b)))) return;
      const q = ev.eval(t.base, site.ctx);
      const k = ev.eval(b, site.ctx);
      if (!isQuery(q) || !isKey(k)) return;
      if (!q.featLast || !k.featLast || q.channelFirst || k.channelFirst) return;
      // Channel attention (XCiT, DaViT): the weights then meet the values transposed the same way.
      if (channelAttention(site)) return;
      const edits = [
        { start: a.start, end: a.end, newText: ctx.text(t.base) },
        { start: b.start, end: b.end, newText: `${ctx.text(b)}.${swapName()}(-2, -1)` },
      ];
      report(
        a,
        msg(T.transposesQuery, quote(ctx.text(a), 30)),
        {
          title: msg(T.transposeKeysFix),
          safety: 'unsafe',
          edits,
        },
        [...layoutOf(t.base, site, 'queries'), ...layoutOf(b, site, 'keys')],
      );
    }

    /** q @ k with token-major q and k of known rank, the product normalised as scores: the keys' transpose is missing. */
    function checkKeysNotTransposed(site: MatmulSite, a: PyNode, b: PyNode): void {
      // tf.matmul(q, k, transpose_b=True) / adjoint_b=True: the call transposes the keys itself (other keywords,
      // `name=`, `transpose_b=False`, say nothing about them).
      if (transposeOf(a) || transposeOf(b) || site.transA || site.transB || site.contractB !== -2) return;
      const q = ev.eval(a, site.ctx);
      const k = ev.eval(b, site.ctx);
      if (!isQuery(q) || !isKey(k) || !q.featLast || !k.featLast || q.channelFirst || k.channelFirst) return;
      if (q.ndim === undefined || k.ndim === undefined || q.ndim < 2 || q.ndim !== k.ndim) return;
      // Keys whose last axis is not their features, or whose axis before it is, are already transposed: Linformer
      // projects the keys along the sequence (`proj_k(k.transpose(1, 2))`, (b, d, k)), a Linear whose output the
      // analysis calls features-last.
      const kLast = axisAt(k, -1)?.label;
      if ((kLast !== undefined && kLast !== 'feat') || axisAt(k, -2)?.label === 'feat') return;
      // The product is normalised as scores: by a softmax, or gated by a sigmoid (sigmoid attention).
      if (!ev.facts.softmax.some((sm) => sm.input.attn?.formedAt === site.node) && !ev.facts.sigmoidScores.has(site.node.id)) return;
      report(b, msg(T.keysNotTransposed, quote(ctx.text(site.node), 30), quote(ctx.text(b), 24)), keysFix(site, b), [
        ...layoutOf(a, site, 'queries'),
        ...layoutOf(b, site, 'keys'),
      ]);
    }

    /**
     * `k.view(B, H, D, L)` (or `reshape`) for kᵀ, its sizes those of the keys' own axes (`B, H, L, D = k.size()`) with the
     * last two swapped: a reshape keeps the elements' order, so it is not a transpose. The sizes must be the keys' sizes
     * by name, every one, and the last two distinct names.
     */
    function checkKeysReshaped(site: MatmulSite, b: PyNode): void {
      const reshape = reshapeOf(b, site);
      if (!reshape) return;
      const k = ev.eval(reshape.base, site.ctx);
      if (!isKey(k) || k.ndim === undefined || k.ndim < 2 || reshape.args.length !== k.ndim) return;
      // The axis of the keys each size reads (`B, H, L, D = k.size()` then `D`: axis 3), or none.
      const n = k.ndim;
      // Or the size the keys' layout records for one axis (`k = proj(x).reshape(b, n, h, d).permute(0, 2, 1, 3)` then
      // `k.reshape(b, h, d, n)`): one axis only, and written in the view or reshape that made the keys in this function
      // (the keys' one definition), so it names the same value here.
      const made = layoutSizesOf(reshape.base, site);
      const written = writtenSizes(k);
      const bySize = (a: PyNode): number | undefined => {
        const t = ctx.text(a).replace(/\s+/g, '');
        const at = written.indexOf(t);
        return made.has(t) && at === written.lastIndexOf(t) ? at : undefined;
      };
      const axes = reshape.args.map((a) => axisOfKeys(a, reshape.base, n, site) ?? bySize(a));
      if (!axes.every((axis, i) => axis === (i === n - 1 ? n - 2 : i === n - 2 ? n - 1 : i))) return;
      // The keys' own order of the two sizes (the view's, swapped back).
      const sizes = reshape.sizes.slice(-2).reverse().join(', ');
      const swap = `${ctx.text(reshape.base)}.${swapName()}(-2, -1)`;
      // Reported at the reshape (where the transpose belongs); the product that uses it is the evidence.
      const swapFix: FixSpec = {
        title: msg(T.useSwapFix, swap),
        safety: 'unsafe',
        edits: [{ start: reshape.call.start, end: reshape.call.end, newText: swap }],
      };
      report(reshape.call, msg(T.keysReshaped, quote(ctx.text(reshape.call), 40), quote(ctx.text(reshape.base), 24), sizes, swap), swapFix, [
        { node: site.node, message: msg(T.scoresFormed) },
        ...layoutOf(reshape.base, site, 'keys'),
      ]);
    }

    /**
     * `k.view(B, H, hd, -1)` for kᵀ where the keys are token-major (a Linear output, features last): the view puts a
     * per-head feature size before the token axis, but a reshape does not move elements, so the last axis is not the
     * tokens. Decided from the layouts the code states: the keys' source has its features last (and is not
     * channel-first or already transposed), the view's second-to-last size is a per-head feature size and its last
     * the rest (`-1`) or a sequence length, and the queries of the same rank end in their features; the product is
     * normalised as scores.
     */
    function checkKeysViewedFeaturesFirst(site: MatmulSite, a: PyNode, b: PyNode): void {
      const reshape = reshapeOf(b, site);
      if (!reshape) return;
      const src = ev.eval(reshape.base, site.ctx);
      const k = ev.eval(b, site.ctx);
      const q = ev.eval(a, site.ctx);
      const n = reshape.args.length;
      const srcLast = axisAt(src, -1)?.label ?? 'feat';
      const kLast = axisAt(k, -1);
      const normalised = ev.facts.softmax.some((sm) => sm.input.attn?.formedAt === site.node) || ev.facts.sigmoidScores.has(site.node.id);
      if (
        site.transB ||
        n < 3 ||
        !isKey(src) ||
        !src.featLast ||
        src.channelFirst ||
        srcLast !== 'feat' ||
        k.ndim !== n ||
        q.ndim !== n ||
        axisAt(q, -1)?.label !== 'feat' ||
        axisAt(k, -2)?.label !== 'feat' ||
        !(kLast?.label === 'seq' || kLast?.sizeText === '-1') ||
        !normalised
      )
        return;
      const sizes = reshape.sizes.slice(-2).join(', ');
      const inner = reshape.sizes.slice(0, -2);
      // (B, L, H, hd) then (B, H, hd, L): the tokens second, the feature size last; then they move to the end.
      const perm = [0, ...Array.from({ length: n - 2 }, (_, i) => i + 2), 1];
      const tokensFirst = `${ctx.text(reshape.base)}.view(${[inner[0], reshape.sizes[n - 1], ...inner.slice(1), reshape.sizes[n - 2]].join(', ')}).permute(${perm.join(', ')})`;
      report(
        reshape.call,
        msg(T.keysViewedFeaturesFirst, quote(ctx.text(reshape.call), 40), quote(ctx.text(reshape.base), 24), sizes, quote(tokensFirst, 80)),
        undefined,
        [{ node: site.node, message: msg(T.scoresFormed) }, ...layoutOf(reshape.base, site, 'keys')],
      );
    }

    /**
     * The axis of the keys a size argument reads: `k.size(2)`, `k.shape[-1]`, or a name unpacked from the keys' shape
     * (`B, H, L, D = k.size()` then `D`: axis 3), that one definition reaching the reshape.
     */
    function axisOfKeys(arg: PyNode, base: PyNode, n: number, site: MatmulSite): number | undefined {
      const keys = ctx.text(base).replace(/\s+/g, '');
      const direct = new RegExp(`^${escapeRegExp(keys)}(?:\\.size\\((-?\\d+)\\)|\\.shape\\[(-?\\d+)\\])$`).exec(ctx.text(arg).replace(/\s+/g, ''));
      if (direct) return (Number(direct[1] ?? direct[2]) + n) % n;
      const [only, ...more] = arg.type === 'identifier' ? liveDefinitions(ev, arg, site.ctx) : [];
      const shapes = [`${keys}.size()`, `${keys}.shape`];
      const unpacked =
        more.length === 0 &&
        only?.kind === 'assign' &&
        only.value !== undefined &&
        !only.star &&
        only.path.length === 1 &&
        shapes.includes(ctx.text(only.value).replace(/\s+/g, ''));
      return unpacked ? only.path[0] : undefined;
    }

    /** The size arguments of the views and reshapes in the one definition of the keys' name in this function. */
    function layoutSizesOf(base: PyNode, site: MatmulSite): Set<string> {
      const out = new Set<string>();
      const u = unparen(base);
      const [only, ...more] = u.type === 'identifier' ? liveDefinitions(ev, u, site.ctx) : [];
      if (!only?.value || only.kind !== 'assign' || more.length > 0) return out;
      walk(only.value, (n) => {
        if (n.type !== 'call') return;
        const f = childByField(n, 'function');
        const name = f?.type === 'attribute' ? childByField(f, 'attribute') : undefined;
        const args = name && /^(view|reshape)$/.test(ctx.text(name)) ? childByField(n, 'arguments') : undefined;
        for (const a of args ? namedChildren(args) : []) out.add(ctx.text(a).replace(/\s+/g, ''));
      });
      return out;
    }

    /** `k.view(a, b, ...)` / `k.reshape(...)`, written at the operand or as the one definition of the name there. */
    function reshapeOf(node: PyNode, site: MatmulSite): { call: PyNode; base: PyNode; args: PyNode[]; sizes: string[] } | undefined {
      const operand = unparen(node);
      // `k_t = k.view(...)` then `q @ k_t`: the name's one definition.
      const [only, ...more] = operand.type === 'identifier' ? liveDefinitions(ev, operand, site.ctx) : [];
      const n = only?.value && only.kind === 'assign' && more.length === 0 ? unparen(only.value) : operand;
      const f = n.type === 'call' ? childByField(n, 'function') : undefined;
      const base = f?.type === 'attribute' ? childByField(f, 'object') : undefined;
      const name = f?.type === 'attribute' ? childByField(f, 'attribute') : undefined;
      const args = base && name && /^(view|reshape)$/.test(ctx.text(name)) ? childByField(n, 'arguments') : undefined;
      if (!base || !args) return undefined;
      const sizeArgs = namedChildren(args);
      return { call: n, base, args: sizeArgs, sizes: sizeArgs.map((a) => ctx.text(a).replace(/\s+/g, '')) };
    }

    /** The (d × d) weights of `q.transpose(-2, -1) @ k` meet the values over the feature axis (channel attention). */
    function channelAttention(site: MatmulSite): boolean {
      for (const sm of ev.facts.softmax) {
        if (sm.input.attn?.formedAt !== site.node) continue;
        for (const c of consumersOf(ev, sm.node)) {
          // The product contracts the values' features: `attn @ v.transpose(-2, -1)`, or `v @ attn.transpose(-2, -1)`
          // with the values (token-major) on the left.
          const weightsLeft = c.site.a.attn?.softmax?.site === sm.node;
          const values = weightsLeft ? c.site.bNode : c.site.aNode;
          if (values && weightsLeft === !!transposeOf(values)) return true;
        }
      }
      return false;
    }

    /**
     * tf.matmul has no tensor method to swap axes with (`k.transpose` is torch's): the call transposes its second
     * operand when told `transpose_b=True`. No fix when the call already names transpose_b / adjoint_b.
     */
    function keysFix(site: MatmulSite, b: PyNode): FixSpec | undefined {
      if (!site.display.startsWith('tf.')) return fix(b, b);
      const named = namedChildren(site.node)
        .filter((x) => x.type === 'argument_list')
        .flatMap(namedChildren)
        .filter((x) => x.type === 'keyword_argument');
      const names = named.map((x) => ctx.text(x).split('=')[0]?.trim());
      if (names.includes('transpose_b') || names.includes('adjoint_b')) return undefined;
      return {
        title: msg(T.passTransposeFix, 'transpose_b=True', site.display),
        safety: 'unsafe',
        edits: [{ start: b.end, end: b.end, newText: ', transpose_b=True' }],
      };
    }

    function fix(b: PyNode, base: PyNode): FixSpec {
      return {
        title: msg(T.useSwapFix, `${ctx.text(base)}.${swapName()}(-2, -1)`),
        safety: 'unsafe',
        edits: [{ start: b.start, end: b.end, newText: `${ctx.text(base)}.${swapName()}(-2, -1)` }],
      };
    }

    function transposeOf(node: PyNode): { kind: 'T' | 't' | 'mT' | 'transpose'; base: PyNode; a?: number; b?: number } | undefined {
      const n = unparen(node);
      if (n.type === 'attribute') {
        const attr = childByField(n, 'attribute');
        const obj = childByField(n, 'object');
        /* c8 ignore next: the grammar gives every attribute an object and a name; the types make them optional */
        if (!attr || !obj) return undefined;
        const name = ctx.text(attr);
        if (name === 'T' || name === 'mT') return { kind: name, base: obj };
        return undefined;
      }
      if (n.type === 'call') {
        const f = childByField(n, 'function');
        const args = childByField(n, 'arguments');
        /* c8 ignore next: the grammar gives every call a function and arguments; the types make them optional */
        if (!f || !args) return undefined;
        // Only method and module-function forms (`rearrange(k, ...)`, a plain function, says nothing).
        if (f.type !== 'attribute') return undefined;
        const list = namedChildren(args);
        // Function forms: np.transpose(k) / tf.transpose(k) (all axes reversed), torch.transpose(k, a, b).
        const qname = dottedName(ev.tree, f)?.join('.') ?? '';
        const fnArgs = list.filter((a) => a.type !== 'keyword_argument');
        const hasKeywords = fnArgs.length < list.length;
        const [first, second, third] = fnArgs; // `&& first` below holds whenever the length test before it does
        if (/^(np|numpy|jnp|jax\.numpy|tf|tensorflow)\.transpose$/.test(qname) && fnArgs.length === 1 && !hasKeywords && first)
          return { kind: 'T', base: first };
        if (/^torch\.(transpose|swapaxes)$/.test(qname) && fnArgs.length === 3 && first)
          return { kind: 'transpose', base: first, a: intLiteral(ev.tree, second), b: intLiteral(ev.tree, third) };
        const attr = childByField(f, 'attribute');
        const obj = childByField(f, 'object');
        /* c8 ignore next: as above, an attribute always has both */
        if (!attr || !obj) return undefined;
        const name = ctx.text(attr);
        if (name === 'contiguous' || name === 'float' || name === 'to') return transposeOf(obj);
        if (name === 't' && list.length === 0) return { kind: 't', base: obj };
        if ((name === 'transpose' || name === 'swapaxes' || name === 'swapdims') && list.length === 2) {
          // Axes by position or by keyword (torch's dim0= / dim1=, NumPy's axis1= / axis2=).
          const axis = (i: 0 | 1): number | undefined => {
            const x = list[i];
            /* c8 ignore next: the list has two arguments (tested above); the index type allows undefined */
            if (!x || x.type !== 'keyword_argument') return intLiteral(ev.tree, x);
            const names = i === 0 ? ['dim0', 'axis1'] : ['dim1', 'axis2'];
            // `dim0=-1`: the name before the `=`, the literal after it.
            const [key, value] = ctx
              .text(x)
              .split('=')
              .map((p) => p.trim());
            return names.includes(String(key)) && /^-?\d+$/.test(String(value)) ? Number(value) : undefined;
          };
          return { kind: 'transpose', base: obj, a: axis(0), b: axis(1) };
        }
      }
      return undefined;
    }

    return {
      matmul(site: MatmulSite) {
        if (!site.aNode || !site.bNode) return;
        if (site.display === 'einsum') return;
        const a = unparen(site.aNode);
        const b = unparen(site.bNode);
        const aVal = ev.eval(a, site.ctx);
        if (!isQuery(aVal) && !isQuery(site.a)) return;
        // Scores nothing reads (a leftover eager product beside the kernel call that does the work): no effect to report.
        if (resultDiscarded(ev, site.node)) return;
        checkKeyOperand(site, b);
        checkKeysReshaped(site, b);
        checkKeysViewedFeaturesFirst(site, a, b);
        checkKeyPermute(site, a, b);
        checkKeysHeadsLast(site, a, b);
        checkQueryTransposed(site, a, b);
        checkKeysNotTransposed(site, a, b);
      },
    };
  },
};

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isLastTwo(a: number | undefined, b: number | undefined): boolean {
  return (a === -2 && b === -1) || (a === -1 && b === -2);
}
