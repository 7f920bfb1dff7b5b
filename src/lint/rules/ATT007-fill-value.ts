// ATT007: fill values that break: finite fills below float16's range in half-precision code, and -inf
// fills where a fully masked row is reachable.
import { discardedMasks, discardedSite, type DiscardedMaskSite } from '../analysis/discarded';
import { runsIn } from '../analysis/precision';
import type { FillSite, SoftmaxSite, WeakAdditiveMaskSite } from '../analysis/facts';
import { causalWithPaddingOnly, emptyRowReason } from '../analysis/masks';
import { testsItself, weakFillValue } from '../analysis/mask-ops';
import { leftPaddingShown } from '../analysis/left-padding';
import { summedFloors, type SummedFloors } from '../analysis/summed-floors';
import { filledAfterEverySoftmax } from '../analysis/post-softmax-masks';
import type { AValue, MaskInfo } from '../analysis/values';
import { fillNumberOf, integerValued, rootName } from '../analysis/ops';
import { childByField, enclosingFunction, namedChildren, unparen, type PyNode } from '../syntax/tree';
import type { Def } from '../analysis/scopes';
import { defineTemplates, msg, type MessageArg } from '../message';
import { apiName, quote, type FixSpec, type RelatedSpec, type Rule, type RuleContext } from './rule';
import { asCalledAt, definitions, liveDefinitions, maskBuilt, precisionShown } from './related';

const T = defineTemplates({
  subtractedFill: '{0} (subtracted, so a fill of -{1})',
  // PyTorch by the op that writes the fill: a fill converted as a scalar to the tensor's dtype with a range check
  // (masked_fill, full/full_like) raises; one cast (an index assignment, torch.where, an additive mask) becomes -inf.
  belowFloat16Raises: "{0} is below float16's minimum (-65504) and {1}: {2} raises an overflow error on float16 tensors. Use torch.finfo(x.dtype).min.",
  belowBfloat16Raises:
    "{0} is below bfloat16's minimum (-3.3895e38) and {1}: {2} raises an overflow error on bfloat16 tensors (float32's minimum does not fit). Use torch.finfo(x.dtype).min.",
  belowFloat16Cast:
    "{0} is below float16's minimum (-65504) and {1}: {2} makes it -inf in float16 (no error is raised), and a row whose keys are all masked becomes NaN after softmax. Use torch.finfo(x.dtype).min.",
  belowBfloat16Cast:
    "{0} is below bfloat16's minimum (-3.3895e38) and {1}: {2} makes it -inf in bfloat16 (float32's minimum does not fit; no error is raised), and a row whose keys are all masked becomes NaN after softmax. Use torch.finfo(x.dtype).min.",
  indexAssignment: 'the index assignment',
  additiveMask: 'the additive mask',
  belowFloat16Array:
    "{0} is below float16's minimum (-65504) and {1}: in float16 the fill rounds to -inf (no error is raised), and a row whose keys are all masked becomes NaN after softmax. Use {2}.",
  belowBfloat16Array:
    "{0} is below bfloat16's minimum (-3.3895e38) and {1}: in bfloat16 the fill rounds to -inf (float32's minimum does not fit), and a row whose keys are all masked becomes NaN after softmax. Use {2}.",
  theMaskFilled: 'the mask filled',
  fillPlusInf:
    'The fill {0} is +inf: masked positions get an infinite logit and softmax returns NaN. Fill with a large negative number (torch.finfo(x.dtype).min).',
  fillPositive:
    'The fill {0} is positive: masked positions get a larger logit than the rest and draw the attention. Fill with a large negative number (torch.finfo(x.dtype).min).',
  fillZero:
    'The fill {0} is (close to) zero: softmax still gives the masked positions about as much weight as the others. Fill with a large negative number (torch.finfo(x.dtype).min).',
  minusInfEmptyRows:
    '{0} fills positions masked by {1}, and {2}: softmax of a row of -inf is NaN. Use a finite fill (torch.finfo(x.dtype).min) or guard fully masked rows.',
  summedFloors:
    '{0} adds two additive masks that each hold the minimum of {1} ({2} and {3}): where both mask, the sum is beyond the range of {1} and becomes -inf, and the softmax or its backward returns NaN. Write the minimum once (torch.where(pad, torch.finfo({1}).min, causal)) or clamp the sum (.clamp(min=torch.finfo({1}).min)).',
  planeBuiltHere: 'the mask {0} is built here',
  rowFactorEmptiesRows: 'its term {0}, combined by `{1}`, has a length-1 key axis, so every query row that term masks is masked at every key',
  rowFactorHere: 'the mask is built here; {0} decides whole query rows',
  infTimesMask:
    '{0} multiplies the mask {1}: where the mask is 0, 0 × inf is NaN, so the positions it keeps become NaN as well and softmax returns NaN rows. Multiply by a finite value (torch.finfo(x.dtype).min) instead.',
  weakAdditiveMask:
    "{0} scales the mask {1} by {2} before it is added to the scores: a term this small leaves every logit as it was, so softmax gives the masked positions their full weight. Multiply by a large negative number where the mask marks positions to hide (-1e9, or the dtype's minimum).",
  addedToScoresHere: 'added to the scores here',
  fillDefinedHere: 'the fill {0} is defined here',
  normalisesFilled: '{0} normalises the filled scores here',
  finfoFix: 'Fill with {0} (changes values)',
  discardedInPlace:
    '{0} returns the masked scores and this statement discards them, so the mask {1} is never applied: {2} normalises {3} unmasked. Assign the result ({4}) or use the in-place {5}.',
  discarded:
    '{0} returns the masked scores and this statement discards them, so the mask {1} is never applied: {2} normalises {3} unmasked. Assign the result ({4}).',
  discardedInPlaceOnly:
    '{0} returns the masked scores and this statement discards them, so the mask {1} is never applied: {2} normalises {3} unmasked. Use the in-place {4}: an assignment here would make {3} local to this function.',
  normalisesUnmasked: '{0} normalises the scores here, without the mask',
  assignFix: 'Assign the result to {0} (changes values)',
});

const FP16_MIN = -65504;
/** How each array library spells the lowest finite value of a tensor's dtype. */
const DTYPE_MINIMUM = {
  jax: 'jnp.finfo(x.dtype).min',
  tensorflow: 'x.dtype.min',
  mlx: 'mx.finfo(x.dtype).min',
  numpy: 'np.finfo(x.dtype).min',
} as const;
/**
 * A branch condition comparing a dtype (`x.dtype`, `dtype`, `self.dtype`, `get_parameter_dtype(self)`): the
 * operator (negations first, so `is not` is not read as `is`) and what it is compared with.
 */
// The operator with or without spaces around it (`x.dtype==tf.float16`); a keyword one between spaces.
const DTYPE_COMPARISON = /dtype\b(?:\([^()]*\))?(?: ?(==|!=) ?| (is not|is|not in|in) )(.*)/;
/** bfloat16's lowest finite value; float32's minimum (-3.4028e38) is below it. */
const BF16_MIN = -3.3895313892515355e38;
/** A fill above this does not hide a position from softmax (exp(-1) is a third of exp(0)). */
const WEAKEST_MASKING_FILL = -1;
/** A positive fill this small is no mask (`1e-9`, a typo for `-1e9`). */
const TINY_FILL = 1e-3;
/** A name for a mask or bias being built (`attn_mask`, `bias`), not a masked copy of something (`D_masked`). */
const MASK_OR_BIAS_NAME = /mask(?!ed)|bias/i;

export const ATT007: Rule = {
  meta: {
    code: 'ATT007',
    name: 'fill-value',
    severity: 'warning',
    fix: 'unsafe',
    docs: {
      summary: 'Mask fill values that overflow float16 or bfloat16, fills that do not mask, or -inf fills where a fully masked row makes NaN.',
      whatItDoes:
        "Checks the value written into masked positions (`masked_fill`, `torch.where` (including a choice of the scores against a constant, `torch.where(keep, scores, 0.0)`, or against a tensor filled with one, `torch.full_like(scores, 0.0)`, `torch.zeros_like(scores)`), index assignment (and JAX's functional form, `scores.at[mask].set(v)`), `mask * -1e9`, `torch.full_like(x, v)`, `torch.ones_like(x) * v`, a bias `torch.zeros_like(scores).masked_fill(mask, v)`). Scores computed from float32 copies (`q.float() @ k.float().transpose(-2, -1)`, an einsum of float32 operands, `.float()`/`.to(torch.float32)`/`.to(device, torch.float32)` on the scores) are float32, where -1e9 fits (as is a bias made with `dtype=torch.float32` and filled more than once: masked_fill keeps its dtype, and one the same function makes with a factory given no dtype, `torch.zeros(B, 1, 1, T)` or `torch.ones(T, T).triu(1)`, which autocast leaves in float32 and `.half()` does not convert; not a `*_like` of the scores, a factory given their dtype, or one converted to it), and so is an additive mask built from an integer or boolean mask times a Python float (`(1.0 - keep.long()) * -1e9`, `(ids == pad) * -1e9`: PyTorch's default dtype, float32, which the sum with float16 scores keeps; one cast to the scores' dtype first, `.to(scores.dtype)` or TensorFlow's `tf.cast(mask, scores.dtype)`, is judged in their precision; likewise a mask cast to the dtype of a float32 scalar and subtracted from it, TensorFlow's `one = tf.constant(1.0)`, `(one - tf.cast(mask, one.dtype)) * -1e8`), and a fill in a branch that runs only for float32 data (the `else` of `if x.dtype == torch.float16:`, with or without spaces around the operator (`attn_score.dtype==tf.float16`), also with the dtype read by a helper, `if get_parameter_dtype(self) == torch.float16:`, an `elif x.dtype == torch.float32:`, `if x.dtype != torch.float16:` or `is not`). In TensorFlow code an additive mask added to scores the code casts to float32 or float64 (`logits = tf.cast(logits, tf.float32)`, then `logits += pad * -1e9`) is in that dtype too, whatever the precision policy: TensorFlow adds only tensors of one dtype (no type promotion, unlike PyTorch, NumPy and JAX), so the code runs only with a float32 mask, where the fill fits. In a file that runs in float16 (`.half()` of a model or of its inputs (not of a parameter's storage, `m.weight.data = m.weight.data.half()`, nor of a state dict's values saved as a checkpoint: chosen weights stored in float16), `torch.float16` (not a dtype tested against it, `x.dtype == jnp.float16`, which asks what the data is, nor float16's own limits, `NEG_INF_FP16 = np.finfo(np.float16).min`, `torch.finfo(torch.half).min`, `tf.float16.min`, the fill kept for float16 data, which says the code supports half precision, nor a dtype of Triton's kernel language, `q.to(tl.float16)` in a `@triton.jit` kernel, which says how that kernel computes, not what the torch code beside it runs in), CUDA `autocast` without a dtype (`torch.autocast(\"cuda\")`, `torch.cuda.amp.autocast()`; not one whose device the code does not spell, `torch.autocast(device_type=device)`, which runs in bfloat16 on the CPU), `GradScaler`, apex amp (not at `opt_level=\"O0\"`, its pure float32 mode, when every `opt_level` the code writes is that literal), fp16 and mixed-precision flags (not a flag set to False, `use_amp=False`, nor a command-line option declared off, `add_argument('--use_amp', action='store_true', default=False)`: the code acting on it is what counts, `autocast(enabled=args.use_amp)`), Lightning `precision=\"16-mixed\"`; their use, not an import, nor an autocast or `GradScaler` switched off by `enabled=` a name the code binds only to False (`USE_AMP = False`), nor a config entry that turns the mode off (`\"fp16\": {\"enabled\": False}` in a DeepSpeed config): `from torch.cuda.amp import GradScaler, autocast` never called is no evidence), or that a workspace file running in float16 imports (a trainer; the message names it; not a file of another framework, such as a PyTorch conversion script calling `.half()` that imports a package holding TensorFlow or Flax model files), or, when no importing file decides it, whose package holds the training loop that runs it: a module beside it that runs in float16 the model it is given (`def train(model, loader)` under `autocast()`, a `Trainer` holding `self.model` with a `GradScaler()` and `autocast(enabled=self.use_amp)`, a switch the code offers), importing no workspace module and defining no torch module of its own (not one that trains a model it imports or builds, nor one that turns autocast off or only says so in a comment; a trainer in another directory only when it is the project's only training loop: among the Python files of the file's directory, of its parent and of the parent's other directories (at most 12 besides, 60 files), it alone takes a gradient step, `.backward(`, in a folder beside the file's or in the parent, `training/trainer.py` for `transformer/attention.py`, `run/train_model.py` for `modelling/attention.py`; with a second loop in view, which one runs the file is not shown), a finite fill below float16's minimum of -65504 (`-1e9`, `-1e10`, `-float(\"1e9\")`, `torch.finfo(torch.float32).min`) is reported; in a file that runs in bfloat16 (`torch.bfloat16`, bf16 flags, `autocast(dtype=torch.bfloat16)`), only fills below bfloat16's minimum (float32's minimum) are, since -1e9 fits there. Such a fill written by masked_fill or `torch.full`/`full_like` raises, and is reported whatever the mask; written any other way (an index assignment, `torch.where`, an additive mask, or outside PyTorch `where`, `lax.select`, `jnp.full(shape, -1e9).astype(self.dtype)`) it becomes -inf at the masked positions only, which is NaN only in a row whose every key is masked, so it is not reported where the mask the code builds cannot empty a row, as a -inf fill is not there (a causal triangle that keeps the diagonal, also held as a buffer and blended, `w * self.b + -1e9 * (1 - self.b)` with `self.b = tril(ones(n, n))`; key padding; causal with right padding); a mask known only by its name (`attention_mask`, `pad_mask`) may have any shape and still counts, unless the function that fills it is called in view with masks the code builds, and every such call passes one that cannot empty a row (`attend(q, k, v, torch.tril(torch.ones(T, T)))` under autocast, also from a file that imports it): the callers' masks decide, as they do for a -inf fill. Outside PyTorch a 0/1 mask in half precision multiplied by the fill (`(1.0 - keep.astype(jnp.float16)) * -1e9`) is reported whatever the mask: JAX, TensorFlow and NumPy convert the number to the mask's dtype first, -inf, and 0 × -inf is NaN at every kept position (PyTorch multiplies by a scalar in float32 and rounds after). A comment or docstring that says the file runs in half precision counts only when no code does, in the file or in a workspace file importing it (whose code is then the evidence named), and no importing file's code sets full precision (`Trainer(model, fp16=False)`, `.to(device, dtype=torch.float32)`, `precision=32`) while none runs it in half: code outranks prose; one that says a value fits float16 or is safe for fp16, or that a step guards against it (`# softmax in float32 for fp16 stability`, `# would overflow in fp16`), says the code supports half precision, and is no evidence. Nor is the dtype's bare name in prose (`float16`): a docstring listing the dtypes a module accepts (\"one of jax.numpy.float32, jax.numpy.float16 (on GPUs)\") or a comment quoting other code (`x.to(float16)`) mentions it; the prose must say how the code runs (`--fp16`, `fp16`, half or mixed precision, autocast), and a sentence that offers half precision as an option says what the code may run in, not what it runs in (\"This can be used to enable mixed-precision training or half-precision inference on GPUs or TPUs\", the docstring of Hugging Face's Flax models, whose `dtype` defaults to float32; a sentence with can, could, may, might, optionally or if you). Nor is a sentence that says the code does not run in it, or not yet: a note left for later (`# TODO: fp16 training`, FIXME), a negation (`# fp16 is not supported yet`, \"no fp16 here\"), the mode switched off or failing there (`# FIXME: NaNs under autocast, disabled for now`, \"fp16 diverged\"). A tensor filled with a dtype's minimum (`torch.full_like(scores, torch.finfo(scores.dtype).min)`, `torch.ones_like(s) * finfo.min`) is that finite number: it empties no row into NaN, and float32's minimum so filled is below float16's and bfloat16's range as the number is. Two additive masks that each hold the minimum of one dtype D and are made in D, added together (a causal plane `torch.triu(torch.full((S, S), torch.finfo(D).min, dtype=D), 1)` plus a padding plane `(1.0 - keep.to(D)) * torch.finfo(D).min` or `torch.where(pad, torch.tensor(floor, dtype=D), ...)`), are reported at the sum whatever the precision: where both mask, twice the minimum is beyond D's range and becomes -inf; not a sum clamped back (`(causal + pad).clamp(min=floor)`), the padding written once (`torch.where(pad, floor, causal)`), or planes whose dtype the code does not state as that D. A fill on attention scores that does not mask at all is reported whatever the precision: zero, a tiny negative number (`-1e-9`, a typo for `-1e9`; also a dtype's epsilon or smallest normal number of a width the code shows, `-torch.finfo().eps`, the default dtype's, or `-torch.finfo(torch.float32).eps`, often kept in a constants module, where the minimum was meant), or a positive one (`-float(\"-inf\")` is +inf), written by masked_fill, `torch.where`, an index assignment with a mask (`scores[pad] = 0.0`) or JAX's `scores.at[pad].set(0.0)`; not a constant written where the scores test themselves (`scores.masked_fill(scores.isnan(), 0.0)`, `scores[torch.isinf(scores)] = 0.0`, `scores[scores < t] = 0`): a clean-up of values that are not numbers, or a pruning by size, not a mask of positions. Likewise an additive mask scaled too small to mask, a 0/1 mask times a constant of magnitude 1e-3 or less (`mask * 1e-9`, `mask / 1e9`) added to scores a softmax normalises (`logits += mask * 1e-9`, any framework; the operand it is added to decides, and a mask already additive, 0/-inf, is left alone), also bound to a name first and added later (`bias = (1.0 - keep) * 1e-9`, then `scores += bias`), or as the fill term of a blend (`scores * keep + (1.0 - keep) * -1e-9`, reported once, by this rule: ATT006 reads the blend as the `where` it is). So are zeros filled with a tiny constant of either sign and bound to a name for a mask or a bias (`bias = torch.zeros_like(scores).masked_fill(pad, 1e-9)`, `bias = torch.where(pad, -1e-9, 0.0)`): the additive mask being built does not mask; not an epsilon under another name (`eps = torch.where(p == 0, 1e-9, 0.0)`). A fill given as a class constant with no annotation (`MASK_VALUE = -1e-9` in the class body, read as `self.MASK_VALUE`) is the number written there; an annotated one is a field a constructor may set, taken only when it masks; a config's field read through an instance (`self.cfg.mask_fill`, a dataclass or NamedTuple in this file or in config.py, the instance held in a class attribute, `cfg = Cfg()`, or passed to `__init__`) is what the constructions the workspace shows give it (the number they all pass written out, `AttnConfig(mask_fill=-1e4)`, or the default when they all leave it out), and unknown, so silent, when they differ or one passes a value set at run time (`AttnConfig(mask_fill=args.mask_fill)`); the finding's related location is then the field. A `-inf` fill is reported when the mask can hide every key of a row (on the scores, or in an additive bias then added to them, `mask.float().masked_fill(mask == 0, float(\"-inf\"))` or `torch.where(keep, 0.0, float(\"-inf\"))`, judged the same way): a causal mask that also hides the diagonal (`triu(ones)` without `diagonal=1`; not one written into by index with a constant afterwards, `allowed[0, 0] = True` giving the first row its own key back, or whose diagonal is rewritten in place, `hide.fill_diagonal_(False)`: it is no longer that triangle), or padding that varies along the query axis (`pad.unsqueeze(-1)`, `pad[:, None, :, None]` of a (B, S) mask, `(arange(T)[None, :] < lens[:, None]).unsqueeze(2)`, positions against the lengths made a column being a (B, T) mask, also `arange(T).expand(B, T) < lens.unsqueeze(1)` built in another file, or `(ids != pad).unsqueeze(1).unsqueeze(3)`, whose second unsqueeze counts from the three axes of the first and appends the key axis, an outer product of padding masks, also built in another file and passed through a wrapper module of the linted file, `SelfAttention.forward` calling `self.core(q, k, v, mask=mask)`; not a pair of a query-side and a key-side padding term filled where both hold, `pad & pad.transpose(1, 2)` or `mask_d.eq(0).unsqueeze(2) * mask_e.eq(0).unsqueeze(1)` filled where True, `where(keep_q | keep_k, s, -inf)`: the row of a padded query then loses only the keys the key term hides, and `keep_q & keep_k` filled the wrong way round is ATT002's finding; also when the pair is combined with a causal triangle that keeps the diagonal or with key padding, `(pad & pad.transpose(1, 2)) | future`, which then empties a row only as causal with key padding does, with left padding), or a term with a length-1 key axis combined into the mask (`(visible | own) & keep` with `keep = block_keep.view(B, 1, N, 1)`, filled where the mask is False; `hide | drop.view(B, 1, T, 1)` filled where it is True: every query row the term masks is masked at every key; not once each row's own keys are ORed back in, `(visible & keep) | own`), or a causal mask combined with a key-padding mask where the code shows left padding (a sequence written right-aligned into a padded batch, `ids[row, longest - len(s):] = ...`, padding of the missing length joined in front of the data, `np.concatenate([np.zeros((1, K - tlen, d)), seg], axis=1)`, a tokenizer's `padding_side=\"left\"`; in the file or a workspace file importing it; a comment that mentions left padding is no evidence, since it may deny it or describe another code path): with right padding, what training code uses, every query row keeps the real keys before it, so that combination alone is not reported; read from the axes the code states: scores laid out (batch, keys, heads), `einsum('bhd,bthd->bth')` softmaxed over dim=1, have their keys at -2, so padding there hides keys and no row is emptied (the axis every softmax of the scores normalises is their key axis when the operands do not say, `einsum('bhd,bthd->bth', q, k_cache[:, idx])`); scores laid out (batch, keys, queries) are judged along their last axis. One product read in both directions (a bi-directional cross attention, `text_w = w.transpose(1, 2)` softmaxed over dim=-1, the axis its operands call the queries) is judged along the axis its softmax normalises: padding of that axis hides keys, not rows. A -inf mask built for potentials that are exponentiated, not normalised (the matrix-tree theorem's Laplacian, a CRF's partition function: `mask[mask == 0] = float(\"-inf\")`, `arc_scores = arc_scores + mask`, then `arc_scores.exp()`), is not reported when the mask is added in its own function to a tensor that function exponentiates (also through a plain alias), neither is returned as it is, nothing there divides by a sum, and the file normalises no row (no softmax, log-softmax or logsumexp): exp(-inf) = 0 is the weight a masked entry should get, and a row of -inf is NaN only through a softmax. A NaN guard on the rows the fill empties silences it: a NaN test or replacement of the softmax's output or input formed at the same product (`torch.nan_to_num(w)`, `w.masked_fill(w.isnan(), 0)`, `torch.where(torch.isnan(w), 0, w)`; for a bias being built, of the scores or weights of its function); a NaN test of anything else (an assert on the input, a loss check) guards no row. A 0/1 mask multiplied by -inf to build an additive mask (`(1 - keep) * float(\"-inf\")`, also the fill term of a blend `dots * m + (1 - m) * float(\"-inf\")`) is reported: 0 × inf is NaN, so every kept position is NaN; not when the code replaces the product's NaN before using it (`np.nan_to_num(-np.inf * np.triu(ones, k=1), nan=0.0)`, `torch.nan_to_num(m)`, `m.nan_to_num(0.0)`, with no `nan=` or a finite one, where the product is made or by a later statement on its name): NaN becomes 0 where the mask keeps and -inf the most negative finite value where it hides, a correct additive mask (a `nan_to_num` of the weights, or of another mask, clears nothing). A masking op whose result is discarded (an out-of-place `masked_fill`, `torch.where`, `np.where`, `tf.where` or `jnp.where`, JAX's `scores.at[idx].set(fill)`, `scores + mask` or `scores.add(mask)`, written as a statement of its own) is reported when the data flow shows that it matters: the scores' name is read again with no definition in between, and a softmax of the file normalises scores formed at the same place along that path with no mask added after it. The in-place `masked_fill_` or `add_`, `out=`, an assignment, a return or a call as an argument keep the result and are not reported; neither is a discarded op whose name is never read again, whose scores are masked later, or whose scores were masked with the same mask already (dead code or a repeated line, not a mask that is missing), nor a helper of the code's own called as a statement (it may work in place). A discarded fill gets no other message of this rule: it fills nothing. Which rows a triangular mask empties is read from the region the op fills (masked_fill and index assignment: where the mask is True; `where(m, scores, -inf)`: where it is False), so `triu(ones) == 0` filled the wrong way round (ATT002's finding: the strict lower triangle) empties no row and gets no NaN claim. A zero fill of scores after every softmax of them in the function ran, bound to a name of its own (`energy_safe = energy.masked_fill(causal, 0.0)`, the mean energy under the weights; in a loop, only when each iteration forms the scores anew), is no softmax input and is not reported; nor is a zero-filled copy made for a statistic (`mass = scores.masked_fill(~valid, 0.0)`, summed per chunk of keys or ranked with `topk` into a keep mask) that no softmax reads: in the softmax's own function when the scores it normalises, followed back through the expressions and names that carry them, never pass through the zero fill (the softmax of the scores filled with -inf after the copy was ranked), or in a helper the scores are handed to that neither returns the copy nor stores it on an object, every softmax of the scores sitting in the function that formed them (a helper that returns the zero-filled scores to a caller that normalises them is reported, and so is a copy that reaches the softmax through `torch.where` or a loop); nor is +inf written into a masked copy of something that is not a mask (`D_masked = D.masked_fill(eye, float('inf'))` before a smallest-k search), since only a name for a mask or a bias being built (`attn_mask`, `bias`) says the fill builds one. Nor is a zero or weak fill written over whole query rows, by masked_fill or `where` with a mask whose key axis has length 1 (`scores.masked_fill((~has_keys).view(1, 1, T, 1), 0.0)`, `pad.unsqueeze(-1)`, `pad[..., None]`): every key of such a row gets the same value and softmax is unchanged by a constant added to a row, so the row comes out uniform whatever the fill is (the usual form is a NaN guard for rows whose keys were all filled with -inf, their weights zeroed after the softmax); a mask whose key-axis length the code does not show counts as varying along the keys. A fill of the mask a caller hands the function (a parameter, reached through shape-only ops: `attention_mask_l.unsqueeze(1).unsqueeze(1).expand(B, 1, T, S).masked_fill(m == 0, -9e15)`) is not judged as float16 when the only float16 the code shows (in the file, or in the file or package trainer that runs it) is CUDA autocast's (`autocast(...)`, `GradScaler`): autocast computes the ops it lists in float16 and leaves a tensor it did not compute in the dtype its caller made it in (a tokenizer's integer mask stays integer); `.half()`, a float16 dtype or an fp16 flag (fairseq's `--fp16`) still count, and so does autocast for a fill of the scores or of a tensor made like them (`torch.zeros_like(scores)`). A comment that names half precision only as a setup the code avoids or prevents trouble in, or hedges it (`# Using -1e9 avoids potential NaN issues on some GPUs or mixed precision setups.` on the fill), is no evidence that it runs in it, as one offering half precision as an option is not.",
      whyIsThisBad:
        '`masked_fill` with -1e9 on a float16 tensor raises "value cannot be converted to type at::Half without overflow" (so does `torch.full_like(scores, -1e9)`), in PyTorch 1.x as in PyTorch 2. In PyTorch 2 an index assignment (`scores[mask] = -1e9`), `torch.where(mask, -1e9, scores)` and additive masks (`mask * -1e9` in float16, or under autocast) silently turn it into -inf; PyTorch 1.x (1.13 on the CPU) raises that overflow error for the index assignment and for `torch.where` with a Python number too, and an additive mask made in float16 (`mask.half() * -1e9`) holds NaN where the mask is 0 (0 × -inf), so every row it is added to is NaN after the softmax. The message names the op used and what it does in PyTorch 2. JAX, TensorFlow, MLX and NumPy raise nothing: the fill silently becomes -inf in float16 (the message says so for a file that does not import torch, and names the library\'s minimum, `jnp.finfo(x.dtype).min`, `x.dtype.min`). A row whose every entry is -inf goes through softmax as exp(-inf - (-inf)) = NaN, and the NaN spreads through the rest of the network on the next step. A masking op that returns a new tensor (`masked_fill`, `torch.where`, `np.where`, `tf.where`, `x.at[idx].set(v)`, `scores + mask`) written as a statement of its own changes nothing: the scores keep their values, so padding and future positions get attention weight, and nothing raises.',
      example: `pad_mask = input_ids == pad_id  # (B, T), True at padding
scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
scores = scores.masked_fill(pad_mask.unsqueeze(-1), float("-inf"))  # padded query rows are all -inf
weights = scores.softmax(dim=-1)  # NaN rows

scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
scores.masked_fill(pad_mask.unsqueeze(-2), torch.finfo(scores.dtype).min)  # result discarded: nothing is masked
weights = scores.softmax(dim=-1)`,
      useInstead: `pad_mask = input_ids == pad_id  # (B, T), True at padding
scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
scores = scores.masked_fill(pad_mask.unsqueeze(-2), torch.finfo(scores.dtype).min)  # mask keys, finite fill
weights = scores.softmax(dim=-1)

scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
scores = scores.masked_fill(pad_mask.unsqueeze(-2), torch.finfo(scores.dtype).min)  # or scores.masked_fill_(...)
weights = scores.softmax(dim=-1)`,
      whereReported:
        'At the fill value, the use (at the call when the fill is a name); a discarded masking op at its expression, the statement; a mask scaled too small to mask, at the factor; two minimum-filled masks added together, at the sum. Related locations: for the sum of two minimum-filled masks, where each is built; for every finding on a fill given by name (`NEG_INF = float("-inf")`), where it is defined; for a fill below the half-precision range, where the file shows that it runs in float16 or bfloat16 (`.half()`, `autocast(...)`, a flag; when a workspace file importing it does, that place, named in the message) and, when the fill builds an additive mask, where the mask being filled was built; for a fill that does not mask, the softmax that normalises the filled scores; for a -inf fill where a row can be fully masked, where the mask is built and the softmax; for a mask multiplied by -inf, where the mask is built; for a mask scaled too small to mask, where it is added to the scores, the softmax and where the mask is built; for a discarded masking op, the softmax that normalises the unmasked scores and where the mask is built. A mask that comes in as a parameter is named as such.',
      fixSafety:
        "The fix replaces the fill with `torch.finfo(x.dtype).min`, which fits every float dtype and keeps fully masked rows finite (uniform instead of NaN). It changes values, so it is offered as an unsafe quick fix and never applied by a fix-all. It is not offered for a number that is subtracted (`scores - 1e9 * mask`), where finfo's minimum would add a huge value, nor for a mask multiplied by -inf. For a discarded masking op whose scores are a name of the function itself (every definition reaching it is there), the fix assigns the result back to that name (`scores = scores.masked_fill(...)`); it too changes what the softmax normalises, and is unsafe. In a function nested in the one that owns the name, an assignment would make the name local there, so no fix is offered and the message names only the in-place method (`masked_fill_`).",
      references: [
        { title: 'torch.finfo', url: 'https://pytorch.org/docs/stable/type_info.html#torch.finfo' },
        { title: 'PyTorch issue: NaN from fully masked rows in attention', url: 'https://github.com/pytorch/pytorch/issues/41508' },
      ],
    },
  },

  create(ctx: RuleContext) {
    /** The first softmax of the scores formed at a node (indexed once per file, for related locations). */
    let firstSoftmaxOf: Map<PyNode, SoftmaxSite> | undefined;
    /** Where the scores a softmax normalises were formed (indexed once per file). */
    let softmaxInputs: Set<PyNode> | undefined;
    const ev = ctx.analysis;
    const reported = new Set<number>();
    /** Where a fill given by name is defined (`big_neg = -1e9`). */
    function fillDefinition(site: FillSite): RelatedSpec[] {
      return definitions(ev, site.fillNode, site.ctx, (t) => msg(T.fillDefinedHere, quote(t, 30)), 1, true);
    }

    /** The softmaxes that normalise the filled scores (where the fill takes effect). */
    function softmaxOf(site: FillSite): RelatedSpec[] {
      const formed = site.target.attn?.formedAt;
      if (!formed) return [];
      if (!firstSoftmaxOf) {
        firstSoftmaxOf = new Map();
        for (const s of ev.facts.softmax) {
          const f = s.input.attn?.formedAt;
          if (f && !firstSoftmaxOf.has(f)) firstSoftmaxOf.set(f, s);
        }
      }
      const s = firstSoftmaxOf.get(formed);
      return s ? [{ node: s.node, message: msg(T.normalisesFilled, apiName(s.display)) }] : [];
    }

    /**
     * A NaN guard applies to the rows this fill empties: a NaN test or replacement of the scores or weights formed at
     * the same product, in any function (`torch.nan_to_num(w)`, `w.masked_fill(w.isnan(), 0)`, `torch.where(torch.isnan(w),
     * 0, w)`); for a bias being built (no scores yet), one of the scores or weights of its own function. A NaN test of
     * anything else (a loss, an assert on the input) protects no row.
     */
    function nanGuarded(site: FillSite): boolean {
      // Scores a file importing this one passes, whose weights it clears of NaN after the call (importer-calls.ts).
      if (site.target.attn?.nanGuardIn) return true;
      const formed = site.target.attn?.formedAt;
      if (formed) {
        for (const guards of ev.facts.nanGuards.values()) if (guards.some((g) => g.attn?.formedAt === formed)) return true;
        return false;
      }
      return (ev.facts.nanGuards.get(site.ctx.scope.id) ?? []).some((g) => g.attn !== undefined);
    }

    /**
     * The fill as a number: a literal, a finfo bound, or a tensor filled with one (full(..., value), a finfo bound,
     * zeros_like); undefined for anything else.
     */
    function fillNumber(v: AValue): AValue | undefined {
      return v.kind === 'number' ? v : (fillNumberOf(v) ?? weakFillValue(v));
    }

    /**
     * The layout of the filled scores as far as the code states it (the einsum or product that formed them, the softmax
     * that normalises them): the key axis (`softmax(scores, dim=1)` of (batch, keys, heads) scores) and the query axis.
     */
    /**
     * A mask with no mask facts whose expression (or the one assignment of its name in this function) combines terms
     * with `&` where the op fills where it is False (`torch.where(keep, 0.0, -inf)`), or with `|` where it fills where
     * it is True: a term constant along the keys (its last axis of length 1, the query axis not,
     * `block_keep.view(B, 1, N, 1)`) decides whole rows, so a row where it is False (True for `|`) is filled at every key.
     * Read from the shapes; with scores whose keys are not on the last axis, nothing is said.
     */
    function wholeRowFactor(site: FillSite, fills: 'true' | 'false', axes: { keyAxis?: number }): { term: PyNode; at: PyNode; op: string } | undefined {
      if (!site.maskNode || (axes.keyAxis !== undefined && axes.keyAxis !== -1)) return undefined;
      let expr = unparen(site.maskNode);
      let at = expr;
      if (expr.type === 'identifier') {
        const defs = liveDefinitions(ev, expr, site.ctx);
        // An assignment's definition holds the value assigned (`bool_mask = (a | b) & keep`).
        const only = defs.length === 1 ? defs[0] : undefined;
        const value = only?.kind === 'assign' ? only.value : undefined;
        if (!value) return undefined;
        expr = unparen(value);
        at = value;
      }
      const op = fills === 'false' ? '&' : '|';
      const terms: PyNode[] = [];
      const flatten = (n: PyNode): void => {
        const u = unparen(n);
        const l = u.type === 'binary_operator' ? childByField(u, 'left') : undefined;
        const r = u.type === 'binary_operator' ? childByField(u, 'right') : undefined;
        if (
          l &&
          r &&
          ctx
            .text(u)
            .slice(l.end - u.start, r.start - u.start)
            .trim() === op
        ) {
          flatten(l);
          flatten(r);
        } else terms.push(u);
      };
      flatten(expr);

      if (terms.length < 2) return undefined;
      const term = terms.find((t) => {
        const v = ev.eval(t, site.ctx);
        const ax = v.kind === 'tensor' && v.ndim !== undefined && v.ndim >= 2 ? v.axes : undefined;
        const last = ax?.[ax.length - 1];
        const before = ax?.[ax.length - 2];
        return last?.size1 === true && !!before && before.size1 !== true;
      });
      return term ? { term, at, op } : undefined;
    }

    /**
     * Where the masked scores' keys and queries are: as the scores state them, else, for the key axis, the one axis every
     * softmax of scores formed at the same product normalises (`einsum('bhd,bthd->bth', q, K_cache[idx])` then
     * `softmax(scores, dim=1)`: keys at -2, whatever the operands are called).
     */
    function scoreAxes(site: FillSite): { keyAxis?: number; queryAxis?: number } {
      const a = site.target.attn;
      if (a?.keyAxis === undefined && a?.queryAxis === undefined && a?.formedAt) return { keyAxis: ev.facts.softmaxKeyAxis(a.formedAt) };
      // One product read in both directions (a bi-directional cross attention: `text_w = w.transpose(1, 2)` softmaxed
      // over dim=-1, the axis the product's operands call the queries): the rows a softmax empties are along the axis it
      // normalises, whatever the operands were called. Scores transposed from the product (its keys not last, its
      // queries last) whose softmaxes all normalise the last axis have their keys there (a softmax over the queries of
      // scores laid out (..., queries, keys) is ATT001's finding, not a layout).
      if (a?.formedAt && a.keyAxis !== undefined && a.keyAxis !== -1 && a.queryAxis === -1 && ev.facts.softmaxKeyAxis(a.formedAt) === -1)
        return { keyAxis: -1, queryAxis: a.keyAxis };
      return { keyAxis: a?.keyAxis, queryAxis: a?.queryAxis };
    }

    /**
     * The op writes its constant over whole query rows: a broadcasting fill (masked_fill, `where`) whose mask has a
     * length-1 key axis (`(~has_keys).view(1, 1, T, 1)`, `pad.unsqueeze(-1)`, `pad[..., None]`), scores with their keys
     * last. Every key of a selected row gets the same value, and softmax is unchanged by a constant added to a row,
     * so the row comes out uniform whatever the fill is: the fill's value decides nothing (a NaN guard for rows whose
     * keys were all filled with -inf, before their weights are zeroed). Read from the shapes; unknown is not length 1.
     */
    function wholeRowFill(site: FillSite): boolean {
      if (!site.maskNode || (site.how !== 'masked_fill' && site.how !== 'where')) return false;
      const key = site.target.attn?.keyAxis;
      if (key !== undefined && key !== -1) return false;
      // A mask that is no tensor has no axes, so it never counts as constant along the keys.
      const m = ev.eval(site.maskNode, site.ctx);
      const last = m.axes?.[m.axes.length - 1];
      return last ? last.size1 === true : m.lastSize1 === true;
    }

    /** Fills that write into attention scores or into a mask being built (not arbitrary tensors). */
    function relevantTarget(site: FillSite): boolean {
      const t = site.target;
      if (t.attn?.stage === 'scores') return true;
      if (t.mask || site.how === 'add') return true;
      if (t.kind === 'tensor' && (t.fillValue === 0 || t.zeros === true)) return true; // zeros_like(scores).masked_fill(pad, -big): an additive bias
      const name = site.targetNode && rootName(ev, site.targetNode);
      return !!name && MASK_OR_BIAS_NAME.test(name);
    }

    /**
     * The fill replaces entries of attention scores (a q·kᵀ-shaped product, its operands named q and k or not)
     * that a softmax normalises: a masked_fill on the scores, not an additive bias or a post-softmax fill
     * (fixture ATT007/unnamed_scores_and_mask_building.py). masked_fill records every fill; where and index assignment
     * (also `.at[].set`) record a fill that does not mask only when it writes into scores (analysis/mask-ops.ts), and
     * additive masks only fills of -1e4 or less.
     */
    function writesScores(site: FillSite): boolean {
      const a = site.target.attn;
      if (!a || a.stage !== 'scores') return false;
      // Scores a file importing this one passes and normalises after the call (importer-calls.ts).
      if (a.softmaxIn) return true;
      // Scores without named q and k count when a softmax normalises them (an unnamed product that is attention).
      if (!softmaxInputs) {
        softmaxInputs = new Set();
        for (const s of ev.facts.softmax) if (s.input.attn?.formedAt) softmaxInputs.add(s.input.attn.formedAt);
      }
      return softmaxInputs.has(a.formedAt);
    }

    /**
     * A constant written where the scores test themselves (`scores.masked_fill(scores.isnan(), 0.0)`, `scores[torch.isinf(
     * scores)] = 0.0`, `torch.where(torch.isnan(scores), 0.0, scores)`): a clean-up of values that are not numbers, or
     * a pruning of the scores by their own size, not a mask of positions that should get no weight.
     */
    function cleanUp(site: FillSite): boolean {
      return !!site.maskNode && !!site.targetNode && testsItself(ev, site.maskNode, site.targetNode);
    }

    /**
     * A copy of the scores zero-filled under a name of its own after every softmax of them ran (`energy_safe =
     * energy.masked_fill(causal, 0.0)`, for the mean energy under the weights): no softmax input, so no masking fill.
     */
    function zeroFilledCopy(site: FillSite): boolean {
      /* c8 ignore next -- a call always sits inside a statement; the type allows a root node */
      const holder = site.node.parent ?? site.node;
      const left = holder.type === 'assignment' ? childByField(holder, 'left') : undefined;
      if (left?.type !== 'identifier') return false;
      /* c8 ignore next -- a masked_fill always names what it fills (the receiver, or the first argument) */
      const target = site.targetNode ?? site.node;
      return ctx.text(left) !== rootName(ev, target) && filledAfterEverySoftmax(ev, site);
    }

    /**
     * A zero-filled copy of the scores that no softmax reads: made for a statistic (`mass = scores.masked_fill(~valid,
     * 0.0).sum(-1)`, summed per chunk of keys and ranked with topk) while the softmax normalises the scores masked
     * another way. Evidence, all of it required: an out-of-place masked_fill, and for every softmax of these scores
     * either (a) it sits in the fill's own function and the scores it normalises, followed back through the
     * expressions and definitions that carry them, never pass through the fill (a keep mask built from a ranking of
     * the copy is not the scores), or (b) the fill sits in a helper the scores are handed to (they were formed
     * outside it), the softmax sits in the function that formed them, and nothing the helper returns or stores on
     * an object carries the scores (`return scores.masked_fill(m, 0.0)` to a caller that normalises it is still
     * reported). Any other softmax (in a function the copy is handed to) counts as reading it.
     */
    function zeroFilledCopyNoSoftmaxReads(site: FillSite): boolean {
      // writesScores found a softmax of these scores, so the loop below judges one at least.
      const formed = site.target.attn!.formedAt;
      const scope = site.ctx.scope;
      if (site.how !== 'masked_fill' || scope.kind !== 'function' || !boundToOwnName(site)) return false;
      const fn = childByField(site.node, 'function');
      /* c8 ignore next -- the grammar gives every call a function; the type makes it optional */
      if (!fn || ctx.text(fn).endsWith('masked_fill_')) return false;
      let escapesChecked = false;
      for (const s of ev.facts.softmaxFormedAt(formed)) {
        if (s.ctx.scope === scope) {
          /* c8 ignore next -- a softmax records the input it normalises (it is where its attention info comes from) */
          if (scoresPassThrough(s.inputNode ?? s.node, site, formed)) return false;
        } else if (within(formed, s.ctx.scope.node) && !within(formed, scope.node)) {
          if (!escapesChecked && escapes(site, formed)) return false;
          escapesChecked = true;
        } else return false;
      }
      return true;
    }

    /**
     * The filled copy is kept under a local name of its own or used inside a larger expression (`.sum(-1)`): not
     * written back under the scores' own name (`energy = energy.masked_fill(causal, 0.0)` reads as the scores being
     * masked, in the wrong place) nor stored on an object (`self.safe = ...`).
     */
    function boundToOwnName(site: FillSite): boolean {
      let child = site.node;
      for (let p = child.parent; p; child = p, p = p.parent) {
        if (p.type === 'assignment') {
          const left = childByField(p, 'left');
          if (left?.type !== 'identifier') return false;
          /* c8 ignore next -- a masked_fill always names what it fills (the receiver, or the first argument) */
          const target = site.targetNode ?? site.node;
          return child !== site.node || ctx.text(left) !== rootName(ev, target);
        }
        if (p.type.endsWith('statement')) return true;
      }
      /* c8 ignore next -- a call always sits inside a statement */
      return true;
    }

    /** The node lies inside `outer`. */
    function within(node: PyNode, outer: PyNode): boolean {
      return node.start >= outer.start && node.end <= outer.end;
    }

    /** The value (or an element of a tuple) holds the scores or weights formed at `formed`. */
    function carriesScores(v: AValue, formed: PyNode): boolean {
      return v.attn?.formedAt === formed || v.elements?.some((e) => carriesScores(e, formed)) === true;
    }

    /**
     * Whether the scores `expr` holds pass through the fill: followed back through the subexpressions that carry the
     * scores (a receiver, an operand, an argument) and the definitions of the names they read (an in-place definition,
     * `scores.add_(bias)`, also through its arguments and the definitions before it), within the fill's function. An
     * attribute that carries the scores (`self.att`, `scores.T`) is taken to pass through it.
     */
    function scoresPassThrough(expr: PyNode, site: FillSite, formed: PyNode): boolean {
      const seen = new Set<number>();
      const work: PyNode[] = [expr];
      const carries = (n: PyNode): boolean => carriesScores(ev.eval(n, site.ctx), formed);
      while (work.length > 0) {
        const n = work.pop()!;
        if (seen.has(n.id)) continue;
        seen.add(n.id);
        if (n.id === site.node.id) return true;
        if (n.type === 'argument_list' || n.type === 'keyword_argument' || n.type === 'parenthesized_expression') {
          work.push(...namedChildren(n));
          continue;
        }
        if (!carries(n)) continue;
        if (n.type === 'attribute') return true;
        if (n.type === 'identifier') {
          const pending: Def[] = [...(ev.sr.uses[n.id] ?? [])];
          for (let def = pending.pop(); def; def = pending.pop()) {
            if (def.value) work.push(def.value);
            if (def.prev) pending.push(...def.prev);
          }
          continue;
        }
        if (n.type === 'call') {
          // The receiver and the arguments, not the method's name (`scores.masked_fill`).
          const f = childByField(n, 'function');
          if (f?.type === 'attribute') work.push(childByField(f, 'object')!);
          work.push(childByField(n, 'arguments')!);
          continue;
        }
        work.push(...namedChildren(n));
      }
      return false;
    }

    /** Something the fill's function returns or stores on `self` or into a subscript (`out[i] = ...`) carries the scores. */
    function escapes(site: FillSite, formed: PyNode): boolean {
      if (carriesScores(ev.returnValue(site.ctx.scope, site.ctx), formed)) return true;
      /* c8 ignore next -- the helper has the scores for a parameter, a definition of its scope */
      const defs = ev.sr.defsOfScope.get(site.ctx.scope.id) ?? [];
      const stores = defs.filter((d) => d.kind === 'setitem' || d.name.includes('.'));
      return stores.some((d) => carriesScores(ev.eval(d.value, site.ctx), formed));
    }

    /**
     * `torch.where(keep, 0.0, fill)` (or `where(pad, fill, 0.0)`): the fill chosen against a zero builds an additive bias
     * (0 where kept), as `zeros.masked_fill(~keep, fill)` does.
     */
    function whereBias(site: FillSite): boolean {
      return site.how === 'where' && site.target.kind === 'number' && site.target.num === 0;
    }

    /**
     * Zeros chosen against a tiny constant (`bias = torch.where(pad, -1e-9, 0.0)`, also against `torch.zeros_like(s)`)
     * and bound to a name for a mask or a bias: an additive mask being built whose fill does not mask.
     */
    function tinyWhereBias(site: FillSite, num: number | undefined): boolean {
      if (site.how !== 'where' || num === undefined || num === 0 || Math.abs(num) > TINY_FILL) return false;
      const bound = boundName(site.node);
      return !!bound && MASK_OR_BIAS_NAME.test(bound);
    }

    /** The fill writes into a mask or bias tensor that is being built (additive attention mask), not into scores. */
    function buildsMask(site: FillSite): boolean {
      if (site.target.attn) return false;
      if (site.target.mask) return true;
      const name = site.targetNode && rootName(ev, site.targetNode);
      if (name && MASK_OR_BIAS_NAME.test(name)) return true;
      // Zeros filled and bound to a name for a mask or a bias (`bias = torch.zeros_like(scores).masked_fill(pad, v)`):
      // the additive mask being built, as `bias.masked_fill_(pad, v)` is.
      const bound = zerosBase(site.target) && boundName(site.node);
      return !!bound && MASK_OR_BIAS_NAME.test(bound);
    }

    /** A tensor of zeros (`torch.zeros_like(scores)`, `torch.zeros(shape)`, `torch.full(shape, 0.0)`). */
    function zerosBase(t: AValue): boolean {
      return t.kind === 'tensor' && (t.zeros === true || t.fillValue === 0);
    }

    /** The name an expression's value is bound to (`bias = <node>`, `self.bias = <node>`); undefined elsewhere. */
    function boundName(node: PyNode): string | undefined {
      const p = node.parent;
      return p?.type === 'assignment' && childByField(p, 'right')?.id === node.id ? rootName(ev, childByField(p, 'left')) : undefined;
    }

    /** The call that writes the fill; the fill argument itself when it is written inline (its own line in a multi-line call). */
    function location(site: FillSite): PyNode {
      const f = unparen(site.fillNode);
      if (site.how === 'add') return site.fillNode;
      if (f.type === 'identifier' || f.type === 'attribute') return site.node;
      return site.fillNode;
    }

    /**
     * The fill sits in a branch that runs only for float32 (or wider) data: the `else` (or a later `elif`) of
     * `if x.dtype == torch.float16:` (or `in (torch.float16, torch.bfloat16)`), the body of
     * `if x.dtype != torch.float16:` (`is not`, `not in`) or of `if x.dtype == torch.float32:` / `elif dtype == torch.float32:`.
     * The dtype may be read by a helper (`if get_parameter_dtype(self) == torch.float16:`).
     */
    function float32Branch(node: PyNode): boolean {
      for (let child = node, p = node.parent; p; child = p, p = p.parent) {
        if (p.type === 'function_definition') return false;
        if (p.type !== 'if_statement' && p.type !== 'elif_clause') continue;
        // Going up from an `elif` arm or the `else:`, the `if` before them did not hold.
        const inElse = child.type === 'else_clause' || child.type === 'elif_clause';
        const t = p.children
          .filter((c) => c.field === 'condition')
          .map((c) => ctx.text(c))
          .join(' ')
          .replace(/\s+/g, ' ');
        const cmp = DTYPE_COMPARISON.exec(t);
        if (!cmp) continue;
        const [, sym, word, against = ''] = cmp;
        const op = sym ?? word;
        const negated = op === '!=' || op === 'is not' || op === 'not in';
        const half = /\b(float16|half|bfloat16)\b/.test(against);
        const full = !half && /\b(float32|float|float64|double)\b/.test(against);
        if ((half && (negated ? !inElse : inElse)) || (full && !negated && !inElse)) return true;
      }
      return false;
    }

    /**
     * The PyTorch op that writes the fill, and whether it raises on a value out of the tensor's range: masked_fill and
     * `torch.full`/`full_like` convert the Python number to the tensor's dtype with a range check (RuntimeError "value
     * cannot be converted to type c10::Half without overflow"); an index assignment (`s[mask] = -1e9`), `torch.where`
     * and an additive mask (`mask * -1e9`, `scores - 1e9 * mask`) cast it, and it becomes -inf with no error (checked
     * on PyTorch 2 on CPU).
     */
    function torchFillOp(site: FillSite): { name: MessageArg; raises: boolean } {
      let fill = unparen(site.fillNode);
      // A fill given by name (`hidden = torch.full_like(scores, -1e9)`, then `torch.where(m, hidden, scores)`): the
      // op that wrote the number into the scores' dtype is the one its single definition calls.
      const [only, ...others] = fill.type === 'identifier' ? liveDefinitions(ev, fill, site.ctx) : [];
      if (others.length === 0 && only?.value?.type === 'call') fill = only.value;
      const fillFn = fill.type === 'call' ? childByField(fill, 'function') : undefined;
      const fillFnText = fillFn ? ctx.text(fillFn) : '';
      if (/(^|\.)full(_like)?$/.test(fillFnText)) return { name: quote(fillFnText), raises: true };
      if (site.how === 'masked_fill') return { name: 'masked_fill', raises: true };
      if (site.how === 'setitem') return { name: msg(T.indexAssignment), raises: false };
      if (site.how === 'where') {
        // A `where` fill site is the call itself (`torch.where(...)`, `np.where(...)`): named as written.
        const fn = childByField(site.node, 'function');
        /* c8 ignore next: the grammar gives every call a function; the types make it optional */
        return { name: fn ? ctx.text(fn) : 'where', raises: false };
      }
      return { name: msg(T.additiveMask), raises: false };
    }

    /**
     * PyTorch's masked_fill raises on a fill out of the tensor's range; JAX, TensorFlow, MLX and NumPy round it to
     * -inf silently. A file that does not import torch gets that wording and its library's minimum.
     */
    function belowRangeMessage(which: 'fp16' | 'bf16', fillText: MessageArg, runs: MessageArg, site: FillSite) {
      const lib = ev.file.importsTorch ? undefined : ev.file.arrayLibrary;
      if (!lib) {
        const op = torchFillOp(site);
        if (op.raises) return msg(which === 'fp16' ? T.belowFloat16Raises : T.belowBfloat16Raises, fillText, runs, op.name);
        return msg(which === 'fp16' ? T.belowFloat16Cast : T.belowBfloat16Cast, fillText, runs, op.name);
      }
      return msg(which === 'fp16' ? T.belowFloat16Array : T.belowBfloat16Array, fillText, runs, DTYPE_MINIMUM[lib]);
    }

    /**
     * Why a row of the filled scores can have every key masked, when the code shows it (the mask's own shape, a term that
     * decides whole query rows, a causal mask joined with padding the code shows on the left), and no NaN guard on the
     * rows: what makes a -inf fill, or a finite one that rounds to -inf, produce NaN.
     */
    function emptyRow(site: FillSite): { m?: MaskInfo; rowFactor?: ReturnType<typeof wholeRowFactor>; reason: MessageArg } | undefined {
      // The op says which region of the mask it fills: masked_fill and index assignment where it is True, `where`
      // where its condition selects the fill.
      const fills = site.maskSelectsFill ? 'true' : 'false';
      const axes = scoreAxes(site);
      const m = site.mask?.mask;
      const rowFactor = m ? undefined : wholeRowFactor(site, fills, axes);
      const reason = m ? emptyRowReason(m, axes, fills) : rowFactor && msg(T.rowFactorEmptiesRows, quote(ctx.text(rowFactor.term), 40), rowFactor.op);
      if (!reason || nanGuarded(site)) return undefined;
      // Causal and key padding empty a row only with left padding: reported when the code shows some (a right-aligned
      // write into a padded batch, `padding_side="left"`; a comment alone is no evidence), silent for the right padding of
      // training code and decoders.
      const onlyLeftPadding = !!m && causalWithPaddingOnly(m) && !emptyRowReason({ ...m, causal: false }, axes, fills);
      if (onlyLeftPadding && !leftPaddingShown(ev)) return undefined;
      return { m, rowFactor, reason };
    }

    /**
     * A -inf mask built for potentials that are exponentiated, not normalised (the matrix-tree theorem's Laplacian, a
     * CRF's partition function): the mask the fill builds is added, in its own function, to a tensor that function
     * exponentiates (`x.exp()`, `torch.exp(x)`, also through a plain alias `input = arc_scores`), neither the mask nor
     * the sum is returned as it is, and the file normalises no row (no softmax, log-softmax, hand-written exp / sum or
     * logsumexp). exp(-inf) = 0 is the weight a masked entry should get; a row of -inf is NaN only through a softmax.
     */
    function exponentiatedNotNormalised(site: FillSite): boolean {
      if (ev.facts.softmax.length > 0 || ev.file.namesRowNormaliser) return false;
      // The mask being built: the target of an index assignment (`mask[mask == 0] = float('-inf')`), or the name a fill
      // op's result is assigned to (`mask = mask.masked_fill(mask == 0, float('-inf'))`), in a function.
      // A fill op always sits inside a statement (the type allows a root node).
      const stmt = site.node.parent!;
      const bound = site.how === 'setitem' ? site.targetNode : stmt.type === 'assignment' ? childByField(stmt, 'left') : undefined;
      const fn = enclosingFunction(site.node);
      if (bound?.type !== 'identifier' || !fn) return false;
      // The mask's name, then the names the masked tensor is bound to (`s = s + mask`, `s += mask`, an alias `x = s`).
      const names = new Set([ctx.text(bound)]);
      const named = (n: PyNode | undefined): boolean => n?.type === 'identifier' && names.has(ctx.text(n));
      const opOf = (n: PyNode): string => ctx.text(childByField(n, 'operator') ?? n);
      let added = false;
      let exponentiated = false;
      let leaves = false;
      let divides = false;
      const visit = (n: PyNode): void => {
        // Nested functions and classes are other scopes.
        if (n.id !== fn.id && /^(?:function|class)_definition$/.test(n.type)) return;
        const left = childByField(n, 'left');
        const right = childByField(n, 'right');
        const r = right && unparen(right);
        if (n.start > site.node.end && left?.type === 'identifier' && r) {
          const sum = r.type === 'binary_operator' && opOf(r) === '+' && [childByField(r, 'left'), childByField(r, 'right')].some(named);
          if ((n.type === 'augmented_assignment' && opOf(n) === '+=' && named(r)) || (n.type === 'assignment' && (sum || (added && named(r))))) {
            names.add(ctx.text(left));
            added = true;
          }
        }
        // Exponentiated: `s.exp()`, or a module's exp of it (`torch.exp(s)`, `np.exp(s)`).
        const f = childByField(n, 'function');
        if (added && f?.type === 'attribute' && ctx.text(childByField(f, 'attribute')!) === 'exp')
          exponentiated ||= named(childByField(f, 'object')) || named(namedChildren(childByField(n, 'arguments')!)[0]);
        // Returned as it is (a caller may normalise with it).
        if (n.type === 'return_statement') leaves ||= namedChildren(n).some((e) => named(e) || namedChildren(e).some(named));
        // A hand-written normalisation of the exponentials (`e / e.sum(-1, keepdim=True)`, `/=`): 0 / 0 on a masked row.
        if (right && /^\/=?$/.test(opOf(n)) && /\bsum\s*\(/.test(ctx.text(right))) divides = true;
        for (const ch of namedChildren(n)) visit(ch);
      };
      visit(fn);
      return exponentiated && !leaves && !divides;
    }

    /**
     * A fill below the range of the precision the file runs in harms unless the code shows that no row can be all
     * masked. PyTorch's masked_fill and `full`/`full_like` raise an overflow error whatever the mask; outside PyTorch
     * (JAX, TensorFlow, NumPy, MLX) a 0/1 mask multiplied by the fill is converted to the mask's half dtype first, -inf,
     * and 0 × -inf is NaN at every kept position (PyTorch computes a scalar product in float32 and rounds after: -0 and
     * -inf). Every other op (an index assignment, `where`/`select`, `full(...).astype(half)`, PyTorch's additive mask)
     * makes the masked positions -inf, which is NaN only in a row whose every key is masked: not reported when the mask
     * the code builds cannot empty one (a causal triangle that keeps the diagonal, key padding, causal with right
     * padding), as a -inf fill there is not. A mask the code does not show (a parameter known by its name) may.
     */
    function belowRangeHarms(site: FillSite): boolean {
      const torch = ev.file.importsTorch || !ev.file.arrayLibrary;
      if (torch && torchFillOp(site).raises) return true;
      if (!torch && site.how === 'add' && site.maskNode) return true;
      return !cannotEmptyRow(site);
    }

    /** The mask is one the code builds (a triangle, a causal or a padding mask along axes it states), and none of its rows is all masked. */
    function cannotEmptyRow(site: FillSite): boolean {
      const m = site.mask?.mask;
      // Known from a name or a docstring only (`attention_mask`, "True = attend"), its shape is a guess: it may empty rows.
      if (!m || m.byName || m.documented || m.additiveAssumed) return false;
      const built = !!m.tri || !!m.causal || !!m.padAxes?.length;
      return built && emptyRow(site) === undefined;
    }

    function explicitlyFloat32(v: AValue): boolean {
      return v.dtype === 'float32' || v.dtype === 'float64';
    }

    /**
     * An additive mask built from an integer or boolean mask times a Python float (`(ids == pad) * -1e9`,
     * `(1 - keep.long()) * -1e9`, `scores - 1e9 * pad.long()`): PyTorch makes it float32, its default dtype, and autocast leaves elementwise
     * products alone; added to float16 scores it promotes the sum to float32, where -1e9 fits. Not a mask times a
     * tensor filled in the scores' dtype (`pad * torch.full_like(scores, -1e9)`).
     */
    function float32AdditiveMask(site: FillSite): boolean {
      return site.how === 'add' && site.fill.kind === 'number' && unparen(site.fillNode).type !== 'call' && integerValued(site.target);
    }

    /**
     * The filled tensor is one the same function made with a factory given no dtype (`bias = torch.zeros(B, 1, 1, T)`,
     * then `bias.masked_fill(pad, -1e9)`; `torch.ones(T, T).triu(1) * -1e9`): float32 (or wider) whatever precision the
     * model runs in, since autocast leaves factories alone and `.half()` converts parameters and buffers only; the
     * fill fits, and added to float16 scores the sum is promoted to float32. Not a `*_like` of the scores, a tensor
     * given `dtype=`, nor an attribute (a buffer `.half()` converts).
     */
    function defaultDtypeFactory(site: FillSite): boolean {
      const t = site.target;
      return t.kind === 'tensor' && t.factoryScope !== undefined && t.factoryScope === site.ctx.scope.id;
    }

    /**
     * The filled tensor is the mask a caller hands the function (a parameter of the fill's function known as a mask, reached through
     * shape-only ops: `attention_mask_l.unsqueeze(1).unsqueeze(1)`, then `.expand(B, 1, T, S)`), not the scores nor a
     * tensor made like them, and the only float16 the code shows is CUDA autocast's (precision.ts: autocastOnly).
     * Autocast computes the ops it lists in float16 and leaves a tensor it did not compute in the dtype its caller made
     * it in (a tokenizer's integer mask, a float32 one): masked_fill raises nothing there. Code run in float16 by
     * `.half()`, a float16 dtype or an fp16 flag (fairseq's `--fp16`) is still judged as float16.
     */
    function callersMaskUnderAutocast(site: FillSite): boolean {
      if (!ev.precision.autocastOnly || ev.precision.bf16) return false;
      const t = site.target;
      if (t.kind !== 'tensor' || t.attn || t.zeros || t.fillValue !== undefined || t.dtype === 'float16') return false;
      // Not the scores: a helper filling whatever tensor it is given (`replace_masked_values(tensor, mask, -1e7)`) is
      // judged where a call hands it the scores (`t.attn` above), which autocast computes in float16; with no caller
      // in view such a target is no fill ATT007 judges (relevantTarget: a mask or a bias by its value or name).
      return !!site.targetNode && handedInByCaller(site.targetNode, site, new Set());
    }

    /** Shape-only methods: the result holds the tensor's own values in its own dtype. */
    const SHAPE_ONLY = /^(?:unsqueeze|expand|expand_as|view|reshape|repeat|squeeze|transpose|permute|contiguous|flatten|clone|detach)$/;

    /**
     * `node` is, through shape-only ops and assignments of the fill's function, one of that function's parameters. A
     * definition met again (`pad = pad.unsqueeze(1)` in a loop) adds no other source.
     */
    function handedInByCaller(node: PyNode, site: FillSite, seen: Set<number>): boolean {
      const u = unparen(node);
      if (u.type === 'identifier') {
        const defs = liveDefinitions(ev, u, site.ctx);
        return (
          defs.length > 0 &&
          defs.every((d) => {
            if (seen.has(d.id)) return true;
            seen.add(d.id);
            return (
              d.scope === site.ctx.scope &&
              ((d.kind === 'param' && d.name !== 'self') || (d.kind === 'assign' && d.path.length === 0 && !!d.value && handedInByCaller(d.value, site, seen)))
            );
          })
        );
      }
      if (u.type === 'call') {
        const fn = childByField(u, 'function');
        // An attribute's name (`m.unsqueeze`); a bare function (`f(m)`) has none.
        const method = fn && childByField(fn, 'attribute');
        const object = fn && childByField(fn, 'object');
        return !!method && !!object && SHAPE_ONLY.test(ctx.text(method)) && handedInByCaller(object, site, seen);
      }
      if (u.type === 'subscript') {
        // `m[:, None, None, :]`, `m[..., None]`: slices, None and the ellipsis only.
        const value = childByField(u, 'value');
        const index = u.children.filter((c) => c.named && c !== value);
        return !!value && index.every((c) => PLAIN_INDEX.test(c.type)) && handedInByCaller(value, site, seen);
      }
      return false;
    }

    /** Index items that keep every value of the indexed tensor (a view): slices, None, the ellipsis. */
    const PLAIN_INDEX = /^(?:slice|none|ellipsis|comment)$/;

    function finfoFix(site: FillSite): FixSpec | undefined {
      // `scores - mask * 1e9`: the written number is subtracted, so finfo's minimum there would add a huge value.
      if (site.subtracted) return undefined;
      const t = site.targetNode ? unparen(site.targetNode) : undefined;
      if (!t || (t.type !== 'identifier' && t.type !== 'attribute')) return undefined;
      if (!ev.file.importsTorch) return undefined;
      const newText = `torch.finfo(${ctx.text(t)}.dtype).min`;
      return { title: msg(T.finfoFix, newText), safety: 'unsafe', edits: [{ start: site.fillNode.start, end: site.fillNode.end, newText }] };
    }

    /**
     * Scores masked by an out-of-place op whose result the statement drops, when a softmax normalises them unmasked
     * (analysis/discarded.ts). The fix assigns the result back to the name, when every definition reaching it is of
     * the statement's own function (an assignment cannot then make a global's or a closure's name local).
     */
    function reportDiscarded(d: DiscardedMaskSite): void {
      const name = ctx.text(d.receiver);
      const expr = ctx.text(d.node);
      const assigned = quote(`${name} = ${expr}`, 60);
      const softmax = apiName(d.softmax.display);
      const what = [quote(expr, 50), quote(ctx.text(d.maskNode), 40), softmax, quote(name)] as const;
      // In a function nested in the one that owns the name, only the in-place method keeps it the same variable.
      const message =
        d.inPlaceTwin && !d.receiverLocal
          ? msg(T.discardedInPlaceOnly, ...what, quote(d.inPlaceTwin))
          : d.inPlaceTwin
            ? msg(T.discardedInPlace, ...what, assigned, quote(d.inPlaceTwin))
            : msg(T.discarded, ...what, assigned);
      const fix: FixSpec | undefined = d.receiverLocal
        ? { title: msg(T.assignFix, quote(name)), safety: 'unsafe', edits: [{ start: d.statement.start, end: d.statement.start, newText: `${name} = ` }] }
        : undefined;
      ctx.report({
        node: d.node,
        message,
        ...(fix ? { fix } : {}),
        related: [{ node: d.softmax.node, message: msg(T.normalisesUnmasked, softmax) }, ...maskBuilt(ev, d.mask)],
      });
    }

    /** Two additive masks each holding finfo(D).min added in D (analysis/summed-floors.ts): -inf where both mask. */
    function reportSummedFloors(f: SummedFloors): void {
      const plane = (n: PyNode): RelatedSpec[] => definitions(ev, n, f.ctx, (t) => msg(T.planeBuiltHere, quote(t, 40)), 1);
      ctx.report({
        node: f.node,
        message: msg(T.summedFloors, quote(ctx.text(f.node), 50), f.dtype, quote(ctx.text(f.left), 30), quote(ctx.text(f.right), 30)),
        related: [...plane(f.left), ...plane(f.right)],
      });
    }

    /**
     * The first place in the function after `assignment` where the name it binds is added to something, or subtracted
     * from it (`scores += bias`, `scores = scores + bias`), reading that assignment's value: the sum and the other
     * operand. Undefined when none does.
     */
    function addedByName(name: PyNode, assignment: PyNode, c: WeakAdditiveMaskSite['ctx']): { added: PyNode; scores: PyNode } | undefined {
      let fn = assignment;
      while (fn.parent && fn.type !== 'function_definition') fn = fn.parent;
      const text = ctx.text(name);
      const value = childByField(assignment, 'right');
      let found: { added: PyNode; scores: PyNode } | undefined;
      const visit = (n: PyNode): void => {
        if (found) return;
        if (n.type === 'identifier' && n.start > assignment.end && ctx.text(n) === text) {
          const p = n.parent;
          const l = p && childByField(p, 'left');
          const r = p && childByField(p, 'right');
          if (p && l && r && r.id === n.id) {
            const opText = ctx
              .text(p)
              .slice(l.end - p.start, r.start - p.start)
              .trim();
            if (/^[+-]=?$/.test(opText) && liveDefinitions(ev, n, c).some((d) => d.value?.id === value?.id)) found = { added: p, scores: l };
          }
          return;
        }
        for (const ch of namedChildren(n)) visit(ch);
      };
      visit(fn);
      return found;
    }

    /**
     * `scores + mask * 1e-9` / `logits += mask * 1e-9` (any framework): a mask scaled by a constant too small to mask,
     * added to scores a softmax normalises. The operand the product is added to decides it, not a name.
     */
    function reportWeakAdditive(site: WeakAdditiveMaskSite): void {
      let inner = site.node;
      while (inner.parent?.type === 'parenthesized_expression') inner = inner.parent;
      const parent = inner.parent;
      const left = parent && childByField(parent, 'left');
      const right = parent && childByField(parent, 'right');
      const op =
        parent && left && right
          ? ctx
              .text(parent)
              .slice(left.end - parent.start, right.start - parent.start)
              .trim()
          : '';
      // The scores the product is added to, or subtracted from (`scores - mask / 1e9`, not `mask * 1e-9 - scores`);
      // or, bound to a name first (`bias = (1.0 - keep) * 1e-9`), where that name is added to them (`scores += bias`).
      const other = left?.id === inner.id ? undefined : left;
      const direct = other && /^[+-]=?$/.test(op) ? { added: parent!, scores: other } : undefined;
      const bound = !direct && !!parent && parent.type === 'assignment' && !!right && right.id === inner.id && !!left && left.type === 'identifier';
      const via = bound ? addedByName(left, parent, site.ctx) : undefined;
      const use = direct ?? via;
      const scores = use ? ev.eval(use.scores, site.ctx) : undefined;
      const formed = scores?.attn?.stage === 'scores' ? scores.attn.formedAt : undefined;
      const softmax = formed && ev.facts.softmaxFormedAt(formed)[0];
      if (!use || !softmax || reported.has(site.factorNode.id)) return;
      reported.add(site.factorNode.id);
      ctx.report({
        node: site.factorNode,
        message: msg(T.weakAdditiveMask, quote(ctx.text(site.node), 40), quote(ctx.text(site.maskNode), 24), String(site.factor)),
        related: [
          { node: use.added, message: msg(T.addedToScoresHere) },
          { node: softmax.node, message: msg(T.normalisesFilled, apiName(softmax.display)) },
          ...maskBuilt(ev, site.mask.mask, msg(T.theMaskFilled)),
        ],
      });
    }

    /** Fills below the half range whose mask is a parameter in the context they were seen in (judged at the end). */
    const deferredBelowRange: Array<{ fillNode: number; report: () => void }> = [];
    /** Fills below the half range seen in a context that shows their mask and that it cannot empty a row. */
    const rowsKeptElsewhere = new Set<number>();

    /** The mask at the fill is one the code shows (not known from a name, a docstring or an assumption only). */
    function maskShown(site: FillSite): boolean {
      const m = site.mask?.mask;
      return !!m && !m.byName && !m.documented && !m.additiveAssumed;
    }

    /**
     * A below-range fill whose harm rests only on a mask this context does not show (PyTorch's index assignment,
     * `where`, an additive mask: -inf, no error), so that another context of the same fill (a caller passing its mask)
     * may show that no row is emptied.
     */
    function maskShownElsewhereMayDecide(site: FillSite): boolean {
      const torch = ev.file.importsTorch || !ev.file.arrayLibrary;
      if (torch && torchFillOp(site).raises) return false;
      if (!torch && site.how === 'add' && site.maskNode) return false;
      return !maskShown(site);
    }

    return {
      end() {
        for (const d of deferredBelowRange) if (!reported.has(d.fillNode) && !rowsKeptElsewhere.has(d.fillNode)) d.report();
        for (const d of discardedMasks(ev)) reportDiscarded(d);
        for (const w of ev.facts.weakAdditiveMask) reportWeakAdditive(w);
        for (const f of summedFloors(ev)) reportSummedFloors(f);
      },
      fill(site: FillSite) {
        if (reported.has(site.fillNode.id)) return;
        // A fill whose result is discarded writes nothing: reported as such (end), or dead code.
        if (discardedSite(ev, site)) return;
        const fill = fillNumber(site.fill);
        if (!fill) return;
        const target = site.target;
        // `torch.where(keep, 0.0, float("-inf"))`: an additive bias built against a zero, judged as a -inf fill of it.
        if (!relevantTarget(site) && !(fill.num === -Infinity && whereBias(site)) && !tinyWhereBias(site, fill.num)) return;
        // A fill judged as a file importing this one calls its function names that call (linked as a related location).
        const fillText: MessageArg = asCalledAt(
          site.subtracted ? msg(T.subtractedFill, quote(ctx.text(site.fillNode), 40), ctx.text(site.fillNode).trim()) : quote(ctx.text(site.fillNode), 40),
          site.ctx,
        );
        // 1. Below float16's range in half-precision code.
        const finite = fill.num !== undefined && Number.isFinite(fill.num);
        const belowFp32 = (finite && fill.num < BF16_MIN) || (!fill.finfoMax && (fill.finfo === 'float32' || fill.finfo === 'float64'));
        const belowFp16 = belowFp32 || (finite && fill.num < FP16_MIN);
        if (
          !explicitlyFloat32(target) &&
          !float32AdditiveMask(site) &&
          !float32Branch(site.node) &&
          !defaultDtypeFactory(site) &&
          !(site.how === 'add' && ev.facts.addedToFullPrecision.has(site.node.id))
        ) {
          // The narrowest precision the file runs in whose range the fill is below.
          const which = belowFp16 && ev.precision.fp16 && !callersMaskUnderAutocast(site) ? 'fp16' : belowFp32 && ev.precision.bf16 ? 'bf16' : undefined;
          if (which && belowRangeHarms(site)) {
            const report = (): void => {
              reported.add(site.fillNode.id);
              ctx.report({
                node: location(site),
                message: belowRangeMessage(which, fillText, runsIn(ev.precision, which), site),
                fix: finfoFix(site),
                related: [precisionShown(ev, which), ...fillDefinition(site), ...maskBuilt(ev, site.target.mask, msg(T.theMaskFilled))],
              });
            };
            // A fill that turns -inf (no error raised) into a mask the code does not show here (a parameter): the callers
            // in view decide. Judged at the end, once every context of the fill is seen: not reported when every caller
            // that shows its mask passes one that cannot empty a row (a causal triangle keeping the diagonal), and at
            // least one does.
            if (maskShownElsewhereMayDecide(site)) {
              deferredBelowRange.push({ fillNode: site.fillNode.id, report });
            } else {
              report();
              return;
            }
          } else if (which && maskShown(site)) {
            rowsKeptElsewhere.add(site.fillNode.id);
          }
        }
        // 1b. A fill that does not mask: zero, positive (+inf from -float('-inf')) or a tiny negative number.
        const weak = fill.num !== undefined && fill.num > WEAKEST_MASKING_FILL;
        // Into a mask being built, a zero fill is the "keep" half of an additive mask: only a tiny negative
        // number (a typo for -1e9) or +inf is wrong there.
        // In zeros (an additive bias being built) a tiny positive number masks nothing either.
        const weakForMask =
          weak &&
          (fill.num === Infinity || (fill.num < 0 && fill.num > WEAKEST_MASKING_FILL) || (fill.num > 0 && fill.num <= TINY_FILL && zerosBase(site.target)));
        const num = fill.num;
        if (
          num !== undefined &&
          ((weak &&
            writesScores(site) &&
            !cleanUp(site) &&
            !wholeRowFill(site) &&
            !(fill.num === 0 && (zeroFilledCopy(site) || zeroFilledCopyNoSoftmaxReads(site)))) ||
            (weakForMask && buildsMask(site)) ||
            tinyWhereBias(site, num))
        ) {
          reported.add(site.fillNode.id);
          const template = num === Infinity ? T.fillPlusInf : num > 0 ? T.fillPositive : T.fillZero;
          ctx.report({
            node: location(site),
            message: msg(template, fillText),
            fix: finfoFix(site),
            related: [...fillDefinition(site), ...softmaxOf(site)],
          });
          return;
        }
        // 1c. A 0/1 mask multiplied by ±inf (`(1 - keep) * float('-inf')`): 0 × inf is NaN at every kept position.
        // Not when the code replaces the product's NaN before using it (`np.nan_to_num(-np.inf * np.triu(ones, k=1),
        // nan=0.0)`): the NaN becomes 0 where the mask keeps, and -inf the most negative finite value where it hides.
        // Nor then of -inf emptying a row: nan_to_num has made the hidden positions finite.
        if (site.how === 'add' && fill.num === -Infinity && ev.facts.nanReplaced.has(site.node)) return;
        if (site.how === 'add' && fill.num === -Infinity && site.maskNode) {
          reported.add(site.fillNode.id);
          ctx.report({
            node: location(site),
            message: msg(T.infTimesMask, fillText, quote(ctx.text(site.maskNode), 40)),
            // The fill writes into the 0/1 mask (the scores come later, in a sum): no softmax of it to name.
            related: [...fillDefinition(site), ...maskBuilt(ev, site.mask?.mask)],
          });
          return;
        }
        // 2. -inf where a whole row can be masked.
        if (fill.num === -Infinity && (site.mask?.mask || site.maskNode)) {
          const empty = emptyRow(site);
          if (!empty || exponentiatedNotNormalised(site)) return;
          const { m, rowFactor, reason } = empty;
          reported.add(site.fillNode.id);
          ctx.report({
            node: location(site),
            message: msg(T.minusInfEmptyRows, fillText, quote(ctx.text(site.maskNode!), 40), reason),
            fix: finfoFix(site),
            related: [
              ...fillDefinition(site),
              ...(m ? maskBuilt(ev, m) : []),
              ...(rowFactor ? [{ node: rowFactor.at, message: msg(T.rowFactorHere, quote(ctx.text(rowFactor.term), 40)) }] : []),
              ...softmaxOf(site),
            ],
          });
        }
      },
    };
  },
};
