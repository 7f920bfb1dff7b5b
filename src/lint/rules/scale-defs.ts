// What a scale a module or function computes for itself is, read off its definitions: the kernel default
// (1/sqrt(d): `d ** -0.5`, `1 / math.sqrt(d)`), something provably different (an extra factor such as a
// YaRN mscale, a layer index or a constant; 1/d), or unknown (a config value, `qk_scale or ...`). Used to tell
// whether a fused kernel that falls back to its default scale ignores the scale the code meant.
import type { Def } from '../analysis/scopes';
import { dimOfName } from '../analysis/names';
import { unparen, walk, type PyNode } from '../syntax/tree';

export type ScaleForm = 'default' | 'different' | 'unknown';

/** Names that hold the attention's own softmax scale (not rope/embedding/loss scales or temperatures). */
const KERNEL_SCALE_NAME = /^(?:scale|scaling|softmax_scale|sm_scale|attn_scale|attention_scale|attn_scaling|qk_scale|scale_qk|norm_factor|inv_norm_factor)$/;

export function isKernelScaleName(name: string): boolean {
  return KERNEL_SCALE_NAME.test(name.replace(/^self\./, ''));
}

type Factor = 'sqrtdim' | 'self' | 'dim' | 'other' | 'one' | 'unknown';

/**
 * What one definition of a scale is: its form, the extra factors' texts (`others`), and whether the value is
 * a divisor (sqrt(d)·…, as Megatron's `norm_factor`: the scores are divided by it) rather than a multiplier
 * (1/sqrt(d)·…, what a kernel's `scale=` takes); `divides` is undefined when the definition does not show it.
 */
export interface ScaleDefinition {
  readonly form: ScaleForm;
  readonly others: string[];
  readonly divides?: boolean;
}

/**
 * Classifies one definition of a scale named `name` (`self.scaling = ...`, `self.scaling /= ...`).
 * `text` reads a node's source; `value`, when given, the number an exponent holds that is not written out
 * (`head_dim ** self.cfg.power` with the config's field -0.5, `d ** EXP` with a module constant).
 */
export function scaleForm(def: Def, text: (n: PyNode) => string, value?: (n: PyNode) => number | undefined): ScaleDefinition {
  const valueOf = value;
  const defined = def.value;
  const unknown = { form: 'unknown' as const, others: [] };
  if (!defined || def.path.length > 0) return unknown;
  const name = def.name;
  const factors: Factor[] = [];
  const others: string[] = [];
  const inverse: boolean[] = [];
  if (def.kind === 'aug') {
    if (def.op !== '*' && def.op !== '/') return unknown;
    factors.push('self');
  } else if (def.kind !== 'assign') return unknown;
  collect(unparen(defined), name, text, factors, false, others, inverse, valueOf);
  if (factors.includes('unknown')) return unknown;
  const divides = inverse.length === 0 || inverse.some((i) => i !== inverse[0]) ? undefined : !inverse[0];
  const sqrt = factors.filter((f) => f === 'sqrtdim' || f === 'self').length;
  const other = factors.filter((f) => f === 'other').length;
  const dims = factors.filter((f) => f === 'dim').length;
  // An in-place `*=`/`/=` by ones only keeps the earlier definition's form (judged on its own): default here.
  if (sqrt === 1 && other === 0 && dims === 0) return { form: 'default', others, divides };
  if (sqrt >= 1 && other > 0) return { form: 'different', others, divides };
  if (sqrt === 0 && dims === 1 && other === 0 && factors.includes('one')) return { form: 'different', others }; // 1.0 / d: no scale to hand over
  return unknown;
}

/**
 * The extra factor is applied again elsewhere in `owner` (outside the scale's own definitions, `skip`): the
 * factor's name is an operand of a `*`, or it is handed to a call (`FusedScaleMaskSoftmax(..., coeff)`,
 * `softmax(x, scale=layer_number)`). Megatron/ChatGLM's query-key layer scaling divides by sqrt(d)·layer and
 * multiplies the scores by the layer number again in the softmax module, so the two cancel and the kernel
 * default is right. Read from the tree: comments, strings and unrelated names (`coeff = None`) say nothing.
 */
export function factorReapplied(others: readonly string[], owner: PyNode, skip: readonly PyNode[], text: (n: PyNode) => string): boolean {
  const names = new Set<string>();
  for (const o of others) {
    const bare = o.replace(/^(?:float|int)\((.*)\)$/, '$1').replace(/^self\./, '');
    if (/^[A-Za-z_]\w*$/.test(bare)) names.add(bare);
  }
  if (names.size === 0) return false;
  const isFactor = (n: PyNode): boolean => {
    const u = unparen(n);
    if (u.type !== 'identifier' && u.type !== 'attribute') return false;
    return names.has(
      text(u)
        .replace(/\s+/g, '')
        .replace(/^self\./, ''),
    );
  };
  let found = false;
  walk(owner, (n) => {
    if (found || skip.some((s) => s.start <= n.start && n.end <= s.end)) return false;
    if (n.type === 'binary_operator' && n.children.some((c) => !c.named && c.type === '*')) {
      if (n.children.some((c) => (c.field === 'left' || c.field === 'right') && isFactor(c))) found = true;
    } else if (n.type === 'argument_list') {
      for (const a of n.children) {
        if (isFactor(a) || (a.type === 'keyword_argument' && a.children.some((c) => c.field === 'value' && isFactor(c)))) found = true;
      }
    }
    return !found;
  });
  return found;
}

/** Pushes the factors of `node` to `out`; for each sqrt(d) among them, whether it ends up as 1/sqrt(d) to `inverse`. */
function collect(
  node: PyNode,
  name: string,
  text: (n: PyNode) => string,
  out: Factor[],
  divided: boolean,
  others: string[],
  inverse: boolean[],
  value?: (n: PyNode) => number | undefined,
): void {
  const n = unparen(node);
  if (n.type === 'binary_operator') {
    const op = n.children.find((c) => !c.named)?.type;
    const l = n.children.find((c) => c.field === 'left');
    const r = n.children.find((c) => c.field === 'right');
    if (l && r && (op === '*' || op === '/')) {
      collect(l, name, text, out, divided, others, inverse, value);
      collect(r, name, text, out, op === '/' ? !divided : divided, others, inverse, value);
      return;
    }
  }
  // `d ** p` with p a name or field holding -0.5 (`head_dim ** self.cfg.power`): one over the square root.
  const root = value && rootExponent(n, value);
  if (root !== undefined) {
    inverse.push(root < 0 !== divided);
    out.push('sqrtdim');
    return;
  }
  const f = leaf(n, name, text, divided);
  if (f === 'other') others.push(text(n).replace(/\s+/g, ''));
  // `rsqrt(d)` and `d ** -0.5` are 1/sqrt(d); `sqrt(d)` and `d ** 0.5` are sqrt(d); dividing by one flips it.
  if (f === 'sqrtdim') inverse.push(/rsqrt\(|\*\*\(?-/.test(text(n).replace(/\s+/g, '')) !== divided);
  out.push(f);
}

/** The exponent of `x ** p` when `p` is not written as a number but holds -0.5 (a name, an attribute): 1/sqrt(x). */
function rootExponent(n: PyNode, value: (n: PyNode) => number | undefined): number | undefined {
  if (n.type !== 'binary_operator' || !n.children.some((c) => !c.named && c.type === '**')) return undefined;
  const r = n.children.find((c) => c.field === 'right');
  const u = r && unparen(r);
  if (!u || (u.type !== 'identifier' && u.type !== 'attribute')) return undefined;
  const p = value(u);
  return p === -0.5 ? p : undefined;
}

function leaf(n: PyNode, name: string, text: (n: PyNode) => string, divided: boolean): Factor {
  const t = text(n).replace(/\s+/g, '');
  if (t === name) return 'self';
  // float(x) / int(x) wrappers
  const wrapped = /^(?:float|int)\((.*)\)$/.exec(t);
  const inner = wrapped?.[1] ?? t;
  if (/(?:^|\.)sqrt\(|\*\*-?0\.5$|\*\*\(-?0\.5\)$|\*\*\(?-?1\/2\)?$|rsqrt\(/.test(inner)) return 'sqrtdim';
  if (/^[A-Za-z_][\w.]*$/.test(inner)) {
    const bare = inner.replace(/^self\./, '').replace(/^(?:config|cfg|args)\./, '');
    if (isKernelScaleName(bare) || /temperature|^temp$|^tau$/i.test(bare)) return 'unknown';
    if (dimOfName(bare) && divided) return 'dim';
    return 'other';
  }
  if (/^\(?[A-Za-z_][\w.]*[+-]\d+\)?$/.test(inner)) return 'other'; // layer_idx + 1
  // A number, written as a literal or wrapped (`1.0`, `0.125`, `float(8)`, `-1`).
  if (/^-?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:e[+-]?\d+)?$/i.test(inner)) return Number(inner.replace(/_/g, '')) === 1 ? 'one' : 'other';
  return 'unknown';
}
