// ATT002: a mask whose True/1 entries mean the opposite of what the receiving API expects.
import { normalisedAxis, type MaskSite } from '../analysis/facts';
import { rootName } from '../analysis/call';
import { discardedSite } from '../analysis/discarded';
import { isMaskingFill } from '../analysis/mask-ops';
import { describePolarity } from '../analysis/masks';
import { workspaceConvention, workspaceStoresOf } from '../analysis/name-stores';
import { maskOfName } from '../analysis/names';
import { importingFiles } from '../analysis/importers';
import type { MaskInfo, MaskJoin, PathOp } from '../analysis/values';
import { defineTemplates, msg, type MessageParts, type Template } from '../message';
import { childByField, namedChildren, unparen, walk, type PyNode } from '../syntax/tree';
import { apiName, parenthesize, quote, type FixSpec, type RelatedSpec, type Rule, type RuleContext } from './rule';
import { maskBuilt } from './related';
import { alternatives, consumersOf, testReference } from './evidence';

/** A file's text, as the workspace caches it. */
const sourceText = (source: string): string => source;

const T = defineTemplates({
  sentinelFill: '{0}, a sentinel the next statement rewrites to a large negative fill',
  receiverMaskedFill: 'masked_fill with a large negative value',
  receiverAdditive: 'an additive mask (mask × large negative value)',
  receiverSubtracted: 'subtracting it times a large number from the scores',
  masksWhereTrue: 'masks where the mask is True/1',
  receiverParam: "{0}'s {1}",
  fillsWhereTrue: 'fills where the mask is True/1',
  receiverScoresTimes: 'multiplying the scores by it',
  keepsWhereTrue: 'keeps the scores where the mask is True/1',
  expects: 'expects {0}',
  meansKeep: 'is True/1 at positions to keep',
  meansIgnore: 'is True/1 at positions to ignore',
  ignoredAttended: 'the ignored positions are attended and the rest masked out',
  keptMaskedOut: 'the positions to keep are masked out and the rest attended',
  polarityMismatch: '{0} {1} ({2}), but {3} {4}: {5}.',
  paddingPairFilled:
    '{0} is True/1 only where both positions of a pair are padding ({1}), but {2} {3}: only pairs of two padding positions are hidden, and every real query still attends the padded keys. Hide the pairs where either position is padding (the or of the two terms), or the padded keys alone.',
  readsAs: '{0} reads {1} as {2}',
  floatAdded:
    '{0} is a float 0/1 mask that {1} ({2}), but {3} adds a float {4} to the scores instead of reading it as True/False: kept and masked positions differ by 1 in their logits, so nothing is masked. Pass a boolean mask ({5}) or an additive one (0 where kept, -inf where masked).',
  oneMinusAdded:
    '{0} is a number tensor, not a boolean one (PyTorch has no - for boolean tensors), that {1} ({2}), but {3} adds a float {4} to the scores instead of reading it as True/False (and rejects an integer one): kept and masked positions differ by 1 in their logits, so nothing is masked. Pass a boolean mask ({5}) or an additive one (0 where kept, -inf where masked).',
  addsFloat: '{0} adds a float {1} to the attention scores',
  boolFix: 'Pass the boolean mask {0} (changes which positions are attended)',
  invertTilde: 'Invert the mask with ~ (changes which positions are attended)',
  invertEqualsZero: 'Invert the mask with == 0 (changes which positions are attended)',
  invertOneMinus: 'Invert the mask with 1.0 - m (changes which positions are attended)',
  joinKeepUnion:
    '{0} joins the causal mask {1}, which {2}, and the padding mask {3}, which {4}, with or, and {5} reads the result as a keep mask: the union of two keep masks keeps every key either keeps, so the causal part no longer hides the future keys. Keep masks combine with and (`&`, `*`, `minimum`).',
  joinIgnoreIntersection:
    '{0} joins the causal mask {1}, which {2}, and the padding mask {3}, which {4}, with and, and {5} reads the result as an ignore mask: the intersection of two ignore masks ignores only the keys both ignore, so the future keys stay visible unless they are padding. Ignore masks combine with or (`|`, `maximum`).',
  joinMixed:
    '{0} joins the causal mask {1}, which {2}, with the padding mask {3}, which {4}, and {5} reads the result: the two parts mean opposite things, so one of them is read the wrong way round. Invert one part before combining them.',
  theCausalPart: 'the causal part',
  thePaddingPart: 'the padding part',
  readsCombined: '{0} reads the combined mask here',
  combinedElsewhere: 'the causal and the padding part are combined here, and {0} returns the result',
  workspaceStores: 'as the workspace stores {0}: {1}',
  storedUnder: 'the workspace stores a mask under {0} here ({1})',
  readAsStored: '{0} is read here as the workspace stores it',
  boundReversed:
    '{0} combines the causal mask {1} with another mask, and as read here its True/1 entries follow the triangle on the {2} side of the diagonal (they contain its entries, or lie within them); {3} {4}, so whatever the other part holds, {5}.',
  futureSide: 'future',
  pastSide: 'past',
  boundSeesFuture: 'each query sees its future keys (or only those)',
  boundHidesPast: 'each query is kept from the keys before it and sees later ones',
  additiveAsBoolean:
    '{0} is an additive mask ({1}: 0 where kept, a large negative number where masked), but {2} reads a 0/1 or boolean mask, True/1 = attend: the kept positions read as 0, masked, and the masked ones as nonzero. Pass the 0/1 keep mask itself.',
  keysFirst: '{0}, over scores laid out (keys, queries), where its sides swap',
  convertedReversed:
    '{0} is an additive mask made from its own mask ({1}) with its large negative values below the diagonal, and {2} adds it to the scores: each query is kept from the earlier keys and sees the later ones, the reverse of a causal mask. Build the triangle the other way round (`tril(ones) == 1`, or `triu(ones) == 1` transposed) before converting it.',
});

/** Words a mask's own name uses to say what its True entries mean (not the library names `attention_mask`, `key_padding_mask`). */
const REMOVE_WORDS = /(?:^|_)(?:remove|removed|drop|dropped|exclude|excluded|ignore|ignored|masked|invalid|disallowed|blocked)(?:_|$)/i;
const KEEP_WORDS = /(?:^|_)(?:keep|kept|valid|attend|attended|allowed|visible)(?:_|$)/i;
/** The other polarity (undefined for none). */
const FLIPPED: Readonly<Record<string, 'keep' | 'ignore' | undefined>> = { keep: 'ignore', ignore: 'keep' };
/** The floating dtypes a mask's construction can give it. */
const FLOAT_DTYPES: ReadonlySet<string> = new Set(['float', 'float16', 'bfloat16', 'float32', 'float64']);
/** The fields where an identifier names no value of its own (a call's function, a keyword, an attribute's name). */
const NOT_VALUE_FIELDS: ReadonlySet<string | null> = new Set(['function', 'name', 'attribute']);

function polarityOfOwnName(name: string): 'keep' | 'ignore' | undefined {
  const remove = REMOVE_WORDS.test(name);
  const keep = KEEP_WORDS.test(name);
  return remove === keep ? undefined : remove ? 'ignore' : 'keep';
}

export const ATT002: Rule = {
  meta: {
    code: 'ATT002',
    name: 'mask-polarity',
    severity: 'error',
    fix: 'unsafe',
    docs: {
      summary: 'Mask polarity inverted for the API that receives it.',
      whatItDoes:
        "Follows each mask back to where it was built, works out what its True (or 1) entries mean, and compares that with what the API or operation receiving it expects. In short:\n\n- **Receivers and their conventions.** True/1 = attend: `F.scaled_dot_product_attention`'s boolean `attn_mask`; JAX's and Flax's `mask` (`dot_product_attention`, `MultiHeadDotProductAttention`, `nn.make_attention_mask`); Keras' `MultiHeadAttention` `attention_mask` (by keyword or fourth positional; Keras 3's `query_mask`, `value_mask`, `key_mask`) and `Attention` / `AdditiveAttention` `mask=[query_mask, value_mask]` (each mask of the list judged); a `transformers` model's `attention_mask` (loaded with `from_pretrained` from `transformers`, `pytorch_transformers` or `pytorch_pretrained_bert`, or built from a config, `BertModel(config)`, `AutoModel.from_config(config)`); `torch.where(m, scores, -inf)`, and a bias chosen with `torch.where` / `jnp.where` / `jax.lax.select` between zeros and a large negative value where the mask is True (`lax.select(m, jnp.zeros(shape), jnp.full(shape, -1e10))`); the scores multiplied by a mask (`scores * m`, `torch.mul(scores, m)`); `(1 - m) * -1e9` added to the scores; a FlexAttention `mask_mod`. True/1 = ignore: `nn.MultiheadAttention`'s `key_padding_mask` and boolean `attn_mask`; every mask of `nn.Transformer`, `nn.TransformerEncoder(Layer)` and `nn.TransformerDecoder(Layer)` (`src_key_padding_mask`, `memory_key_padding_mask`, `tgt_mask`, ...); `masked_fill(m, -inf)`; `m * -1e9` added to the scores (TensorFlow's `logits += mask * -1e9`).\n- **Builders.** Keep: `ids != pad_id`, `ids.ne(0)`, `input_ids > 0`, token ids against a negative padding id (`ids >= 0`, `ids > -1`, `ids != -1`: an embedding has no row for a negative id, so the negative entries are the padding; the ids known by their name or by the function handing them to an embedding layer), a tokenizer's `attention_mask`, `arange(S) < lengths[:, None]`, `tf.sequence_mask`, Keras `Embedding(mask_zero=True).compute_mask(ids)`, `tril(ones)`, `tf.linalg.band_part(ones, -1, 0)`, `pad_sequence` of per-example ones, ones over an example's length joined with zeros up to the maximum (`np.concatenate([np.zeros(K - tlen), np.ones(tlen)])`, `torch.cat([torch.ones(n), torch.zeros(max_len - n)])`: the sizes written say which block is the padding; per-example masks appended to a list and joined, also when the join is bound to the list's own name). Ignore: the same join with the ones over the padding (`np.concatenate([np.ones(K - tlen), np.zeros(tlen)])`), `ids == pad_id`, `ids.eq(0)`, `ids < 0` (also `ids <= -1`, `ids == -1`), `triu(ones, 1)`, `torch.isinf` of PyTorch's additive causal mask, the strict triangle `band_part(ones, 0, -1) - band_part(ones, 0, 0)` (also with its parts stored under names). `~`, `logical_not`, `== 0`, `== False` and `1 - m` flip the meaning; `&`/`*`/`minimum` and `|`/`maximum` of two masks of one meaning keep it.\n- **How the meaning travels.** Through shape steps (`unsqueeze`, `view`, `expand`, `repeat`, indexing, einops `rearrange`/`repeat`), dtype changes (`.bool()`, `.float()`, `.to(dtype)`, `tf.cast`), helpers and their tuple returns, a helper's masks built per example in a list comprehension (`torch.stack([pad_mask(r) for r in rows])`, `torch.cat`, a list of them iterated with `zip` or indexed), functions mapped with `jax.vmap` (a mask not mapped, `in_axes=(0, 0, 0, None)`, reaches the function whole; a mapped one as a slice of the same meaning; also a vmap of a vmap), `self.` attributes set in `__init__` or another method, `register_buffer` slices, properties (`FutureMask(n).mask`, a `@property` returning what `__init__` stored), dicts and dataclasses, collate functions iterated through a `DataLoader` or a LightningModule's own `*_dataloader`, `**batch`, and files of the workspace (helpers, collate functions and classes imported from them). A mask flipped under a flag (`if mask_is_padding: mask = ~mask`) is judged per call, with the flag that call passes. A mask filled (masked_fill, index assignment) with a value the code does not show (`m.float().masked_fill(m == 0, self.fill)`, `m[m == 0] = NEG`, with the value a constructor argument, a parameter, a config field whose class and construction are not in view, or a name imported from outside the workspace) is no longer the mask it was: what it holds there is not known, neither a 0/1 mask nor an additive one, so it is not judged. A module attribute built from one of several classes by a switch (`self.attention = GroupedAttention(...)` or `LegacyAttention(...)` under `if cfg.use_gqa:`) is called as each of them whose `forward` takes the call's arguments, also from an importing file. Arms chosen by the mask's dtype (`if mask.dtype == torch.bool:`, `torch.is_floating_point(mask)`) run only for the dtype the mask has where that is known (a site in an arm that cannot run there is not judged there), and a parameter filled where True in such an arm says nothing about the masks of the other arms.\n- **Float masks.** A 0/1 mask the code makes floating (`keep.float()`, `.to(torch.float32)`, or converted to the dtype of a tensor the code shows is floating: `.to(x.dtype)`, `.to(dtype=x.dtype)`, `.type_as(x)`, `.to(x)` of embeddings, projections or scores) given to a PyTorch mask parameter that adds float masks is added to the scores: it masks nothing whatever its polarity, and is reported as such. So is `1 - m` given as it is (`key_padding_mask=(1 - attention_mask)`): PyTorch has no `-` for boolean tensors, so it is a number tensor whatever m's name says, added to the scores (an integer one is rejected); not when the code shows m boolean or integer (`1 - m.long()`, a legacy uint8 mask) or turns the result boolean (`(1 - m).bool()`, `(1 - m) > 0`).\n- **Combinations, conversions and placements.** A causal triangle the code builds (`triu(ones, 1)`, `tril(ones)`, also written into the last columns of zeros, `m[:, P:] = triu(...)`) combined by `&` or `|` with any other mask bounds the result: `future | pad` contains the future, `real_q & future` lies within it, so read in the polarity opposite to the triangle's (given to SDPA as True = attend, or `masked_fill(real_q & future == 0, ...)`) each query sees its future keys, or only those, whatever the other part holds (a name-only padding part included); read in the triangle's own polarity it is not judged (`masked_fill(real_q & future, ...)` leaves padded query rows unmasked on purpose). Filled into a mask that already hides each query's future (an additive causal mask the code builds, its large negative values strictly above the diagonal: Hugging Face's `causal[..., :n].masked_fill(causal[..., :n].eq(0) * attention_mask.eq(0), min)`), a mask on the triangle's kept side adds masking to the past, the padded keys, and the future stays hidden: not judged. A mask converted to additive form from itself (`m.float().masked_fill(m == 0, -inf).masked_fill(m == 1, 0.0)`, PyTorch's `generate_square_subsequent_mask` idiom) is no masking fill: the additive result is judged where an API adds it to the scores, after any transpose, and reported when its large negative values lie below the diagonal (the untransposed `triu(ones) == 1`: the past hidden, the future seen). `m.masked_fill(m, -inf)` of a boolean mask stays that boolean mask (masked_fill casts the value to the receiver's dtype), so `.to(q.dtype)` of it is a float 0/1 mask. An additive mask the code builds (`tf.where(keep == 0, -1e9, 0.0)`, `(1 - keep) * -1e9`) given to a parameter that reads 0/1 or boolean keep masks and adds no float mask (Keras' `attention_mask`, also through `super().call(...)` of a subclass of the layer, which reads masks as the layer does) is reported: its zeros, the kept positions, read as masked. The scores multiplied by a 0/1 mask are judged only where a softmax reads the product (a gate on relative-position logits that are then added to q·kᵀ masks no key), and an additive triangle added into the first columns of a wider mask (`mask[..., :n] + tri * -1e6`, keys laid out `[memory | new]`: an equal attention window over a memory) is no causal mask of the own keys.\n\nIn detail: `ids == pad_id`, `triu(ones, 1)` and PyTorch's `*key_padding_mask` mark positions to ignore; `ids != pad_id`, `input_ids > 0` (padding id 0), `tril(ones)` and a tokenizer's `attention_mask` mark positions to keep; attention scores cut to a triangle and compared with 0 (`scores = torch.triu(scores)`, then `torch.where(scores != 0, scores, -inf)` or `masked_fill(scores == 0, -inf)`; also where a helper of the file or of another workspace file makes the cut or the comparison, when the code passes it the cut itself, or its return is the cut: `scores = cut_future(scores)`, `keep_nonzero(scores, blocked)`) are that triangle as a mask: tril's keeps each query's past and its own key, triu's its future; `~`, `logical_not`, `== 0` and `1 - m` flip the meaning; `&`/`*`/`minimum` and `|`/`maximum` of two masks with one meaning keep it (`tf.maximum(padding_mask, look_ahead_mask)` is 1 wherever either is), and so does their sum read as nonzero (`(pad_mask + subsequent_mask).gt(0)`, `> 0`, `.bool()`, or used as the mask as it is; `== 0` of the sum flips it, while `== 1` and `1 - sum` are no logical reading of it). It then compares that with what the receiving API expects: `F.scaled_dot_product_attention`'s boolean `attn_mask`, JAX/Flax `mask` and Keras `attention_mask` expect True = attend; `nn.MultiheadAttention`'s `key_padding_mask` and boolean `attn_mask` and the `nn.Transformer*` masks expect True = ignore (a float mask given to any of these PyTorch parameters is added to the scores instead: a 0/1 mask the code makes float, `keep.float()`, `(ids != pad).to(torch.float32)`, adds 0 or 1 and masks nothing whatever its polarity, and is reported as such, with the boolean mask the API reads as meant as the fix; not a mask known only by its name); `masked_fill(mask, -inf)` fills where the mask is True (so does a mask times a large negative number, also one chosen by dtype, large on every path: `NEG_INF_FP16 if dtype == tf.float16 else -1e9`, `inf = dtype.min` under `if dtype != tf.float32:`); the scores multiplied by a mask (`torch.mul(scores, m)` or `scores * m`, as in `scores = scores * m` then `scores = scores - 10000.0 * (1 - m)`) are kept where it is 1, so it must be a keep mask (a blend written as one expression, `scores * m + (1 - m) * -1e9`, is judged once, at its fill term). A parameter's description counts when it states the meaning (`pad: bool (B, S), True at the real tokens`; its first statement decides, also for a name without 'mask'; a negated word states the other meaning: `True where the key is not padding`, `1 for non-padding tokens` keep); values written as floats are read as 1 and 0 (`mask: (B, T) float, 1.0 = may attend, 0.0 = padding` is a keep mask, not an additive one), and a 0 or 1 inside another number (`1e9`, `0.5`) states nothing; a description whose only statements are about 0 beside a large negative value (`0 kept, -inf masked`, `0 = valid, -1e9 = padding`) names an additive mask's values, not a 0/1 mask's, while one saying what is done with the 0 (or True/1) entries (`mask: positions with 0 are set to -inf`, `entries equal to 1 are filled with -1e9`) states which entries are hidden, a 0/1 mask's meaning; what follows an arrow to a shape describes what the code makes of the parameter, not the parameter (`mask: (B, S) 1 = attend -> (B, 1, 1, S) additive` is a keep mask that the helper turns into an additive one). A parameter's description starts where its name starts an entry: a line of a comment or docstring (after `#`, quotes, a bullet, `:param` and a type) or after the `;`, `,` or `.` that ends the entry before it; a comment about a value the code builds, `# Build additive mask: 0 for keep, -inf for masked`, describes that value, not the parameter `mask` (session 49). A mask parameter whose name tells nothing (`mask`) that its own function fills where True with a large negative value (`dots.masked_fill(mask, -max)` on a slow path) is read the same way wherever that function uses it (the same mask handed to SDPA on a fast path); that evidence is as weak as a name. A parameter named as a keep mask (`attention_mask`) that its own function both fills where True and inverts for another consumer (`~attention_mask` to SDPA on a fast path, `masked_fill(attention_mask, -inf)` on the slow one) is read as True = ignore: two uses that agree outweigh the name, also for the masks its callers pass by name; one such use alone does not. A polarity known only from a parameter's name (`attention_mask`, `key_padding_mask`) is a guess, not evidence: libraries use both conventions under both names. Where the workspace's own code stores a mask under that very name (a dict entry `\"encoder_padding_mask\": enc[\"attention_mask\"]` in a features module, `dict(key_padding_mask=ids != pad)` in a collate function, a keyword or an assignment of that name, in the linted file or a file near it), its construction says which convention the project gives the name: a store of the other meaning (or stores of both meanings) silences every finding that rests on the name; when every such store shows the other meaning, the uses are read in it, and a use is reported only when another use of the name in the file reads it that way and none the name's way (`masked_fill(m, -inf)` beside `masked_fill(1 - m, -inf)` with the tokenizer's mask stored as `encoder_padding_mask`: the first fill hides the tokens). Stores that pass the name on, or read a dict of unknown origin by its key, show nothing. Against the name the code itself stores the mask under it counts for nothing: `remove_from_window = attention_mask != 0` (a name that says True = remove; also `drop`, `exclude`, `ignore`, `masked`, `invalid`) filled with a large negative value is what an additive `attention_mask` inside a layer needs (0 kept, -10000 masked), so it is not reported, and `keep_in_window = attention_mask != 0` filled the same way is not either: a second name that agrees with the first is no more evidence than the first, since neither shows what the parameter holds. The stored name is read through the operations between it and the use: `keep = key_padding_mask.bool()` filled where `~keep` (or `keep == 0`, `logical_not(keep)`) is the name's meaning flipped, which conflicts with the library name, so that fill is not reported (nor is `ignore = attention_mask == 0` filled where `~ignore`, which agrees with the name through the flip: names only). A test's reference computation is not reported: a mask use inside a test that compares results (`def test_…` or a `Test…` class with `assert_allclose`, `torch.testing.assert_close` or `assert error < 1e-3`), or in a helper that only such tests call (up to two helpers deep: a kernel test's `reference_softmax` handing an all-True mask to `fill_masked`, which fills where True as the kernel does); the reference must follow the kernel's convention, or the test fails. A value the code names as a mask is never read as token ids (`hidden_states, attention_mask = inputs` does not make `attention_mask != 0` a padding comparison of ids). Nor is one entry of the last axis of a tensor named for token ids (`tgt_labels[..., 0] == 0`, the background channel of one-hot labels; `ids[:, 0] == 0`, one token per row): compared with 0 it is no padding mask over the positions. A parameter its own function passes to an embedding layer (`self.embed(trg)` with `self.embed = nn.Embedding(...)`, Keras `Embedding`, Flax `Embed`) holds token ids whatever its name, so `trg != 0` is a padding comparison; not once the name is rebound to the embeddings before the comparison. At a library parameter it counts only with a second, independent signal and no contradicting use: the code stores the mask, after an operation, under a name whose own convention agrees (`pad_mask = (attention_mask == 0)[:, None, None, :]` handed to SDPA's `attn_mask`), or another use in the same function reads the same value in the convention the name states (`masked_fill(key_padding_mask[:, None, None, :], -inf)` on a slow path beside `attn_mask=key_padding_mask[:, None, None, :]` to SDPA on the fast one); a use in another function or module of the file (`key_padding_mask=key_padding_mask` to `nn.MultiheadAttention` in one module, SDPA in another) is no evidence, since nothing flows from one to the other, unless the workspace's own code stores masks of the name's convention under it; a `key_padding_mask` parameter handed straight to SDPA, or an `attention_mask` inverted for it (`~attention_mask`, as code whose masks are True where masked does), is not reported. In `masked_fill` and an additive builder (`attention_mask * -10000.0`) it does not count on its own, nor with a second name of the code's own that states the same meaning (`valid = attention_mask != 0` filled where valid, `keep_in_window = attention_mask != 0` times -1e8: two names, no construction); another fill of the file reading the name the conventional way (`masked_fill(attention_mask == 0, ...)` in another function) is no evidence for this one, since a model's functions hold masks of either meaning under one name, unless the workspace's own code stores masks of the name's convention under it (a collate's `\"encoder_padding_mask\": ids == PAD`): then the fill that contradicts the file's other fills of the name is reported. Where a caller in the file passes a mask whose construction is known, that mask decides, not the name. Masks built from lengths (`arange(S)[None, :] < lengths[:, None]`, `tf.sequence_mask`) keep the positions before each length; an `arange` whose start or step the code does not show to be a whole number and 1 (`arange(S - 1, S - L - 1, -1)`, the descending relative distances Music Transformer masks its relative logits with through `sequence_mask(lengths, S)`) is no per-example lengths nor positions from 0, and gives no polarity, also in a helper whose length parameter a call of the file fills with it (`arange(k, n)` is positions from k). Positions the code carries (the sorted positions of bucketed tokens), spread over the query and the key axes and compared by order (`q_pos[..., :, None] < k_pos[..., None, :]`), make a causal mask as `arange` does: True where the key comes after the query ignores, True where it comes before (or with) it keeps; so a TensorFlow port of `masked_fill` written as a blend `dots * m + (1 - m) * -1e9` with such an m still in masked_fill's convention is reported at the blend's fill term. One (B, S) mask spread over the query and the key axes and multiplied (`m[:, None, :, None] * m[:, None, None, :]`, `rearrange(m, 'b i -> b () i ()') * rearrange(m, 'b j -> b () () j')`, blocks of it with `m[..., :, None] & m[..., None, :]` or `'... n -> ... n ()'`), or a query mask times a key mask (`q_mask[:, :, None] * k_mask.flip(-1)[:, None, :]`), keeps a pair only where both positions are kept, so it is a keep mask whatever the names said (not when either side is True at padding by construction). Where both sides are masks the code flips to True at their zeros (`mask_d.eq(0).unsqueeze(2) * mask_e.eq(0).unsqueeze(1)`, flips of masks whose meaning only a name gives, or nothing), the product is True only where both positions of a pair are padding: filled where True it hides only pairs of two padding positions and leaves every real query's padded keys visible, and the finding says so, with no fix (the fill meant is the or of the two terms, not the inverted product). An additive mask (0 where kept, -inf where masked) read as a 0/1 mask (`bias.bool()`, `1 - bias`) is True/1 where it masks: `np.triu(ones * -inf, k=1)` handed to a helper that computes `(1 - mask) * -1e9`, or `bias.bool()` given to SDPA, inverts it. An all-ones tensor passed for a mask parameter (`layer(x, mask=torch.ones(B, T).bool())`) is a keep mask, as a default of all ones is; modules built and called in the same file (`encoder = Encoder(...)`; `for layer in self.layers` over an `nn.ModuleList`; a module list of module lists unpacked by the loop that runs it, `for norm, attn, ff in self.layers` over `nn.ModuleList([nn.ModuleList([norm, Attention(d), ff]) for _ in range(depth)])` or over an empty `nn.ModuleList([])` that `__init__` fills by one `append` in a loop) are judged with the masks their callers pass. The meaning survives `unsqueeze`/`expand`/`repeat`/indexing, dtype changes (`.bool()`, `.float()`, `.to(dtype)`), helpers and methods of the same file (`get_attn_pad_mask(ids, ids)`, `self.causal_mask(T)`, also a method inherited from a base class or mixin, here or in an imported workspace file), slices of a causal buffer, and `tril`/`triu` with a variable diagonal whose sign the code shows (`1 - torch.triu(torch.ones_like(x), diagonal=d)` is 1 on the kept side; `diagonal=past_length + 1`), and a triangle of ones minus its diagonal (`band_part(ones, 0, -1) - band_part(ones, 0, 0)`, `triu(ones) - eye(n)`), the strict triangle on the same side. A mask turned additive is checked where it is built: `(1.0 - m) * -10000.0` is right for a keep mask, `m * -10000.0` inverts it. A triangle made additive in one expression and added to the scores in another (`bias = np.tril(ones, k=-1) * -np.inf` at module level, then `q @ k.T + bias` in a function) is judged where it is added, as the addition reads it: after any transpose on the way (`+ bias.T` is the other triangle) and over the scores' layout there (added to `k @ q.T`, normalised over the keys, `tril` is each query's future); it is reported there when the addition reads it directly, and at its builder when it comes in as a parameter of the function that adds it (no fix is offered at the addition). `m - 1` is the flipped mask negated (-1 where m is 0), so the sign of the constant decides: `(m - 1.0) * 10000.0` and `(m - 1) * torch.finfo(dtype).max` are right for a keep mask, while `(m - 1.0) * -10000.0` puts +10000 at the padding and 0 at the kept keys, which after softmax is `m * -10000.0` (a constant added to every score changes nothing): reported, with no fix. Likewise a mask times a large positive number added to the scores (`scores + (1.0 - m) * 10000.0`, where subtracting it would mask) puts the large number on the side it should hide: after softmax it is the opposite mask times a large negative number, judged so at the addition (`scores + m * 10000.0` is right for a keep mask). A mask times a large positive number subtracted from the scores (`e -= (1.0 - keep) * 1e9`, TensorFlow and Keras code's form of `e + mask * -1e9`) is judged as that additive mask, True/1 at the positions to ignore, and reported at the mask factor; only where a softmax of the file normalises those scores (a penalty subtracted from span logits that a loss scores, `logits - torch.tril(ones, -1) * 1e12`, follows no attention convention), and not after the scores were multiplied by a mask (`scores * m - 1e4 * (1 - m)`, a blend judged at the product). A mask parameter that defaults to all ones (`if attention_mask is None: attention_mask = torch.ones_like(input_ids)`) is a keep mask, whatever its name; a mask parameter defaulting to None that its own function fills in with a mask it builds (`if pad_mask is None: pad_mask = (tokens != PAD).float()`, then handed through the blocks to the attention) is that mask wherever nothing but the parameter's name says what callers give, while a caller's mask known from code decides where it is given. A boolean mask chosen per example between an all-True mask and another (`torch.where(focus, torch.eye(n, dtype=torch.bool), torch.ones(n, n, dtype=torch.bool))`) is a keep mask (all True masks nothing only when True means keep); `torch.eye` alone says nothing (`masked_fill(eye, -inf)` excludes self-pairs). `m.any(dim)` / `m.all(dim)` coarsen a mask over blocks of positions and keep its meaning (also level after level in a loop, `for _ in range(levels): mask = torch.any(mask.view(b, -1, 2), dim=-1)`), and `flip`/`roll`/`tf.tile` keep a padding mask's. `keras.layers.MultiHeadAttention` takes its mask by keyword or as the fourth positional argument (Keras 3's `query_mask`, `value_mask` and `key_mask` are True at real positions too), and a model loaded with `from_pretrained` from `transformers` (or `pytorch_transformers`, `pytorch_pretrained_bert`), or built from a config (`BertModel(config)`, `AutoModel.from_config(config)`), reads `attention_mask` as 1 = attend; so do transformers' expanders of a 2-D mask (`_prepare_4d_attention_mask(mask, dtype)` and its causal and SDPA variants), whose result is an additive mask (`.bool()` of it is True where masked). A FlexAttention `mask_mod(b, h, q_idx, kv_idx)` given to `create_block_mask` or `create_mask` must return True where the query may attend: its body is read with `q_idx` as the query positions and `kv_idx` as the key positions, so `q_idx >= kv_idx` and `kv_idx < lengths[b]` keep, while `q_idx < kv_idx` or `kv_idx >= lengths[b]` are inverted (reported at the mask_mod argument, with no fix). A mask stored in a dict and read back by its key (`batch = {'mask': ids != pad_id}` or a collate function returning one, then `batch['mask']`; also `dict(mask=...)`) is the mask stored there, and what is stored under `'attention_mask'` decides over the key's name. Ones filled with 0 where a mask is True (`torch.ones_like(ids).masked_fill(ids == pad_id, 0)`) are that mask flipped, zeros filled with 1 the mask itself, and zeros filled with -inf where a mask is True (`torch.zeros(B, S).masked_fill(ids != pad_id, float('-inf'))`) are an additive mask, checked as a masked_fill. A mask passed on inside `**kwargs` (`self.attn(x, x, x, **kwargs)` called as `layer(x, key_padding_mask=keep)`) is judged at the splat, with no fix offered. In a workspace, masks built by a helper of another file (`from utils import make_pad_mask`) keep their meaning across the import; and a function or module whose mask parameter nothing in its own file explains (`def extended_bias(attention_mask, dtype): return attention_mask[:, None, None, :].to(dtype) * torch.finfo(dtype).min`, `def forward(self, x, pad_mask): self.mha(..., key_padding_mask=pad_mask)`) is judged as the files importing it call it (`extended_bias((ids != pad_id).long(), dtype)`, `model(x, ids != pad_id)`), including a mask built in a collate function and iterated from `DataLoader(..., collate_fn=collate)` in the training loop. Ones written into zeros per example up to its length (`m[i, :lengths[i]] = 1` in a loop over the batch) mark positions to keep; ones written into one fixed row (`m[-1, :n_mem] = True`, the summary query barred from the memory keys) say nothing of what the mask means. A fill whose result is discarded (`scores.masked_fill(keep, -inf)` as a statement of its own, an out-of-place op that ATT007 reports) fills nothing and has no polarity: it is not judged. A triangle whose diagonal is minus a size the code does not fix (`torch.tril(ones, diagonal=-self.sliding_window)`) lies that many keys behind each query: tril marks the keys that fell out of a sliding window, triu the window and the future alike, so neither is read as the causal keep or ignore side; so does any diagonal that is a band's or a window's edge: a difference other than the keys' offset over the queries (`diagonal = past_key_values_length - sliding_window - 1`, Hugging Face's sliding-window mask, filled on purpose; also bound to a name first, or a parameter defaulting to a negative number) or a literal two or more keys off the main diagonal away from the causal side (`tril(ones, -4)`, `triu(ones, 3)`). Ones overwritten by index with anything but 1 (`m = torch.ones(T, T, dtype=torch.bool); m[r0:r1, c0:c1] = False`, a block-causal or graph mask cleared where pairs may attend, also built in another file) are no longer all ones: they are no evidence of a mask that masks nothing. A causal part and a padding part combined with the operator of the wrong polarity are reported at the combination, with both parts as related locations, where a use reads the result: keep masks combine with and (`&`, `*`, `torch.minimum`, `logical_and`), ignore masks with or (`|`, `+` read as nonzero, `maximum`, `logical_or`), so `tril(ones) | (ids != pad_id)` (also `+`, `torch.maximum`, `jnp.logical_or`) given to SDPA or filled where it is 0 attends every future key that is not padding, `triu(ones, 1) & (ids == pad_id)` filled where True hides the future only at the padding, and a keep part joined with an ignore part (`tf.maximum(padding_mask, band_part(ones, -1, 0))`, the look-ahead triangle written as a keep mask) is wrong whatever reads it; `~pad | causal_ignore` (one part inverted first) is right. Both parts must be known from their construction: the triangle, and padding of the keys built from padding (the padding id, a tokenizer's `attention_mask`, lengths that count tokens, `m[i, :lengths[i]] = True`); a union read the other way round is the polarity finding alone. A wrongly joined mask combined further with a mask of the same meaning (`(causal | pad) & valid_rows`, `~(causal | pad) | x`) is still that join, reported once at the inner combination; one made in another workspace file and returned from a helper there (`return causal | pad`) is reported where the importing file reads it, at the call, with the combination in the other file as a related location.\n\n**Deliberately left alone** (silence where the evidence is not in the code):\n\n- a polarity known only from a name (`attention_mask`, `key_padding_mask`, `mask`) with no second signal, and prose that code contradicts;\n- masks of two meanings joined (`torch.cat([keep == 0, keep.bool()])`), a mask from lengths joined with one reversed along the same axis (`sequence_mask(start, T) | sequence_mask(T - width - start, T)[:, ::-1]`: the edges of a window, since no batch is padded at both ends; a reversed mask alone, left padding, keeps its meaning), ones written into zeros by a range with both ends on an axis (`m[r0:r1, :c] = True`: a block of rows, such as DN-DETR's denoising groups, not each example's positions up to its length), `pad_sequence(..., padding_value=True)`, `torch.eye` alone, a triangle whose diagonal is a band's or a window's edge (minus a size the code does not fix, a difference such as `past - window - 1`, a literal two or more off the main diagonal);\n- a mask converted to the dtype of a tensor nothing shows to be floating (`.to(dtype=x.dtype)` of a parameter no caller in view passes);\n- a mask built in one module and a model in another that no code in view connects (a collate function's mask and an encoder with no training loop calling it with that batch);\n- a causal mask joined by or with a mask over a prefix's columns (`arange(S) < prefix_len`, `prefix[:, :prefix_len] = True`: a prefix LM), with a mask of the queries (`future & real_q[:, :, None]`: padding rows left unmasked on purpose), or with a padding mask known only by its name (the join itself; a use reading the combination opposite to its triangle is still reported); the maximum of two additive masks; an upper and a lower triangle joined (`triu(ones, M + 1) + tril(ones, 0)`, Transformer-XL's same-length mask over memory and new keys: the two sides of a band, a window's outside), whose lower part bounds nothing as a causal triangle;\n- a list of masks held in a variable (`mask=masks` for Keras `Attention`), a mask passed on inside `**kwargs` with no caller in view, a fill whose result is discarded, and a test's reference computation.\n\nA `masked_fill` with a large negative value (or a `where` choosing between the values and one) is judged on attention scores and on masks or biases being built; on logits the code shows nothing of (an MLP's output over query-key pairs, whatever it is called) it is judged only where a softmax then normalises what the fill produced, and so are query-key scores a function fills and returns unread (a global pointer's span logits, `logits = logits.masked_fill(tril, -1e4); return logits`, scored by a loss): judged where a softmax of the file, or of an importing file that calls the function, normalises them. A triangle on a pair matrix that every softmax reading it normalises over all pairs at once (`torch.softmax(logits.view(B, -1), -1)`, `flatten(1)`, `reshape(B, T * T)`: a span's start and end chosen together) says which pairs exist, not which keys a query may see: it is no causal mask and is not judged (a padding mask filled there still is). A triangle filled into scores the code forms with the keys before the queries (`einsum('bkd,bqd->bkq', k, q)`, `bmm(k, q.transpose(1, 2))`, or q·kᵀ transposed), normalised over that key axis (`softmax(s, dim=1)`), is read over those axes: there the upper triangle (`triu(ones)`) is each query's past and its own key, kept, and `tril(ones)` kept lets each query see its future (reported as such); not where the product with the values sums the weights over their last axis (`wei = k @ q.T`, `softmax(wei, dim=1)`, then `wei @ v`): each row of that product is the token whose output it is, so the rows are the queries whatever the operands are called, the mask is read over (query, key), and the softmax over the other axis is ATT001's finding. A mask of unknown meaning added to zeros (`bias = zeros + attention_mask`) is taken as additive only by assumption, so `1 - bias` or `bias == 1` of it is not read as an additive mask turned 0/1 (pix2struct's 0/1 mask flipped with `1 - bias`). A mask times a large positive number added to the scores that one of the next two statements rewrites to a large negative fill (`scores = scores * (1 - future) + 1e9 * future`, then `scores[scores >= 1e9] = -inf`) is a sentinel: the softmax reads the scores filled where the mask is 1, so the mask itself is judged as masked_fill's (the future kept right, `1e9 * (1 - future)` reported).",
      whyIsThisBad:
        'An inverted mask hides the real tokens and lets every query attend to the padding (or to the future, for causal masks). Nothing fails: the model trains and predicts on the wrong positions, and with a fully inverted padding mask the outputs for real tokens are averages of padding.',
      example: `key_padding_mask = input_ids == tokenizer.pad_token_id  # True at padding
out = F.scaled_dot_product_attention(q, k, v, attn_mask=key_padding_mask[:, None, None, :])`,
      useInstead: `key_padding_mask = input_ids == tokenizer.pad_token_id  # True at padding
out = F.scaled_dot_product_attention(q, k, v, attn_mask=~key_padding_mask[:, None, None, :])  # True = attend`,
      whereReported:
        'At the mask argument of the API that receives it, the use (for `masked_fill`, at the call). Related locations: where the mask is built (the comparison, `tril`/`triu`, the tokenizer output, or the parameter it comes in as), also inside a helper that returns it, and the receiving call with its convention. A helper judged as another file calls it is reported in its own file, at the use, with that call as a related location, and, when that file got the mask from a third one (`ids, mask = collate(batch)` from data.py, then `encoder(ids, mask)`), also with the place the mask is built there.',
      fixSafety:
        'The fix inverts the mask (`~(...)` for boolean masks, `(... == 0)` for 0/1 integer masks). It changes which positions are attended, so it is offered as an unsafe quick fix and never applied by a fix-all. No fix is offered for an additive mask read through `1 - m` (`== 0` of it would not be the keep mask).',
      references: [
        {
          title: 'torch.nn.functional.scaled_dot_product_attention',
          url: 'https://pytorch.org/docs/stable/generated/torch.nn.functional.scaled_dot_product_attention.html',
        },
        { title: 'torch.nn.MultiheadAttention', url: 'https://pytorch.org/docs/stable/generated/torch.nn.MultiheadAttention.html' },
        { title: 'Hugging Face: attention_mask', url: 'https://huggingface.co/docs/transformers/glossary#attention-mask' },
        { title: 'torch.nn.attention.flex_attention', url: 'https://pytorch.org/docs/stable/nn.attention.flex_attention.html' },
      ],
    },
  },

  create(ctx: RuleContext) {
    const reported = new Set<number>();
    /** Combinations already reported (their node), for masks joined the wrong way (checkJoin). */
    const reportedJoins = new Set<number>();
    const sites: MaskSite[] = [];
    /** Additions of a sentinel judged as the fill that rewrites it (sentinelRewritten). */
    const sentinelJudged = new Set<number>();
    /** Mask nodes whose polarity some evaluation context knows from the mask's construction, not from a name. */
    const knownElsewhere = new Set<number>();
    /**
     * A polarity known only from a name (`attention_mask`, `key_padding_mask`) is weak evidence: libraries use
     * both conventions under both names. It counts only where it reaches a library parameter whose meaning is
     * fixed, and only when the file's own masking code never uses the name the other way round.
     */
    const nameContradicted = (name: string | undefined): boolean =>
      name === undefined ||
      sites.some(
        (s) =>
          s.convention === 'fill' &&
          s.mask.mask?.byName &&
          s.mask.mask.nameSource === name &&
          s.mask.mask.polarity !== undefined &&
          s.mask.mask.polarity !== s.expects,
      );
    /**
     * At a library parameter, a polarity known only from a name needs a second, independent signal (a name alone
     * says nothing about which convention this code follows):
     * - the code stores it, after an operation that may flip it, under a name whose own convention agrees
     *   (`pad_mask = (attention_mask == 0)[:, None, None, :]`: the tokenizer's keep mask flipped, and named as a
     *   padding mask), or
     * - another use in the same function reads the same name in the convention the name states
     *   (`masked_fill(key_padding_mask, -inf)` on a slow path), or the fills a `mask` parameter's meaning was read from.
     */
    /** The function a node is in (its id; undefined at module level). */
    const enclosingFunction = (node: PyNode): number | undefined => {
      let n: PyNode | null = node.parent;
      while (n && n.type !== 'function_definition') n = n.parent;
      return n?.id;
    };
    const apiNameCorroborated = (site: MaskSite): boolean => {
      const m = site.mask.mask!;
      const stored = rootName(ctx.analysis, site.maskNode);
      const storedAs = stored === undefined ? undefined : maskOfName(stored);
      if (storedAs?.polarity !== undefined && storedAs.nameSource !== m.nameSource && storedAs.polarity === m.polarity) return true;
      // Another use of the name in another function of the file is no data flow to this one (a model's modules hold
      // masks of either meaning under one name); another use inside the same function reads the same value, and so
      // does a fill the polarity was read from (mask-ops.ts: a `mask` parameter filled where True in its function,
      // `filled in` in the name source, the value reaching this use through the calls).
      const fn = enclosingFunction(site.node);
      const ownFill = /\(filled in /.test(String(m.nameSource));
      const followed = storesFollowName(m);
      return sites.some(
        (s) =>
          s !== site &&
          (followed || ownFill || enclosingFunction(s.node) === fn) &&
          s.mask.mask?.byName &&
          s.mask.mask.nameSource === m.nameSource &&
          s.mask.mask.polarity !== undefined &&
          !s.mask.mask.additive &&
          s.mask.mask.polarity === s.expects,
      );
    };
    /**
     * At a masking fill, a polarity known only from a library name counts only where the workspace's own code builds
     * masks of the name's convention under that name (a collate's `"encoder_padding_mask": ids == PAD`) and the file's
     * other fills of the name agree with it. Names alone are no evidence: neither the library's name of a parameter nor
     * the author's second name for the value (`keep_in_window = attention_mask != 0`) shows what the parameter holds
     * (a tokenizer's 0/1 mask, or the additive 4-D one a model hands its layers), so a second name that agrees with the
     * first corroborates nothing (one that disagrees still silences: the names conflict).
     */
    const fillNameCorroborated = (site: MaskSite): boolean => {
      const m = site.mask.mask!;
      if (site.display !== 'masked_fill' && site.display !== 'additive mask') return false;
      const stored = rootName(ctx.analysis, site.maskNode);
      const storedAs = stored === undefined ? undefined : maskOfName(stored);
      if (storedAs?.polarity !== undefined && storedAs.nameSource !== m.nameSource && storedAs.polarity !== m.polarity) return false;
      // The workspace's own code stores masks of the name's convention under the name: the project follows it, and this
      // fill contradicts the file's other fills of the name, which agree with it (none the other way round).
      if (!storesFollowName(m)) return false;
      const corroborators = site.display === 'masked_fill' ? ['masked_fill'] : ['masked_fill', 'additive mask'];
      const same = sites.filter(
        (s) =>
          s !== site &&
          s.convention === 'fill' &&
          corroborators.includes(s.display) &&
          s.mask.mask?.byName &&
          s.mask.mask.nameSource === m.nameSource &&
          s.mask.mask.polarity !== undefined &&
          !s.mask.mask.additive,
      );
      return same.some((s) => s.mask.mask!.polarity === s.expects) && same.every((s) => s.mask.mask!.polarity === s.expects);
    };
    /** The workspace's code stores masks under the polarity's name, every one of the name's own library convention. */
    const storesFollowName = (m: MaskInfo): boolean => {
      const name = String(m.nameSource);
      const convention = maskOfName(name)?.polarity;
      return convention !== undefined && workspaceConvention(ctx.analysis, name) === convention;
    };
    return {
      mask(site: MaskSite) {
        // A fill whose result is discarded has no polarity (and is no use of the name's convention elsewhere).
        if (discardedSite(ctx.analysis, site)) return;
        // An additive triangle added into the first columns of a wider mask (a memory's window): no causal mask of the
        // queries' own keys.
        if (site.display === 'additive mask' && ctx.analysis.facts.windowTriangles.has(site.node.id)) return;
        sites.push(site);
      },
      end() {
        moveTrianglesToUses();
        // A fill of logits the code shows nothing of, or a product of the scores with a mask, counts only where a softmax
        // reads what it produced (or, handed back unread by its function, where an importing file's softmax may).
        const unread = sites.filter((s) => s.softmaxOf !== undefined && !softmaxReads(s.softmaxOf) && !(s.returnedFrom && importerSoftmaxes(s.returnedFrom)));
        for (const s of unread) sites.splice(sites.indexOf(s), 1);
        for (const s of sites) if (s.mask.mask?.polarity && !s.mask.mask.byName && !s.mask.mask.documented) knownElsewhere.add(s.maskNode.id);
        for (const site of sites) check(site);
      },
    };

    /**
     * An additive triangle made additive in one expression (`bias = np.tril(ones, k=-1) * -np.inf`) and added to the
     * scores in another (`q @ k.T + bias`, `k @ q.T + bias`, `s + bias.T`): which side of the diagonal is each query's
     * past depends on the axes of the scores it meets, so it is judged there, as the addition reads it (after any
     * transpose), with the scores' layout that the softmax reading them shows (scoresLayout), instead of where it was
     * built, where a query-first layout could only be assumed. With no addition in view it is judged where it was built.
     * A triangle that reaches the addition through a parameter (`def attend(q, k, v, bias): logits += bias`, called with
     * several biases) is still reported at its builder, the place that chose it; one the addition reads directly (a
     * module constant, a local) is reported where it is added.
     */
    function moveTrianglesToUses(): void {
      const uses = ctx.analysis.facts.additiveTriangleUse;
      const moved: MaskSite[] = [];
      for (const b of [...sites]) {
        const at = uses.filter((u) => u.builtAt === b.node);
        // Only the product that made a triangle additive is a use's builder (ops.ts: noteTriangleUse), though in another
        // context it may make another mask additive (a helper given a triangle by one caller, a padding mask by another:
        // that one is judged where it is built); a triangle whose diagonal is a band's edge has no polarity to judge.
        const m = b.mask.mask!;
        if (at.length === 0 || !m.tri || !m.polarity) continue;
        sites.splice(sites.indexOf(b), 1);
        for (const u of at) {
          const polarity = u.tri.region === m.tri.region ? m.polarity : FLIPPED[m.polarity]!;
          const place = u.viaParameter ? { maskNode: b.maskNode } : { maskNode: u.maskNode, triangleBuiltAt: b.node };
          moved.push({ ...b, node: u.node, ctx: u.ctx, mask: { ...b.mask, mask: { ...m, tri: u.tri, polarity } }, ...place });
        }
      }
      sites.push(...moved);
    }

    /**
     * Scores a function fills and returns unread are normalised by an importing file that calls the function (or, for a
     * module's forward, names its class) and takes a softmax: a helper of attention split across files.
     */
    function importerSoftmaxes(fn: PyNode): boolean {
      const link = ctx.analysis.link;
      const nameNode = childByField(fn, 'name');
      if (!link || !nameNode) return false;
      let name = ctx.text(nameNode);
      let cls: PyNode | null = fn.parent;
      while (cls && cls.type !== 'class_definition') cls = cls.parent;
      // A module's forward runs where its class is called (`self.pointer(x)` of a `GlobalPointer(...)`).
      if (cls && ['forward', '__call__', 'call'].includes(name)) name = ctx.text(childByField(cls, 'name')!);
      const called = new RegExp(`\\b${name}\\s*\\(`);
      return importingFiles(link, 8, true).some((path) => {
        const source = link.workspace.textFacts(path, sourceText);
        return !!source && called.test(source) && /\bsoftmax\s*\(|\bSoftmax\s*\(/.test(source);
      });
    }

    /**
     * Every softmax of the file that reads what this masking step produced normalises over an axis that merges the
     * scores' rows and columns (`logits.view(B, -1).softmax(-1)`, `flatten(1)`: shape-ops.ts, `pairsMerged`), or over
     * every element: one distribution over all pairs (a span's start and end chosen together), not each query's over
     * its keys. A triangle there bounds which pairs exist (end after start), it is no causal mask, and which side it
     * keeps is the task's, not attention's. Some softmax must read the step: with none in view nothing is shown.
     */
    function pairsNormalisedTogether(site: MaskSite): boolean {
      const readers = ctx.analysis.facts.softmax.filter((s) => alternatives(s.input).some((alt) => alt.some((o) => o.kind === 'mask' && o.node === site.node)));
      return readers.length > 0 && readers.every((s) => normalisedAxis(s) === -1 && s.input.attn?.pairsMerged === true);
    }

    /**
     * Where the scores a fill masks have their keys and queries, as the code forms them (`einsum('bkd,bqd->bkq', k, q)`,
     * `bmm(k, q.transpose(1, 2))`: keys at -2, queries at -1) and every softmax reading the step normalises (over the
     * key axis): 'keysFirst' when the keys come before the queries, so a triangle over the last two axes is the
     * transpose of the one over (query, key) and means the other side (`triu(ones)` keeps each query's past there);
     * 'queriesFirst' otherwise, and whenever the layout is not known.
     */
    function scoresLayout(site: MaskSite): 'queriesFirst' | 'keysFirst' {
      // The scores a fill writes into (where the fill records them) must be keys first too.
      const fills = ctx.analysis.facts.fill.filter((f) => f.node === site.node && f.ctx === site.ctx);
      if (fills.some((f) => f.target.attn && (f.target.attn.keyAxis !== -2 || f.target.attn.queryAxis !== -1))) return 'queriesFirst';
      // The step on the scores' path is the fill itself, or the addition of an additive mask written there (`s + tri * -1e9`).
      const step = (o: PathOp): boolean => o.kind === 'mask' && (o.node === site.node || (o.maskNode !== undefined && unparen(o.maskNode) === site.node));
      const readers = ctx.analysis.facts.softmax.filter((s) => alternatives(s.input).some((alt) => alt.some(step)));
      // The product with the values sums the weights over the axis this layout calls the queries (`wei @ v` after
      // `softmax(k @ q.T, dim=1)`; not `w.T @ v`): each row of it is the token whose output it is, so the rows are the
      // queries whatever the operands were called, and the softmax over the other axis is ATT001's finding, not a layout
      // that flips the mask.
      const rowsAttend = (s: (typeof readers)[number]): boolean =>
        consumersOf(ctx.analysis, s.node).some((c) => {
          const w = c.site.a.attn;
          return c.withValues && w?.softmax?.site === s.node && w.queryAxis !== undefined && c.contracted === w.queryAxis;
        });
      const keysFirst = (s: (typeof readers)[number]): boolean =>
        normalisedAxis(s) === -2 && s.input.attn?.keyAxis === -2 && s.input.attn.queryAxis === -1 && !rowsAttend(s);
      return readers.length > 0 && readers.every(keysFirst) ? 'keysFirst' : 'queriesFirst';
    }

    /** Some softmax of the file normalises values on whose path this masking step lies. */
    function softmaxReads(step: PyNode): boolean {
      return ctx.analysis.facts.softmax.some((s) => alternatives(s.input).some((alt) => alt.some((o) => o.kind === 'mask' && o.node === step)));
    }

    function check(site: MaskSite): void {
      const m0 = site.mask.mask;
      if (m0?.additive && m0.ownConversion) checkConverted(site, m0);
      if (m0?.additive) checkAdditiveAsBoolean(site, m0);
      if (!m0 || m0.additive) return;
      const triangular = m0.tri !== undefined || m0.causalBound !== undefined || m0.join !== undefined || (!!m0.causal && !m0.padding);
      // A triangle over a pair matrix whose softmax normalises every pair at once is no causal mask (below).
      if (site.convention === 'fill' && triangular && pairsNormalisedTogether(site)) return;
      // A triangle over scores the code lays out with the keys before the queries: read over their axes (below).
      const layout = site.convention === 'fill' && triangular ? scoresLayout(site) : 'queriesFirst';
      // Only a triangle alone is read over them (one joined with padding or another mask is not judged there).
      if (layout === 'keysFirst' && (!m0.tri || !m0.polarity || m0.padding || m0.join || m0.causalBound)) return;
      const m: MaskInfo = layout === 'keysFirst' ? { ...m0, polarity: FLIPPED[m0.polarity!]!, why: msg(T.keysFirst, m0.why) } : m0;
      // A subtracted penalty masks attention only where a softmax reads the scores it is subtracted from.
      if (
        site.normalisedAt &&
        ctx.analysis.facts.softmaxFormedAt(site.normalisedAt).length === 0 &&
        !(site.returnedFrom && importerSoftmaxes(site.returnedFrom))
      )
        return;
      // A 0/1 mask the code makes float (`keep.float()`, `(ids != pad).to(torch.float32)`), given where a float mask is
      // added to the scores: whatever its polarity, it adds 0 or 1 and masks nothing.
      // A causal triangle the code builds inside it (masks.ts: causalBound) shows a 0/1 mask as well, whatever the other
      // part is known from.
      const shownPolarity = m.polarity && !m.byName && !m.documented ? m.polarity : m.causalBound?.polarity;
      if (shownPolarity && site.floatAdded && !m.fromAdditive && floatByCode(site)) {
        reportFloatAdded(site, shownPolarity);
        return;
      }
      // A mask flipped by arithmetic (`1 - m`), given as it is where a float mask is added to the scores.
      if (m.polarity && site.floatAdded && oneMinusFlip(site)) {
        reportOneMinusAdded(site);
        return;
      }
      // A causal and a padding part combined with the operator of the wrong polarity: reported at the combination.
      if (m.join && checkJoin(site, m, m.join)) return;
      // A causal triangle the code builds, combined with a mask whose meaning is not shown by code (a name, prose) or is
      // the other one: the triangle alone decides when the use reads it the other way round.
      if (m.causalBound && (!m.polarity || m.byName || m.documented) && checkBound(site, m, m.causalBound)) return;
      if (!m.polarity) return;
      // Where a caller's context shows what the mask really is, that evidence decides, not the parameter's name
      // nor its docstring: code outranks prose.
      if ((m.byName || m.documented) && knownElsewhere.has(site.maskNode.id)) return;
      // A polarity known only from a name, against the name the code itself stores the mask under
      // (`remove_from_window = attention_mask != 0`: inside a layer whose `attention_mask` is already additive,
      // `!= 0` is True at the positions to remove): the names conflict, so nothing is known.
      if (m.byName && storedNamePolarity(site) !== undefined && storedNamePolarity(site) !== m.polarity) return;
      // A polarity known only from a name, against what the workspace's own code stores under that name
      // (`"encoder_padding_mask": enc["attention_mask"]` in a features module: a keep mask under PyTorch's padding
      // name): the project does not follow the name's library convention, so the name says nothing.
      if (m.byName && nameConventionContradicted(m)) {
        checkWorkspaceReading(site, m);
        return;
      }
      // In the code's own masking (masked_fill, `m * -1e9`), a polarity known only from a name counts only where the
      // workspace's code builds masks of the name's convention under it (fillNameCorroborated), not because the author's
      // second name agrees (`keep_in_window = attention_mask != 0`: two names, no construction), nor because another fill
      // of the file uses the name the conventional way: inside a model the same name holds the 2-D keep mask, the 4-D
      // additive one and boolean masks of either meaning from function to function, and the other fill is no data flow
      // to this one.
      if (m.byName && (site.convention === 'api' ? nameContradicted(m.nameSource) || !apiNameCorroborated(site) : !fillNameCorroborated(site))) return;
      // A large positive sentinel added where the mask is 1 and rewritten to a fill right after
      // (`scores[scores >= 1e9] = -inf`): the scores reaching the softmax are filled where the mask is 1, so the mask
      // itself (not its flip) is judged, as masked_fill's.
      const sentinel = m.fromAdditive && !sentinelJudged.has(site.node.id) ? sentinelRewritten(site) : undefined;
      if (sentinel) {
        sentinelJudged.add(site.node.id);
        const { scaledPositive: _sp, ...plain } = sentinel;
        check({ ...site, mask: { ...site.mask, mask: { ...plain, why: msg(T.sentinelFill, sentinel.why) } } });
        return;
      }
      if (m.polarity === site.expects) return;
      if (reported.has(site.maskNode.id)) return;
      // A test's reference computation follows the convention of the kernel it checks, or the test fails.
      if (testReference(ctx.analysis, site.node)) return;
      reported.add(site.maskNode.id);
      // A mask passed on inside `**kwargs` is named by the splat (`**attn_kwargs`).
      const splat = site.maskNode.parent?.type === 'dictionary_splat' ? site.maskNode.parent : undefined;
      const maskText = quote(ctx.text(splat ?? site.maskNode), 50);
      const expectation = site.subtracted
        ? msg(T.masksWhereTrue)
        : site.display === 'masked_fill' || site.display === 'additive mask'
          ? msg(T.fillsWhereTrue)
          : site.display === 'scores × mask'
            ? msg(T.keepsWhereTrue)
            : msg(T.expects, describePolarity(site.expects));
      const receiver = receiverOf(site);
      // A product of two terms the code flips to True at padding, read as a pair of keep masks (MaskInfo.paddingPair):
      // filled where True it hides only pairs of padding positions. Inverting it would hide every pair of real ones, so
      // no fix is offered.
      if (m.paddingPair && m.polarity === 'keep' && site.expects === 'ignore') {
        ctx.report({
          node: site.display === 'masked_fill' ? site.node : site.maskNode,
          message: msg(T.paddingPairFilled, maskText, m.why, receiver, expectation),
          // Where the product is made, without the keep reading the lattice gives it.
          /* c8 ignore next: a pair product is made at a node, so origins.ts always gives it an origin */
          related: maskBuilt(ctx.analysis, m.origin ? { ...m, origin: { node: m.origin.node } } : m),
        });
        return;
      }
      const meaning = msg(m.polarity === 'keep' ? T.meansKeep : T.meansIgnore);
      const consequence = msg(site.expects === 'keep' ? T.ignoredAttended : T.keptMaskedOut);
      const message = msg(T.polarityMismatch, maskText, meaning, m.why, receiver, expectation, consequence);
      // masked_fill: the corpus convention points at the call; API arguments: at the mask argument.
      ctx.report({
        node: site.display === 'masked_fill' ? site.node : site.maskNode,
        message,
        fix: fixFor(site),
        // Reported at the use; where the mask was built, and the API that reads it, are the evidence.
        related: [
          ...maskBuilt(ctx.analysis, m),
          site.convention === 'api'
            ? { node: site.node, message: msg(T.readsAs, apiName(site.display), site.param, describePolarity(site.expects)) }
            : undefined,
        ],
      });
    }

    /**
     * The site adds a mask times a large positive number to the scores (`scores = scores * (1 - future) + 1e9 * future`)
     * and one of the next two statements of the block rewrites every entry at least that large into a large negative
     * fill (`scores[scores >= 1e9] = -torch.inf`, also `>` or `==`): the positive number is a sentinel, and what the
     * softmax reads is the scores filled where the mask is 1, the convention of `masked_fill`, not an addition.
     */
    function sentinelRewritten(site: MaskSite): MaskInfo | undefined {
      const add = unparen(site.node);
      const own = ctx.analysis.eval(site.maskNode, site.ctx).mask;
      if (add.type !== 'binary_operator' || !own?.scaledPositive || !own.polarity) return undefined;
      let st: PyNode = add;
      while (st.parent && st.parent.type !== 'block' && st.parent.type !== 'module') st = st.parent;
      const assign = st.type === 'expression_statement' ? namedChildren(st)[0] : undefined;
      const target = assign?.type === 'assignment' ? childByField(assign, 'left') : undefined;
      if (!target || target.type !== 'identifier' || !st.parent) return undefined;
      const name = ctx.text(target);
      const after = namedChildren(st.parent)
        .filter((n) => n.start >= st.end)
        .slice(0, 2);
      const rewrites = after.some((next) => {
        const a = namedChildren(next)[0];
        const left = a?.type === 'assignment' ? childByField(a, 'left') : undefined;
        const index = left?.type === 'subscript' ? childByField(left, 'subscript') : undefined;
        const cmp = index ? unparen(index) : undefined;
        if (!a || !left || !cmp || cmp.type !== 'comparison_operator' || ctx.text(childByField(left, 'value')!) !== name) return false;
        const [l, r] = namedChildren(cmp);
        const op = cmp.children.find((c) => !c.named)?.type;
        if (!l || !r || ctx.text(l) !== name || !(op === '>=' || op === '>' || op === '==')) return false;
        const bound = ctx.analysis.eval(r, site.ctx);
        const fill = childByField(a, 'right');
        // The same test of a fill that masks as every rule's (a large negative number or -inf, also by name).
        return bound.kind === 'number' && bound.num !== undefined && bound.num >= 1e4 && !!fill && isMaskingFill(ctx.analysis.eval(fill, site.ctx));
      });
      return rewrites ? own : undefined;
    }

    /** The workspace stores a mask of the other meaning (or of both meanings) under the name the polarity comes from. */
    function nameConventionContradicted(m: MaskInfo): boolean {
      const name = m.nameSource;
      const convention = name === undefined ? undefined : maskOfName(name)?.polarity;
      if (name === undefined || convention === undefined) return false;
      const stored = workspaceConvention(ctx.analysis, name);
      return stored !== undefined && stored !== convention;
    }

    /**
     * The polarity a site's mask has when its name is read as the workspace's stores read it: the name's value
     * (reshaped, converted, flipped) with the name's meaning swapped. (A mask combined with a causal triangle,
     * `m | triu(ones, 1)`, reaches its fill with no nameSource and is not asked: fixture mask_name_stored_combined_ok.)
     */
    function workspaceReading(s: MaskSite): 'keep' | 'ignore' | undefined {
      // Only sites whose mask carries the name's convention (nameSource) are asked: the name's polarity, flipped by the
      // workspace's stores; a name with a convention always gives one (names.ts: maskOfName).
      return FLIPPED[String(s.mask.mask?.polarity)];
    }

    /**
     * A mask known by a name whose library convention the workspace contradicts, every store there agreeing on the
     * other meaning (`"encoder_padding_mask": enc["attention_mask"]`, 1 on tokens): read in the workspace's meaning,
     * it is judged only when another use in the file reads the same name that way (`masked_fill(1 - m, -inf)` beside
     * the reported `masked_fill(m, -inf)`) and no other use reads it the name's way. Two uses of one parameter cannot
     * both be right; the workspace's construction says which.
     */
    function checkWorkspaceReading(site: MaskSite, m: MaskInfo): void {
      const name = m.nameSource!;
      const store = workspaceStoresOf(ctx.analysis, name)[0];
      // Stores of both meanings: nothing is known.
      if (!store || workspaceConvention(ctx.analysis, name) === 'both') return;
      const polarity = workspaceReading(site);
      if (!polarity || polarity === site.expects || reported.has(site.maskNode.id)) return;
      const others = sites.filter((s) => s !== site && s.maskNode.id !== site.maskNode.id && s.mask.mask?.nameSource === name);
      const readings = others.map((s) => ({ s, p: workspaceReading(s) }));
      if (readings.length === 0 || readings.some((r) => r.p !== r.s.expects) || testReference(ctx.analysis, site.node)) return;
      reported.add(site.maskNode.id);
      const why = msg(T.workspaceStores, quote(name, 40), store.why);
      const message = msg(
        T.polarityMismatch,
        quote(ctx.text(site.maskNode), 50),
        msg(polarity === 'keep' ? T.meansKeep : T.meansIgnore),
        why,
        receiverOf(site),
        site.display === 'masked_fill' || site.display === 'additive mask' ? msg(T.fillsWhereTrue) : msg(T.expects, describePolarity(site.expects)),
        msg(site.expects === 'keep' ? T.ignoredAttended : T.keptMaskedOut),
      );
      ctx.report({
        node: site.display === 'masked_fill' ? site.node : site.maskNode,
        message,
        fix: fixFor(site),
        related: [
          {
            node: store.node,
            ...(store.path !== undefined ? { file: { path: store.path, source: store.source } } : {}),
            message: msg(T.storedUnder, quote(name, 40), describePolarity(store.polarity)),
          },
          ...readings.map((r) => ({ node: r.s.node, message: msg(T.readAsStored, quote(name, 40)) })),
        ],
      });
    }

    /**
     * A mask whose True entries contain a causal triangle's or lie within them (masks.ts: causalBound), read in the
     * polarity opposite to the triangle's: wrong whatever the other part of the combination holds. True when reported.
     */
    function checkBound(site: MaskSite, m: MaskInfo, b: NonNullable<MaskInfo['causalBound']>): boolean {
      if (reported.has(site.maskNode.id) || testReference(ctx.analysis, site.node)) return false;
      // Made a float 0/1 mask (`.to(q.dtype)` of a boolean one) where the API adds float masks: it masks nothing either way.
      if (site.floatAdded && !m.fromAdditive && m.dtype !== undefined && FLOAT_DTYPES.has(m.dtype)) {
        reportFloatAdded(site, b.polarity);
        return true;
      }
      if (b.polarity === site.expects) return false;
      // Filled into a mask that already hides each query's future (an additive causal mask, its large negative values
      // strictly above the diagonal: Hugging Face's `causal[..., :n].masked_fill(causal[..., :n].eq(0) * pad, min)`):
      // whatever lies on the kept side and is filled there adds masking to the past (padded keys); the future stays hidden.
      if (site.convention === 'fill' && fillsIntoFutureHidden(site)) return false;
      reported.add(site.maskNode.id);
      const maskText = quote(ctx.text(site.maskNode), 50);
      const expectation =
        site.display === 'masked_fill' || site.display === 'additive mask'
          ? msg(T.fillsWhereTrue)
          : site.display === 'scores × mask'
            ? msg(T.keepsWhereTrue)
            : msg(T.expects, describePolarity(site.expects));
      const side = msg(b.polarity === 'keep' ? T.pastSide : T.futureSide);
      ctx.report({
        node: site.display === 'masked_fill' ? site.node : site.maskNode,
        message: msg(
          T.boundReversed,
          maskText,
          b.part.why,
          side,
          receiverOf(site),
          expectation,
          msg(b.polarity === 'ignore' ? T.boundSeesFuture : T.boundHidesPast),
        ),
        related: [
          ...maskBuilt(ctx.analysis, b.part, msg(T.theCausalPart)),
          site.convention === 'api'
            ? { node: site.node, message: msg(T.readsAs, apiName(site.display), site.param, describePolarity(site.expects)) }
            : undefined,
        ],
      });
      return true;
    }

    /**
     * Every fill at this site writes into values that already hide each query's future keys: an additive mask the code
     * builds (not one read as additive for want of a meaning) whose large negative values are the strict upper triangle.
     * A fill there only masks more; it cannot show the future. (Scores such a mask was added to before the fill are not
     * read so: the scores' value does not carry the added mask's triangle.)
     */
    function fillsIntoFutureHidden(site: MaskSite): boolean {
      const fills = ctx.analysis.facts.fill.filter((f) => f.node === site.node && f.ctx === site.ctx);
      const hidesFuture = (m: MaskInfo | undefined): boolean => !!m?.additive && !m.additiveAssumed && m.tri?.region === 'upper' && m.tri.k >= 1;
      return fills.length > 0 && fills.every((f) => hidesFuture(f.target.mask));
    }

    /**
     * An additive mask the code builds (`tf.where(keep == 0, -1e9, 0.0)`, `(1 - keep) * -1e9`) given to a library
     * parameter that reads 0/1 or boolean keep masks and adds no float mask (Keras' `attention_mask`, Flax's `mask`): its
     * zeros are the kept positions, read there as masked. Not a mask read as additive for want of a meaning or known from
     * prose, nor a parameter whose convention is True = ignore (a nonzero entry is True where it masks).
     */
    function checkAdditiveAsBoolean(site: MaskSite, m: MaskInfo): void {
      if (site.convention !== 'api' || site.floatAdded || site.expects !== 'keep') return;
      // Made additive by code (its 0 and large negative values), whatever its condition's meaning is known from; not one
      // the code shows putting its large negative values on the kept positions (read as a boolean, that one is right).
      if (m.additiveAssumed || m.documented || m.fromAdditive || (m.builtFrom === 'keep' && !m.byName)) return;
      reportAtApiSite(site, m, T.additiveAsBoolean);
    }

    /**
     * An additive mask converted from its own triangle (`allowed.float().masked_fill(allowed == 0, -inf)`, mask-ops.ts:
     * ownConversion), read by an API that adds it to the scores: large negative values on the lower triangle hide the
     * earlier keys and show the later ones. The triangle's region after every transpose on the way decides (the
     * conversion itself is no finding: `triu(ones) == 1` converted and then transposed is PyTorch's own helper).
     */
    function checkConverted(site: MaskSite, m: MaskInfo): void {
      if (site.convention !== 'api' || !site.floatAdded || m.tri?.region !== 'lower' || m.byName || m.documented) return;
      reportAtApiSite(site, m, T.convertedReversed);
    }

    /**
     * Reports `template` (quoting the mask, why its meaning is known, and the API parameter reading it) at the mask of an
     * API site, once per mask node and never in a test's reference computation; the mask's construction and the reading
     * parameter are its related locations.
     */
    function reportAtApiSite(site: MaskSite, m: MaskInfo, template: Template): void {
      if (reported.has(site.maskNode.id) || testReference(ctx.analysis, site.node)) return;
      reported.add(site.maskNode.id);
      ctx.report({
        node: site.maskNode,
        message: msg(template, quote(ctx.text(site.maskNode), 50), m.why, msg(T.receiverParam, apiName(site.display), site.param)),
        related: [
          ...maskBuilt(ctx.analysis, m),
          { node: site.node, message: msg(T.readsAs, apiName(site.display), site.param, describePolarity(site.expects)) },
        ],
      });
    }

    /** What reads the mask at a site, for messages. */
    function receiverOf(site: MaskSite): MessageParts {
      return site.display === 'masked_fill'
        ? msg(T.receiverMaskedFill)
        : site.display === 'additive mask'
          ? msg(site.subtracted ? T.receiverSubtracted : T.receiverAdditive)
          : site.display === 'scores × mask'
            ? msg(T.receiverScoresTimes)
            : msg(T.receiverParam, apiName(site.display), site.param);
    }

    /**
     * A mask joined from a causal and a padding part with the wrong operator (masks.ts: combineMasks), read at this
     * site. A union of keep masks (an intersection of ignore masks) is reported where a use reads it in the polarity it
     * has, once per combination; read the other way round, the polarity finding says so. One part of each meaning is
     * wrong whatever reads it. True when the site is settled (reported, or left to a test's reference).
     */
    function checkJoin(site: MaskSite, m: MaskInfo, j: MaskJoin): boolean {
      if (j.kind !== 'mixed' && m.polarity !== site.expects) return false;
      if (testReference(ctx.analysis, site.node)) return true;
      // origins.ts stamps the combination's expression on the mask it makes; the type keeps the field optional.
      /* c8 ignore next: a joined mask always carries its origin (the combination), as origins.ts records it */
      const at = j.at?.node ?? m.origin?.node ?? site.maskNode;
      if (reportedJoins.has(at.id)) return true;
      reportedJoins.add(at.id);
      const meaning = (p: MaskInfo): MessageParts => msg(p.polarity === 'keep' ? T.meansKeep : T.meansIgnore);
      const template = j.kind === 'keepUnion' ? T.joinKeepUnion : j.kind === 'ignoreIntersection' ? T.joinIgnoreIntersection : T.joinMixed;
      ctx.report({
        node: at,
        message: msg(template, quote(ctx.text(at), 50), j.causal.why, meaning(j.causal), j.pad.why, meaning(j.pad), receiverOf(site)),
        related: [
          ...maskBuilt(ctx.analysis, j.causal, msg(T.theCausalPart)),
          ...maskBuilt(ctx.analysis, j.pad, msg(T.thePaddingPart)),
          combinedElsewhere(j, at),
          { node: site.node, message: msg(T.readsCombined, receiverOf(site)) },
        ],
      });
      return true;
    }

    /** The combination in another workspace file, returned by the helper whose call `at` is (portable.ts). */
    function combinedElsewhere(j: MaskJoin, at: { start: number; end: number }): RelatedSpec | undefined {
      const e = j.elsewhere;
      const source = e && ctx.analysis.link?.workspace.module(e.path)?.tree.source;
      if (!e || source === undefined) return undefined;
      const call = ctx.analysis.tree.source.slice(at.start, at.end);
      return { node: { start: e.start, end: e.end }, file: { path: e.path, source }, message: msg(T.combinedElsewhere, quote(call, 40)) };
    }

    /** The mask's dtype, as the code makes it, is a floating one. */
    function floatByCode(site: MaskSite): boolean {
      return FLOAT_DTYPES.has(String(site.mask.dtype));
    }

    /**
     * The mask reaches the site as the number tensor `1 - m` (`key_padding_mask=(1 - mask)`, or stored under a name first):
     * PyTorch has no `-` for boolean tensors, so `1 - m` is an integer or floating tensor whatever m's dtype is not
     * known to be, and a PyTorch mask parameter that adds float masks adds it (or rejects an integer one). Not when the
     * code gives m a dtype (`.bool()` after, an integer or boolean m: a legacy uint8 mask, or an error PyTorch raises),
     * nor for a mask read from an additive one (`1 - bias` is no 0/1 mask). Decided from the code, not the names: the
     * finding holds whatever m's polarity.
     */
    function oneMinusFlip(site: MaskSite): PyNode | undefined {
      const m = site.mask.mask!;
      const at = m.flippedAt?.node;
      const u = at ? unparen(at) : undefined;
      if (!u || m.fromAdditive || m.dtype === 'bool' || site.mask.dtype === 'bool' || site.mask.dtype === 'int') return undefined;
      // `1 - m` or `1.0 - m` (not `m - 1`, `~m`, `m == 0`).
      const left = u.type === 'binary_operator' && u.children[1]?.type === '-' ? childByField(u, 'left') : undefined;
      if (!left || !/^1(\.0*)?$/.test(ctx.text(unparen(left)))) return undefined;
      return u;
    }

    function reportOneMinusAdded(site: MaskSite): void {
      // The edit rewrites the flip itself, so only where nothing converts it after (`(1 - m).float()` would stay float).
      reportAddedAsFloat(site, T.oneMinusAdded, oneMinusFlip(site)!, site.mask.dtype === undefined);
    }

    function reportFloatAdded(site: MaskSite, polarity: 'keep' | 'ignore'): void {
      reportAddedAsFloat(site, T.floatAdded, site.maskNode, true, polarity);
    }

    /**
     * A 0/1 mask given as a number tensor to a parameter that adds float masks (`template` says how it became one):
     * reported at the mask, with the boolean mask the API reads as intended put in place of `written` as the fix.
     */
    function reportAddedAsFloat(site: MaskSite, template: typeof T.floatAdded, written: PyNode, withFix: boolean, shown?: 'keep' | 'ignore'): void {
      const m = site.mask.mask!;
      const polarity = shown ?? m.polarity;
      if (reported.has(site.maskNode.id) || testReference(ctx.analysis, site.node)) return;
      reported.add(site.maskNode.id);
      const t = ctx.text(written);
      // The boolean mask the API reads as intended: the same meaning (`.bool()`), or flipped (`== 0`).
      const asBool = polarity === site.expects ? `${parenthesize(written, t)}.bool()` : `(${t} == 0)`;
      ctx.report({
        node: site.maskNode,
        message: msg(
          template,
          quote(t, 50),
          msg(polarity === 'keep' ? T.meansKeep : T.meansIgnore),
          shown && shown !== m.polarity && m.causalBound ? m.causalBound.part.why : m.why,
          apiName(site.display),
          site.param,
          quote(asBool, 60),
        ),
        fix: withFix
          ? { title: msg(T.boolFix, quote(asBool, 60)), safety: 'unsafe', edits: [{ start: written.start, end: written.end, newText: asBool }] }
          : undefined,
        related: [...maskBuilt(ctx.analysis, m), { node: site.node, message: msg(T.addsFloat, apiName(site.display), site.param) }],
      });
    }

    /**
     * What the names the code gives the mask on its way to this use state (`remove_from_window`, `drop_mask`,
     * `is_masked` say True = ignore; `keep`, `valid_mask`, `attend` say True = keep): the identifiers of the
     * mask expression, first one that states a meaning. Undefined when none does.
     */
    function storedNamePolarity(site: MaskSite): 'keep' | 'ignore' | undefined {
      let out: 'keep' | 'ignore' | undefined;
      let named: PyNode | undefined;
      walk(site.maskNode, (n) => {
        // Names of values only: not a called function, a keyword or an attribute (`tf.cast`, `dtype=`, `.dtype`).
        if (out || n.type !== 'identifier' || NOT_VALUE_FIELDS.has(n.field)) return;
        out = polarityOfOwnName(ctx.text(n));
        if (out) named = n;
      });
      if (!out || !named) return out;
      // The name states what its own value means; the use reads that value after whatever the expression does to it
      // (`~keep`, `keep == 0`, `logical_not(keep)`): where the value and the mask at the use differ in polarity, a flip
      // lies between them, and the name's meaning at the use is flipped too.
      const value = ctx.analysis.eval(named, site.ctx).mask?.polarity;
      const atUse = site.mask.mask?.polarity;
      return value === undefined || atUse === undefined || value === atUse ? out : FLIPPED[out];
    }

    function fixFor(site: MaskSite): FixSpec | undefined {
      const m = site.mask.mask!;
      const node = site.maskNode;
      // No edit inverts one keyword inside `**kwargs`, nor a function (a FlexAttention mask_mod) by its name, nor an
      // additive triangle where it is added (its 0/1 triangle is elsewhere).
      if (node.parent?.type === 'dictionary_splat' || site.param === 'mask_mod' || site.triangleBuiltAt) return undefined;
      const t = ctx.text(node);
      const dtype = m.dtype ?? site.mask.dtype;
      if (dtype === 'bool')
        return {
          title: msg(T.invertTilde),
          safety: 'unsafe',
          edits: [{ start: node.start, end: node.end, newText: `~${parenthesize(node, t)}` }],
        };
      // `(1 - additive) == 0` is False everywhere (1 where kept, +inf where masked): no simple inversion of an
      // additive mask read as 0/1 arithmetic.
      if (m.fromAdditive) return undefined;
      // A float 0/1 mask turned additive (`keep * -1e9`): `(1.0 - keep) * -1e9`, as code of every framework writes it
      // (`keep == 0` would be a boolean, which TensorFlow does not multiply by a float).
      if (site.display === 'additive mask' && dtype === 'float')
        return {
          title: msg(T.invertOneMinus),
          safety: 'unsafe',
          edits: [{ start: node.start, end: node.end, newText: `(1.0 - ${t})` }],
        };
      if (dtype === 'int' || dtype === 'float')
        return {
          title: msg(T.invertEqualsZero),
          safety: 'unsafe',
          edits: [{ start: node.start, end: node.end, newText: `(${t} == 0)` }],
        };
      return undefined;
    }
  },
};
