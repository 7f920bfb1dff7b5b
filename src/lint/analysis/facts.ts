// The sites the evaluator records while it evaluates a module: every softmax, matmul, mask hand-off, fill,
// scale and SDPA call, each with the abstract values of its operands in one evaluation context. Rules read
// these; they never walk the syntax tree themselves.
import type { PyNode } from '../syntax/tree';
import type { Framework, Polarity } from './apis';
import type { Scope } from './scopes';
import { axisAt, type AValue, type LayerInfo, type ScaleOp, type TriRegion } from './values';

/** An evaluation context: a function evaluated with unknown parameters (default) or for one call site. */
export interface Ctx {
  readonly id: number;
  readonly scope: Scope;
  /** Parameter name → value at the call site (absent in a default context). */
  readonly bindings?: ReadonlyMap<string, AValue>;
  readonly depth: number;
  readonly callSite?: PyNode;
  /** A context made for a call an importing file makes (importer-calls.ts): where that call is. */
  readonly calledAt?: { readonly path: string; readonly line: number };
  /**
   * Made for a call whose arguments are all in view (no `*args`/`**kwargs`): a parameter the call leaves out has its
   * default, so a default is evidence here (in a default context it is not: another caller may pass anything).
   */
  readonly defaultsHold?: boolean;
  /**
   * One element of a comprehension over a tuple of known elements (`[t.transpose(1, 2) for t in (q, k, v)]`): the
   * comprehension's body is evaluated once per element in a context of its own, where the iteration variable is that
   * element; every other definition is read in the enclosing context (`outer`), as the body reads it there.
   */
  readonly element?: ComprehensionElement;
}

/** What a comprehension element's context binds (see Ctx.element). */
export interface ComprehensionElement {
  /** The context the comprehension itself is evaluated in. */
  readonly outer: Ctx;
  /** The comprehension node (its for-clause's definitions are the ones bound here). */
  readonly node: PyNode;
  /** The iterable of its (single) for-clause: the definitions whose value is this node take the element. */
  readonly iterable: PyNode;
  /** The element this context stands for. */
  readonly value: AValue;
}

export interface SoftmaxSite {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly input: AValue;
  readonly inputNode?: PyNode;
  readonly display: string;
  readonly framework: Framework;
  /** Literal dim, 'implicit' (PyTorch legacy rule), 'all' (every element), or undefined when not a literal. */
  readonly dim: number | 'implicit' | 'all' | undefined;
  /** The node holding the dim (whole `dim=...` keyword or positional value), when written. */
  readonly dimNode?: PyNode;
  /** The dim's value expression (for replacing it). */
  readonly dimValueNode?: PyNode;
  /** Where to point when there is no dim: the call, or the layer's constructor call. */
  readonly ownerNode: PyNode;
  /** The argument list to add `dim=-1` to (the call's or the constructor's). */
  readonly argListNode?: PyNode;
  readonly layer?: LayerInfo;
  readonly output: AValue;
}

export interface MatmulSite {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly display: string;
  readonly a: AValue;
  readonly b: AValue;
  readonly aNode?: PyNode;
  readonly bNode?: PyNode;
  /** Negative index of the axis of `a` that is contracted (summed over), when known. */
  readonly contractA?: number;
  readonly contractB?: number;
  /**
   * An einsum's batch axes of each operand (negative indices): named in both operands and in the output, so the
   * product keeps them apart instead of summing over them (`h` in 'bsh,bshd->bhd').
   */
  readonly keptA?: readonly number[];
  readonly keptB?: readonly number[];
  /** An einsum's count of summed axes: letters in both operands and not in the output ('brhid,brhjd->bhij': r and d, 2). */
  readonly summedAxes?: number;
  readonly result: AValue;
  /**
   * The call transposes that operand's last two axes itself (`tf.matmul(q, k, transpose_b=True)`): `a` / `b` and the
   * contracted axes above are of the transposed operand, not of the value written at aNode / bNode.
   */
  readonly transA?: true;
  readonly transB?: true;
}

export interface MaskSite {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly display: string;
  readonly param: string;
  readonly expects: Polarity;
  /**
   * 'api': a library parameter whose meaning is documented and fixed (SDPA's attn_mask, nn.MultiheadAttention's
   * key_padding_mask, ...). 'fill': the code's own masking (masked_fill, where, index assignment, mask × -1e9),
   * where the mask's meaning is whatever the code makes it.
   */
  readonly convention: 'api' | 'fill';
  readonly maskNode: PyNode;
  readonly mask: AValue;
  /** The API adds a float mask to the scores (PyTorch's attn_mask, key_padding_mask): only a boolean one is read as True/False. */
  readonly floatAdded?: true;
  /**
   * Judged only when a softmax of the file normalises scores formed at this node: a penalty subtracted from logits
   * (`logits - mask * 1e12`) masks attention only if a softmax reads them; span or pair logits scored by a loss
   * (GlobalPointer's lower triangle) follow no attention convention.
   */
  readonly normalisedAt?: PyNode;
  /** Scores filled and returned unread from this function (normalisedAt set): a softmax of an importing file may read them. */
  readonly returnedFrom?: PyNode;
  /**
   * Judged only when a softmax reads the values this masking step produced (the step on its input's path): logits
   * the code shows nothing of (an MLP's output, `sim = self.to_attn_mlp(m_ij)`) filled with a large negative value
   * are attention logits by what is done with them next, not by what they are called.
   */
  readonly softmaxOf?: PyNode;
  /** A mask times a large positive number subtracted from the scores (`e -= keep * 1e9`): named so in the message. */
  readonly subtracted?: true;
  /**
   * An additive triangle judged where it is added to the scores, not where it was made additive (ATT002): the
   * product that made it (`tri * -1e9`, elsewhere). No fix is offered at the addition (the operand is additive).
   */
  readonly triangleBuiltAt?: PyNode;
}

/**
 * An additive triangle (`np.tril(ones, -1) * -inf`, made additive at `builtAt`) added to attention scores at `node`
 * (`scores + bias`, `q @ k.T + bias.T`) in another expression: `tri` is its triangle as the addition reads it, after any
 * transpose on the way, and `maskNode` the operand there. Which side of the diagonal is each query's past depends on
 * the scores' axes, known only here.
 */
export interface AdditiveTriangleUse {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly maskNode: PyNode;
  readonly builtAt: PyNode;
  readonly tri: TriRegion;
  /**
   * The operand's root name is a parameter of the function holding the addition (`def attend(q, k, v, bias): ... +
   * bias`, called with several biases): reported at the builder, the place that chose the triangle.
   */
  readonly viaParameter: boolean;
}

export interface FillSite {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly how: 'masked_fill' | 'where' | 'add' | 'setitem';
  readonly target: AValue;
  readonly targetNode?: PyNode;
  readonly fillNode: PyNode;
  readonly fill: AValue;
  readonly mask?: AValue;
  readonly maskNode?: PyNode;
  /** For 'where': True selects the fill (condition marks ignored positions) or the original values. */
  readonly maskSelectsFill: boolean;
  /** A large positive factor of a mask that is subtracted from the scores (`scores - 1e9 * (1 - mask)`); `fill` is its negation. */
  readonly subtracted?: boolean;
}

/**
 * A mask multiplied by a constant too small to mask (`mask * 1e-9`, `mask / 1e9`), a typo for -1e9 or a sign slip:
 * whether it is then added to attention scores is the rule's to decide.
 */
export interface WeakAdditiveMaskSite {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly mask: AValue;
  readonly maskNode: PyNode;
  readonly factorNode: PyNode;
  /** The factor the mask is multiplied by (1/divisor for a division). */
  readonly factor: number;
}

export interface ScaleSite {
  readonly ctx: Ctx;
  readonly op: ScaleOp;
  readonly target: AValue;
}

export interface SdpaSite {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly display: string;
  readonly framework: Framework;
  readonly q: AValue;
  readonly k: AValue;
  readonly qNode?: PyNode;
  readonly kNode?: PyNode;
  readonly maskNode?: PyNode;
  readonly mask?: AValue;
  /** The whole `is_causal=...` keyword argument and its value. */
  readonly causalNode?: PyNode;
  readonly causal?: AValue;
  readonly scaleNode?: PyNode;
  readonly scale?: AValue;
  /** The kernel's scale parameter (`scale`, flash-attn's `softmax_scale`). */
  readonly scaleParam?: string;
  readonly argListNode?: PyNode;
}

/** Weights (after softmax) multiplied by a 0/1 mask or masked_fill'ed. */
export interface WeightsMaskSite {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly weights: AValue;
  readonly maskNode: PyNode;
  /** Written into the weights tensor itself (`w[~mask] = -inf`): a caller that passed them in sees the change. */
  readonly inPlace?: boolean;
  /** An additive mask (0 / a large negative number or -inf) added to the weights (`w + (1 - m) * -10000.0`). */
  readonly additive?: true;
  /**
   * The masking is a call of a helper of another workspace file that multiplies the weights passed in by the mask passed
   * in (cross-file.ts): the helper as the caller names it and where its product is (`utils.py:2`).
   */
  readonly helper?: { readonly name: string; readonly ref: string };
}

/**
 * Scores of this file handed to a helper of another workspace file whose softmax normalises them with no mask of its own
 * on the way (cross-file.ts): the call, the scores as this file passes them, and the helper's name and where its softmax
 * is (`utils.py:5`). ATT006 judges the masks this file applied to them (a 0/1 product) as it would before a softmax of
 * the file.
 */
export interface ForeignSoftmaxSite {
  readonly node: PyNode;
  readonly ctx: Ctx;
  readonly input: AValue;
  readonly helper: { readonly name: string; readonly ref: string };
}

/** The axis a softmax normalises, as a negative index of its input: undefined when its dim is no literal or, for a dim counted from the front, the input's rank is not known. */
export function normalisedAxis(s: SoftmaxSite): number | undefined {
  const ndim = s.input.ndim;
  return typeof s.dim !== 'number' ? undefined : s.dim < 0 ? s.dim : ndim !== undefined ? s.dim - ndim : undefined;
}

export class Facts {
  readonly softmax: SoftmaxSite[] = [];
  readonly foreignSoftmax: ForeignSoftmaxSite[] = [];
  readonly matmul: MatmulSite[] = [];
  /** The stated size of the feature axis a pairwise q * k product is summed over, by the product (`formedAt`) of the scores. */
  readonly pairwiseContracted = new Map<PyNode, string>();
  readonly mask: MaskSite[] = [];
  readonly fill: FillSite[] = [];
  readonly scale: ScaleSite[] = [];
  readonly sdpa: SdpaSite[] = [];
  readonly weightsMask: WeightsMaskSite[] = [];
  readonly weakAdditiveMask: WeakAdditiveMaskSite[] = [];
  /** Softmax site node id → contexts in which its output was renormalised (divided by its own sum). */
  readonly renormalised = new Map<number, number[]>();
  /** Post-softmax mask node id → true when renormalised afterwards. */
  readonly postMaskRenormalised = new Set<number>();
  /**
   * Products of a 0/1 mask and a fill (`pad * -1e9`, by node id) that TensorFlow code adds to scores the code makes float32
   * or float64 (`tf.cast(logits, tf.float32)`): TensorFlow adds only tensors of one dtype, so the product is in that
   * dtype too, whatever the precision policy, and the fill is in its range (ATT007).
   */
  readonly addedToFullPrecision = new Set<number>();
  /**
   * Values a NaN test or replacement reads (`torch.nan_to_num(w)`, `torch.isnan(w)`, `w.isnan()`), by the function
   * scope it is written in: a guard protects the rows of the scores or weights it reads, not whatever else the function
   * handles (a loss checked for NaN, an assert on the input).
   */
  readonly nanGuards = new Map<number, AValue[]>();
  /**
   * Products of a 0/1 mask and -inf whose NaN the code replaces before using them (`np.nan_to_num(-np.inf * tri,
   * nan=0.0)`, `m = np.nan_to_num(m)`, `m[np.isnan(m)] = 0.0`): NaN becomes 0, or the finite number given, and -inf the
   * dtype's most negative finite value (mask-ops.ts: `noteNanCleared`). The product's node.
   */
  readonly nanReplaced = new Set<PyNode>();
  /** Node ids of score products whose output is gated by an elementwise sigmoid (sigmoid attention) instead of a softmax. */
  readonly sigmoidScores = new Set<number>();
  /**
   * Functions (read with no caller) multiplying the weights after softmax by a parameter nothing here shows to be a
   * mask (`softmax(scores) * causal`): the calls that reach them, from importing files too, say what it is.
   */
  readonly weightsTimesParam = new Set<Scope>();
  /**
   * Node ids of additive triangles (`tri * -1e6`) some evaluation adds into the first columns of a wider mask
   * (`mask[..., :n] + tri_bias`, ops.ts: dropWindowTriangleSite): their polarity sites are no causal masks of the
   * queries' own keys, in any context.
   */
  readonly windowTriangles = new Set<number>();
  /** Additive triangles added to the scores away from where they were made additive (ops.ts: noteTriangleUse). */
  readonly additiveTriangleUse: AdditiveTriangleUse[] = [];
  /**
   * Functions (read with no caller) choosing between two of their parameters under a condition (`torch.where(keep, scores,
   * big_neg)` in `def fill(keep, scores, big_neg)`): which one is a fill, and what it fills, is what the callers pass.
   */
  readonly whereOfParams = new Set<Scope>();

  private consumers: Map<number, MatmulSite[]> | undefined;
  private formedIndex: { sites: number; byFormed: Map<PyNode, SoftmaxSite[]> } | undefined;
  private matmulIndex: NodeIndex<MatmulSite> | undefined;
  private sdpaIndex: NodeIndex<SdpaSite> | undefined;

  /**
   * The softmax sites whose input is scores formed at this node (`input.attn.formedAt`), in site order. Rules that
   * ask it of every softmax or fill would otherwise scan every softmax of the file each time (quadratic in a long
   * script); the index is built on first use and again if sites were added since.
   */
  /** The matmul/einsum sites at this node (one per context it was evaluated in), in site order. */
  matmulAt(node: PyNode): readonly MatmulSite[] {
    this.matmulIndex = indexByNode(this.matmul, this.matmulIndex);
    return this.matmulIndex.byNode.get(node) ?? [];
  }

  /** The SDPA sites at this node, in site order. */
  sdpaAt(node: PyNode): readonly SdpaSite[] {
    this.sdpaIndex = indexByNode(this.sdpa, this.sdpaIndex);
    return this.sdpaIndex.byNode.get(node) ?? [];
  }

  /**
   * The one axis (negative index) every softmax of the scores formed at `formed` normalises: where their keys are when
   * the operands do not say (`einsum('bhd,bthd->bth', q, k_cache[:, idx])` then `softmax(s, dim=1)`: -2). Undefined
   * when there is no softmax of them, a dim is not a literal, or two softmaxes disagree.
   */
  softmaxKeyAxis(formed: PyNode): number | undefined {
    const axes = new Set<number | undefined>();
    for (const s of this.softmaxFormedAt(formed)) axes.add(normalisedAxis(s));
    return axes.size === 1 ? [...axes][0] : undefined;
  }

  softmaxFormedAt(formed: PyNode): readonly SoftmaxSite[] {
    if (this.formedIndex?.sites !== this.softmax.length) {
      const byFormed = new Map<PyNode, SoftmaxSite[]>();
      for (const s of this.softmax) {
        const at = s.input.attn?.formedAt;
        if (!at) continue;
        const l = byFormed.get(at);
        if (l) l.push(s);
        else byFormed.set(at, [s]);
      }
      this.formedIndex = { sites: this.softmax.length, byFormed };
    }
    return this.formedIndex.byFormed.get(formed) ?? [];
  }

  /**
   * The stated sizes (source text) of the axes that the products formed at `formedAt` sum over: `d` of
   * `q: (B, H, L, d)` times `k: (B, H, d, S)`, `D` of `einsum("bhdl,bhds->bhls", q, k)` with `q: (B, H, D, L)`.
   */
  contractedSizes(formedAt: PyNode | undefined): Set<string> {
    const out = new Set<string>();
    for (const m of this.matmul) {
      if (m.node !== formedAt) continue;
      for (const [v, axis] of [
        [m.a, m.contractA],
        [m.b, m.contractB],
      ] as const) {
        const t = axis === undefined ? undefined : axisAt(v, axis)?.sizeText;
        if (t) out.add(t);
      }
    }
    const pairwise = formedAt && this.pairwiseContracted.get(formedAt);
    if (pairwise) out.add(pairwise);
    return out;
  }

  /** Matmul/einsum sites whose operand is the output of the softmax at this node (built once, after evaluation). */
  consumersOf(softmaxNode: PyNode): readonly MatmulSite[] {
    if (!this.consumers) {
      const m = new Map<number, MatmulSite[]>();
      const add = (id: number, site: MatmulSite): void => {
        const l = m.get(id);
        if (l) l.push(site);
        else m.set(id, [site]);
      };
      for (const site of this.matmul) {
        const a = site.a.attn?.stage === 'weights' ? site.a.attn.softmax?.site : undefined;
        const b = site.b.attn?.stage === 'weights' ? site.b.attn.softmax?.site : undefined;
        if (a) add(a.id, site);
        if (b && b !== a) add(b.id, site);
      }
      this.consumers = m;
    }
    return this.consumers.get(softmaxNode.id) ?? [];
  }
}

/** Sites grouped by their node (the node object itself), for lookups that would otherwise scan every site. */
interface NodeIndex<T> {
  readonly sites: number;
  readonly byNode: Map<PyNode, T[]>;
}

/** The index of `sites` by node; `current` when it was built from as many sites (sites are only ever appended). */
function indexByNode<T extends { readonly node: PyNode }>(sites: readonly T[], current: NodeIndex<T> | undefined): NodeIndex<T> {
  if (current?.sites === sites.length) return current;
  const byNode = new Map<PyNode, T[]>();
  for (const s of sites) {
    const l = byNode.get(s.node);
    if (l) l.push(s);
    else byNode.set(s.node, [s]);
  }
  return { sites: sites.length, byNode };
}

/** Notes a NaN guard on `value`, written in the function scope `scopeId`. */
export function noteNanGuard(facts: Facts, scopeId: number, value: AValue): void {
  const l = facts.nanGuards.get(scopeId);
  if (l) l.push(value);
  else facts.nanGuards.set(scopeId, [value]);
}

/** The whole number `x` is, within rounding (`1 / 0.015625` is 64); undefined when it is none. */
function wholeNumber(x: number): number | undefined {
  const n = Math.round(x);
  return Math.abs(x - n) < 1e-9 * Math.max(1, Math.abs(x)) ? n : undefined;
}

/**
 * A factor on the scores read as a stated width (`widths`: the sizes the scores' product sums over as the code states
 * them, `view(B, T, 8, 64)`): a root or power of a whole number written out (`literal`, with its `power`), or a constant
 * multiplier (`constant`, divided by when `divides`; undefined: applied some other way) that is a width N itself or 1/N (`* 64 ** -1`, `self.scale =
 * 1.0 / 64`, `/ self.temperature` with `self.temperature = 64`), never a guess at a root. N and the power of N the
 * factor multiplies the scores by. `widths` is called only when a whole number is to be compared.
 */
export function widthPower(
  literal: number | undefined,
  power: number | undefined,
  constant: number | undefined,
  divides: boolean | undefined,
  widths: () => ReadonlySet<string>,
): { n: number; power: number } | undefined {
  // The stated sizes are looked up only for a whole number (each lookup scans the file's products).
  const stated = (n: number | undefined, p: number | undefined): { n: number; power: number } | undefined =>
    n !== undefined && p !== undefined && Number.isInteger(n) && n > 1 && widths().has(String(n)) ? { n, power: p } : undefined;
  if (literal !== undefined) return stated(literal, power);
  if (power !== undefined || constant === undefined || constant <= 0 || divides === undefined) return undefined;
  const m = divides ? 1 / constant : constant;
  return stated(wholeNumber(m), 1) ?? stated(wholeNumber(1 / m), -1);
}

/** `c`, 1/c, c² or 1/c² is a whole number among `widths` (the stated sizes a product of scores sums over). */
export function isWidthConstant(c: number, widths: ReadonlySet<string>): boolean {
  return [c, 1 / c, c * c, 1 / (c * c)].some((x) => {
    const n = wholeNumber(x);
    return n !== undefined && n > 1 && widths.has(String(n));
  });
}
