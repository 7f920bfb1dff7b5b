// The evaluator's side of cross-file analysis: what an import binds when it names a workspace file (a
// module, or a function, class or value defined in one, re-exported by an __init__.py at most a few levels),
// and calls of functions defined in another file (answered by that file's evaluator as a summary, in
// portable values that name where their evidence is).
import { msg, type MessageParts } from '../message';
import type { CallArgs } from '../syntax/python';
import { childByField, unparen, type PyNode, type PyTree } from '../syntax/tree';
import type { Evaluator } from './evaluator';
import { noteNanGuard, type Ctx } from './facts';
import { liveInCtx } from './flags';
import { PHRASES } from './phrases';
import { portable, originRef, type ValueOrigin } from './portable';
import { argumentShowsLength } from './bound-counts';
import type { ClassInfo, Def, Scope } from './scopes';
import { joinAll, markCut, UNKNOWN, type AValue, type PathOp } from './values';
import { passesCut, returnsCut } from './mask-ops';
import { renormalise } from './ops';
import { lineOf, moduleBases, moduleDefs, moduleFile, MAX_FILE_DEPTH, type ModuleLink } from './workspace';

/** Marks a module value that is a workspace module: `\u0001ws:<base dir>\u0001<dotted name>`. */
const WS = '\u0001ws:';

/** Libraries whose names a workspace file never shadows here (their APIs are known to the analysis). */
const LIBRARY_ROOTS =
  /^(torch|numpy|jax|jaxlib|flax|optax|tensorflow|keras|tf_keras|einops|math|scipy|transformers|flash_attn|xformers|mlx|paddle|functools|typing|typing_extensions|os|sys|re|collections|dataclasses|abc|itertools|__future__|warnings|logging|enum|copy|inspect|json|pathlib)$/;

/** Evidence from another file that a finding's message may quote (the engine links it as a related location). */
export interface ForeignEvidence {
  /** Workspace-relative path, 1-based line and column. */
  readonly path: string;
  readonly line: number;
  readonly column: number;
  readonly message: MessageParts;
}

export function isWorkspaceModule(v: AValue): boolean {
  return v.kind === 'module' && typeof v.qname === 'string' && v.qname.startsWith(WS);
}

function wsModule(base: string, parts: readonly string[]): AValue {
  return { kind: 'module', qname: `${WS}${base}\u0001${parts.join('.')}` };
}

function parseWs(qname: string): { base: string; parts: string[] } | undefined {
  if (!qname.startsWith(WS)) return undefined;
  const rest = qname.slice(WS.length);
  const i = rest.indexOf('\u0001');
  if (i < 0) return undefined;
  return {
    base: rest.slice(0, i),
    parts: rest
      .slice(i + 1)
      .split('.')
      .filter((p) => p.length > 0),
  };
}

/** The value an import binds when it names a workspace module or something defined in one; else undefined. */
export function importedValue(ev: Evaluator, def: Def): AValue | undefined {
  const link = ev.link;
  const path = def.importPath;
  if (!link || !path || path.length === 0) return undefined;
  const from = def.importFrom;
  if ((!from || from.level === 0) && LIBRARY_ROOTS.test(path[0] ?? '')) return undefined;
  const files = link.workspace.files;
  if (!from) {
    // `import a.b as m` binds module a.b; `import a.b` binds a.
    for (const base of moduleBases(files, link.path, 0)) if (moduleFile(files, base, path)) return wsModule(base, path);
    return undefined;
  }
  const modParts = path.slice(0, from.moduleParts);
  const name = path.slice(from.moduleParts);
  for (const base of moduleBases(files, link.path, from.level)) {
    const file = moduleFile(files, base, modParts);
    if (file && name.length === 1) {
      const v = symbolOf(link, file, name[0] ?? '');
      if (v) return v;
    }
    if (moduleFile(files, base, [...modParts, ...name])) return wsModule(base, [...modParts, ...name]);
  }
  return undefined;
}

/** `m.name` for a workspace module value: a submodule, or what the module defines under that name. */
export function workspaceAttribute(ev: Evaluator, mod: AValue, attr: string): AValue | undefined {
  const link = ev.link;
  const ws = mod.qname ? parseWs(mod.qname) : undefined;
  if (!link || !ws) return undefined;
  const files = link.workspace.files;
  const file = moduleFile(files, ws.base, ws.parts);
  if (file) {
    const v = symbolOf(link, file, attr);
    if (v) return v;
  }
  if (moduleFile(files, ws.base, [...ws.parts, attr])) return wsModule(ws.base, [...ws.parts, attr]);
  return undefined;
}

/** A module-level `from <level dots><parts> import *`. */
interface StarImport {
  readonly level: number;
  readonly parts: readonly string[];
}

const starImportsOf = new WeakMap<PyTree, readonly StarImport[]>();

/** The module-level star imports of a file (`from .utils import *`), in source order. */
function starImports(tree: PyTree): readonly StarImport[] {
  const known = starImportsOf.get(tree);
  if (known) return known;
  const out: StarImport[] = [];
  if (tree.source.includes('*')) {
    for (const n of tree.root.children) {
      if (n.type !== 'import_from_statement' || !n.children.some((c) => c.type === 'wildcard_import')) continue;
      const mod = childByField(n, 'module_name');
      if (!mod) continue;
      const dotted = mod.type === 'dotted_name' ? mod : mod.children.find((c) => c.type === 'dotted_name');
      const parts = dotted ? dotted.children.filter((c) => c.type === 'identifier').map((c) => tree.source.slice(c.start, c.end)) : [];
      const prefix = mod.type === 'relative_import' ? mod.children.find((c) => c.type === 'import_prefix') : undefined;
      const level = mod.type === 'relative_import' ? (prefix ? prefix.end - prefix.start : 1) : 0;
      if (level === 0 && LIBRARY_ROOTS.test(parts[0] ?? '')) continue;
      out.push({ level, parts });
    }
  }
  starImportsOf.set(tree, out);
  return out;
}

/**
 * A name a file reads without defining it, bound by one of its star imports of workspace modules
 * (`from .utils import *`, through an __init__.py that star-imports its submodules too); else undefined.
 */
export function starImportedName(link: ModuleLink, tree: PyTree, fromPath: string, name: string, depth = 0): AValue | undefined {
  if (depth > MAX_FILE_DEPTH || name.startsWith('_')) return undefined;
  const files = link.workspace.files;
  for (const star of starImports(tree)) {
    for (const base of moduleBases(files, fromPath, star.level)) {
      const file = moduleFile(files, base, star.parts);
      if (!file || file === fromPath || !exported(link, file, name)) continue;
      const v = symbolOf(link, file, name, depth + 1);
      if (v) return v;
    }
  }
  return undefined;
}

/**
 * The workspace files of this file's star imports (`from .config import *`) that export `name` and define it at module
 * level, in import order (the last one is the binding Python keeps).
 */
export function starImportedFiles(link: ModuleLink, tree: PyTree, fromPath: string, name: string): string[] {
  if (name.startsWith('_')) return [];
  const out: string[] = [];
  const files = link.workspace.files;
  for (const star of starImports(tree)) {
    for (const base of moduleBases(files, fromPath, star.level)) {
      const file = moduleFile(files, base, star.parts);
      const m = file === undefined || file === fromPath ? undefined : link.workspace.module(file);
      if (file && m && exported(link, file, name) && moduleDefs(m, name).length > 0) out.push(file);
    }
  }
  return out;
}

/**
 * Whether `from m import *` binds `name`: listed in m's `__all__` when m spells it as a list or tuple of strings,
 * else any public name (names starting with `_` were left out by the caller).
 */
function exported(link: ModuleLink, file: string, name: string): boolean {
  const m = link.workspace.module(file);
  const all = m ? moduleDefs(m, '__all__').at(-1) : undefined;
  const value = all?.value ? unparen(all.value) : undefined;
  if (!m || !value || (value.type !== 'list' && value.type !== 'tuple')) return true;
  const listed = value.children.filter((c) => c.type === 'string').map((c) => m.tree.source.slice(c.start + 1, c.end - 1));
  return listed.includes(name);
}

/** What a workspace file defines at module level under `name` (functions and classes stay the file's own). */
function symbolOf(link: ModuleLink, file: string, name: string, depth = 0): AValue | undefined {
  const m = link.workspace.module(file);
  if (!m) return undefined;
  link.deps.set(file, m.version);
  for (const [dep, v] of m.deps) if (!link.deps.has(dep)) link.deps.set(dep, v);
  const defs = moduleDefs(m, name);
  // Not defined there: perhaps bound by the module's own star imports (an __init__.py's `from .attn import *`).
  if (defs.length === 0) return starImportedName(link, m.tree, file, name, depth);
  if (link.workspace.crossings >= MAX_FILE_DEPTH) return undefined;
  link.workspace.crossings++;
  let v: AValue;
  try {
    v = joinAll(defs.map((d) => m.ev.evalDef(d, m.ev.defaultCtx(m.sr.module))));
  } finally {
    link.workspace.crossings--;
  }
  // Reading m's imports may have read further files.
  for (const [dep, ver] of m.deps) if (!link.deps.has(dep)) link.deps.set(dep, ver);
  if (v.kind === 'function' || v.kind === 'class' || v.kind === 'module') return v;
  const d = defs.at(-1);
  if (!d) return undefined; // defs is not empty (checked above)
  const at = lineColumn(m.tree.source, d.target.start);
  return portable(v, { path: file, line: at.line, column: at.column, name });
}

/**
 * A call of a function defined in another workspace file: the arguments cross as portable values, that
 * file's evaluator answers with the function's summary for them, and the result comes back naming where it
 * was computed. Unknown when the function's file is not analysed or the chain of files is too long.
 */
export function callAcrossFiles(
  ev: Evaluator,
  scope: Scope,
  call: PyNode,
  args: CallArgs,
  ctx: Ctx,
  self: AValue | undefined,
  argValues?: readonly AValue[],
  keywordValues?: ReadonlyMap<string, AValue>,
): AValue {
  const link = ev.link;
  const owner = link?.workspace.ownerOf(scope);
  if (!link || !owner || !owner.link || args.hasSplat || link.workspace.crossings >= MAX_FILE_DEPTH) return UNKNOWN;
  const given = argValues ?? args.positional.map((a) => ev.eval(a, ctx));
  // A layer cannot cross (its constructor is a node of this file): it goes as a stand-in the helper may hand back.
  // A count passed as it is read in a same-file call (bound-counts.ts): one that shows no length says so (a number, or
  // a value nothing is known of: `p.count(0)` may be a tensor's count).
  const counted = (v: AValue, node: PyNode | undefined): AValue =>
    node &&
    (v.kind === 'number' || v.kind === 'unknown' || (v.kind === 'tensor' && !v.mask && !v.attn)) &&
    v.passedArg === undefined &&
    countLike(node) &&
    !argumentShowsLength(ev, node, ctx)
      ? { ...v, boundNotLength: true }
      : v;
  const positional = given.map((v, i) =>
    v.kind === 'layer' ? { kind: 'unknown' as const, passedArg: i } : counted(withoutStandIn(portable(v)), argValues ? undefined : args.positional[i]),
  );
  // Scores formed here and passed to the helper (`scores = fill_masked(scores, mask)`) go with a stand-in of their
  // history, so that the scores it hands back keep this file's steps before its own (resumed).
  // They go in as scores whose key axis is known (formed at the parameter that receives them), so that the helper's
  // evaluation follows that axis through what it does: handed back unmoved, they are this file's scores again.
  const offset = self ? 1 : 0;
  const scoresIn = new Map<number, PyNode>();
  // Weights passed in go with a stand-in of where they came from too: a NaN guard the helper writes on them (`torch.where(
  // torch.isnan(w), 0, w)`) is then a guard on this file's weights, as it would be in one file (ATT007's fully masked rows).
  const weightsIn: number[] = [];
  for (const [i, v] of given.entries()) {
    if (v.attn?.stage === 'weights' && positional[i]?.kind === 'tensor') {
      weightsIn.push(i);
      positional[i] = { ...positional[i], ops: [[{ kind: 'opaque', passed: i }]] };
    }
    if (v.attn?.stage !== 'scores' || positional[i]?.kind !== 'tensor') continue;
    const param = scope.params.find((p) => p.kind === 'positional' && p.index === i + offset)?.node;
    const keyAxis = v.attn.keyAxis;
    if (param && keyAxis !== undefined) scoresIn.set(i, param);
    const standIn: AValue = {
      ...positional[i],
      ops: [[{ kind: 'opaque', passed: i }]],
      ...(param && keyAxis !== undefined ? { attn: { stage: 'scores' as const, formedAt: param, keyAxis } } : {}),
    };
    // Scores cut to a triangle passed as the cut itself (`keep_nonzero(weights, ...)`, `weights = torch.triu(weights)`):
    // the same tensor under a stand-in of its history, still that cut there (mask-ops.ts: triCutCompared).
    const node = argValues ? undefined : args.positional[i];
    positional[i] = node && passesCut(ev, node, v, ctx) ? markCut(standIn) : standIn;
  }
  const keywords = new Map<string, AValue>();
  for (const [name, v] of keywordValues ?? []) keywords.set(name, portable(v));
  for (const [name, kw] of args.keywords) keywords.set(name, counted(portable(ev.eval(kw.value, ctx)), kw.value));
  link.workspace.crossings++;
  let r: AValue;
  try {
    r = owner.summaryCall(scope, positional, keywords, self ? portable(self) : undefined);
  } finally {
    link.workspace.crossings--;
  }
  // Scores passed in that the helper normalises by a softmax with no mask of its own on the way (every softmax there of
  // the parameter receiving them, in any reading of the helper): the masks this file applied before the call are the only
  // ones, judged here as before a softmax of the file (ATT006: a 0/1 product of the scores).
  for (const [i, param] of scoresIn) {
    const sites = owner.facts.softmax.filter((s) => s.input.attn?.formedAt === param);
    const unmasked = (s: (typeof sites)[number]): boolean =>
      !!s.input.ops &&
      s.input.ops.length > 0 &&
      s.input.ops.every((alt) => alt[0]?.kind === 'opaque' && alt[0].passed === i && !alt.slice(1).some((o) => o.kind === 'mask'));
    const first = sites[0];
    const input = given[i];
    if (!first || !input || !sites.every(unmasked)) continue;
    const at = lineColumn(owner.tree.source, first.node.start);
    const ref = originRef({ path: owner.link.path, line: at.line });
    ev.facts.foreignSoftmax.push({ node: call, ctx, input, helper: { name: scope.name, ref } });
    ev.noteForeignEvidence({ path: owner.link.path, line: at.line, column: at.column, message: msg(PHRASES.softmaxIn, `\`${scope.name}\``, ref) });
  }
  const guards = weightsIn.length > 0 ? (owner.facts.nanGuards.get(scope.id) ?? []) : [];
  for (const i of weightsIn) {
    const arg = given[i];
    if (arg && guards.some((g) => g.ops?.some((alt) => alt[0]?.kind === 'opaque' && alt[0].passed === i))) noteNanGuard(ev.facts, ctx.scope.id, arg);
  }
  const origin = originOf(owner.link.path, scope, owner);
  // A mask is named by where it was built in that file (the comparison, the triangle), not by the return
  // statement that hands it over: each returned mask (a tuple's items each) with its own place.
  const builtAt = (v: AValue): ValueOrigin => {
    const node = v.mask?.origin?.node;
    // A mask that came in as a parameter was built by the caller: the helper's return names it better.
    if (!node || inParameterList(node)) return origin;
    const at = lineColumn(owner.tree.source, node.start);
    return { ...origin, line: at.line, column: at.column };
  };
  // A returned mask (each mask item of a tuple) crosses named by, and keeping, where it was built.
  const crossMask = (v: AValue, depth: number): AValue => {
    const place = builtAt(v);
    return withBuiltIn(portable(v, place, depth, call), place);
  };
  // Scores handed back from the ones passed in (formed at that parameter), with the key axis where it was.
  const passedBack = r.attn?.stage === 'scores' ? [...scoresIn].find(([, p]) => p === r.attn?.formedAt) : undefined;
  const keysKept = !!passedBack && r.attn?.keyAxis !== undefined && r.attn.keyAxis === given[passedBack[0]]?.attn?.keyAxis;
  let out = r.mask ? crossMask(r, 0) : resumed(portable(passedBack ? withoutAttn(r) : r, origin, 0, call), given, keysKept);
  // Copies of a layer passed in, handed back (`clones(nn.Linear(d, d), 4)`): the caller's layer itself.
  const passed = (x: AValue | undefined): AValue | undefined => (x?.passedArg !== undefined ? given[x.passedArg] : undefined);
  if (passed(out)) out = passed(out) ?? out;
  else if (out.kind === 'tuple' && passed(out.items)) out = { ...out, items: passed(out.items) };
  else if (out.kind === 'tuple' && out.elements?.some((e) => e.passedArg !== undefined))
    out = { ...out, elements: out.elements.map((e) => passed(e) ?? withoutStandIn(e)) };
  out = withoutStandIn(out);
  // Weights passed in and handed back divided by their own sum, with no other step there (`return w / (w.sum(-1,
  // keepdim=True) + eps)`): this file's weights renormalised, as a helper of the file would leave them, so a mask this
  // file applied to them before the call no longer leaves rows summing to less than 1 (ATT006).
  const renormalisedArg = weightsIn.find((i) => handsBackRenormalised(r, i));
  const renormalisedWeights = renormalisedArg === undefined ? undefined : given[renormalisedArg];
  if (renormalisedWeights?.attn && r.sumNormalised) out = renormalise(ev, renormalisedWeights, r.sumNormalised.axis, ctx);
  // Weights passed in and handed back multiplied by a mask this file passes too, with no other step there (`return w *
  // allowed`, `w * keep.float()`): this file's weights masked after their softmax at the call, as a helper of the file
  // would leave them; the caller's mask argument is the mask (ATT006 judges it here, where the mask and the product with
  // the values are).
  const masked = maskedByPassedMask(owner, scope, r, weightsIn, offset, args);
  const maskedWeights = masked && given[masked.weights];
  if (masked && maskedWeights?.attn) {
    const at = lineColumn(owner.tree.source, masked.product.start);
    const ref = originRef({ path: origin.path, line: at.line });
    ev.facts.weightsMask.push({ node: call, ctx, weights: maskedWeights, maskNode: masked.maskNode, helper: { name: origin.name, ref } });
    out = { ...out, kind: 'tensor', attn: { ...maskedWeights.attn, postMask: [...(maskedWeights.attn.postMask ?? []), call] } };
    ev.noteForeignEvidence({ path: origin.path, line: at.line, column: at.column, message: msg(PHRASES.weightsMaskedIn, `\`${origin.name}\``, ref) });
  }
  // Scores cut to a triangle there and handed back as the cut itself (`return torch.triu(scores)`): still that cut here.
  if (out.kind === 'tensor' && out.triCut && returnsCut(scope, r)) out = markCut(out);
  if (r.elements && out.elements && r.elements.some((e) => e.mask)) {
    const items = r.elements;
    out = {
      ...out,
      elements: out.elements.map((e, i) => (items[i]?.mask ? crossMask(items[i], 1) : e)),
    };
  }
  // An instance of a dataclass built at the return (`return Batch(feats=x, padding_mask=m)`): its constructor call is a
  // node of that file, so the fields it sets cross with it, as a dict's entries do (read back as `batch.padding_mask`).
  const cls = r.kind === 'object' && r.object?.init ? r.object.cls : undefined;
  const fields = cls ? owner.declaredFields(cls) : undefined;
  const fieldMasks: AValue[] = [];
  if (cls && fields && out.kind === 'object') {
    const entries = fields.flatMap(({ name }) => {
      const v = owner.attributeOfObject(r, name);
      if (v?.mask) fieldMasks.push(v);
      return v ? [[name, v.mask ? crossMask(v, 1) : portable(v, origin, 1, call)] as const] : [];
    });
    if (entries.length > 0) out = { ...out, kwargs: entries };
  }
  // The same for each mask entry of a dict with known keys (`return {"feats": x, "padding_mask": m}`).
  if (r.kwargs && out.kwargs && r.kwargs.some(([, x]) => x.mask)) {
    const entries = r.kwargs;
    out = { ...out, kwargs: out.kwargs.map((e, i) => (entries[i]?.[1].mask ? ([e[0], crossMask(entries[i][1], 1)] as const) : e)) };
  }
  if (out.attn?.formedIn)
    ev.noteForeignEvidence({
      path: origin.path,
      line: origin.line,
      column: origin.column,
      message: msg(PHRASES.scoresFormedIn, `\`${origin.name}\``, originRef(origin)),
    });
  const masks = r.mask ? [r] : [...maskItems(r), ...fieldMasks];
  // A mask that crossed files before it reached that file's return (built in a third file) names both places.
  const places = masks.flatMap((m) => (m.mask?.builtIn ? [m.mask.builtIn, builtAt(m)] : [builtAt(m)]));
  for (const place of new Map(places.map((o) => [originRef(o), o])).values())
    ev.noteForeignEvidence({
      path: place.path,
      line: place.line,
      column: place.column,
      message: msg(PHRASES.maskBuiltIn, `\`${place.name}\``, originRef(place)),
    });
  return out;
}

/**
 * An argument that may be a count (a difference, a call, a name or an item of one): not a literal, a string, a tensor
 * expression the code builds (a comparison) or a container.
 */
function countLike(node: PyNode): boolean {
  const n = unparen(node);
  return n.type === 'binary_operator' || n.type === 'call' || n.type === 'identifier' || n.type === 'subscript';
}

/** The masks a tuple's items or a dict's entries hold. */
const MAX_RESUMED = 8;

/**
 * Scores passed to a helper of another file and handed back after steps there (every path of the returned value
 * starts with the stand-in of the same argument): this file's steps before the call, then the helper's, whose
 * masks cross as masks at the call (portable.ts), so the scores a helper masked are not read as unmasked here.
 * Only the steps resume: what else is known of the value is what crossed back (portable.ts).
 */
function resumed(out: AValue, given: readonly AValue[], keysKept = false): AValue {
  const ops = out.ops;
  const first = ops?.[0]?.[0];
  if (out.kind !== 'tensor' || !ops || first?.kind !== 'opaque' || first.passed === undefined) return out;
  const i = first.passed;
  if (!ops.every((alt) => alt[0]?.kind === 'opaque' && alt[0].passed === i)) return out;
  const arg = given[i];
  if (arg?.attn?.stage !== 'scores') return out;
  const before = arg.ops && arg.ops.length > 0 ? arg.ops : [[]];
  if (before.length * ops.length > MAX_RESUMED) return out;
  const steps = before.flatMap((b) => ops.map((alt): PathOp[] => [...b, ...alt.slice(1)]));
  // The same scores handed back with their key axis where it was (a helper that masks them, `s.masked_fill(m, -inf)`):
  // still the attention scores this file formed, as a helper of the file would leave them (keysKept, callAcrossFiles).
  return keysKept ? { ...out, attn: arg.attn, ops: steps } : { ...out, ops: steps };
}

/** A parameter's own value in another dtype (`allowed`, `keep.float()`, `m.to(w.dtype)`): the same mask, shape and meaning. */
const PARAM_AS_IS = /^([A-Za-z_]\w*)(?:\s*\.\s*(?:float|half|double|bool|long|int|to|type_as|type)\s*\([^()]*(?:\([^()]*\)[^()]*)*\))*$/;

/**
 * `r` is the stand-in of weights argument `i` times one of the helper's parameters as it is (`return w * allowed`), on
 * every path and with nothing else (not divided by a sum after: that renormalises them): the argument this file passes for
 * that parameter, and the product there. Undefined when the mask is built or reshaped there, or left to its default.
 */
function maskedByPassedMask(
  owner: Evaluator,
  scope: Scope,
  r: AValue,
  weightsIn: readonly number[],
  offset: number,
  args: CallArgs,
): { weights: number; maskNode: PyNode; product: PyNode } | undefined {
  if (r.kind !== 'tensor' || r.sumNormalised || !r.ops || r.ops.length === 0) return undefined;
  const first = r.ops[0];
  const start = first?.[0];
  const op = first?.[1];
  if (start?.kind !== 'opaque' || start.passed === undefined || !weightsIn.includes(start.passed)) return undefined;
  if (op?.kind !== 'mask' || op.how !== 'mul' || !op.maskNode) return undefined;
  const same = (alt: readonly PathOp[]): boolean =>
    alt.length === 2 && alt[0]?.kind === 'opaque' && alt[0].passed === start.passed && alt[1]?.kind === 'mask' && alt[1].node === op.node;
  if (!r.ops.every(same)) return undefined;
  const name = PARAM_AS_IS.exec(owner.text(op.maskNode).trim())?.[1];
  const param = name === undefined ? undefined : scope.params.find((p) => p.name === name);
  if (!param) return undefined;
  const maskNode = param.kind === 'positional' && param.index !== undefined && param.index - offset >= 0 ? args.positional[param.index - offset] : undefined;
  const given = maskNode ?? args.keywords.get(param.name)?.value;
  return given && given.type !== 'list_splat' ? { weights: start.passed, maskNode: given, product: op.node } : undefined;
}

/** `r` is the stand-in of argument `i` divided by its own sum there, and nothing else on any path. */
function handsBackRenormalised(r: AValue, i: number): boolean {
  if (r.kind !== 'tensor' || !r.sumNormalised || !r.ops || r.ops.length === 0) return false;
  return r.ops.every((alt) => alt.length === 1 && alt[0]?.kind === 'opaque' && alt[0].passed === i);
}

/** `v` without what is known of it as attention scores or weights. */
function withoutAttn(v: AValue): AValue {
  const { attn: _attn, ...rest } = v;
  return rest;
}

/** A stand-in of another call's argument means nothing here: plain unknown. */
function withoutStandIn(v: AValue): AValue {
  if (v.passedArg === undefined) return v;
  const { passedArg: _passedArg, ...rest } = v;
  return rest;
}

function maskItems(v: AValue): AValue[] {
  return [...(v.elements ?? []), ...(v.kwargs ?? []).map(([, x]) => x)].filter((e) => e.mask);
}

/** A mask returned from another file keeps the first place it was built (a mask that crossed before keeps its own). */
function withBuiltIn(v: AValue, place: ValueOrigin): AValue {
  return v.mask && !v.mask.builtIn ? { ...v, mask: { ...v.mask, builtIn: place } } : v;
}

/** Notes where each mask in `v` (or its tuple items, or its dict entries) was built in another file: a finding quoting that place links it. */
export function noteMaskPlaces(ev: Evaluator, v: AValue): void {
  for (const item of v.mask ? [v] : maskItems(v)) {
    const place = item.mask?.builtIn;
    if (place)
      ev.noteForeignEvidence({
        path: place.path,
        line: place.line,
        column: place.column,
        message: msg(PHRASES.maskBuiltIn, `\`${place.name}\``, originRef(place)),
      });
  }
}

/**
 * `self.attr` of an instance whose class inherits the attribute from a base class of another workspace file
 * (`self.scale = self.head_dim ** -0.5` in that base's __init__), or `Cls.NAME` / a dataclass field's default
 * of a class of another file (`kind: 'body'`): that file's evaluator answers, and the value crosses as a
 * portable one naming where the attribute is set. Undefined when that file is not analysed.
 */
export function attributeAcrossFiles(ev: Evaluator, cls: ClassInfo, attr: string, kind: 'self' | 'body' = 'self'): AValue | undefined {
  const link = ev.link;
  const owner = link?.workspace.ownerOf(cls.scope);
  if (!link || !owner?.link || link.workspace.crossings >= MAX_FILE_DEPTH) return undefined;
  link.workspace.crossings++;
  let v: AValue | undefined;
  try {
    v = kind === 'self' ? owner.attributeOfObject({ kind: 'object', object: { cls } }, attr) : owner.classBodyValue(cls, attr);
  } finally {
    link.workspace.crossings--;
  }
  if (!v) return undefined;
  const def = (kind === 'self' ? owner.classAttrDefs(cls, `self.${attr}`) : (cls.scope.envAtEnd.get(attr) ?? [])).at(-1);
  if (!def) return portable(v);
  const at = lineColumn(owner.tree.source, def.target.start);
  return portable(v, { path: owner.link.path, line: at.line, column: at.column, name: `${cls.name}.${attr}` });
}

/**
 * The class-body assignments a read `Cls.NAME` names (`MASK_VALUE = -1e9` in `class Consts:`), when `obj` is a
 * name bound to a class of this or another workspace file; else none.
 */
export function classConstantDefs(ev: Evaluator, obj: PyNode | undefined, attr: PyNode | undefined, ctx: Ctx): readonly Def[] {
  if (!obj || !attr || obj.type !== 'identifier') return [];
  const v = ev.eval(obj, ctx);
  if (v.kind !== 'class' || !v.cls) return [];
  return (v.cls.scope.envAtEnd.get(ev.text(attr)) ?? []).filter((d) => d.value !== undefined);
}

/**
 * The path and text of the workspace file that definitions of another file belong to (those classAttrDefs finds
 * in a base class of another file); undefined for this file's own, or none.
 */
export function foreignFileOf(ev: Evaluator, defs: readonly Def[]): { path: string; source: string } | undefined {
  const scope = defs[0]?.scope;
  if (!scope || ev.owns(scope)) return undefined;
  const owner = ev.link?.workspace.ownerOf(scope);
  return owner?.link ? { path: owner.link.path, source: owner.tree.source } : undefined;
}

/**
 * Where a function's result comes from: with one return statement, the assignment of the variable it returns
 * (`pad = input_ids.eq(pad_id)` for `return pad[:, None]`) when there is one, else the return; with several,
 * the definition.
 */
function originOf(path: string, scope: Scope, owner: Evaluator): ValueOrigin {
  const src = owner.tree.source;
  let node = (scope.returns.length === 1 ? scope.returns[0] : undefined) ?? scope.node;
  if (scope.returns.length === 1) {
    // The variable at the root of `x`, `x[...]`, `x.unsqueeze(1)`, `x.view(...).transpose(...)`.
    let root: PyNode | undefined = unparen(node);
    while (root && (root.type === 'subscript' || root.type === 'attribute' || root.type === 'call')) {
      root = root.type === 'call' ? childByField(root, 'function') : childByField(root, root.type === 'subscript' ? 'value' : 'object');
      root = root ? unparen(root) : undefined;
    }
    const defs = root?.type === 'identifier' ? owner.sr.uses[root.id] : undefined;
    const only = defs && defs.length === 1 ? defs[0] : undefined;
    if (only?.kind === 'assign') node = only.target;
  }
  const at = lineColumn(src, node.start);
  return { path, line: at.line, column: at.column, name: scope.name };
}

/** A node inside a function's parameter list (a parameter's name or its default). */
function inParameterList(n: PyNode): boolean {
  let p = n.parent;
  while (p && !/^(lambda_)?parameters$|^block$|_statement$|_definition$|^module$/.test(p.type)) p = p.parent;
  return p?.type === 'parameters' || p?.type === 'lambda_parameters';
}

function lineColumn(src: string, offset: number): { line: number; column: number } {
  const lineStart = src.lastIndexOf('\n', offset - 1) + 1;
  return { line: lineOf(src, offset), column: offset - lineStart + 1 };
}

/** A place in another workspace file (UTF-16 offsets into its source), with the text of this file it explains. */
export interface ForeignPlace {
  readonly path: string;
  readonly source: string;
  readonly start: number;
  readonly end: number;
  /** The text here the place explains: the cache attribute (`self.cache`), the helper called (`split_heads`). */
  readonly here: string;
}

/**
 * Where a file importing this one attaches the cache the keys were joined with (`model.cache = KVCache(...)` in
 * generate.py), when the class sets that attribute only to None: `self.cache.update(k, v)` runs because of it.
 * At most one place.
 */
export function cacheAttachedAt(ev: Evaluator, v: AValue): ForeignPlace[] {
  const call = v.cacheAt;
  const fn = call?.type === 'call' ? childByField(call, 'function') : undefined;
  const recv = fn?.type === 'attribute' ? childByField(fn, 'object') : undefined;
  const owner = recv?.type === 'attribute' ? childByField(recv, 'object') : undefined;
  const attr = recv?.type === 'attribute' ? childByField(recv, 'attribute') : undefined;
  if (!recv || !attr || owner?.type !== 'identifier' || ev.text(owner) !== 'self') return [];
  const at = ev.attributeSetByImporter(ev.text(attr));
  return at ? [{ ...at, here: ev.text(recv) }] : [];
}

/**
 * Where a helper of another workspace file gives a value its layout (`k = split_heads(x, h)` with `split_heads` in
 * heads.py): the helper's return statement in that file, when it has exactly one. At most one place.
 */
export function helperReturnAt(ev: Evaluator, node: PyNode | undefined, ctx: Ctx): ForeignPlace[] {
  const u = node ? unparen(node) : undefined;
  if (u?.type !== 'identifier') return [];
  for (const d of liveInCtx(ev, ev.resolve(u, ev.text(u)) ?? [], ctx)) {
    const value = d.value ? unparen(d.value) : undefined;
    const fnNode = value?.type === 'call' ? childByField(value, 'function') : undefined;
    if (!fnNode) continue;
    const f = ev.eval(fnNode, ctx);
    const scope = f.kind === 'function' ? f.fn?.scope : undefined;
    if (!scope || ev.owns(scope) || scope.returns.length !== 1) continue;
    const owner = ev.link?.workspace.ownerOf(scope);
    const ret = scope.returns[0];
    if (!owner?.link || !ret) continue;
    const stmt = ret.parent?.type === 'return_statement' ? ret.parent : ret;
    return [{ path: owner.link.path, source: owner.tree.source, start: stmt.start, end: stmt.end, here: ev.text(fnNode) }];
  }
  return [];
}
