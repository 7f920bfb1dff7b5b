// Related locations of findings: the places in the module a rule's evidence comes from (where a mask was built,
// where a scale or the keys were defined, the softmax, the product with the values, the cache concatenation).
// Each helper returns RelatedSpec entries (or nothing) for a rule's report; the engine turns them into
// positions and drops those inside the finding's own range.
import { cacheAttachedAt, classConstantDefs, foreignFileOf, helperReturnAt } from '../analysis/cross-file';
import { liveInCtx } from '../analysis/flags';
import type { Evaluator } from '../analysis/evaluator';
import type { Ctx } from '../analysis/facts';
import type { Def } from '../analysis/scopes';
import { precisionSource } from '../analysis/precision';
import type { AValue, MaskInfo, MaskOrigin } from '../analysis/values';
import { defineTemplates, msg, type MessageArg, type MessageParts } from '../message';
import { PHRASES } from '../analysis/phrases';
import { originRef } from '../analysis/portable';
import { childByField, unparen, type PyNode } from '../syntax/tree';
import { quote, type RelatedSpec } from './rule';

const T = defineTemplates({
  theMask: 'the mask',
  additiveMeaning: 'additive: 0 where kept, a large negative number where masked',
  keepMeaning: 'True/1 at positions to keep',
  ignoreMeaning: 'True/1 at positions to ignore',
  comesInAsParameter: '{0} comes in as the parameter {1}',
  comesInAsParameterFrom: '{0} comes in as the parameter {1}, passed by {2} in {3}',
  comesFromOtherFile: '{0} comes from {1} in {2}',
  isBuiltHere: '{0} is built here',
  builtWithMeaning: '{0} ({1})',
  builtWithMeaningByName: '{0} ({1}, read from its name)',
  invertedHere: 'its meaning is inverted here (now {0})',
  includeCache: '{0} include the KV cache here ({1})',
  cacheSetByImporter: 'the cache {0} is attached here ({1})',
  nameComesInAsParameter: '{0} comes in as a parameter here',
  runsInFloat16: '{0}: this file runs in float16',
  runsInBfloat16: '{0}: this file runs in bfloat16',
  isDefinedHere: '{0} is defined here',
});

/** Mask phrases callers name the mask by ("attn_mask", "the causal mask"). */
export const MASK_NAMES = defineTemplates({
  attnMask: 'attn_mask',
  theCausalMask: 'the causal mask',
});

/** Where a mask was built, with what its entries meant there, and where its meaning was last inverted. */
export function maskBuilt(ev: Evaluator, m: MaskInfo | undefined, what: MessageParts = msg(T.theMask)): RelatedSpec[] {
  const o = m?.origin;
  if (!m || !o) return [];
  const meaning = (p: MaskOrigin): MessageParts | undefined =>
    p.additive ? msg(T.additiveMeaning) : p.polarity === 'keep' ? msg(T.keepMeaning) : p.polarity === 'ignore' ? msg(T.ignoreMeaning) : undefined;
  const at = meaning(o);
  // A mask an importing file passes, or a helper of another file returns (portable.ts: its meaning is said to come
  // `from` that file's function): that place is named, and so linked (engine.ts, linkForeignEvidence), whatever the
  // rule's own message says.
  const crossed = typeof m.why === 'object' && m.why.template === PHRASES.fromOtherFile ? m.why.args : [];
  // fromOtherFile's arguments: what the mask is, the function there, and its place (`pkg/masks.py:6`).
  const [, by, place] = crossed;
  const param = o.node.type === 'identifier' && isParameter(o.node) ? quote(ev.text(o.node), 30) : undefined;
  const source =
    by !== undefined && place !== undefined
      ? param !== undefined
        ? msg(T.comesInAsParameterFrom, what, param, by, place)
        : msg(T.comesFromOtherFile, what, by, place)
      : param !== undefined
        ? msg(T.comesInAsParameter, what, param)
        : msg(T.isBuiltHere, what);
  const out: RelatedSpec[] = [{ node: o.node, message: at ? msg(m.byName ? T.builtWithMeaningByName : T.builtWithMeaning, source, at) : source }];
  // An inversion is recorded only between two known polarities (origins.ts), so it always has one.
  const flip = m.flippedAt;
  if (flip?.polarity && flip.node !== o.node)
    out.push({ node: flip.node, message: msg(T.invertedHere, msg(flip.polarity === 'keep' ? T.keepMeaning : T.ignoreMeaning)) });
  return out;
}

/** Where keys or values were joined with a KV cache. */
export function cacheJoined(ev: Evaluator, v: AValue, what: MessageParts): RelatedSpec | undefined {
  // Callers pass keys known to include the cache, and origins.ts stamps cacheAt on every such value read at a node.
  if (v.cacheIn) {
    const { path, source, start, end } = v.cacheIn;
    return { node: { start, end }, file: { path, source }, message: msg(T.includeCache, what, quote(source.slice(start, end), 50)) };
  }
  /* c8 ignore next: kept for the optional type; no fixture, lint test or corpus case reaches it */
  if (!v.fromCache || !v.cacheAt) return undefined;
  return { node: v.cacheAt, message: msg(T.includeCache, what, quote(ev.text(v.cacheAt), 50)) };
}

/**
 * Where another workspace file attaches the cache the keys were joined with (`model.cache = KVCache(...)` in
 * generate.py), when the class sets it only to None (cross-file.ts finds the place).
 */
export function cacheAttached(ev: Evaluator, v: AValue): RelatedSpec[] {
  return cacheAttachedAt(ev, v).map((p) => ({
    node: p,
    file: p,
    message: msg(T.cacheSetByImporter, quote(p.here, 30), quote(p.source.slice(p.start, p.end).trim(), 50)),
  }));
}

/** Where a helper of another workspace file gives a value its layout: its return there (cross-file.ts finds it). */
export function foreignHelperReturn(ev: Evaluator, node: PyNode | undefined, ctx: Ctx, message: (helper: string) => MessageParts): RelatedSpec[] {
  return helperReturnAt(ev, node, ctx).map((p) => ({ node: p, file: p, message: message(quote(p.here, 30)) }));
}

/**
 * The statements that define `node` when it is a name or `self.attr` (its reaching definitions; for an attribute
 * of self, its assignments anywhere in the class), each as "`text` is defined here".
 */
/** The definitions of a name that can reach this read of it in ctx (an `if` arm known not to run here sets nothing). */
export function liveDefinitions(ev: Evaluator, name: PyNode, ctx: Ctx): readonly Def[] {
  return liveInCtx(ev, ev.resolve(name, ev.text(name)) ?? [], ctx);
}

export function definitions(
  ev: Evaluator,
  node: PyNode | undefined,
  ctx: Ctx,
  message: (text: string) => MessageParts,
  max = 2,
  configFields = false,
): RelatedSpec[] {
  if (!node) return [];
  const u = unparen(node);
  let targets: PyNode[] = [];
  // Attributes set by a base class, or class constants, of another workspace file: placed in that file.
  let file: RelatedSpec['file'];
  if (u.type === 'identifier') {
    // Only those that can reach the read in this context (an `if` arm known not to run here sets nothing).
    targets = liveDefinitions(ev, u, ctx)
      .filter((d) => d.kind !== 'import')
      .map((d) => (d.value ? statementOf(d.target) : d.target));
  } else if (u.type === 'attribute') {
    const obj = childByField(u, 'object');
    const attr = childByField(u, 'attribute');
    const cls = ctx.scope.ownerClass;
    let defs =
      obj && attr && cls && obj.type === 'identifier' && ev.text(obj) === 'self'
        ? ev.classAttrDefs(cls, `self.${ev.text(attr)}`)
        : // `Consts.MASK_VALUE`: its assignment in the class body (here or in another workspace file).
          classConstantDefs(ev, obj, attr, ctx);
    // With `configFields`, `self.cfg.mask_fill` of a config instance whose class is in view (a value read from it, a
    // fill): the field's line in its class body, where the value it holds is declared.
    if (defs.length === 0 && configFields && obj && attr) defs = configFieldDefs(ev, obj, ev.text(attr), ctx);
    file = foreignFileOf(ev, defs);
    targets = defs.map((d) => statementOf(d.target));
  }
  const name = ev.text(u);
  const seen = new Set<number>();
  const out: RelatedSpec[] = [];
  for (const t of targets) {
    if (seen.has(t.id) || out.length >= max) continue;
    seen.add(t.id);
    out.push({
      node: t,
      message: t.type === 'identifier' && isParameter(t) ? msg(T.nameComesInAsParameter, quote(name, 30)) : message(name),
      ...(file ? { file } : {}),
    });
  }
  return out;
}

/** The class-body definitions of field `attr` of the config instance `obj` evaluates to (`self.cfg`, `cfg`). */
function configFieldDefs(ev: Evaluator, obj: PyNode, attr: string, ctx: Ctx): readonly Def[] {
  const v = ev.eval(obj, ctx);
  /* c8 ignore next -- an object that is no class instance (a tokenizer's output) holds no fill a rule judges */
  const cls = v.kind === 'object' ? v.object?.cls : undefined;
  if (!cls) return [];
  /* c8 ignore next -- a field whose value a rule judged is one its class body declares (one set in an `__init__` is not read through an instance) */
  return (cls.scope.envAtEnd.get(attr) ?? []).filter((d) => d.value !== undefined && d.kind !== 'import');
}

/** The whole statement a definition's target sits in (`self.scale = head_dim ** -0.5`), else the target. */
function statementOf(target: PyNode): PyNode {
  for (let p: PyNode | null = target.parent; p; p = p.parent) {
    if (p.type === 'assignment' || p.type === 'augmented_assignment') return p;
    if (p.type.endsWith('_statement') || p.type === 'block' || p.type.endsWith('_definition') || p.type === 'parameters') break;
  }
  return target;
}

function isParameter(n: PyNode): boolean {
  // The nearest enclosing parameter list, block, statement or definition (the module ends every chain).
  let p = n.parent;
  while (p && !/^(lambda_)?parameters$|^block$|_statement$|_definition$|^module$/.test(p.type)) p = p.parent;
  return p?.type === 'parameters' || p?.type === 'lambda_parameters';
}

/** Where the file shows that it runs in float16 or bfloat16 (`.half()`, `autocast(...)`, a GradScaler, an fp16 flag). */
export function precisionShown(ev: Evaluator, which: 'fp16' | 'bf16'): RelatedSpec | undefined {
  // Once per file: every fill finding of a large file asks the same. Set by a file that imports this one: that
  // place is linked with its path (engine.ts: linkForeignEvidence), and a mention of fp16 in this file's comments
  // is not where it is set.
  const at = ev.precision.from ? undefined : ev.file.perNode(`precision source ${which}`, ev.tree.root, () => precisionSource(ev.tree.source, which));
  if (!at) return undefined;
  return { node: at, message: msg(which === 'fp16' ? T.runsInFloat16 : T.runsInBfloat16, quote(ev.tree.source.slice(at.start, at.end), 40)) };
}

/**
 * Definitions of the names a scale factor is made of (`self.scale`, the `d_k` in `math.sqrt(d_k)`): where the
 * scale or the dimension was defined. Module names and called functions are skipped.
 */
export function factorDefinitions(ev: Evaluator, factor: PyNode, ctx: Ctx, max = 2): RelatedSpec[] {
  const names: PyNode[] = [];
  const visit = (n: PyNode): void => {
    if (n.type === 'identifier' || (n.type === 'attribute' && ev.text(n).startsWith('self.'))) {
      const parent = n.parent;
      const callee = parent?.type === 'call' && childByField(parent, 'function') === n;
      const object = parent?.type === 'attribute' && childByField(parent, 'object') === n;
      if (!callee && !object) names.push(n);
      if (n.type === 'attribute') return;
    }
    for (const c of n.children) if (c.named) visit(c);
  };
  visit(factor);
  const out: RelatedSpec[] = [];
  for (const n of names) {
    for (const r of definitions(ev, n, ctx, (t) => definedHere(t), max - out.length)) if (!out.some((o) => o.node === r.node)) out.push(r);
    if (out.length >= max) break;
  }
  return out;
}

/** "`name` is defined here" (a definition as a related location). */
export function definedHere(text: string, max = 30): MessageParts {
  return msg(T.isDefinedHere, quote(text, max));
}

/**
 * `arg (as called at pkg/model.py:21)` for a site judged in the context of a call an importing file makes (its rank
 * or layout comes from there; the engine links that place as a related location); `arg` itself otherwise.
 */
export function asCalledAt(arg: MessageArg, ctx: Ctx): MessageArg {
  return ctx.calledAt ? msg(PHRASES.asCalledAt, arg, originRef(ctx.calledAt)) : arg;
}
