// Evidence helpers shared by rules: is this softmax over attention scores, which axis holds the keys, was
// the output renormalised, and what does every context say. Pure functions over recorded facts.
import type { Evaluator } from '../analysis/evaluator';
import type { Ctx, MatmulSite, SoftmaxSite } from '../analysis/facts';
import { negAxis, opsAlternatives, type AValue, type PathOp, type ScaleOp } from '../analysis/values';
import { rootName } from '../analysis/ops';
import { operandSources } from '../analysis/operand-sources';
import { isContextName } from '../analysis/names';
import { armDeadInCtx } from '../analysis/flags';
import { enclosingFunction, namedChildren, unparen, walk, type PyNode } from '../syntax/tree';
import { returnsUnitVector, rotatesFirstArgument } from '../analysis/hand-norms';
import { operatorText } from '../syntax/python';

export interface Consumer {
  site: MatmulSite;
  /** The softmax's axis as seen in the consumed operand (negative index). */
  normalised?: number;
  /** The axis of that operand the product sums over (negative index). */
  contracted?: number;
  /** The other operand is the values (v, value, context, ...), so this is the attention's ·V step. */
  withValues: boolean;
  /**
   * The softmax's axis is a batch axis of the product (an einsum names it in both operands and in the output, as
   * `h` in 'bsh,bshd->bhd'): each output keeps it apart while the product sums over another axis of the weights.
   */
  normalisedKept?: boolean;
  /** The context of the softmax whose output this consumes. */
  softmaxCtxId?: number;
}

/** The variables the two operands of a product start from (`context`, `question` of `bmm(context, question.transpose(1, 2))`). */
function productOperandNames(ev: Evaluator, product: PyNode): string[] {
  const p = unparen(product);
  // A binary operator's named children are its two operands; a call's operands are its first two positional arguments.
  const operands =
    p.type === 'binary_operator'
      ? namedChildren(p)
      : p.type === 'call'
        ? namedChildren(p)
            .filter((c) => c.type === 'argument_list')
            .flatMap(namedChildren)
            .filter((c) => c.type !== 'keyword_argument' && c.type !== 'comment')
            .slice(0, 2)
        : [];
  return operands.flatMap((o) => operandSources(ev, o, p));
}

function kept(axes: readonly number[] | undefined, axis: number | undefined): boolean {
  return axis !== undefined && axes !== undefined && axes.includes(axis);
}

/** Matmul/einsum sites that consume the weights produced by a softmax site (attention weights · V, or other mixing). */
export function consumersOf(ev: Evaluator, softmaxNode: PyNode): Consumer[] {
  const out: Consumer[] = [];
  const valueLike = (v: MatmulSite['a'], node: PyNode | undefined, weights: MatmulSite['a']): boolean => {
    if (v.role === 'value') return true;
    const name = node ? (rootName(ev, node) ?? '') : '';
    if (v.role === undefined && (isContextName(name) || /val|values?$|^v_|feat|encoder|memory|hidden|states?$|^x$|inputs?$|emb/i.test(name))) return true;
    // The weights mix the very tensor the keys (or, transposed, the queries) came from: the keys are the values
    // (Luong-style and co-attention `bmm(softmax(c @ q.T), q)`), whatever the tensor is called.
    return name !== '' && weights.attn !== undefined && productOperandNames(ev, weights.attn.formedAt).includes(name);
  };
  for (const m of ev.facts.consumersOf(softmaxNode)) {
    // A product in an `if`/`elif` arm this context cannot take (`elif rule == "se,se->s":` in a helper called with
    // `einsum("se,sc->sec", gates, x)`, or any arm after `if USE_EINSUM:` with the module's `USE_EINSUM = True`) is
    // evaluated for its sites, but never runs with these weights: it is no use of them.
    if (ev.owns(m.ctx.scope) && armDeadInCtx(ev, m.node, m.ctx)) continue;
    if (m.a.attn?.stage === 'weights' && m.a.attn.softmax?.site === softmaxNode)
      out.push({
        site: m,
        normalised: m.a.attn.softmax.axis,
        contracted: m.contractA,
        withValues: valueLike(m.b, m.bNode, m.a),
        ...(kept(m.keptA, m.a.attn.softmax.axis) ? { normalisedKept: true } : {}),
        softmaxCtxId: m.a.attn.softmax.ctxId,
      });
    else if (m.b.attn?.stage === 'weights' && m.b.attn.softmax?.site === softmaxNode)
      out.push({
        site: m,
        normalised: m.b.attn.softmax.axis,
        contracted: m.contractB,
        withValues: valueLike(m.a, m.aNode, m.b),
        ...(kept(m.keptB, m.b.attn.softmax.axis) ? { normalisedKept: true } : {}),
        softmaxCtxId: m.b.attn.softmax.ctxId,
      });
  }
  return out;
}

export function wasRenormalised(ev: Evaluator, softmaxNode: PyNode): boolean {
  return (ev.facts.renormalised.get(softmaxNode.id)?.length ?? 0) > 0;
}

/** Scores whose q and k were identified by name or role (not just any product). */
export function hasRoles(v: AValue): boolean {
  return !!(v.attn && v.attn.stage === 'scores' && v.attn.queryText && v.attn.keyText);
}

/** The softmax's dim as a negative axis of its input, when knowable. */
export function normalisedDim(site: SoftmaxSite): number | undefined {
  return typeof site.dim === 'number' ? negAxis(site.dim, site.input.ndim) : undefined;
}

export function scaleOps(alt: readonly PathOp[]): ScaleOp[] {
  return alt.filter((o): o is ScaleOp => o.kind === 'scale');
}

export function hasOpaque(alt: readonly PathOp[]): boolean {
  return alt.some((o) => o.kind === 'opaque');
}

export function alternatives(v: AValue): readonly (readonly PathOp[])[] {
  return opsAlternatives(v);
}

/** Groups sites by node so a rule can weigh every context of one place in the code. */
export function byNode<T extends { node: PyNode; ctx: Ctx }>(sites: readonly T[]): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const s of sites) {
    const l = m.get(s.node.id);
    if (l) l.push(s);
    else m.set(s.node.id, [s]);
  }
  return m;
}

/** A sqrt-of-a-dimension factor: multiplier d^-0.5. */
export function isInverseSqrtDim(op: ScaleOp): boolean {
  return op.power === -0.5;
}

/**
 * The attention is a test's reference computation (an oracle): it sits in a test function (`def test_…`, or a
 * method of a `Test…` class) that compares results with a closeness assertion (`np.testing.assert_allclose`,
 * `assertAllClose`, `torch.testing.assert_close`, `allclose`, unittest's `assertAlmostEqual`, or a difference held under
 * a tolerance: `assert err < 1e-3`, `self.assertLess(max_diff, 5e-5)`). Such a reference must reproduce the convention of
 * the code under test (T5-style attention leaves the scores unscaled, its scale folded into the initialisation);
 * were the two to differ, the test itself would fail.
 */
export function testOracle(ev: Evaluator, node: PyNode): boolean {
  let fn: PyNode | null = node;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  if (!fn) return false;
  const f = fn;
  return ev.file.perNode('test oracle', f, () => {
    return isTestFunction(ev, f) && (CLOSENESS_ASSERTION.test(ev.text(f)) || comparesThroughHelper(ev, f));
  });
}

/**
 * A test that hands its results to a module-level function of the file that asserts their closeness (session 47:
 * `compare("scores", ref_scores, scores)` with `def compare(name, ref, tri): ... assert abserr < 0.05 and relerr <
 * 0.1`): the comparison is the test's, written once for its several checks. Read from the helper's code, not its name.
 */
function comparesThroughHelper(ev: Evaluator, test: PyNode): boolean {
  const called = new Set<string>();
  walk(test, (n) => {
    const f = n.type === 'call' ? n.children.find((c) => c.field === 'function' && c.type === 'identifier') : undefined;
    if (f) called.add(ev.text(f));
  });
  // The helper holds no attention code, so the filtered tree may not hold it: the file parsed whole does.
  // A decorated helper (`@torch.no_grad()` over `def compare(...)`) is its definition.
  return wholeTree(ev).root.children.some((c) => {
    const def = c.type === 'decorated_definition' ? c.children.at(-1)! : c;
    return def.type === 'function_definition' && called.has(ev.text(def.children.find((x) => x.field === 'name')!)) && CLOSENESS_ASSERTION.test(ev.text(def));
  });
}

/** A path of a test module: `test_*.py`, `*_test.py`, `conftest.py`, or a file under a `test` or `tests` folder. */
export function isTestModulePath(path: string | undefined): boolean {
  if (path === undefined) return false;
  const dirs = path.split(/[\\/]/);
  const base = String(dirs.pop());
  return /^test_\w*\.py$|_test\.py$|^conftest\.py$/.test(base) || dirs.some((d) => d === 'test' || d === 'tests');
}

/**
 * A context made by a test's call: a call from a test module that imports this file (`tests/test_attention.py`
 * calling `attend(q, k, v)`), or a call written in a test function of this file. A test feeds made-up tensors of
 * whatever shape checks what it checks (one key, to see it get all the weight), not the shapes the model runs with.
 */
export function calledByTest(ev: Evaluator, ctx: Ctx): boolean {
  if (ctx.calledAt) return isTestModulePath(ctx.calledAt.path);
  const fn = ctx.callSite ? enclosingFunction(ctx.callSite) : undefined;
  return fn !== undefined && isTestFunction(ev, fn);
}

/** A test by its name: a `test…` function, or a method of a `Test…` (or `…Test`) class. */
function isTestFunction(ev: Evaluator, f: PyNode): boolean {
  const name = f.children.find((c) => c.field === 'name');
  let cls: PyNode | null = f.parent;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  const clsName = cls?.children.find((c) => c.field === 'name');
  return !!((name && /^test/.test(ev.text(name))) || (clsName && /^Test|Test$/.test(ev.text(clsName))));
}

/**
 * A function handed over by name as a graph pattern: the second argument of `replace_pattern(gm, pattern, ...)` or
 * `replace_pattern_with_filters` (also as `pattern=`), the first of `register_replacement(search_fn, ...)` or its
 * `search_fn=`. Not an attribute or a call (`self.pattern`, `make_pattern()`).
 */
const GRAPH_PATTERN_ARGUMENT =
  /\breplace_pattern(?:_with_filters)?\s*\(\s*[^,()]+,\s*(?:pattern\s*=\s*)?([A-Za-z_]\w*)\b(?![\w.([])|\bregister_replacement\s*\(\s*([A-Za-z_]\w*)\b(?![\w.([=])|\bsearch_fn\s*=\s*([A-Za-z_]\w*)\b(?![\w.([])/g;

/**
 * The attention is a graph pattern to be matched, not a computation that runs: its function (or one it is nested in)
 * is handed by name to a graph rewriter as the pattern, `replace_pattern(gm, pattern, replacement)` or
 * `replace_pattern_with_filters(...)` (torch.fx's subgraph rewriter, or a copy of it) or Inductor's
 * `register_replacement(search_fn, replace_fn, ...)`. A pattern must reproduce the traced graph it matches, scale or
 * no scale (a model that folded the scale into q earlier, T5), and the replacement says what runs instead.
 */
export function graphPattern(ev: Evaluator, node: PyNode): boolean {
  // Read off the source: the call that hands the pattern over usually sits in a function of its own (`register()`),
  // which holds no attention code and is not parsed.
  const patterns = ev.file.perNode(
    'graph patterns',
    ev.tree.root,
    () => new Set([...ev.tree.source.matchAll(GRAPH_PATTERN_ARGUMENT)].map((m) => m.slice(1).join(''))),
  );
  if (patterns.size === 0) return false;
  for (let fn = enclosingFunction(node); fn; fn = enclosingFunction(fn)) {
    const name = fn.children.find((c) => c.field === 'name');
    if (name && patterns.has(ev.text(name))) return true;
  }
  return false;
}

/**
 * A test's reference computation, also in a helper of the test: the site's function is a test oracle
 * (`testOracle`), or every function of the file that calls it (by name, up to two helpers deep:
 * `attention_mask_func` ← `forward_torch_softmax` ← `test_masked_softmax_forward`) is a test that compares results
 * (a closeness assertion, or `assert error < 1e-3` on a difference). The reference must follow the convention of
 * the kernel it checks (Megatron's masks are True where masked, and a test hands both an all-True mask on purpose).
 */
export function testReference(ev: Evaluator, node: PyNode): boolean {
  if (testOracle(ev, node)) return true;
  const fn = enclosingFunction(node);
  return fn !== undefined && referenceOfTests(ev, fn, 2);
}

/** `fn` is a comparing test, or every function of the file that calls it is one (through up to `depth` helpers). */
function referenceOfTests(ev: Evaluator, fn: PyNode, depth: number): boolean {
  if (testOracle(ev, fn)) return true;
  const callers = callersByName(ev).get(ev.text(fn.children.find((c) => c.field === 'name')!)) ?? [];
  if (depth <= 0 || callers.length === 0) return false;
  // A helper that does the comparison itself (`assert allclose(out, ref_o)` in `_flash_testing_helper`), called by
  // tests only (`test_single_prompt`, `test_gqa`, which set up its arguments): the tests' reference all the same.
  if (CLOSENESS_ASSERTION.test(ev.text(fn)) && callers.every((c) => isTestFunction(ev, c))) return true;
  return callers.every((c) => referenceOfTests(ev, c, depth - 1));
}

/** For each function name called as `name(...)` in a function of the file, the functions that call it (once per file). */
function callersByName(ev: Evaluator): Map<string, PyNode[]> {
  return ev.file.perNode('callers by name', ev.tree.root, () => {
    const calls: [string, PyNode][] = [];
    walk(ev.tree.root, (n) => {
      const f = n.type === 'call' ? n.children.find((c) => c.field === 'function' && c.type === 'identifier') : undefined;
      const caller = f && enclosingFunction(n);
      if (caller) calls.push([ev.text(f), caller]);
    });
    const out = new Map<string, PyNode[]>(calls.map(([name]) => [name, []]));
    for (const [name, caller] of calls) out.get(name)!.push(caller);
    return out;
  });
}

/**
 * A numerical comparison of two results (NumPy, TensorFlow/absl, PyTorch, JAX test helpers), or a difference
 * asserted under a tolerance (`assert error < 1e-3`, `assert (a - b).abs().max() <= 1e-5`, `assert(abs(a - b).max() <
 * 1e-4)`, `assert max_diff < tol`, unittest's `self.assertLess(torch.max(torch.abs(a - b)), 1e-4)`, its arguments
 * written over several lines).
 */
const CLOSENESS_ASSERTION =
  /\b(?:assert_allclose|assertAllClose|assert_close|allclose|assert_array_almost_equal|assertArrayAlmostEqual|assert_almost_equal|assertAlmostEqual)\s*\(|\bassert\b[^\n]*(?:\b(?:abs|rel)?err\w*|\bdiff\w*|\babs\()[^\n]*<=?\s*(?:\d*\.?\d+(?:e-\d+)?|\w*tol\w*)|\bassertLess(?:Equal)?\s*\((?:[^()]|\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))*?,\s*(?:\d*\.?\d+e-\d+|0\.0*[1-9]\d*|\w*tol\w*)\s*\)/;

/** Comments in the enclosing function that say the missing scale is deliberate (T5, some linear attentions). */
export function scaleOmittedOnPurpose(ev: Evaluator, node: PyNode): boolean {
  let fn: PyNode | null = node;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  let cls: PyNode | null = fn;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  const outer = cls ?? fn ?? node;
  // Once per enclosing class or function: every site inside asks the same.
  return ev.file.perNode('scale omitted on purpose', outer, () => proseSaysScaleOmitted(ev, outer));
}

function proseSaysScaleOmitted(ev: Evaluator, outer: PyNode): boolean {
  // Only what the authors wrote as prose (comments and docstrings), not code such as `assert not scale_norm`.
  // "unscaled" alone describes the scores (`# raw, unscaled scores`); it says the omission is meant only with an
  // intent: left / kept unscaled, unscaled by design, on purpose, as in a reference.
  let scopeText = '';
  for (const c of ev.file.commentsWithin(outer.start, outer.end)) scopeText += ev.text(c) + '\n';
  walk(outer, (n) => {
    if (n.type === 'block') {
      const first = n.children.find((c) => c.named && c.type !== 'comment');
      const str = first && first.type === 'expression_statement' ? first.children.find((c) => c.named) : undefined;
      if (str && str.type === 'string') scopeText += ev.text(str) + '\n';
    }
    return true;
  });
  return /(without|no|not|avoid|skip)\s+(the\s+)?scal|(left|kept|keep|leaves?|intentional\w*|deliberate\w*|purposely)\s+(\w+\s+){0,2}unscaled|unscaled\s+(\w+\s+){0,3}(by\s+design|on\s+purpose|intentional\w*|deliberate\w*|as\s+in\b)|no_scale|scale_attn_weights|mesh\s*(tensorflow|tf)\b|scaling\s+is\s+(folded|done|applied)|folded\s+into|scale\s*=\s*False|(no|without|not|missing|omit\w*)\s+(the\s+)?1\s*\/\s*(math\.)?sqrt|already\s+(\w+\s+){0,2}(scal|sqrt)|scal\w*\s+(factor\s+)?(is\s+)?(moved|folded|absorbed|included)/i.test(
    scopeText,
  );
}

/**
 * q and k are normalised by a normalisation layer before their product (qk-norm: `q, k = self.q_norm(q),
 * self.k_norm(k)` with LayerNorm/RMSNorm, or one GroupNorm on the fused `qkv` they are split from, as in
 * Axial-DeepLab): the norm's learned gain sets the logits' scale, so a fixed 1/sqrt(d) is not missing. Read in the
 * function that forms the scores, in source order: a name assigned from a norm layer's output is normalised, and
 * so is a name assigned from an expression over normalised names (`query, key, value = jnp.split(qkv, ...)`), or
 * from a rotary embedding of one (a rotation keeps the norm: `q = apply_rope(q, pos)` after `q = self.q_norm(q)`).
 * A parameter of that function (rearranged there or not) is normalised when every call of the function in the file
 * passes a normalised name for it, followed through up to three callers (the module's `__call__` normalises q and k,
 * then hands them to `self._attend(q, k, v)`, which forms the scores). Both the query's and the key's names must be
 * normalised.
 */
export function qkNormalised(ev: Evaluator, node: PyNode, queryText: string, keyText: string): boolean {
  const fn = enclosingFunction(node);
  const normalised = fn ? ev.file.perNode('normalised names', fn, () => normalisedNames(ev, fn)) : new Set<string>();
  // The names the operands start from (`q` of `q.transpose(1, 2)`, `key` of `self.key`).
  return [queryText, keyText].every((t) => {
    const name = t
      .replace(/^self\./, '')
      .split(/\W/)
      .at(0)!;
    return normalised.has(name) || (fn !== undefined && !t.startsWith('self.') && normalisedByCallers(ev, fn, name, 0));
  });
}

/** How many callers qk-norm is followed through (the function forming the scores, then up to three callers). */
const MAX_NORM_CALLERS = 3;

/**
 * `name` in `fn` rearranges one of `fn`'s parameters (or is one), and every call of `fn` in the file passes, for that
 * parameter, a name its caller normalises (or the output of a norm layer itself).
 */
function normalisedByCallers(ev: Evaluator, fn: PyNode, name: string, depth: number): boolean {
  if (depth >= MAX_NORM_CALLERS) return false;
  const param = ev.file.perNode('parameter origins', fn, () => parameterOrigins(ev, fn)).get(name);
  if (!param) return false;
  const calls = callsOfFunction(ev, fn);
  return (
    calls.length > 0 &&
    calls.every(({ call, caller }) => {
      const a = argumentFor(ev, call, param);
      if (!a) return false;
      const src = normalisedSource(ev, a);
      if (src === NORM_OUTPUT) return true;
      if (!src || !caller) return false;
      return ev.file.perNode('normalised names', caller, () => normalisedNames(ev, caller)).has(src) || normalisedByCallers(ev, caller, src, depth + 1);
    })
  );
}

/** A parameter of a function: its name and its position among the arguments a call passes (after `self`). */
interface Param {
  readonly name: string;
  readonly index: number;
}

/** The parameters of `fn` (without `self` / `cls`), with the positions a call passes them at. */
function parametersOf(ev: Evaluator, fn: PyNode): Param[] {
  const out: Param[] = [];
  let i = 0;
  /* c8 ignore next -- the grammar gives every function_definition its parameters; the type makes the field optional */
  for (const p of namedChildren(fn.children.find((c) => c.type === 'parameters') ?? fn)) {
    // `*args`, `**kw` and the bare `*` (no name of its own) end the parameters a call passes by position.
    const id = p.type === 'identifier' ? p : p.children.find((c) => c.type === 'identifier');
    if (!id || /splat/.test(p.type)) return out;
    const name = ev.text(id);
    if (i === 0 && out.length === 0 && (name === 'self' || name === 'cls') && enclosingClassOf(fn)) continue;
    out.push({ name, index: i++ });
  }
  return out;
}

/**
 * Names of `fn` that are one of its parameters, rearranged or not (`q = q.reshape(...)`), in source order: the
 * parameter each holds. A name assigned from anything else no longer holds one.
 */
function parameterOrigins(ev: Evaluator, fn: PyNode): Map<string, Param> {
  const out = new Map<string, Param>();
  for (const p of parametersOf(ev, fn)) out.set(p.name, p);
  forEachAssignedName(ev, fn, (t, value) => {
    const src = out.get(normalisedSource(ev, value));
    if (src) out.set(t, src);
    else out.delete(t);
  });
  return out;
}

/**
 * Every assignment in `fn`, in source order, as (name assigned, its value): the names assigned (not `x` of
 * `self.x = ...`), and the value element by element for `q, k = f(q), g(k)` (the whole right side otherwise).
 */
function forEachAssignedName(ev: Evaluator, fn: PyNode, visit: (name: string, value: PyNode) => void): void {
  walk(fn, (n) => {
    if (n.type !== 'assignment') return;
    const targets: string[] = [];
    walk(n.children.at(0)!, (c) => {
      if (c.type === 'identifier' && c.field !== 'attribute') targets.push(ev.text(c));
    });
    const right = unparen(n.children.at(-1)!);
    const values = /^(?:expression_list|tuple)$/.test(right.type) ? namedChildren(right) : [];
    targets.forEach((t, i) => visit(t, values[i] ?? right));
  });
}

function enclosingClassOf(fn: PyNode): PyNode | undefined {
  const p = fn.parent?.parent;
  return p?.type === 'class_definition' ? p : undefined;
}

/**
 * The calls of `fn` in the file, each with the function making it: `self.name(...)` in its class for a method,
 * `name(...)` for a module-level function. A reference that is not a call (`f = self._attend`) lets others call it
 * unseen: then none is returned.
 */
function callsOfFunction(ev: Evaluator, fn: PyNode): readonly { call: PyNode; caller: PyNode | undefined }[] {
  return ev.file.perNode('calls of function', fn, () => {
    const nameNode = fn.children.find((c) => c.field === 'name');
    /* c8 ignore next -- the grammar gives every function_definition a name; the type makes the field optional */
    if (!nameNode) return [];
    const name = ev.text(nameNode);
    const cls = enclosingClassOf(fn);
    if (!cls && fn.parent?.type !== 'module') return [];
    const wanted = cls ? `self.${name}` : name;
    const out: { call: PyNode; caller: PyNode | undefined }[] = [];
    let escapes = false;
    walk(cls ?? ev.tree.root, (n) => {
      if (n.type !== 'identifier' && n.type !== 'attribute') return;
      if (ev.text(n) !== wanted || n === nameNode || (n.type === 'identifier' && n.parent?.type === 'attribute')) return;
      if (n.parent?.type === 'call' && n.field === 'function') out.push({ call: n.parent, caller: enclosingFunction(n) });
      else escapes = true;
    });
    return escapes ? [] : out;
  });
}

/** The argument a call passes for `param` (by keyword, or at its position); undefined when a splat hides it. */
function argumentFor(ev: Evaluator, call: PyNode, param: Param): PyNode | undefined {
  const list = call.children.find((c) => c.field === 'arguments');
  /* c8 ignore next -- the grammar gives every call its arguments; the type makes the field optional */
  if (!list) return undefined;
  const args = namedChildren(list);
  if (args.some((a) => /splat/.test(a.type))) return undefined;
  for (const a of args) {
    if (a.type !== 'keyword_argument') continue;
    const k = a.children.find((c) => c.field === 'name');
    if (k && k.type === 'identifier' && ev.text(k) === param.name) return a.children.find((c) => c.field === 'value');
  }
  return args.filter((a) => a.type !== 'keyword_argument')[param.index];
}

/** A normalisation layer or function by its name (`nn.LayerNorm`, `RMSNorm`, `nn.GroupNorm`, `self.q_norm`, `self.k_ln`). */
const NORM_CALLEE =
  /(?:Group|Layer|RMS|Rms|Batch|Instance)Norm\b|(?:^|[._])(?:group_norm|layer_norm|rms_norm|(?:q|k|query|key|qk)_(?:norm|ln)|(?:norm|ln)_(?:q|k|query|key))\b/;
/** Methods and array functions that only rearrange or convert a tensor: its values stay those of their input. */
const LAYOUT_CALL =
  /\.(?:reshape|view|transpose|permute|swapaxes|moveaxis|movedim|split|chunk|unbind|contiguous|astype|float|to|type_as|squeeze|unsqueeze|expand_dims|flatten|unflatten)$/;
/** An array module's function (`jnp.split`, `torch.chunk`): it rearranges its first argument, not a receiver. */
const ARRAY_FUNCTION = /^(?:np|jnp|numpy|torch|tf|mx|jax\.numpy)\.\w+$/;
/** A rotary position embedding applied by a function (`apply_rotary_pos_emb(q, cos, sin)`, `apply_multidimensional_rope(q, pos)`). */
const ROTARY_CALLEE = /(?:^|[._])(?:apply_)?(?:\w*_)?(?:rotary|rope)(?:_\w*)?$/i;
/** What normalisedSource returns for a normalisation layer's output. */
const NORM_OUTPUT = '(norm)';

/**
 * What an assigned value is, looked through layout calls and indexing (`jnp.split(qkv, ...)`,
 * `x.reshape(...).transpose(...)`, `qkv[0]`): NORM_OUTPUT for a normalisation layer's output, else the name it
 * rearranges ('' when it is something else).
 */
function normalisedSource(ev: Evaluator, n: PyNode): string {
  let e = unparen(n);
  for (;;) {
    if (e.type === 'subscript') {
      e = unparen(e.children.at(0)!);
      continue;
    }
    // A learned gain on a normalised tensor (`unit(q) * self.q_gain`, `self.q_gain = mx.ones(...)`): the qk-norm's
    // own gain, which sets the logits' scale.
    if (e.type === 'binary_operator') {
      const gained = learnedGainOperand(ev, e);
      if (!gained) return '';
      e = gained;
      continue;
    }
    if (e.type !== 'call') return e.type === 'identifier' ? ev.text(e) : '';
    const callee = e.children.at(0)!;
    const text = ev.text(callee);
    if (NORM_CALLEE.test(text)) return NORM_OUTPUT;
    // A helper of the file that returns its argument divided by its own L2 norm (`def unit(x): return x /
    // mx.maximum(mx.sqrt(mx.sum(x * x, axis=-1, keepdims=True)), eps)`), read from its code, not its name.
    const helper = fileFunctionCalled(ev, e);
    if (helper && returnsUnitVector(ev.tree, helper)) return NORM_OUTPUT;
    // A rotary embedding rotates pairs of features: the norm of what it is given is kept (its first argument). Known
    // by its name, or by its code: a helper of the file that multiplies by a `cos(...)` and a `sin(...)`.
    if ((ROTARY_CALLEE.test(text) && !LAYOUT_CALL.test(text)) || (helper && rotatesFirstArgument(ev.tree, helper))) {
      const first = namedChildren(e.children.at(1)!).find((a) => a.type !== 'keyword_argument');
      if (!first) return '';
      e = unparen(first);
      continue;
    }
    if (!LAYOUT_CALL.test(text)) return '';
    // A method rearranges its receiver (`qkv.reshape(...)`); an array function its first argument (`jnp.split(qkv, ...)`).
    e = unparen(ARRAY_FUNCTION.test(text) ? [...namedChildren(e.children.at(1)!), callee].at(0)! : callee.children.at(0)!);
  }
}

/** A concatenation: `torch.cat`, `mx.concatenate`, `jnp.concatenate`, `tf.concat`. */
const CONCAT_CALLEE = /(?:^|\.)(?:cat|concat|concatenate)$/;

/**
 * `value` joins the normalised `name` with cached entries (session 47): `k, v = cache.extend(layer, k, v)`, a method
 * (of another object than `self`) that one class of the file defines and whose body concatenates the parameter `name`
 * is passed as, `k = mx.concatenate([self.keys[layer], k], axis=2)`. The cached entries were the new keys of earlier
 * calls, normalised by the same code.
 */
function joinsCacheWith(ev: Evaluator, value: PyNode, name: string): boolean {
  const e = unparen(value);
  const callee = e.type === 'call' ? unparen(e.children.at(0)!) : undefined;
  const m = callee && /^(?!self\.)[A-Za-z_]\w*\.(\w+)$/.exec(ev.text(callee));
  if (!m) return false;
  const args = namedChildren(e.children.at(1)!);
  const index = args.findIndex((a) => ev.text(a) === name);
  // The cache's class may hold no attention text, so the filtered tree may leave its methods' bodies out: read the
  // file parsed whole (only for this rare shape: a normalised name handed to a method of another object).
  const defs: PyNode[] = [];
  walk(wholeTree(ev).root, (n) => {
    if (n.type === 'function_definition' && enclosingClassOf(n) && ev.text(n.children.find((c) => c.field === 'name')!) === m[1]) defs.push(n);
  });
  const [first] = defs;
  const param = first && defs.length === 1 ? parametersOf(ev, first)[index] : undefined;
  let concatenates = false;
  walk(first ?? e, (n) => {
    if (param && n.type === 'call' && CONCAT_CALLEE.test(ev.text(n.children.at(0)!)) && new RegExp(`\\b${param.name}\\b`).test(ev.text(n.children.at(1)!)))
      concatenates = true;
  });
  return concatenates;
}

/** The file parsed whole (the trees the engine lints are filtered, and carry it). */
function wholeTree(ev: Evaluator): { root: PyNode } {
  /* c8 ignore next -- the engine lints filtered trees, which carry whole(); a tree parsed whole has none and is whole */
  return ev.tree.whole?.() ?? ev.tree;
}

/**
 * The function of the file a call names: a module-level `def` for `name(...)`, a method of the class enclosing the
 * call for `self.name(...)`; undefined when the name is bound more than once. Read from the file parsed whole: the
 * filtered tree may leave out the body of a helper with no attention text (`def unit(x)`).
 */
function fileFunctionCalled(ev: Evaluator, call: PyNode): PyNode | undefined {
  const text = ev.text(unparen(call.children.at(0)!));
  const m = /^(self\.)?([A-Za-z_]\w*)$/.exec(text);
  if (!m) return undefined;
  const cls = m[1] ? enclosingClassAt(call) : undefined;
  const defs: PyNode[] = [];
  walk(wholeTree(ev).root, (n) => {
    if (n.type !== 'function_definition' || ev.text(n.children.find((x) => x.field === 'name')!) !== m[2]) return;
    const owner = enclosingClassOf(n);
    if (m[1] ? owner !== undefined && owner.start === cls?.start : n.parent?.type === 'module') defs.push(n);
  });
  return defs.length === 1 ? defs[0] : undefined;
}

function enclosingClassAt(node: PyNode): PyNode | undefined {
  let cls: PyNode | null = node.parent;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  return cls ?? undefined;
}

/**
 * The other operand of `x * self.g` (either order) where the class of the product binds `self.g` only to a tensor of
 * ones (`mx.ones((heads, 1, head_dim))`, `nn.Parameter(torch.ones(d))`, `jnp.ones`): a learned gain.
 */
function learnedGainOperand(ev: Evaluator, e: PyNode): PyNode | undefined {
  const cls = enclosingClassAt(e);
  const l = unparen(e.children.at(0)!);
  const r = unparen(e.children.at(-1)!);
  const gain = [r, l].find((g) => /^self\.\w+$/.test(ev.text(g)));
  if (!cls || !gain || operatorText(ev.tree, e) !== '*') return undefined;
  const attr = ev.text(gain).replace('.', '\\.');
  const text = ev.text(cls);
  const all = text.match(new RegExp(`${attr}\\s*=[^=]`, 'g'))?.length;
  const ones = text.match(new RegExp(`${attr}\\s*=\\s*(?:(?:nn|torch\\.nn)\\.Parameter\\()?\\s*(?:mx|np|jnp|torch)\\.ones\\(`, 'g'))?.length;
  return all === ones ? (gain === r ? l : r) : undefined;
}

function normalisedNames(ev: Evaluator, fn: PyNode): Set<string> {
  const out = new Set<string>();
  forEachAssignedName(ev, fn, (t, value) => {
    const src = normalisedSource(ev, value);
    const joined = src === '' && out.has(t) && joinsCacheWith(ev, value, t);
    if (src === NORM_OUTPUT || out.has(src) || joined) out.add(t);
    // Assigned anew from something else: no longer normalised (`q = self.q_proj(x)` after a normalised q).
    else out.delete(t);
  });
  return out;
}

/**
 * The T5 family (T5, mT5, UMT5, LongT5, Switch) leaves attention unscaled by design (the scale is folded into
 * the initialisation). Only what defines the code at `node` counts: the names of the classes and functions
 * that enclose it, their base classes and their parameters' type annotations (`class MT5Attention(T5Attention)`,
 * `def forward(self, config: T5Config)`). A comment or string elsewhere that mentions T5 proves nothing.
 */
export function isT5Family(ev: Evaluator, node: PyNode): boolean {
  if (definingNames(ev, node).some((name) => T5_NAME.test(name))) return true;
  // The class's other methods' annotations (`def __init__(self, config: T5Config)` of the class whose `__call__`
  // forms the scores), and a file that builds T5's bucketed relative position bias (MLX's `RelativePositionBias`
  // reading `config.relative_attention_num_buckets`).
  return ev.file.buildsT5RelativeBias || classAnnotations(ev, node).some((name) => T5_NAME.test(name));
}

/** The parameter annotations of every method of the class that encloses `node`. */
function classAnnotations(ev: Evaluator, node: PyNode): string[] {
  let cls: PyNode | null = node.parent;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  if (!cls) return [];
  const c = cls;
  return ev.file.perNode('class annotations', c, () => {
    const out: string[] = [];
    for (const m of c.children.at(-1)!.children) {
      const def = m.type === 'decorated_definition' ? m.children.at(-1)! : m;
      if (def.type !== 'function_definition') continue;
      for (const p of def.children.find((x) => x.field === 'parameters')!.children) {
        const type = p.children.find((x) => x.field === 'type');
        if (type) out.push(ev.text(type));
      }
    }
    return out;
  });
}

/** T5, MT5, UMT5, LongT5 (FlaxT5Attention, t5_attention, ...) and Switch Transformers; not GPT5 or dist5. */
const T5_NAME = /(?:^|[^A-Za-z0-9])(?:m|um|long)?t5(?![0-9])|(?:^|[^A-Z0-9])(?:M|UM|Long)?T5(?![0-9])|SwitchTransformer/;

/**
 * The names that define the code at `node`: every enclosing class and function's name, a class's base classes
 * and a function's parameter annotations, as source text (code only: never comments or strings).
 */
export function definingNames(ev: Evaluator, node: PyNode): string[] {
  const out: string[] = [];
  for (let n: PyNode | null = node.parent; n; n = n.parent) {
    if (n.type !== 'class_definition' && n.type !== 'function_definition') continue;
    const name = n.children.find((c) => c.field === 'name');
    if (name) out.push(ev.text(name));
    if (n.type === 'class_definition') {
      const bases = n.children.find((c) => c.field === 'superclasses');
      for (const b of bases?.children ?? []) if (b.named && b.type !== 'comment' && b.type !== 'keyword_argument') out.push(ev.text(b));
    } else {
      const params = n.children.find((c) => c.field === 'parameters');
      /* c8 ignore next: the grammar gives every function_definition its parameters; the types make the field optional */
      for (const p of params?.children ?? []) {
        const type = p.children.find((c) => c.field === 'type');
        if (type) out.push(ev.text(type));
      }
    }
  }
  return out;
}

/**
 * The enclosing function also calls an attention kernel with a unit scale (`scale=1.0`): unscaled scores
 * computed next to it are the reference it is compared with, or the kernel's own convention.
 */
export function unitScaleNearby(ev: Evaluator, node: PyNode): boolean {
  let fn: PyNode | null = node;
  while (fn && fn.type !== 'function_definition') fn = fn.parent;
  if (!fn) return false;
  const f = fn;
  return ev.file.perNode('unit scale', f, () => /\b(?:softmax_)?scale\s*=\s*1(?:\.0*)?\s*[,)]/.test(ev.text(f)));
}

/**
 * A class of the file tied to the one enclosing `node` by inheritance (the class itself, a class deriving from it, or
 * a base class it derives from, as written in the file) hands an attention kernel a unit scale: `softmax_scale=1.0`,
 * or `scale=1.0` to a call named for attention (HF's `GPTNeoFlashAttention2(GPTNeoSelfAttention)` passing
 * `_flash_attention_forward(..., softmax_scale=1.0)`). The same attention written for a kernel states that it is
 * unscaled by design, so the eager path's unscaled scores are that model's convention, not a missing factor.
 */
export function unitScaleInRelatedClass(ev: Evaluator, node: PyNode): boolean {
  let cls: PyNode | null = node.parent;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  if (!cls) return false;
  const own = cls;
  return ev.file.perNode('unit scale in related class', own, () => {
    /* c8 ignore next -- the grammar gives every class_definition a name; the type makes the field optional */
    const nameOf = (c: PyNode): string => ev.text(c.children.find((x) => x.field === 'name') ?? c);
    const basesOf = (c: PyNode): string[] => {
      const s = c.children.find((x) => x.field === 'superclasses');
      return s
        ? namedChildren(s)
            .filter((b) => b.type !== 'keyword_argument')
            .map((b) => ev.text(b))
        : [];
    };
    const ownName = nameOf(own);
    const ownBases = new Set(basesOf(own));
    const related: PyNode[] = [];
    walk(ev.tree.root, (n) => {
      if (n.type !== 'class_definition') return true;
      const name = nameOf(n);
      if (n === own || basesOf(n).includes(ownName) || ownBases.has(name)) related.push(n);
      return true;
    });
    return related.some((c) => {
      let found = false;
      walk(c, (n) => {
        if (n.type !== 'keyword_argument') return !found;
        const key = n.children.find((x) => x.field === 'name');
        const value = n.children.find((x) => x.field === 'value');
        if (!key || !value || !/^1(?:\.0*)?$/.test(ev.text(value).trim())) return false;
        const k = ev.text(key);
        const call = n.parent?.parent;
        const fn = call?.type === 'call' && call.children.find((x) => x.field === 'function');
        if (k === 'softmax_scale' || (k === 'scale' && !!fn && /attn|attention|sdpa/i.test(ev.text(fn)))) found = true;
        return false;
      });
      return found;
    });
  });
}

/**
 * The value of the expression at `node` is thrown away: it is the right side of `name = ...` in a function, and
 * every later mention of that name in the function only feeds further assignments to the same name (`w = softmax(w)`,
 * `w = w.to(q.dtype)`), never read by anything else nor returned (a leftover eager computation beside the kernel call
 * that does the real work, as in HF's SAM 2 `Sam2MultiScaleAttention.forward`). Code whose result nothing uses has no
 * effect on the model: a layout error in it changes nothing. Any other mention of the name counts as a read (a
 * `global` or `nonlocal` statement, an attribute or keyword of that name, a read before it is bound in a loop).
 */
export function resultDiscarded(ev: Evaluator, node: PyNode): boolean {
  const fn = enclosingFunction(node);
  if (!fn) return false;
  // `name = <expression holding node>`, as a statement of the function's own body or a nested block.
  let assign: PyNode | null = node.parent;
  while (assign && assign.type !== 'assignment' && assign !== fn && assign.type !== 'expression_statement') assign = assign.parent;
  if (assign?.type !== 'assignment') return false;
  const target = assign.children.find((c) => c.field === 'left');
  const right = assign.children.find((c) => c.field === 'right');
  if (target?.type !== 'identifier' || !right || node.start < right.start || node.end > right.end) return false;
  const name = ev.text(target);
  const own = assign;
  return ev.file.perNode('result discarded', own, () => {
    let read = false;
    walk(fn, (n) => {
      if (read) return false;
      if (n.type !== 'identifier' || ev.text(n) !== name) return true;
      // A target of an assignment to the name: a rebinding, no read.
      if (n.field === 'left' && n.parent?.type === 'assignment') return false;
      // Inside the right side of an assignment to the name at or after the discarded one: it feeds the chain.
      for (let p: PyNode | null = n.parent; p && p !== fn; p = p.parent) {
        if (p.type !== 'assignment') continue;
        const left = p.children.find((c) => c.field === 'left');
        const r = p.children.find((c) => c.field === 'right');
        if (left?.type === 'identifier' && ev.text(left) === name && r && n.start >= r.start && n.end <= r.end && p.start >= own.start) return false;
        break;
      }
      read = true;
      return false;
    });
    return !read;
  });
}

/**
 * The consumed operand is a name whose elements were changed in place at indexed positions by an additive augmented
 * assignment after the softmax and before the product (`probs[np.arange(N), y] -= 1`, also on a copy:
 * `dscores = probs.copy()`, `dscores[range(N), y] -= 1`). Subtracting (or adding) at picked positions changes the
 * row sums, so the operand is no distribution any more: softmax minus the one-hot labels is the cross-entropy
 * gradient of a softmax classifier, and its product with the data (`X.T.dot(probs)`) is the weight gradient, not
 * weights meeting values. A fill (`w[mask] = 0`) or a product (`w *= keep`) is a mask, not this.
 */
export function changedAtIndicesBefore(ev: Evaluator, c: Consumer, softmaxNode: PyNode): boolean {
  const m = c.site;
  const operand = m.a.attn?.stage === 'weights' && m.a.attn.softmax?.site === softmaxNode ? m.aNode : m.bNode;
  const id = operand && unparen(operand);
  const fn = enclosingFunction(m.node);
  if (id?.type !== 'identifier' || !fn) return false;
  const name = ev.text(id);
  // The softmax in the same function must come before the write; from a helper elsewhere, any write before the product.
  const after = enclosingFunction(softmaxNode) === fn ? softmaxNode.end : fn.start;
  return indexedAdditiveWrites(ev, fn).some((w) => w.name === name && w.start >= after && w.start < m.node.start);
}

/** Per function, once: its `name[...] += ...` / `name[...] -= ...` statements (the name written and where). */
const indexedWritesByFunction = new WeakMap<PyNode, readonly { name: string; start: number }[]>();

function indexedAdditiveWrites(ev: Evaluator, fn: PyNode): readonly { name: string; start: number }[] {
  let writes = indexedWritesByFunction.get(fn);
  if (!writes) {
    const found: { name: string; start: number }[] = [];
    walk(fn, (n) => {
      if (n.type !== 'augmented_assignment') return;
      const target = namedChildren(n)[0];
      const object = target?.type === 'subscript' ? namedChildren(target)[0] : undefined;
      if (object?.type === 'identifier' && /^[-+]=$/.test(`${operatorText(ev.tree, n)}`)) found.push({ name: ev.text(object), start: n.start });
    });
    writes = found;
    indexedWritesByFunction.set(fn, writes);
  }
  return writes;
}
