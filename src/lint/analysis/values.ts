// The abstract values the evaluator computes for expressions, and how values from different paths join.
//
// A value records only what the code proves: a tensor's rank and per-axis labels when a reshape or a
// comment states them, a mask's polarity when its construction shows it, the operations (scales, masks)
// applied on the way to attention scores. Anything not proven is absent, and a join keeps only what every
// path agrees on (for "may" facts such as the list of operations, it keeps every path's alternative).
import { msg, type MessageArg } from '../message';
import type { PyNode } from '../syntax/tree';
import type { Ctx } from './facts';
import { PHRASES } from './phrases';
import type { ClassInfo, Scope } from './scopes';

export type Kind =
  'tensor' | 'number' | 'string' | 'none' | 'bool' | 'tuple' | 'module' | 'layer' | 'object' | 'function' | 'class' | 'dtype' | 'finfo' | 'unknown';

export type DType = 'bool' | 'int' | 'float' | 'float16' | 'bfloat16' | 'float32' | 'float64';

export type AxisLabel = 'batch' | 'head' | 'seq' | 'feat' | 'chan';

export interface AxisInfo {
  readonly label?: AxisLabel;
  readonly size1?: boolean;
  /**
   * The axis holds copies of one slice: a length-1 axis (or a new one) expanded, tiled or repeated to a larger length
   * (`tf.tile(m[:, None], [1, K, 1])`, `m.unsqueeze(1).expand(-1, K, -1)`). The values do not vary along it.
   */
  readonly repeated?: boolean;
  /** Source text of the size expression when known (`T`, `self.head_dim`). */
  readonly sizeText?: string;
  /** The label comes from a shape comment or docstring (`# (B, T, S)`), not from the code: the code outranks it. */
  readonly stated?: boolean;
  /**
   * The dimension a view/reshape size evaluates to in this context, as its DimInfo's text (`self.dim_key` of
   * `view(b, l, self.heads, self.dim_key)` where the constructions bind `dim_key` to a caller's `dim`: `dim`): the
   * size compared by what it holds, not by the name written at the view.
   */
  readonly sizeValue?: string;
  /**
   * A view's size that is the last axis of the input of the projection whose output it reshapes, a projection that
   * keeps its width (`q = self.wq(x).view(B, n, L, D)` after `B, T, D = x.shape`, `self.wq = nn.Linear(d, d)`): that
   * projection's whole output width, written so (its `outText`). The features are not split there.
   */
  readonly wholeWidth?: string;
}

export type Role = 'query' | 'key' | 'value';

/** What a dimension-valued number stands for. */
export interface DimInfo {
  /** 'heads' is a count of heads (scaling by it is never right). */
  readonly which: 'head' | 'model' | 'heads' | 'unknown';
  readonly text: string;
  /** For sizes read off a tensor (`x.shape[-1]`, `B, T, C = x.shape`): that tensor, and whether it is its last axis. */
  readonly ofTensor?: AValue;
  readonly lastAxisOf?: boolean;
  /**
   * Read off an axis known not to be the last and not a feature axis (`rows` of `rows, cols, batch, embed = x.shape`,
   * `x.shape[-2]`): a length or a count (rows, positions, batch), not a width.
   */
  readonly otherAxis?: boolean;
  /** The dimension is a whole number written out (`math.sqrt(64)`): its value, to compare with the sizes the code states. */
  readonly literal?: number;
  /**
   * Known only as the name under a root written out (`tf.constant(n ** 0.5)`, ops.ts: rootedName), a size the evaluator
   * could not follow: its meaning comes from the code around it, never from the name or a namesake elsewhere in the file.
   */
  readonly rooted?: true;
  /** A head count read off an axis the layout labels heads (`k.size(1)` of `(B, H, T, d)`): the code, not a name, says it counts heads. */
  readonly headAxis?: true;
}

/** Triangular boolean region: True where j - i >= k ('upper') or j - i <= k ('lower'). */
export interface TriRegion {
  readonly region: 'upper' | 'lower';
  readonly k: number;
}

/** A place in another workspace file: workspace-relative path, 1-based line and column, the helper's name there. */
export interface MaskPlace {
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly name: string;
}

export interface MaskInfo {
  /**
   * What a True / 1 entry means: 'keep' (attend) or 'ignore' (masked out). Absent: additive, or a 0/1 mask
   * known only by its name (`mask`), whose polarity is unknown.
   */
  readonly polarity?: 'keep' | 'ignore';
  /** Additive mask: 0 where kept, a large negative number (or -inf) where masked. */
  readonly additive?: boolean;
  /** Read as additive only because nothing shows its meaning (`bias = zeros(...); bias += attn_mask`), not built so. */
  readonly additiveAssumed?: true;
  readonly dtype?: DType;
  readonly tri?: TriRegion;
  /** Contains a causal (triangular) part, possibly combined with other masks. */
  readonly causal?: boolean;
  /** Built from padding tokens (or a tokenizer's attention_mask). */
  readonly padding?: boolean;
  /** Negative axis indices along which the padding varies: -1 = key side, -2 = query side. */
  readonly padAxes?: readonly number[];
  /**
   * Reversed along an axis (`m.flip(-1)`, `m[:, ::-1]`): a mask from lengths so reordered is True at the end of that
   * axis, not its start. Joined with one not reversed (masks.ts: combineMasks) it is a window's edges, no padding.
   */
  readonly reversed?: true;
  /**
   * A padding term spread over the query axis combined elementwise with one spread over the key axis (`pad_q & pad_k`,
   * `q_keep[:, :, None] * k_keep[:, None, :]`): True where both terms are ('and') or where either is ('or'). Which
   * rows a fill can empty depends on it (masks.ts: emptyRowReason); a further combination drops it.
   */
  readonly pairJoin?: 'and' | 'or';
  /**
   * A pair product (mask-ops.ts: pairProduct) read as a keep mask although both of its terms are masks the code flips
   * to True at padding from a name (`mask_d.eq(0).unsqueeze(2) * mask_e.eq(0).unsqueeze(1)`): by those terms it is True
   * only where both positions of a pair are padding. ATT002 words its finding so (a fill there hides only pairs of
   * padding positions); a flip or a further combination drops it.
   */
  readonly paddingPair?: true;
  /**
   * A mask of unknown meaning flipped (`mask_d.eq(0)`, `~m`, `m == 0`): True where the mask is 0 or False, its padding
   * if it is 1 at the tokens. Read only by pairProduct (a pair of two such terms is a paddingPair); a further flip drops it.
   */
  readonly zerosOf?: true;
  /** Short description for messages, e.g. "`input_ids == pad_id` (True at padding)": code, or a phrase with its parts. */
  readonly why: MessageArg;
  /** Polarity inferred from a parameter's name only (PyTorch/HF naming conventions). */
  readonly byName?: boolean;
  /**
   * Polarity read from prose only: a parameter's comment or docstring ("mask: True at padding"). Code evidence of
   * a caller (another evaluation context of the same use) outranks it, as it outranks a name.
   */
  readonly documented?: boolean;
  /** For polarities inferred from a name: that name (bare, lower case), to weigh its other uses in the file. */
  readonly nameSource?: string;
  /** A 0/1 mask times a large positive number (subtracted from the scores to mask them). */
  readonly scaledPositive?: boolean;
  /**
   * The mask's values are -1 where it is True and 0 elsewhere: a 0/1 mask minus 1 (`keep - 1.0` is `-(1 - keep)`, the
   * flipped mask negated). Read as nonzero it is the flipped mask (`polarity`); times a constant c it is the flipped
   * mask times -c, so the sign of c decides which side gets the large negative number.
   */
  readonly negated?: boolean;
  /**
   * The sum of two 0/1 masks of one meaning (`pad_mask + subsequent_mask`, jadore801120's form): 0, 1 or 2, nonzero
   * where either is, so read as nonzero (`> 0`, `.gt(0)`, `!= 0`, `.bool()`, a masked_fill's mask) it is their or, and
   * `== 0` is its flip; `== 1`, `1 - m`, `~m` and `&` are no logical operation on it.
   */
  readonly count?: boolean;
  /** For additive masks built as `m * -1e9` / `masked_fill(m, -inf)`: the polarity of m (must be 'ignore'). */
  /**
   * Written per example into a fresh tensor of zeros or ones (`m = zeros(B, L); m[i, :n] = 1`, `m = ones(B, L);
   * m[i, n:] = 0`): before any example is written, that tensor is the same mask with no region marked. With the
   * polarity the writes gave, so a mask flipped since (`~m`) no longer counts as that tensor.
   */
  readonly filledInto?: { readonly base: 'zeros' | 'ones'; readonly polarity: 'keep' | 'ignore' };
  readonly builtFrom?: 'keep' | 'ignore';
  /**
   * For causal masks: where the diagonal starts when there are fewer queries (L) than keys (S). 'top-left': query i
   * sees keys 0..i (`tril(ones(L, S))`, `bias[..., :L, :S]`, `is_causal=True`); 'bottom-right': query i sees keys
   * 0..i + S - L (`tril(ones(L, S), diagonal=S - L)`, `bias[..., S - L:S, :S]`). The two agree when L = S.
   */
  readonly align?: 'top-left' | 'bottom-right';
  /** Source texts of the query-side and key-side lengths of a causal mask, when its construction shows them. */
  readonly sizes?: readonly [string, string];
  /**
   * A square causal triangle over the new tokens joined along the key axis with a block of kept columns as wide as the
   * cache (`cat([zeros(T, start), tri], dim=-1)`, `F.pad(tri, (start, 0))`): the side the kept columns went to. Keys
   * are laid out `[cached | new]`, so 'left' is bottom-right aligned and 'right' top-left (`width`: the block's).
   */
  readonly cachedColumns?: { readonly side: 'left' | 'right'; readonly width: string };
  /** Where this mask was built (the expression that first produced it; see origins.ts): a related location. */
  readonly origin?: MaskOrigin;
  /** The last place its meaning was inverted since (`~m`, `m == 0`, `1 - m`), when it was. */
  readonly flippedAt?: MaskOrigin;
  /**
   * Where a mask returned from another workspace file was built there (the comparison, the triangle, or the
   * helper's return): kept as it crosses on to further files, so a finding that quotes it links there.
   */
  readonly builtIn?: MaskPlace;
  /**
   * An additive mask whose masked entries are -inf, as its construction shows (`generate_square_subsequent_mask`,
   * `triu(full(-inf), 1)`, `masked_fill(m, float('-inf'))`): `isinf` of it is True exactly where it masks.
   */
  readonly negInf?: true;
  /**
   * Read by a key's name from a dict or object the code shows nothing of (`batch["attention_mask"]` of a batch of
   * unknown origin, `.attention_mask`): the polarity is the key's convention, a name, not a construction.
   */
  readonly keyConvention?: true;
  /**
   * Read from an additive mask as a 0/1 one (`additive.bool()`, `1 - additive`), or through `keep - 1` times a negative
   * number: `== 0` does not invert it.
   */
  readonly fromAdditive?: boolean;
  /**
   * An additive mask made from its own boolean or 0/1 mask (`m.float().masked_fill(m == 0, -inf).masked_fill(m == 1,
   * 0.0)`, PyTorch's `generate_square_subsequent_mask` idiom): the fill is a change of form, not a masking of scores,
   * so the mask's polarity is judged where the additive result is read (its `tri`: the region of the large negative
   * values), after any transpose on the way.
   */
  readonly ownConversion?: true;
  /**
   * An additive mask made from a causal triangle times a large negative number (`tri * -1e6`): the product, where its
   * polarity site is (ops.ts). Added into the first columns of a wider mask (`mask[..., :n] + tri_bias`), the triangle is
   * over those columns (a memory's, keys laid out `[memory | new]`), not over the queries' own keys, and the site is
   * dropped. A node of this file: not carried to other files (portable.ts).
   */
  readonly triangleSiteAt?: PyNode;
  /**
   * An additive mask made from a 0/1 mask times a large negative number (`pad * -1e9`): the product, where its fill site
   * is (ops.ts), so that the sum that adds it to the scores can say what dtype it must have (TensorFlow adds only
   * tensors of one dtype). A node of this file: not carried to other files (portable.ts).
   */
  readonly productSiteAt?: PyNode;
  /**
   * A per-example (B, S) mask placed along one axis of a larger tensor (`m[:, None, :, None]`,
   * `rearrange(m, 'b j -> b () () j')`, `m.unsqueeze(-1)`): the source's text and the negative index its S axis went to.
   */
  readonly spread?: { readonly source: string; readonly axis: number };
  /**
   * A mask from lengths (`arange(S) < lengths[:, None]`): the bound's name. Such a mask marks padding only when the
   * bound counts each example's tokens; `prefix_len` gives the same construction over a prefix's columns.
   */
  readonly lengthBound?: string;
  /**
   * A causal part and a padding part, both known from their construction, combined the way their polarities do not
   * combine (masks.ts: combineMasks): a union of keep masks, an intersection of ignore masks, or one of each.
   */
  readonly join?: MaskJoin;
  /**
   * A causal triangle the code builds (`triu(ones, 1)`, `tril(ones)`), combined by `&` or `|` with another mask whatever
   * that holds (`future | pad`, `query_keep & future`): the result's True entries contain the triangle's (or) or lie
   * within them (and), so read in the polarity opposite to the triangle's, every row sees its future keys or only them.
   * The triangle's polarity as the combination is now read (flipped with it), and the triangle itself for messages.
   */
  readonly causalBound?: { readonly polarity: 'keep' | 'ignore'; readonly part: MaskInfo };
}

/** A causal and a padding mask combined with the operator of the wrong polarity (MaskInfo.join). */
export interface MaskJoin {
  /** 'keepUnion': `causal_keep | pad_keep`; 'ignoreIntersection': `causal_ignore & pad_ignore`; 'mixed': one of each. */
  readonly kind: 'keepUnion' | 'ignoreIntersection' | 'mixed';
  readonly causal: MaskInfo;
  readonly pad: MaskInfo;
  /**
   * Where the wrong combination was made, when the mask carrying this record was combined further (`(causal | pad) &
   * valid_rows`): the inner combination, which is where the finding goes.
   */
  readonly at?: MaskOrigin;
  /** The combination, when it was made in another workspace file and returned from a helper there (portable.ts). */
  readonly elsewhere?: { readonly path: string; readonly start: number; readonly end: number };
}

/** A place a mask fact comes from, with what True meant there. */
export interface MaskOrigin {
  readonly node: PyNode;
  readonly polarity?: 'keep' | 'ignore';
  readonly additive?: boolean;
}

export interface ScaleOp {
  readonly kind: 'scale';
  readonly node: PyNode;
  readonly factorNode: PyNode;
  /** The multiplier is dim^power (power undefined when the factor is not understood). */
  readonly power?: number;
  readonly dim?: DimInfo;
  /** The factor's name says it is a scale/temperature (self.scale, softmax_scale, ...). */
  readonly named?: string;
  /** The factor is a known constant that no dimension enters (a fixed temperature such as 0.5). */
  readonly constant?: number;
  /**
   * The factor scales a fresh random draw (`np.random.randn(d, d_k) * np.sqrt(2.0 / d)`): an initialiser's spread, set
   * once on a parameter that training then moves, not a factor every forward applies to the logits.
   */
  readonly init?: boolean;
  readonly on: 'query' | 'key' | 'scores' | 'weights';
}

export interface MaskOp {
  readonly kind: 'mask';
  readonly node: PyNode;
  /** 'add01': a 0/1 (boolean) mask added to the scores as if it were additive. */
  readonly how: 'fill' | 'where' | 'add' | 'add01' | 'mul' | 'setitem';
  readonly maskNode?: PyNode;
  /**
   * A term the code does not show (`scores + attn_bias`, a bias parameter no caller in view passes): it may mask, so
   * the scores are not claimed unmasked, but it is no evidence of a mask (nothing is reported from it).
   */
  readonly unshown?: true;
  /**
   * With `unshown`: a mask the code shows times a value it does not show (`scores += m * self.neg`): an additive mask
   * when that value is a large negative number, so it may be the mask beside a 0/1 product of the scores.
   */
  readonly scaledByUnshown?: true;
}

/** An operation whose effect on scale is unknown (an unknown function applied to q, k or the scores). */
export interface OpaqueOp {
  readonly kind: 'opaque';
  readonly node?: PyNode;
  /**
   * The history of positional argument `passed` of a call into another file (cross-file.ts): unknown there, and
   * replaced by the caller's own steps when the helper returns that argument with steps of its own after it.
   */
  readonly passed?: number;
}

export type PathOp = ScaleOp | MaskOp | OpaqueOp;

export interface SoftmaxRef {
  readonly site: PyNode;
  /** The evaluation context the softmax ran in (a helper's softmax differs per caller). */
  readonly ctxId?: number;
  /** Negative index, in this tensor, of the axis softmax normalised (undefined if unknown). */
  readonly axis?: number;
}

export interface AttnInfo {
  readonly stage: 'scores' | 'weights';
  /** Where q·kᵀ was formed. */
  readonly formedAt: PyNode;
  /** Negative index of the key axis in this tensor (the one the softmax must normalise and ·V must sum over). */
  readonly keyAxis?: number;
  readonly keyAxisWhy?: MessageArg;
  /** Negative index of the query axis in this tensor (one row of weights per query). */
  readonly queryAxis?: number;
  readonly queryText?: string;
  readonly keyText?: string;
  /**
   * Scores q·kᵀ a helper of another workspace file formed and returned (portable.ts): that helper and where it forms
   * them (`queryText` and `keyText` are that file's text).
   */
  readonly formedIn?: { readonly path: string; readonly line: number; readonly column: number; readonly name: string };
  /**
   * Scores a file importing this one passes to a function of this file (importer-calls.ts): what that file does with
   * them after the call, which this file cannot see. `softmaxIn`: a softmax there normalises them (or what the function
   * hands back); `nanGuardIn`: the weights are cleared of NaN there (`nan_to_num`, a `where(isnan(...))`). Each names
   * that file and a line (the softmax; where the scores are formed).
   */
  readonly softmaxIn?: { readonly path: string; readonly line: number };
  readonly nanGuardIn?: { readonly path: string; readonly line: number };
  /** The right-hand operand is named as keys (k, key_states), not as encoder context/memory. */
  readonly keyIsKey?: boolean;
  /**
   * Queries and keys both straight out of a projection to this width (its out-features text), never split into
   * heads (no head axis, no reshape of the feature axis): each score is a dot product over the whole width.
   */
  readonly unsplitWidth?: string;
  /**
   * The queries alone straight out of a projection to this width, never split into heads (no head axis, no reshape of
   * their feature axis): whatever the scores' rank (a stack of decoder layers, `[L, B, Q, C]`), none of it is heads.
   */
  readonly queryUnsplit?: string;
  /**
   * Queries and keys laid out by the code with the heads after the tokens, (…, T, H, hd): the product's rows and
   * columns are heads (this is the head count's text). `headsPairedBySwap`: the keys were turned with a swap of their
   * last two axes (`k.transpose(-2, -1)`, `.mT`), where ATT005 reports it; otherwise by a full permutation.
   */
  readonly headsPaired?: string;
  readonly headsPairedBySwap?: boolean;
  /**
   * The query is one learned parameter, not a projection of a sequence: a vector (d,), a column (d, 1) on the
   * right of the keys or a row (1, d) on their left (attention pooling, `keys @ self.query`).
   */
  readonly learnedPoolingQuery?: true;
  /**
   * Each query is paired with its own keys (a local window, `(q * k).sum(dim=2)` with q `(B, G, d, H, W, 1)` and the
   * keys unfolded to `(B, G, d, H, W, k*k)`): the scores have a key axis and no query axis of their own.
   */
  readonly local?: true;
  /** The query operand's axes when known (to tell a sequence length from a feature size in a scale). */
  readonly queryAxes?: readonly AxisInfo[];
  /** Where the query came from when it is a Linear projection: its input and the layer's in/out widths. */
  readonly queryProj?: ProjectionInfo;
  /** The query operand when it is a plain name (used by fixes). */
  readonly queryNode?: PyNode;
  readonly softmax?: SoftmaxRef;
  /** Post-softmax masking operations not yet renormalised. */
  readonly postMask?: readonly PyNode[];
  /** Set when the weights were divided by their own sum (renormalised); negative axis. */
  readonly renormAxis?: number;
  /**
   * The last axis merges the scores' last two axes (rows and columns) with each other, and with whatever came between:
   * `logits.view(B, -1)`, `reshape(B, T * T)`, `flatten(1)` of a (B, T, T) pair matrix. A softmax over it normalises over
   * every pair at once, not each query over its keys (a span's start and end, chosen together).
   */
  readonly pairsMerged?: true;
}

export interface ProjectionInfo {
  readonly input: AValue;
  readonly inText?: string;
  readonly outText?: string;
  /**
   * The projection's whole output width was split into heads afterwards (`reshape(x, (B, T, heads, -1))`, or a last
   * size `out // heads`): each head's features are a part of `outText`, so `outText` is the model width there.
   */
  readonly splitIntoHeads?: true;
  /**
   * The heads are pieces of the output joined back along the batch or a new leading axis (`torch.cat(q.split(d_head,
   * dim=2), dim=0)`, `tf.concat(tf.split(q, heads, axis=2), axis=0)`): nothing relates the input width to a head's.
   */
  readonly stackedOnBatch?: true;
  /** Split so in another workspace file, whose call passed the projected values here: that call's place. */
  readonly splitIn?: { readonly path: string; readonly line: number };
}

export interface ObjectInfo {
  readonly cls: ClassInfo;
  /** The constructor call that created the instance (its arguments bind __init__'s parameters). */
  readonly init?: { readonly call: PyNode; readonly ctx: Ctx };
  /**
   * For an instance built in another workspace file (importer-calls.ts): the constructor's arguments as evaluated
   * there, as portable values, which bind __init__'s parameters here (`Attend(causal=True)` read as `self.causal`).
   */
  readonly initArgs?: { readonly positional: readonly AValue[]; readonly keywords: readonly (readonly [string, AValue])[] };
}

/** Known neural-network layers (torch.nn, keras.layers, flax.linen). */
export interface LayerInfo {
  /** Canonical API name: 'torch.nn.Softmax', 'torch.nn.MultiheadAttention', 'torch.nn.Linear', ... */
  readonly api: string;
  /** The constructor call. */
  readonly ctor: PyNode;
  readonly ctorCtxId: number;
  /** Softmax: the dim/axis argument node (whole keyword argument) and its value. */
  readonly dimNode?: PyNode;
  readonly dimValueNode?: PyNode;
  readonly dim?: number;
  /** Linear/Conv/Dense: output features known to be 1. */
  readonly outIsOne?: boolean;
  /** Keras Dense to one unit with `activation='softmax'`: that argument (a softmax over the output's length-1 last axis). */
  readonly softmaxActivation?: PyNode;
  /** Linear: source text of in_features / out_features. */
  readonly inText?: string;
  readonly outText?: string;
  /** MultiheadAttention / Transformer layers: batch_first. */
  readonly batchFirst?: boolean;
  /** A recurrent layer (nn.LSTM, keras LSTM): what its construction states about the layout of its outputs. */
  readonly recurrent?: RecurrentInfo;
  /** nn.Sequential: its layers in order. */
  readonly layers?: readonly AValue[];
  /** Keras `Embedding(..., mask_zero=True)`: its `compute_mask(ids)` is True at the ids that are not 0. */
  readonly maskZero?: true;
}

/** What a recurrent layer's construction says about its outputs (undefined fields: not known from the code). */
export interface RecurrentInfo {
  readonly framework: 'torch' | 'keras';
  /** An LSTM: torch returns `(output, (h_n, c_n))`, Keras `[output, h, c]` with `return_state=True`. */
  readonly cellState: boolean;
  /** torch: `batch_first` (default False), (B, T, H) rather than (T, B, H); Keras: not `time_major` (default). */
  readonly batchFirst?: boolean;
  /** Keras: `return_sequences` (default False: the last step only, (B, H)). */
  readonly sequences?: boolean;
  /** Keras: `return_state` (default False). */
  readonly state?: boolean;
  /** Wrapped in keras' Bidirectional (the output's width doubles; states come in pairs). */
  readonly bidirectional?: boolean;
}

/** A range of another workspace file's source (a related location there). */
export interface ForeignRange {
  readonly path: string;
  readonly source: string;
  readonly start: number;
  readonly end: number;
}

export interface AValue {
  readonly kind: Kind;
  readonly maybeNone?: boolean;
  // ---- tensors
  readonly ndim?: number;
  readonly axes?: readonly AxisInfo[];
  readonly dtype?: DType;
  readonly role?: Role;
  readonly roleText?: string;
  /** Last axis holds features (token-major layout: Linear outputs, (.., T, hd) views). */
  readonly featLast?: boolean;
  /** Axis 1 holds channels (convolution outputs). */
  readonly channelFirst?: boolean;
  /** Computed from convolution features (SAGAN / non-local blocks); survives reshapes. */
  readonly fromConv?: boolean;
  readonly multiHead?: boolean;
  readonly normalized?: boolean;
  /**
   * Divided by its own sum (`w / w.sum(-1, keepdim=True)`), along this axis (negative index) when known: a helper of
   * another file that renormalises the weights a caller passes it (cross-file.ts reads it back as that caller's
   * renormalisation; weights cross files as plain tensors).
   */
  readonly sumNormalised?: { readonly axis?: number };
  /** Alternatives (one per path) of the operations applied so far. */
  readonly ops?: readonly (readonly PathOp[])[];
  readonly mask?: MaskInfo;
  readonly attn?: AttnInfo;
  /** exp(x) of attention scores (hand-written softmax). */
  readonly expOfScores?: AValue;
  /** Keys/values concatenated with a cache (past_key_value, layer_past, kv_cache). */
  readonly fromCache?: boolean;
  /** Where the cache entered (`torch.cat([past_k, k])`, `cache.update(...)`; see origins.ts): a related location. */
  readonly cacheAt?: PyNode;
  /**
   * Where the cache entered in another workspace file, for keys that file passed here (`torch.cat((ck, k), dim=-2)`
   * in the module that calls this one): the range in that file's source, a related location there.
   */
  readonly cacheIn?: ForeignRange;
  /** Token ids (input_ids, src, ...). */
  readonly tokenIds?: boolean;
  /** Position index from arange (for causal masks built by comparison). */
  readonly index?: { readonly axis: number; readonly offset: number };
  /**
   * An arange whose start or step the code does not show to be a whole number and 1 (`torch.arange(S - 1, S - L - 1,
   * -1)`, Music Transformer's relative distances): positions in an order not known, so no index (its comparisons draw
   * no known triangle), and no per-example lengths either (a mask against it marks no padding).
   */
  readonly unorderedRange?: true;
  /** Built by torch.ones / ones_like (so tril/triu of it is a 0/1 mask). */
  readonly ones?: boolean;
  /** Built by torch.eye (True/1 on the diagonal only): a mask whose meaning its use decides. */
  readonly identity?: boolean;
  /**
   * Attention scores cut to a triangle (`torch.triu(scores)`): zero on the other side, so `!= 0` of them (at the call
   * that cut them) is that triangle as a mask. `node` is the tril/triu call (absent once the value crossed from another
   * file), `text` its text.
   */
  readonly triCut?: { readonly region: 'upper' | 'lower'; readonly k: number; readonly node?: PyNode; readonly text: string };
  /** A fresh random draw (torch.randn, np.random.randn, np.random.normal, ...): a factor on it sets its spread. */
  readonly randomDraw?: boolean;
  /**
   * Made by a factory given no dtype (`torch.zeros(B, 1, 1, T)`, `torch.ones(T, T)`, not a `*_like`), in the function
   * scope with this id: the framework's default dtype (float32, or an integer or boolean one by the fill), whatever
   * precision the model runs in (autocast leaves factories alone, `.half()` converts parameters and buffers, not
   * tensors a forward makes). A fill below float16's range fits there.
   */
  readonly factoryScope?: number;
  /** Built by torch.zeros / zeros_like (so `m[i, :a, :b] = 1` marks the kept region of a padding mask). */
  readonly zeros?: boolean;
  /** Built by torch.full(..., value): the constant. */
  readonly fillValue?: number;
  /**
   * The constant is a finfo bound (`torch.full_like(s, torch.finfo(s.dtype).min)`, `ones * finfo(float32).min`): of
   * which dtype. `fillValue` is then -Infinity (the lowest a mask can write), but the value is finite: a fully
   * masked row stays finite (uniform), and only a bound of a wider dtype overflows a narrower one.
   */
  readonly fillFinfo?: AValue['finfo'];
  /** A reduction (sum/max/norm) of another value over an axis. */
  readonly reduced?: {
    readonly kind: 'sum' | 'max' | 'norm' | 'other';
    readonly of: AValue;
    readonly axis: number | 'all' | undefined;
    readonly node: PyNode;
    readonly axisNode?: PyNode;
    readonly axisValueNode?: PyNode;
  };
  /** Output of a projection to the full model width (not yet split into heads). */
  readonly projectedWidth?: boolean;
  /**
   * The last axis of a projection's output may have been cut since (split or chunked along it, sliced): each piece
   * is no longer known to be the projection's whole width (the heads taken one by one, `q[..., i * d:(i + 1) * d]`).
   */
  readonly widthCut?: boolean;
  /**
   * One of the equal pieces a projection's whole width was split into along its last axis by a count
   * (`tf.split(q, num_heads, axis=2)`): joined back along the batch axis, they are the heads stacked on it.
   */
  readonly widthPiece?: true;
  /** For Linear outputs: the projection's input and widths (kept through reshapes). */
  readonly proj?: ProjectionInfo;
  /** Negative index of the feature axis when it is not last (after a transpose of unknown rank). */
  readonly featAt?: number;
  /** A learned parameter as created (`nn.Parameter(...)`, `tf.Variable(...)`), possibly by a helper: not computed scores. */
  readonly learned?: boolean;
  /**
   * A learned parameter's operations as created (`nn.Parameter(torch.randn(r, d) / math.sqrt(d))`): the same
   * reference as `ops` until an operation is applied to the parameter where it is used (`self.W * scale`).
   */
  readonly initOps?: readonly (readonly PathOp[])[];
  /** The last axis has length 1 (Linear/Dense to one feature) even though the rank is unknown. */
  readonly lastSize1?: boolean;
  /** `.T` of a tensor of unknown rank (all axes reversed). */
  readonly reversedUnknownRank?: boolean;
  /**
   * A broadcast product of queries and keys not yet summed over the features (`q[:, :, None] * k[:, None]`):
   * negative indices of its query axis (where k has length 1) and key axis (where q has length 1).
   */
  readonly pairwise?: {
    readonly formedAt: PyNode;
    /** Undefined for a local window (AttnInfo.local): the queries are aligned with the keys' other axes. */
    readonly queryAxis?: number;
    readonly keyAxis: number;
    readonly queryText?: string;
    readonly keyText?: string;
    readonly keyIsKey?: boolean;
    readonly additive?: boolean;
    /** Where the queries came from when they are a Linear projection (as AttnInfo.queryProj). */
    readonly queryProj?: ProjectionInfo;
    /**
     * Factors applied to the product before its features are summed (`(q[..., None, :] * k[..., None, :, :] * s).sum(-1)`,
     * `tf.reduce_sum(q_ * k_ * scale, -1)`): a factor on the scores, recorded as a scale site once the sum makes them.
     */
    readonly scaled?: readonly { readonly op: ScaleOp; readonly ctx: Ctx }[];
  };
  // ---- numbers
  readonly num?: number;
  readonly dimPow?: { readonly dim: DimInfo; readonly power: number };
  /** The number's name says it is a scale/temperature. */
  readonly scaleName?: string;
  /** A count of heads. */
  readonly headCount?: boolean;
  /**
   * The tensor a head count was read off as its last axis (`k.shape[-1]` of an axis labelled heads, by an einsum letter
   * `h` or a view's last size): a rule can then check whether the scores' product sums over that axis.
   */
  readonly headCountOf?: AValue;
  /** The head count was read off an axis the tensor's layout labels heads (`k.size(1)` of `(B, H, T, d)`), not known by a name alone. */
  readonly headCountAxis?: true;
  /** Fill value is torch.finfo(x.dtype).min / finfo(float32).min etc. */
  readonly finfo?: 'of-tensor' | 'float32' | 'float16' | 'bfloat16' | 'float64';
  /** The finfo value is `.max` (positive) rather than `.min`. */
  readonly finfoMax?: boolean;
  /**
   * A number that is a masking fill on every path (a large negative number or a dtype's minimum) but not the same one
   * on each (`NEG_INF_FP16 if dtype == tf.float16 else NEG_INF_FP32`, `-1e9` or `dtype.min` after
   * `if dtype != tf.float32:`): it masks, whichever path ran, though which value it is is not known.
   */
  readonly maskingFill?: boolean;
  /** For torch.finfo(...) objects: which dtype. */
  readonly finfoOf?: 'of-tensor' | 'float32' | 'float16' | 'bfloat16' | 'float64';
  // ---- booleans (the flag lattice: known True / False, unknown, or a parameter's whatever-the-caller-passes)
  /** A boolean the code proves: a literal, `not`/`and`/`or` of known ones, `x is None` of a known value, a flag bound at a call. */
  readonly truth?: boolean;
  /** A flag read from a parameter with no caller in view (its default, when it has one, is no evidence of its value). */
  readonly flagParam?: { readonly name: string; readonly default?: boolean };
  /** Where a known truth was set (the literal, possibly a caller's argument or a parameter's default): a related location. */
  readonly setAt?: PyNode;
  /** A function's `**kwargs` as a call bound it: the keywords passed beyond its named parameters, with their values. */
  readonly kwargs?: readonly (readonly [string, AValue])[];
  /** A known truth that came from another workspace file (portable.ts): the call there that passed it on. */
  readonly setIn?: { readonly path: string; readonly line: number };
  /** A parameter's value with no caller in view: whatever a caller passes, None included (so never known not to be None). */
  readonly unbound?: boolean;
  // ---- strings
  readonly str?: string;
  // ---- tuples and shapes
  readonly elements?: readonly AValue[];
  /** A list of unknown length whose every item is this (`[Block(d) for _ in range(depth)]`, its nn.ModuleList). */
  readonly items?: AValue;
  /**
   * In a helper of another file: the stand-in for the caller's positional argument of this index, a value that
   * cannot cross files (a layer, whose constructor is a node of the caller's file). A helper that hands it back
   * (copied, `copy.deepcopy(module)`, or as every item of a list) returns the caller's own value there.
   */
  readonly passedArg?: number;
  /**
   * In a helper of another file: a number (or unknown) the importing file's call passes that shows no length
   * (`W - len(p)`, `p.count(0)`), read there as a same-file call's argument is (bound-counts.ts): a slice bound it is
   * may count tokens or padding.
   */
  readonly boundNotLength?: true;
  /** For x.shape / x.size(): the tensor whose shape this is. */
  readonly shapeOf?: AValue;
  // ---- modules, layers, objects, functions, dtypes
  readonly qname?: string;
  readonly layer?: LayerInfo;
  readonly object?: ObjectInfo;
  readonly fn?: FunctionRef;
  /**
   * One of several functions, chosen at run time (`attn_fn = chunked_attention if flag else attention`,
   * `getattr(self, self.mode)` over the methods it may name); `fn` is then absent. A call runs each.
   */
  readonly fnChoices?: readonly FunctionRef[];
  /**
   * One of several modules of this file's classes, chosen at run time (`self.attention = GroupedAttention(...)` in one
   * arm of `if cfg.use_gqa:`, `LegacyAttention(...)` in the other); `object` is then absent. Calling it runs each
   * whose `forward` accepts the call's arguments.
   */
  readonly objectChoices?: readonly ObjectInfo[];
  readonly cls?: ClassInfo;
  readonly dtypeName?: DType;
  /** Tokenizer output (has attention_mask / input_ids). */
  readonly tokenizerOutput?: boolean;
}

/** A function of a file, or a method bound to its receiver. */
export interface FunctionRef {
  readonly scope: Scope;
  readonly self?: AValue;
  /** `functools.partial(f, *positional, **keywords)`: the arguments it binds, as evaluated where the partial was made. */
  readonly bound?: BoundArguments;
  /**
   * `jax.vmap(f, in_axes)`: which positional arguments are mapped (`true` for every one; keywords always are). The
   * function sees one slice of a mapped argument, so only what a slice keeps of it reaches it (mappedSlice).
   */
  readonly mapped?: readonly boolean[] | true;
}

/** Arguments a `functools.partial` binds: its positionals come before a call's own, a call's keywords override its keywords. */
export interface BoundArguments {
  readonly positional: readonly AValue[];
  readonly keywords: ReadonlyMap<string, AValue>;
}

/** At most this many functions a call may dispatch to (`fnChoices`). */
const MAX_FUNCTION_CHOICES = 4;

/** The functions a function value may be: its one function, or its choices. */
export function functionChoices(v: AValue): readonly FunctionRef[] {
  if (v.kind !== 'function') return [];
  return v.fn ? [v.fn] : (v.fnChoices ?? []);
}

/** The instances an object value may be: its one instance, or its choices. */
export function objectChoices(v: AValue): readonly ObjectInfo[] {
  if (v.kind !== 'object') return [];
  return v.object ? [v.object] : (v.objectChoices ?? []);
}

export const UNKNOWN: AValue = Object.freeze({ kind: 'unknown' });
export const NONE: AValue = Object.freeze({ kind: 'none' });

export function tensor(fields: Omit<AValue, 'kind'> = {}): AValue {
  return { kind: 'tensor', ...fields };
}

export function number(fields: Omit<AValue, 'kind'> = {}): AValue {
  return { kind: 'number', ...fields };
}

/** Negative index of axis `dim` (which may be negative) in a tensor of `ndim` dims; undefined if unknowable. */
export function negAxis(dim: number, ndim: number | undefined): number | undefined {
  if (dim < 0) return ndim === undefined || -dim <= ndim ? dim : undefined;
  if (ndim === undefined || dim >= ndim) return undefined;
  return dim - ndim;
}

export function axesOf(v: AValue): readonly AxisInfo[] | undefined {
  if (v.axes && v.ndim !== undefined && v.axes.length === v.ndim) return v.axes;
  return undefined;
}

/** Axis info at a (possibly negative) index, when the rank is known. */
/** The size each axis was written with (`reshape(b, n, h, d)` gives b, n, h, d; spaces dropped), '' where not known. */
export function writtenSizes(v: AValue): string[] {
  return (v.axes ?? []).map((a) => (a.sizeText ?? '').replace(/\s+/g, ''));
}

export function axisAt(v: AValue, dim: number): AxisInfo | undefined {
  const axes = axesOf(v);
  if (!axes) return undefined;
  const i = dim < 0 ? axes.length + dim : dim;
  return i >= 0 && i < axes.length ? axes[i] : undefined;
}

export function withRank(v: AValue, ndim: number | undefined, axes?: readonly AxisInfo[]): AValue {
  const next: { -readonly [K in keyof AValue]: AValue[K] } = { ...v, ndim };
  if (ndim === undefined) delete next.axes;
  else next.axes = axes && axes.length === ndim ? axes : Array.from({ length: ndim }, () => ({}));
  if (ndim === undefined) delete next.ndim;
  return next;
}

// ------------------------------------------------------------------------------------------------ ops

const MAX_ALTERNATIVES = 8;

/** Appends an operation to every path alternative. */
export function addOp(v: AValue, op: PathOp): AValue {
  const alts = v.ops && v.ops.length > 0 ? v.ops : [[]];
  return { ...v, ops: alts.map((a) => [...a, op]) };
}

/**
 * All alternatives of a and b combined (matmul of q and k: every q-path with every k-path). A 0/1 mask multiplied
 * into an operand before the product (`x = x * x_mask`, features zeroed at padded tokens) zeroes vectors, not scores:
 * it is no mask of the scores the product forms, so it does not travel into them.
 */
export function crossOps(a: AValue, b: AValue, opts: { weightInit?: boolean } = {}): readonly (readonly PathOp[])[] | undefined {
  // weightInit: a product of data with a learned weight as initialised (`x @ self.V.t()`, `self.V =
  // nn.Parameter(torch.randn(r, d) / math.sqrt(d))`): the weight's operations set the variance it starts from (a
  // fan-in init), not a factor on the data's values, so the product, a projection, does not carry them.
  const ao = opts.weightInit && initOnly(a) && !b.learned ? undefined : a.ops;
  const bo = opts.weightInit && initOnly(b) && !a.learned ? undefined : b.ops;
  const aa = ao && ao.length > 0 ? ao : [[]];
  const bb = bo && bo.length > 0 ? bo : [[]];
  const out: PathOp[][] = [];
  const kept = (ops: readonly PathOp[]): PathOp[] => ops.filter((o) => !(o.kind === 'mask' && o.how === 'mul'));
  for (const x of aa) for (const y of bb) if (out.length < MAX_ALTERNATIVES) out.push([...kept(x), ...kept(y)]);
  return out.every((o) => o.length === 0) ? undefined : out;
}

/** A learned parameter carrying no operation but those of its initial value. */
function initOnly(v: AValue): boolean {
  return v.learned === true && v.ops !== undefined && v.ops === v.initOps;
}

export function opsAlternatives(v: AValue): readonly (readonly PathOp[])[] {
  return v.ops && v.ops.length > 0 ? v.ops : [[]];
}

// ------------------------------------------------------------------------------------------------ joins

function same<T>(a: T | undefined, b: T | undefined): T | undefined {
  return a === b ? a : undefined;
}

function joinDim(a: DimInfo | undefined, b: DimInfo | undefined): DimInfo | undefined {
  if (!a || !b) return undefined;
  return a.which === b.which ? a : undefined;
}

function joinAxes(a: AValue, b: AValue): readonly AxisInfo[] | undefined {
  const x = axesOf(a);
  const y = axesOf(b);
  if (!x || !y || x.length !== y.length) return undefined;
  return x.map((ax, i) => {
    const by = y[i] ?? {}; // as many axes as x (checked above)
    const out: { -readonly [K in keyof AxisInfo]: AxisInfo[K] } = {};
    if (ax.label && ax.label === by.label) out.label = ax.label;
    if (ax.size1 && by.size1) out.size1 = true;
    if (ax.sizeText && ax.sizeText === by.sizeText) out.sizeText = ax.sizeText;
    return out;
  });
}

function joinMask(a: MaskInfo | undefined, b: MaskInfo | undefined): MaskInfo | undefined {
  if (!a || !b) return undefined;
  if (a === b) return a;
  const polarity = same(a.polarity, b.polarity);
  const additive = a.additive && b.additive ? true : undefined;
  // A causal triangle both paths' masks contain (or lie within), read the same way on both.
  const bound = a.causalBound && b.causalBound && a.causalBound.polarity === b.causalBound.polarity ? { causalBound: a.causalBound } : {};
  if (!polarity && !additive && !(a.byName && b.byName) && !bound.causalBound) return undefined;
  const tri = a.tri && b.tri && a.tri.region === b.tri.region && a.tri.k === b.tri.k ? a.tri : undefined;
  const padAxes = a.padAxes || b.padAxes ? [...new Set([...(a.padAxes ?? []), ...(b.padAxes ?? [])])] : undefined;
  return {
    polarity,
    additive,
    // Additive on one path only by assumption (ops.ts: addSub) is additive by assumption on the join.
    ...(additive && (a.additiveAssumed || b.additiveAssumed) ? { additiveAssumed: true as const } : {}),
    dtype: same(a.dtype, b.dtype),
    tri,
    causal: a.causal && b.causal ? true : undefined,
    padding: a.padding || b.padding ? true : undefined,
    padAxes,
    why: a.why,
    byName: a.byName || b.byName ? true : undefined,
    nameSource: a.nameSource === b.nameSource ? a.nameSource : undefined,
    align: same(a.align, b.align),
    sizes: a.sizes && b.sizes && a.sizes[0] === b.sizes[0] && a.sizes[1] === b.sizes[1] ? a.sizes : undefined,
    origin: a.origin ?? b.origin,
    flippedAt: a.flippedAt === b.flippedAt ? a.flippedAt : undefined,
    fromAdditive: a.fromAdditive || b.fromAdditive ? true : undefined,
    ...(a.reversed && b.reversed ? { reversed: true as const } : {}),
    ...bound,
  };
}

/**
 * A mask parameter and the all-ones tensor it defaults to (`if attention_mask is None: attention_mask =
 * torch.ones_like(input_ids)`): a default that masks nothing says that 1 means keep, whatever the name said.
 */
function onesDefault(ones: AValue, m: AValue): AValue | undefined {
  if (!ones.ones || ones.mask || !m.mask || m.mask.additive) return undefined;
  if (m.mask.polarity && !m.mask.byName) return undefined;
  const why = m.mask.nameSource ? msg(PHRASES.defaultsToOnes, `\`${m.mask.nameSource}\``) : msg(PHRASES.theMaskDefaultsToOnes);
  const { maybeNone: _maybeNone, ...value } = m;
  const { byName: _byName, nameSource: _nameSource, ...mask } = m.mask;
  return { ...value, mask: { ...mask, polarity: 'keep', why } };
}

function joinOps(a: AValue, b: AValue): readonly (readonly PathOp[])[] | undefined {
  if (!a.ops && !b.ops) return undefined;
  const out: (readonly PathOp[])[] = [];
  for (const alt of [...opsAlternatives(a), ...opsAlternatives(b)]) {
    if (out.some((o) => o.length === alt.length && o.every((op, i) => op === alt[i]))) continue;
    out.push(alt);
  }
  if (out.length > MAX_ALTERNATIVES) {
    // Too many paths to keep apart: keep the first ones and mark the rest as unknown.
    const kept = out.slice(0, MAX_ALTERNATIVES - 1);
    kept.push([{ kind: 'opaque' }]);
    return kept;
  }
  return out;
}

function joinAttn(a: AttnInfo | undefined, b: AttnInfo | undefined): AttnInfo | undefined {
  if (!a || !b) return undefined;
  if (a === b) return a;
  if (a.stage !== b.stage) return undefined;
  // Two softmaxes over the same axis (`softmax(s.float()).type_as(s) if upcast else softmax(s)`): the weights are
  // normalised on both paths, and the first path's softmax stands for both in what reads its site.
  const softmax =
    a.softmax && b.softmax
      ? a.softmax.site === b.softmax.site
        ? a.softmax.axis === b.softmax.axis
          ? a.softmax
          : { site: a.softmax.site }
        : a.softmax.axis !== undefined && a.softmax.axis === b.softmax.axis
          ? a.softmax
          : a.softmax.axis === undefined || b.softmax.axis === undefined
            ? // Softmaxes of modules chosen by a switch (`self.att = AttDot()` or `AttBahdanau(...)`), an axis not
              // known on one path: normalised on both paths, over an axis not known.
              { site: a.softmax.site }
            : undefined
      : undefined;
  const formedAt = a.formedAt === b.formedAt ? a.formedAt : a.formedAt;
  const postMask = a.postMask || b.postMask ? [...new Set([...(a.postMask ?? []), ...(b.postMask ?? [])])] : undefined;
  return {
    stage: a.stage,
    formedAt,
    keyAxis: same(a.keyAxis, b.keyAxis),
    keyAxisWhy: a.keyAxis === b.keyAxis ? a.keyAxisWhy : undefined,
    queryAxis: same(a.queryAxis, b.queryAxis),
    queryText: same(a.queryText, b.queryText),
    queryProj: same(a.queryProj, b.queryProj),
    queryAxes: same(a.queryAxes, b.queryAxes),
    keyText: same(a.keyText, b.keyText),
    keyIsKey: a.keyIsKey && b.keyIsKey ? true : undefined,
    unsplitWidth: same(a.unsplitWidth, b.unsplitWidth),
    queryUnsplit: same(a.queryUnsplit, b.queryUnsplit),
    headsPaired: same(a.headsPaired, b.headsPaired),
    headsPairedBySwap: same(a.headsPairedBySwap, b.headsPairedBySwap),
    queryNode: same(a.queryNode, b.queryNode),
    softmax,
    postMask,
    renormAxis: same(a.renormAxis, b.renormAxis),
  };
}

/** A value joined with None: a boolean's truth is no longer known (None is falsy). */
function falsyUnknown(v: AValue): AValue {
  if (v.kind !== 'bool' || (v.truth === undefined && !v.setAt)) return v;
  const { truth: _truth, setAt: _setAt, ...rest } = v;
  return rest;
}

/** Least upper bound of two values: what holds on both paths. */
/**
 * `v` without its undefined fields, as a fresh object with the same keys in the same order. (Deleting fields
 * instead turns an object into a slow dictionary, and every later read and spread of the value pays for it.)
 */
function withoutUndefined<T extends object>(v: T): T {
  const out: Record<string, unknown> = {};
  for (const k in v) if (v[k] !== undefined) out[k] = v[k];
  return out as T;
}

/** Whether `fresh` (zeros or ones, no mask) is the tensor mask `m` was written into per example, with m's polarity. */
function filledFrom(fresh: AValue, m: MaskInfo | undefined): boolean {
  const f = m?.filledInto;
  return !!f && f.polarity === m.polarity && (f.base === 'zeros' ? !!fresh.zeros : !!fresh.ones);
}

/** A number that masks where it fills (as mask-ops' isMaskingFill reads one): -1e4 or less, a dtype's minimum. */
function masksOnItsPath(v: AValue): boolean {
  return !!v.maskingFill || (!!v.finfo && !v.finfoMax) || (v.num !== undefined && v.num <= -1e4);
}

export function join(a: AValue, b: AValue): AValue {
  if (a === b) return a;
  // A zeros tensor and the keep mask a loop builds in it (`m[i, :n_i] = 1`): before any example is marked the
  // zeros are the same keep mask with nothing kept, so the mask's facts hold on both paths.
  if (a.kind === 'tensor' && b.kind === 'tensor') {
    if (a.zeros && !a.mask && b.mask?.polarity === 'keep' && b.mask.padding && a.ndim === b.ndim) return b;
    if (b.zeros && !b.mask && a.mask?.polarity === 'keep' && a.mask.padding && a.ndim === b.ndim) return a;
    // A keep padding mask on one path and all True on the other (`return wav, torch.ones(L, dtype=torch.bool)` when
    // nothing is padded, the built mask otherwise): all True is that mask with every position kept.
    if (a.ones && !a.mask && a.dtype === 'bool' && b.mask?.polarity === 'keep' && b.mask.padding && !b.mask.byName && a.ndim === b.ndim) return b;
    if (b.ones && !b.mask && b.dtype === 'bool' && a.mask?.polarity === 'keep' && a.mask.padding && !a.mask.byName && a.ndim === b.ndim) return a;
    // The same for each example's region written into zeros or ones, whatever the polarity the writes give.
    if (!a.mask && filledFrom(a, b.mask) && a.ndim === b.ndim) return b;
    if (!b.mask && filledFrom(b, a.mask) && a.ndim === b.ndim) return a;
    // A zeros bias and the additive mask a branch fills into it (`bias = zeros(...)`, then `if mask is not None:
    // bias.masked_fill_(mask, -inf)`): the zeros are that additive bias with nothing masked, so adding the bias to the
    // scores masks them wherever the branch ran.
    if (a.zeros && !a.mask && b.mask?.additive && a.ndim !== undefined && a.ndim === b.ndim) return b;
    if (b.zeros && !b.mask && a.mask?.additive && a.ndim !== undefined && a.ndim === b.ndim) return a;
    const defaulted = onesDefault(a, b) ?? onesDefault(b, a);
    if (defaulted) return defaulted;
  }
  if (a.kind === 'none') return b.kind === 'none' ? a : { ...falsyUnknown(b), maybeNone: true };
  if (b.kind === 'none') return { ...falsyUnknown(a), maybeNone: true };
  if (a.kind !== b.kind) {
    // A tensor on one path and an unknown on the other: keep the structure-free facts of neither.
    if ((a.kind === 'tensor' && b.kind === 'unknown') || (a.kind === 'unknown' && b.kind === 'tensor')) {
      const t = a.kind === 'tensor' ? a : b;
      const opaque: AValue = { kind: 'tensor', ops: [[{ kind: 'opaque' }]] };
      const out: AValue = { kind: 'tensor', ops: joinOps(t, opaque) };
      return a.maybeNone || b.maybeNone ? { ...out, maybeNone: true } : out;
    }
    return { kind: 'unknown', maybeNone: a.maybeNone || b.maybeNone || undefined };
  }
  const out: { -readonly [K in keyof AValue]: AValue[K] } = { kind: a.kind };
  if (a.maybeNone || b.maybeNone) out.maybeNone = true;
  if (a.unbound || b.unbound) out.unbound = true;
  switch (a.kind) {
    case 'tensor': {
      const ndim = same(a.ndim, b.ndim);
      if (ndim !== undefined) {
        out.ndim = ndim;
        out.axes = joinAxes(a, b) ?? Array.from({ length: ndim }, () => ({}));
      }
      out.dtype = same(a.dtype, b.dtype);
      out.role = same(a.role, b.role);
      out.roleText = same(a.roleText, b.roleText);
      out.featLast = a.featLast && b.featLast ? true : undefined;
      out.channelFirst = a.channelFirst && b.channelFirst ? true : undefined;
      out.fromConv = a.fromConv || b.fromConv ? true : undefined;
      out.proj = same(a.proj, b.proj);
      out.multiHead = a.multiHead && b.multiHead ? true : undefined;
      out.normalized = a.normalized || b.normalized ? true : undefined;
      out.sumNormalised = a.sumNormalised && b.sumNormalised && a.sumNormalised.axis === b.sumNormalised.axis ? a.sumNormalised : undefined;
      out.ops = joinOps(a, b);
      out.mask = joinMask(a.mask, b.mask);
      out.attn = joinAttn(a.attn, b.attn);
      out.fromCache = a.fromCache || b.fromCache ? true : undefined;
      out.cacheAt = a.cacheAt ?? b.cacheAt;
      out.cacheIn = a.cacheIn ?? b.cacheIn;
      out.tokenIds = a.tokenIds && b.tokenIds ? true : undefined;
      out.index = a.index && b.index && a.index.axis === b.index.axis && a.index.offset === b.index.offset ? a.index : undefined;
      // A parameter assigned in two places (`self.V = nn.Parameter(init)`, later `self.V = nn.Parameter(resized)`)
      // is still learned, and still carries only the operations of its initial values when each side does.
      if (a.learned && b.learned) {
        out.learned = true;
        if (out.ops && (!a.ops || a.ops === a.initOps) && (!b.ops || b.ops === b.initOps)) out.initOps = out.ops;
      }
      // All ones on both paths (`torch.ones(L, dtype=torch.bool)` returned from two branches) is all ones.
      out.ones = a.ones && b.ones && !a.mask && !b.mask ? true : undefined;
      break;
    }
    case 'number': {
      out.num = a.num === b.num ? a.num : undefined;
      if (a.dimPow && b.dimPow && a.dimPow.power === b.dimPow.power) {
        const dim = joinDim(a.dimPow.dim, b.dimPow.dim);
        if (dim) out.dimPow = { dim, power: a.dimPow.power };
      }
      out.scaleName = a.scaleName ?? b.scaleName;
      out.headCount = a.headCount && b.headCount ? true : undefined;
      out.headCountOf = out.headCount && a.headCountOf === b.headCountOf ? a.headCountOf : undefined;
      out.headCountAxis = out.headCount && a.headCountAxis && b.headCountAxis ? true : undefined;
      out.finfo = same(a.finfo, b.finfo);
      if (out.num === undefined && out.finfo === undefined && masksOnItsPath(a) && masksOnItsPath(b)) out.maskingFill = true;
      break;
    }
    case 'string':
      out.str = same(a.str, b.str);
      break;
    case 'bool':
      out.truth = same(a.truth, b.truth);
      if (out.truth !== undefined) out.setAt = a.setAt ?? b.setAt;
      if (a.flagParam && b.flagParam && a.flagParam.name === b.flagParam.name && a.flagParam.default === b.flagParam.default) out.flagParam = a.flagParam;
      break;
    case 'tuple': {
      if (a.elements && b.elements && a.elements.length === b.elements.length) out.elements = a.elements.map((e, i) => join(e, b.elements?.[i] ?? UNKNOWN));
      if (a.items && b.items) out.items = join(a.items, b.items);
      if (a.shapeOf && b.shapeOf) out.shapeOf = join(a.shapeOf, b.shapeOf);
      break;
    }
    case 'module':
      out.qname = same(a.qname, b.qname);
      if (!out.qname) return { kind: 'unknown', maybeNone: out.maybeNone };
      break;
    case 'layer':
      if (!a.layer || !b.layer || a.layer.api !== b.layer.api) return { kind: 'unknown', maybeNone: out.maybeNone };
      if (a.layer.ctor === b.layer.ctor) out.layer = a.layer;
      else
        out.layer = {
          api: a.layer.api,
          ctor: a.layer.ctor,
          ctorCtxId: a.layer.ctorCtxId,
          dim: same(a.layer.dim, b.layer.dim),
          dimNode: a.layer.dim === b.layer.dim ? a.layer.dimNode : undefined,
        };
      break;
    case 'object': {
      if (a.object && b.object && a.object.cls === b.object.cls) {
        out.object = a.object;
        break;
      }
      // Instances of different classes on two paths: a call runs one of them (each is evaluated as called).
      const choices: ObjectInfo[] = [];
      for (const o of [...objectChoices(a), ...objectChoices(b)]) if (!choices.some((c) => c.cls === o.cls)) choices.push(o);
      if (choices.length < 2 || choices.length > MAX_FUNCTION_CHOICES) return { kind: 'unknown', maybeNone: out.maybeNone };
      out.objectChoices = choices;
      break;
    }
    case 'function': {
      if (a.fn && b.fn && a.fn.scope === b.fn.scope) {
        out.fn = a.fn;
        break;
      }
      // Two different functions on two paths: a call runs one of them (each is evaluated as called).
      const choices: FunctionRef[] = [];
      for (const f of [...functionChoices(a), ...functionChoices(b)]) if (!choices.some((c) => c.scope === f.scope)) choices.push(f);
      if (choices.length < 2 || choices.length > MAX_FUNCTION_CHOICES) return { kind: 'unknown', maybeNone: out.maybeNone };
      out.fnChoices = choices;
      break;
    }
    case 'class':
      if (a.cls !== b.cls) return { kind: 'unknown', maybeNone: out.maybeNone };
      out.cls = a.cls;
      break;
    case 'dtype':
      out.dtypeName = same(a.dtypeName, b.dtypeName);
      break;
    default:
      break;
  }
  return withoutUndefined(out);
}

export function joinAll(values: readonly AValue[]): AValue {
  if (values.length === 0) return UNKNOWN;
  let v = values[0] ?? UNKNOWN; // not empty (checked above)
  for (let i = 1; i < values.length; i++) v = join(v, values[i] ?? UNKNOWN);
  return v;
}

/**
 * What a function vmapped over an argument sees of it: one slice along the mapped axis, so neither its rank nor where
 * its axes lie, nor a triangle's or a padding axis's place; a mask keeps its meaning (each slice of a padding or causal
 * mask means what the whole does), a tensor what it holds (a slice of the queries is queries). Anything but a tensor
 * is unknown (a pytree's leaves are sliced each).
 */
export function mappedSlice(v: AValue): AValue {
  if (v.kind !== 'tensor') return v.kind === 'number' || v.kind === 'none' ? v : UNKNOWN;
  const m = v.mask;
  // What a slice keeps: its dtype, what it holds (the queries, token ids), and a mask's meaning.
  const kept = tensor({
    ...(v.dtype ? { dtype: v.dtype } : {}),
    ...(v.role ? { role: v.role, roleText: v.roleText } : {}),
    ...(v.tokenIds ? { tokenIds: true } : {}),
  });
  if (!m) return kept;
  const { tri: _tri, align: _align, sizes: _sizes, padAxes: _padAxes, cachedColumns: _cached, spread: _spread, ...rest } = m;
  return { ...kept, mask: rest };
}

/**
 * Values that are attention scores just cut to a triangle (`torch.triu(scores)`), by identity, when the code shows it:
 * the value the cut made, and a copy crossing a call or a file boundary where the code passes or returns the cut itself
 * (mask-ops.ts: passesCut, returnsCut).
 */
const unchangedCuts = new WeakSet<AValue>();

/** Marks `v` as scores cut to a triangle and not changed since. */
export function markCut(v: AValue): AValue {
  unchangedCuts.add(v);
  return v;
}

/** Whether `v` is scores cut to a triangle and not changed since (markCut). */
export function isUnchangedCut(v: AValue): boolean {
  return unchangedCuts.has(v);
}
