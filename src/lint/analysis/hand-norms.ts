// Unit vectors and rotations read from operations (session 47), for ATT003's qk-norm evidence (evidence.ts).
//
// An L2 norm written out by hand as the divisor of the very tensor it measures: `x / sqrt(sum(x * x, axis=-1,
// keepdims=True))`, with an epsilon kept out of the root or added to it (`mx.maximum(..., eps)`, `.clamp(min=eps)`,
// `+ eps`), the square written `x * x`, `x ** 2`, `x.pow(2)`, `square(x)` and the root `sqrt(...)`, `.sqrt()` or
// `** 0.5`, in any framework (MLX's `mx.sum`/`mx.sqrt`, NumPy, JAX, torch), or the library's norm (`x.norm(dim=-1)`,
// `linalg.norm(x, axis=-1)`). The division makes x a unit vector, as `F.normalize(x)` does: scores of two such
// tensors are cosines. What the divisor or the helper is called says nothing.
import { callArgs, dottedName, numberLiteral, operatorText } from '../syntax/python';
import { childByField, text, unparen, type PyNode } from '../syntax/tree';

interface Src {
  source: string;
}

const EPS_WRAPPERS = new Set(['maximum', 'clamp', 'clip', 'clamp_min', 'fmax']);
const ROOTS = new Set(['sqrt']);
const SUMS = new Set(['sum', 'reduce_sum']);
const SQUARES = new Set(['square']);

/** The last link of a call's function (`mx.sqrt` → `sqrt`), and its receiver when it is a method call on a tensor. */
function callee(src: Src, call: PyNode): { last: string; receiver: PyNode | undefined } | undefined {
  const fn = childByField(call, 'function');
  if (!fn) return undefined;
  if (fn.type === 'identifier') return { last: text(src, fn), receiver: undefined };
  if (fn.type !== 'attribute') return undefined;
  const attr = childByField(fn, 'attribute');
  const obj = childByField(fn, 'object');
  if (!attr || !obj) return undefined;
  // `mx.sqrt(s)`, `torch.sqrt(s)`, `jnp.sqrt(s)` (a module path) or `s.sqrt()` (a method of the tensor).
  const path = dottedName(src, obj);
  const moduleLike = path !== undefined && path.length <= 2 && /^(mx|np|jnp|torch|tf|numpy|jax|math|F|ops|keras)$/.test(path[path.length - 1] ?? '');
  return { last: text(src, attr), receiver: moduleLike ? undefined : obj };
}

/** The operand of a function-form call (`mx.sqrt(s)`) or the receiver of a method-form one (`s.sqrt()`). */
function subject(src: Src, call: PyNode): PyNode | undefined {
  const c = callee(src, call);
  if (!c) return undefined;
  return c.receiver ?? callArgs(src, call).positional[0];
}

/** `x` when `node` is x squared elementwise. */
function squared(src: Src, node: PyNode): PyNode | undefined {
  const n = unparen(node);
  if (n.type === 'binary_operator') {
    const l = childByField(n, 'left');
    const r = childByField(n, 'right');
    const op = operatorText(src, n);
    if (!l || !r) return undefined;
    if (op === '*' && text(src, unparen(l)) === text(src, unparen(r))) return unparen(l);
    if (op === '**' && numberLiteral(src, r) === 2) return unparen(l);
    return undefined;
  }
  if (n.type !== 'call') return undefined;
  const c = callee(src, n);
  if (!c) return undefined;
  if (SQUARES.has(c.last)) return subject(src, n);
  if ((c.last === 'pow' || c.last === 'power') && c.receiver) {
    const [e] = callArgs(src, n).positional;
    return e && numberLiteral(src, e) === 2 ? c.receiver : undefined;
  }
  if (c.last === 'pow' || c.last === 'power') {
    const [x, e] = callArgs(src, n).positional;
    return x && e && numberLiteral(src, e) === 2 ? x : undefined;
  }
  return undefined;
}

/** The tensor whose squares `node` sums (`sum(x * x, axis=-1)`, `(x ** 2).sum(-1)`). */
function sumOfSquares(src: Src, node: PyNode): PyNode | undefined {
  const n = unparen(node);
  if (n.type !== 'call') return undefined;
  const c = callee(src, n);
  if (!c || !SUMS.has(c.last)) return undefined;
  const of = subject(src, n);
  return of ? squared(src, of) : undefined;
}

/** Peels an epsilon guard: `maximum(a, eps)`, `a.clamp(min=eps)`, `a + eps` (eps a number or a name). */
function peelEps(src: Src, node: PyNode): PyNode {
  let n = unparen(node);
  for (;;) {
    if (n.type === 'binary_operator' && operatorText(src, n) === '+') {
      const l = childByField(n, 'left');
      const r = childByField(n, 'right');
      if (l && r && isEps(src, r)) {
        n = unparen(l);
        continue;
      }
      return n;
    }
    if (n.type === 'call') {
      const c = callee(src, n);
      const inner = c && EPS_WRAPPERS.has(c.last) ? subject(src, n) : undefined;
      if (inner) {
        n = unparen(inner);
        continue;
      }
    }
    return n;
  }
}

function isEps(src: Src, node: PyNode): boolean {
  const n = unparen(node);
  const v = numberLiteral(src, n);
  if (v !== undefined) return v >= 0 && v < 1e-2;
  return n.type === 'identifier' || n.type === 'attribute';
}

/** The tensor whose L2 norm `node` writes out (`sqrt(sum(x * x, -1))` with its epsilon guards), or undefined. */
function handNormOf(src: Src, node: PyNode): PyNode | undefined {
  const n = peelEps(src, node);
  let inside: PyNode | undefined;
  if (n.type === 'binary_operator' && operatorText(src, n) === '**') {
    const r = childByField(n, 'right');
    if (r && numberLiteral(src, r) === 0.5) inside = childByField(n, 'left');
  } else if (n.type === 'call') {
    const c = callee(src, n);
    if (c && ROOTS.has(c.last)) inside = subject(src, n);
  }
  return inside ? sumOfSquares(src, peelEps(src, inside)) : undefined;
}

/** The tensor whose L2 norm the library computes at `node` (`x.norm(dim=-1)`, `linalg.norm(x, axis=-1)`, `norm(x)`). */
function libraryNormOf(src: Src, node: PyNode): PyNode | undefined {
  const n = peelEps(src, node);
  if (n.type !== 'call') return undefined;
  const c = callee(src, n);
  if (!c || c.last !== 'norm') return undefined;
  // `x.norm(p=1)` / `norm(x, ord=1)`: not the L2 norm.
  const args = callArgs(src, n);
  const order = args.keywords.get('p')?.value ?? args.keywords.get('ord')?.value ?? (c.receiver ? args.positional[0] : args.positional[1]);
  if (order !== undefined && numberLiteral(src, order) !== 2 && numberLiteral(src, order) !== undefined) return undefined;
  if (order !== undefined && numberLiteral(src, order) === undefined && !c.receiver) return undefined;
  return subject(src, n);
}

/** `num / den` divides a tensor by its own L2 norm (the same expression text on both sides). */
export function dividesByOwnNorm(src: Src, num: PyNode | undefined, den: PyNode | undefined): boolean {
  if (!num || !den) return false;
  const x = handNormOf(src, den) ?? libraryNormOf(src, den);
  return x !== undefined && text(src, x) === text(src, unparen(num));
}

/**
 * A function of the file that returns its first parameter as a unit vector: its one return statement is
 * `x / <the L2 norm of x>` (`def unit(x, eps=1e-12): return x / mx.maximum(mx.sqrt(mx.sum(x * x, axis=-1,
 * keepdims=True)), eps)`).
 */
export function returnsUnitVector(src: Src, fn: PyNode): boolean {
  const first = firstParameter(src, fn);
  const returned = returnedExpressions(fn);
  return (
    first !== undefined &&
    returned.length === 1 &&
    returned.every((r) => {
      const e = unparen(r);
      if (e.type !== 'binary_operator' || operatorText(src, e) !== '/') return false;
      const num = childByField(e, 'left');
      return !!num && text(src, unparen(num)) === first && dividesByOwnNorm(src, num, childByField(e, 'right'));
    })
  );
}

/**
 * A function of the file that rotates pairs of its first parameter's features (a rotary position embedding written
 * out: `head * mx.cos(angles) + turned * mx.sin(angles)`): a `cos(...)` call and a `sin(...)` call each multiply
 * something in its body. A rotation keeps each vector's norm. (A sinusoidal table added to the input, `x + pe` with
 * `pe[:, 0::2] = sin(position * div)`, multiplies nothing by a sine.)
 */
export function rotatesFirstArgument(src: Src, fn: PyNode): boolean {
  if (firstParameter(src, fn) === undefined) return false;
  let cos = false;
  let sin = false;
  walkNodes(fn, (n) => {
    if (n.type !== 'call' || n.parent?.type !== 'binary_operator' || operatorText(src, n.parent) !== '*') return;
    const c = callee(src, n);
    if (c?.last === 'cos') cos = true;
    if (c?.last === 'sin') sin = true;
  });
  return cos && sin;
}

function walkNodes(n: PyNode, visit: (n: PyNode) => void): void {
  visit(n);
  for (const c of n.children) walkNodes(c, visit);
}

/** The name of a function's first parameter (after `self`/`cls` of a method). */
function firstParameter(src: Src, fn: PyNode): string | undefined {
  const params = childByField(fn, 'parameters');
  if (!params) return undefined;
  const names = params.children
    .filter((p) => p.named)
    .map((p) => (p.type === 'identifier' ? p : p.children.find((c) => c.type === 'identifier' && c.field !== 'type')))
    .map((id) => (id ? text(src, id) : undefined));
  const first = names[0] === 'self' || names[0] === 'cls' ? names[1] : names[0];
  return first;
}

/** The expressions of the return statements of `fn` (not of functions nested in it). */
function returnedExpressions(fn: PyNode): PyNode[] {
  const out: PyNode[] = [];
  const visit = (n: PyNode): void => {
    for (const c of n.children) {
      if (c.type === 'function_definition' || c.type === 'class_definition' || c.type === 'lambda') continue;
      if (c.type === 'return_statement') {
        const e = c.children.find((x) => x.named);
        if (e) out.push(e);
      } else visit(c);
    }
  };
  const body = childByField(fn, 'body');
  if (body) visit(body);
  return out;
}
