// Calls of this file's functions made by the workspace files that import it. A helper that turns a mask
// parameter into a fill or an additive bias (`ext * finfo(dtype).min`) says nothing about the mask's meaning
// by itself: its callers do. When a mask site of a module-level function reads a mask whose meaning is unknown
// here (or known only from a parameter's name), the files importing this one are read for calls of that
// function, their arguments are evaluated there and cross as portable values (naming where they were built),
// and the function is evaluated again with them, so the site is judged as the program really calls it.
// Likewise a helper such as `def attention(q, k, v, mask=None)` often leaves the 1/sqrt(d) scale to its callers
// (`attention(q * self.scale, k, v)` in `layers.py`): `importerCallPassing` finds such a call.
//
// The constructions of a class (ATT004's widths, a config's fields) are read from syntax trees, never from the text:
//   - constructionFiles: the linted file's tree parsed whole (`PyTree.whole`: the analysed tree leaves out bodies and
//     blocks with no attention text, where the model that builds a head often sits) and the trees of the files importing
//     it that name the class (the workspace parses those whole and caches them per version: not parsed again here);
//   - constructionCalls: `call` nodes whose `function` is the identifier naming the class, in source order
//     (`class Name(...)`, `obj.Name(...)` and text in strings or comments are no construction);
//   - constructionArgLists: each call's `argument_list` children, a `keyword_argument` by its name, the others by
//     position, each value's text without comments, line continuations or whitespace (argumentText); a `list_splat` or
//     `dictionary_splat` (`*args`, `**cfg`), a generator argument or a call the parser cut short makes the file's
//     constructions unknown (undefined), and so do more than MAX_CONSTRUCTIONS_READ of them;
//   - argument: what one construction passes for one `__init__` parameter (its keyword, else its position, else the
//     parameter's default);
//   - fallsBackTo: a statement of the constructor's own body (not of a function nested in it) rebinding a parameter to
//     another when it is None: an `assignment` whose right side is a `boolean_operator` `or` (`b = b or a`) or a
//     `conditional_expression` testing `b is None` / `b is not None` by a `comparison_operator`, or an `if_statement`
//     testing `b is None` whose block starts with `b = a`;
//   - what the exported functions decide from these: constructionsPassSame (every construction passes the same
//     argument text, or equal whole numbers, for two parameters, or for a parameter and a module-level width,
//     constructionsPassConstant), constructionsPassSameWithHeads (the same, with a head count above 1, numbers read
//     through module-level constants by argumentNumber), firstConstruction (the first call, for a finding's message and
//     related location), constructedField (a config field's value, a number written out or the default) and
//     constructionArguments (each construction's argument for one parameter, with its file's source).
//   - bindingsOf and importsName: where a file binds a name (assignment targets; parameters, `for` targets and `as`
//     aliases) and whether it imports it from a module, for the names constructionsPassConstant and argumentNumber
//     read as module-level constants.
import { defineTemplates, msg } from '../message';
import { targetNames } from '../syntax/python';
import { childByField, namedChildren, text, unparen, walk, type PyNode, type PyTree } from '../syntax/tree';
import type { Evaluator } from './evaluator';
import { noteMaskPlaces } from './cross-file';
import { truthOf } from './flags';
import { importingFiles } from './importers';
import { portable } from './portable';
import type { Ctx } from './facts';
import type { ValueOrigin } from './portable';
import type { ClassInfo, ParamInfo, Scope } from './scopes';
import { markCut, objectChoices, opsAlternatives, type AValue, type ObjectInfo } from './values';
import { passesCut } from './mask-ops';
import { cacheReachesKeys } from './kv-cache';
import { topLeftRectangle } from './masks';
import { lineOf } from './workspace';
import { isHeadCountName, isMaskableBiasName } from './names';

const T = defineTemplates({
  calledFromImporter: '{0} is called here, in a file that imports this one',
});

/** Importing files read, at most, calls taken from each, and calls whose callee is evaluated to find them. */
const MAX_IMPORTERS = 8;
const MAX_CALLS_PER_FILE = 8;
export const MAX_CALLEES_PER_FILE = 64;

/** The methods a call of an instance runs (`model(x, mask)` runs forward; a Keras layer's, call). */
const MODULE_CALL: ReadonlySet<string> = new Set(['forward', '__call__', 'call']);

/** One call of a function of this file, as an importing file makes it. */
export interface ImporterCall {
  readonly scope: Scope;
  /** For a method: the instance it is called on (of this file's class). */
  readonly self?: AValue;
  readonly positional: readonly AValue[];
  readonly keywords: ReadonlyMap<string, AValue>;
  /** Where the importing file makes the call (a finding judged in this context names it). */
  readonly at?: { readonly path: string; readonly line: number };
}

/**
 * Module-level functions of this file holding a mask site whose mask is unknown or known only by a name or a
 * comment, and
 * that take parameters: the functions whose callers decide.
 */
export function functionsCallersDecide(ev: Evaluator): Scope[] {
  const out = new Set<Scope>();
  for (const site of ev.facts.mask) {
    const m = site.mask.mask;
    const scope = site.ctx.scope;
    // A site this file reaches through a call from another of its functions (an encoder's forward calling its
    // attention layers with its own `padding_mask`), with the mask unknown there too: that caller's callers decide,
    // and evaluating it as they call it evaluates the layer's call again. The callers of that caller in this file too, a
    // few levels up (a masking helper called by a scaled-attention module that a multi-head module of the file calls):
    // the mask reaches the helper through each of them, as it would with the helper's body written in the caller.
    if (site.ctx.bindings !== undefined && site.ctx.callSite && (!m || m.polarity === undefined || m.byName || m.documented)) {
      const caller = innermostScope(ev.sr.scopes, site.ctx.callSite);
      if (caller && caller !== scope) for (const s of [caller, ...inFileCallersUp(ev, caller, scope)]) if (callableFromImporters(ev, s)) out.add(s);
    }
    // A module-level function, or the forward of a module-level class (`model(x, mask)` in the caller).
    if (site.ctx.bindings !== undefined || !callableFromImporters(ev, scope)) continue;
    // A polarity stated only in prose (the parameter's docstring) is weighed against what the callers pass.
    if (!m || m.polarity === undefined || m.byName || m.documented) out.add(scope);
  }
  // A causal mask cut or built top-left over L queries and S keys applied to scores whose keys show no cache here
  // (`def attend(q, k, v): ... scores + where(1 - tril(ones(L, S)), -inf, 0)`): whether the keys include a cache is
  // the callers' to say (`k, v = cache.update_and_fetch(k, v); attend(q, k, v)` in the model's file).
  const topLeftHere = (scores: AValue, m: AValue | undefined): boolean => {
    if (!topLeftRectangle(m?.mask) || scores.attn?.stage !== 'scores') return false;
    return !ev.facts.matmulAt(scores.attn.formedAt).some((mm) => cacheReachesKeys(ev, mm.b));
  };
  const addCaller = (ctx: Ctx): void => {
    if (ctx.bindings === undefined && callableFromImporters(ev, ctx.scope)) out.add(ctx.scope);
  };
  for (const site of ev.facts.fill) if (topLeftHere(site.target, site.mask)) addCaller(site.ctx);
  // The weights masked after softmax by a mask this file does not build (`w * mask.float()`, a parameter), or multiplied
  // by a parameter nothing here shows to be a mask (`softmax(scores) * causal`): the callers say what the mask is and
  // whether they masked the scores they hand over before the softmax (ATT006).
  for (const site of ev.facts.weightsMask) {
    const m = ev.eval(site.maskNode, site.ctx).mask;
    if (!m || m.byName || m.documented) addCaller(site.ctx);
  }
  for (const scope of ev.facts.weightsTimesParam) if (callableFromImporters(ev, scope)) out.add(scope);
  for (const scope of ev.facts.whereOfParams) if (callableFromImporters(ev, scope)) out.add(scope);
  // Added to the scores (`scores + mask`): read on the scores a softmax takes, or on the weights multiplied with the
  // values (a softmax written as a helper is evaluated in a context of its own).
  const addedTopLeft = (v: AValue, ctx: Ctx): void => {
    if (ctx.bindings !== undefined || !v.attn) return;
    const scores: AValue = { ...v, attn: { ...v.attn, stage: 'scores' } };
    for (const alt of opsAlternatives(v))
      for (const op of alt) if (op.kind === 'mask' && op.how === 'add' && op.maskNode && topLeftHere(scores, ev.eval(op.maskNode, ctx))) addCaller(ctx);
  };
  for (const site of ev.facts.softmax) if (site.input.attn?.stage === 'scores') addedTopLeft(site.input, site.ctx);
  // A bias parameter added to the scores that nothing here explains (`scores + attn_bias`, ops.ts): the callers build
  // it, as an additive mask or a position bias, and their construction says which.
  for (const site of ev.facts.softmax) {
    if (site.ctx.bindings !== undefined || site.input.attn?.stage !== 'scores') continue;
    for (const alt of opsAlternatives(site.input))
      for (const op of alt) if (op.kind === 'mask' && op.how === 'add' && op.maskNode && biasParameter(ev, op.maskNode, site.ctx.scope)) addCaller(site.ctx);
  }
  for (const site of ev.facts.matmul) if (site.a.attn?.stage === 'weights') addedTopLeft(site.a, site.ctx);
  // Scores scaled by a dimension that is a parameter of a module-level function or a module's forward
  // (`def call(self, q, k, v, d_k)`: `/ sqrt(d_k)`): whether d_k is one head's width or all heads' is the callers' to
  // show (`self.attend(q, k, v, self.d_k)` on q and k split into heads from a `Dense(d_k)` projection, ATT004).
  for (const site of ev.facts.scale) {
    const dim = site.op.dim;
    if (site.ctx.bindings !== undefined || !dim || dim.ofTensor || site.op.power !== -0.5 || site.target.attn?.stage !== 'scores') continue;
    if (site.ctx.scope.params.some((p) => p.name === dim.text)) addCaller(site.ctx);
  }
  // A masking helper (`def fill(scores, mask): return scores.masked_fill(mask == 0, -1e9)`) fills a parameter that nothing
  // here shows to be attention scores: the callers pass them, and the fill (its value, the precision, the rows it empties)
  // and the mask's polarity are judged as they call it (the scores crossing with what the caller does after the call).
  for (const site of ev.facts.fill)
    if (site.ctx.bindings === undefined && !site.target.attn && fillsParameter(ev, site.targetNode, site.ctx.scope)) addCaller(site.ctx);
  // Keys transposed whole (`k.T`, `k.t()`) or scores softmaxed over a written non-negative axis, in a module-level
  // function or module forward whose input rank this file does not show: the files that call it give the rank (a
  // batch axis the model adds, `x.unsqueeze(0)`, `pos[None]`), and the product and the softmax are judged as called.
  for (const site of ev.facts.matmul) {
    if (site.ctx.bindings !== undefined || site.b.role !== 'key' || !site.bNode) continue;
    if (site.b.ndim === undefined && wholeTranspose(ev, site.bNode)) addCaller(site.ctx);
    else if (writtenAxesTranspose(ev, site.bNode, site.ctx)) addCaller(site.ctx);
  }
  for (const site of ev.facts.softmax) {
    // Also a softmax helper whose input nothing here shows to be scores (`def masked_softmax(scores, keep)`): the
    // callers pass the scores, and the axis is judged on them.
    if (site.ctx.bindings !== undefined || (site.input.attn !== undefined && site.input.attn.stage !== 'scores') || site.input.ndim !== undefined) continue;
    if (typeof site.dim === 'number' && site.dim >= 0) addCaller(site.ctx);
  }
  // SDPA with a causal flag this file does not settle (`is_causal=self.causal`) in a method of a module-level class:
  // the files that build and call the module decide the flag and whether the keys hold a cache. Its forward is read.
  for (const site of ev.facts.sdpa) {
    const cls = site.ctx.scope.ownerClass;
    const forward = cls?.scope.parent === ev.sr.module ? (cls.methods.get('forward') ?? cls.methods.get('__call__')) : undefined;
    if (!forward || site.ctx.bindings !== undefined || forward.params.length === 0 || !site.causalNode) continue;
    const flag = site.causalNode.type === 'keyword_argument' ? childByField(site.causalNode, 'value') : site.causalNode;
    if (flag && !/^(True|False)$/.test(ev.text(flag)) && truthOf(ev.eval(flag, site.ctx)) === undefined) out.add(forward);
  }
  for (const scope of helpersOnlyImportersCall(ev)) out.add(scope);
  return [...out];
}

/**
 * Module-level functions holding an attention site that reads one of their parameters, which no function of this file
 * calls (`def scores(q, k, self): return q @ k.transpose(-2, -1) * self.scale` in utils.py, called by the model's file):
 * a helper of the same file is judged in each context its callers give it, so a helper of another file is judged as the
 * files importing it call it, whatever the site (a scale, a fill, a mask, a softmax, a product). Only the arguments
 * those calls pass are new evidence; a helper no importing file calls stays judged on its own.
 */
function helpersOnlyImportersCall(ev: Evaluator): Scope[] {
  const sites: Array<{ readonly ctx: Ctx; readonly node: PyNode }> = [
    ...ev.facts.scale.map((s) => ({ ctx: s.ctx, node: s.op.node })),
    ...ev.facts.fill,
    ...ev.facts.mask,
    ...ev.facts.softmax,
    ...ev.facts.matmul,
    ...ev.facts.weightsMask,
  ];
  const calledHere = new Set<Scope>();
  for (const s of sites) if (s.ctx.bindings !== undefined) calledHere.add(s.ctx.scope);
  const out = new Set<Scope>();
  for (const s of sites) {
    const scope = s.ctx.scope;
    if (s.ctx.bindings !== undefined || out.has(scope) || calledHere.has(scope) || scope.ownerClass || !callableFromImporters(ev, scope)) continue;
    if (readsParameter(ev, s.node, scope)) out.add(scope);
  }
  return [...out];
}

/** Whether the statement holding `node` reads a parameter of `scope` by name. */
function readsParameter(ev: Evaluator, node: PyNode, scope: Scope): boolean {
  let stmt: PyNode = node;
  while (stmt.parent && !/_statement$/.test(stmt.type)) stmt = stmt.parent;
  const names = new Set(scope.params.map((p) => p.name));
  let found = false;
  walk(stmt, (n) => {
    if (found) return false;
    if (n.type === 'identifier' && names.has(ev.text(n))) found = true;
  });
  return found;
}

/** Whether an identifier under `node` (a name, an attribute's or a keyword's name) is one of `names`; strings and comments are not read. */
function readsNameOf(ev: Evaluator, node: PyNode, names: ReadonlySet<string>): boolean {
  let found = false;
  walk(node, (n) => {
    if (found) return false;
    if (n.type === 'identifier' && names.has(ev.text(n))) found = true;
  });
  return found;
}

/** Levels of this file's calls walked up from a caller (inFileCallersUp). */
const MAX_CALLER_LEVELS = 2;

const callerScopesOf = new WeakMap<Scope, readonly Scope[]>();

/**
 * The functions of this file that call `scope` (a module-level function by its name, a module-level class's forward
 * through an instance of the class), and theirs, up to MAX_CALLER_LEVELS levels; never `from` or `scope` itself.
 */
function inFileCallersUp(ev: Evaluator, scope: Scope, from: Scope): Scope[] {
  const out: Scope[] = [];
  let frontier = [scope];
  for (let level = 0; level < MAX_CALLER_LEVELS && frontier.length > 0; level++) {
    const next: Scope[] = [];
    for (const s of frontier)
      for (const c of inFileCallerScopes(ev, s)) {
        if (c === from || c === scope || out.includes(c)) continue;
        out.push(c);
        next.push(c);
      }
    frontier = next;
  }
  return out;
}

/** The functions of this file that call `scope` (at most MAX_CALLEES_PER_FILE calls read). */
function inFileCallerScopes(ev: Evaluator, scope: Scope): readonly Scope[] {
  const known = callerScopesOf.get(scope);
  if (known) return known;
  const out: Scope[] = [];
  const cls = scope.ownerClass;
  const viaInstance = !!cls && MODULE_CALL.has(scope.name) && scope.parent?.parent === ev.sr.module;
  if (scope.kind === 'function' && (!cls || viaInstance)) {
    const wanted = (name: string): boolean => (viaInstance ? name !== cls?.name : name === scope.name);
    for (const call of callsNamed(ev, wanted, MAX_CALLEES_PER_FILE)) {
      const at = innermostScope(ev.sr.scopes, call);
      if (!at || at === scope || at.kind !== 'function' || out.includes(at)) continue;
      const callee = ev.eval(unparen(childByField(call, 'function')!), ev.defaultCtx(at));
      const ok = viaInstance ? objectChoices(callee).some((o) => o.cls === cls) : callee.kind === 'function' && callee.fn?.scope === scope;
      if (ok) out.push(at);
    }
  }
  callerScopesOf.set(scope, out);
  return out;
}

/** `k.T` or `k.t()`: every axis reversed (or a 2-D transpose), whatever the rank. */
function wholeTranspose(ev: Evaluator, node: PyNode): boolean {
  const n = unparen(node);
  if (n.type === 'attribute') return ev.text(childByField(n, 'attribute') ?? n) === 'T';
  if (n.type !== 'call') return false;
  const f = childByField(n, 'function');
  const args = childByField(n, 'arguments');
  return f?.type === 'attribute' && ev.text(childByField(f, 'attribute') ?? f) === 't' && !!args && namedChildren(args).length === 0;
}

/**
 * `k.transpose(1, 2)`, `k.swapaxes(1, 2)`, `torch.transpose(k, 0, 1)`: two axes written from the front, which are the
 * last two only at one rank (3-D keys, not 4-D ones split into heads; 2-D keys, not batched ones).
 */
function writtenAxesTranspose(ev: Evaluator, node: PyNode, ctx: Ctx): boolean {
  const n = unparen(node);
  if (n.type !== 'call') return false;
  const f = childByField(n, 'function');
  const args = childByField(n, 'arguments');
  if (f?.type !== 'attribute' || !args || !/^(transpose|swapaxes)$/.test(ev.text(childByField(f, 'attribute') ?? f))) return false;
  const obj = childByField(f, 'object');
  const list = namedChildren(args);
  // `torch.transpose(k, 0, 1)`, `np.swapaxes(k, 1, 2)`: the library's function form, the keys its first argument.
  const lib = !!obj && ev.eval(obj, ctx).kind === 'module';
  const base = lib ? list[0] : obj;
  const axes = lib ? list.slice(1) : list;
  // The keys' own rank unknown here (the transposed value's may be read from the axes written).
  return !!base && axes.length === 2 && axes.every((a) => a.type === 'integer') && ev.eval(base, ctx).ndim === undefined;
}

/** `attn_bias`: a parameter of `scope` named as a bias (not as a position bias), as ops.ts's `unseenBias` reads it. */
function biasParameter(ev: Evaluator, node: PyNode, scope: Scope): boolean {
  const u = unparen(node);
  if (u.type !== 'identifier') return false;
  const name = ev.text(u);
  return isMaskableBiasName(name) && scope.params.some((p) => p.name === name);
}

/** A module-level function, or the forward of a module-level class, taking parameters: importing files call it. */
function callableFromImporters(ev: Evaluator, scope: Scope): boolean {
  return (
    scope.kind === 'function' &&
    scope.params.length > 0 &&
    (scope.parent === ev.sr.module || (!!scope.ownerClass && scope.parent?.parent === ev.sr.module && MODULE_CALL.has(scope.name)))
  );
}

/** The calls that files importing this one make of `fns` (by name, `f(...)` or `module.f(...)`), with argument values. */
export function callsFromImporters(ev: Evaluator, fns: readonly Scope[], hops = 0): ImporterCall[] {
  const link = ev.link;
  if (!link || fns.length === 0) return [];
  const byName = new Map(fns.filter((f) => !f.ownerClass).map((f) => [f.name, f]));
  const byClass = new Map(fns.filter((f) => f.ownerClass).map((f) => [f.ownerClass!.name, f]));
  const out: ImporterCall[] = [];
  for (const path of importingFiles(link, MAX_IMPORTERS, true)) {
    const m = link.workspace.module(path);
    if (!m) continue;
    // Instances are called through any name (`model(x, mask)`): only in a file that names one of the classes.
    const instances = byClass.size > 0 && [...byClass.keys()].some((c) => m.tree.source.includes(c));
    const aliases = importAliases(m.ev, (name) => byName.has(name));
    const calls = callsNamed(m.ev, (name) => byName.has(name) || aliases.has(name) || (instances && !byClass.has(name)), MAX_CALLEES_PER_FILE);
    let found = 0;
    for (const call of calls) {
      if (found >= MAX_CALLS_PER_FILE) break;
      const fnNode = unparen(childByField(call, 'function')!);
      const scope = innermostScope(m.sr.scopes, call) ?? m.sr.module;
      const ctx = m.ev.defaultCtx(scope);
      // The callee must be this file's function, or an instance of this file's class (not a namesake).
      const callee = m.ev.eval(fnNode, ctx);
      // An instance of one of several classes (`self.attention` built by a config switch): each of this file's, in turn.
      const choices = callee.kind === 'object' && !callee.object ? objectChoices(callee) : [undefined];
      for (const choice of choices) {
        const ours = (v: AValue): ObjectInfo | undefined => (choice ? objectChoices(v).find((o) => o.cls === choice.cls) : v.object);
        const calleeScope = callee.kind === 'function' && callee.fn ? callee.fn.scope : ours(callee)?.cls.scope;
        if (!calleeScope || link.workspace.ownerOf(calleeScope)?.link?.path !== link.path) continue;
        const target = callee.kind === 'function' ? byName.get(calleeScope.name) : byClass.get(calleeScope.name);
        if (!target) continue;
        const argList = childByField(call, 'arguments');
        const args = argList ? namedChildren(argList) : [];
        // Of several classes, this one's forward must take the call's keywords (the call may be meant for another).
        const takes = (a: PyNode): boolean => {
          const k = a.type === 'keyword_argument' ? childByField(a, 'name') : undefined;
          return !k || target.params.some((p) => p.kind === 'kwstar' || (p.name === m.ev.text(k) && p.kind !== 'star'));
        };
        if (choice && !args.every(takes)) continue;
        found++;
        // `model(**batch)` passes a dict's entries by keyword when its keys are known (below); `*args` passes unknown positions.
        if (args.some((a) => a.type === 'list_splat')) continue;
        const line = lineOf(m.tree.source, call.start);
        const column = call.start - m.tree.source.lastIndexOf('\n', call.start - 1);
        const origin = { path, line, column, name: scope.name };
        const what = target.ownerClass ? `${target.ownerClass.name}.${target.name}` : target.name;
        ev.noteForeignEvidence({ path, line, column, message: msg(T.calledFromImporter, `\`${what}\``) });
        // The call as its own function runs: unbound (its default context), and as that file calls the function.
        // An argument as it crosses: keys joined with a cache there keep where (a related location in that file), and
        // a mask that file got from a third one names where it was built (a related location there).
        // Attention scores passed in (`masked_softmax(q @ k.transpose(-2, -1), keep)`) keep their key axis, as scores a
        // helper returns do: said to come in at the parameter that receives them, formed in that file.
        const offset = target.ownerClass ? 1 : 0;
        const paramNode = (key: number | string): PyNode | undefined =>
          target.params.find((p) => (typeof key === 'number' ? p.kind === 'positional' && p.index === key + offset : p.name === key))?.node;
        const crossing = (v: AValue, key: number | string, at: Ctx, node?: PyNode): AValue => {
          const p = afterTheCall(m.ev, at, v, portable(v, origin, 0, v.attn?.stage === 'scores' ? paramNode(key) : undefined), path);
          noteMaskPlaces(ev, p);
          const out =
            v.fromCache && v.cacheAt && !p.cacheIn && p.kind === 'tensor'
              ? { ...p, cacheIn: { path, source: m.tree.source, start: v.cacheAt.start, end: v.cacheAt.end } }
              : p;
          // Scores cut to a triangle and passed as the cut itself (`keep_nonzero(weights, ...)` with `weights = torch.triu(
          // weights)`): still that cut in the helper (mask-ops.ts: triCutCompared).
          return node && passesCut(m.ev, node, v, at) ? markCut(out) : out;
        };
        for (const at of [ctx, ...callerContexts(m.ev, scope, hops)]) {
          const fn = at === ctx ? callee : m.ev.eval(fnNode, at);
          const positional: AValue[] = [];
          const keywords = new Map<string, AValue>();
          let unknownKeys = false;
          for (const a of args) {
            if (a.type === 'keyword_argument') {
              const k = childByField(a, 'name');
              const v = childByField(a, 'value');
              if (k && v) keywords.set(m.ev.text(k), crossing(m.ev.eval(v, at), m.ev.text(k), at, v));
            } else if (a.type === 'dictionary_splat') {
              // A dict whose keys are known (a collate function's batch): each entry by keyword. Any other splat may
              // pass anything, so this way of calling says nothing.
              const inner = namedChildren(a)[0];
              const d = inner ? m.ev.eval(inner, at) : undefined;
              if (d?.kind !== 'unknown' || !d.kwargs) unknownKeys = true;
              else for (const [k, v] of d.kwargs) keywords.set(k, crossing(v, k, at));
            } else positional.push(crossing(m.ev.eval(a, at), positional.length, at, a));
          }
          if (unknownKeys) continue;
          if (!target.ownerClass) {
            out.push({ scope: target, positional, keywords, at: origin });
            continue;
          }
          // The instance as the importing file built it: one call per way it is built (its constructor's arguments).
          const cls = target.ownerClass;
          const inst = ours(fn);
          const built = inst?.init ? constructorArguments(m.ev, inst.init, origin) : [];
          if (built.length === 0) out.push({ scope: target, positional, keywords, at: origin, self: { kind: 'object', object: { cls } } });
          for (const initArgs of built) out.push({ scope: target, positional, keywords, at: origin, self: { kind: 'object', object: { cls, initArgs } } });
        }
      }
    }
  }
  return out;
}

/** Calls of one function a file makes, at most, read as contexts for the calls that function makes. */
const MAX_CALLER_CONTEXTS = 4;

/**
 * Contexts of a function of the importing file as that file calls it (`attn(x, kv_cache=layer_cache)` for
 * `Attention.forward`, `helper(x)` for a module-level `helper`): the arguments it passes on are then known there.
 */
function callerContexts(ev: Evaluator, scope: Scope, hops: number, levels = MAX_CALLER_LEVELS): Ctx[] {
  if (scope.kind !== 'function') return [];
  const cls = scope.ownerClass;
  const viaInstance = cls && MODULE_CALL.has(scope.name) && scope.parent?.parent === ev.sr.module;
  if (cls && !viaInstance) return [];
  const out: Ctx[] = [];
  const wanted = (name: string): boolean => (viaInstance ? name !== cls.name : name === scope.name);
  // The callee of `call` as the function making it sees it in `callerCtx`, when it is `scope` (its instance, for a forward).
  const calleeIn = (call: PyNode, callerCtx: Ctx): AValue | undefined => {
    const callee = ev.eval(unparen(childByField(call, 'function')!), callerCtx);
    const ok = viaInstance ? objectChoices(callee).some((o) => o.cls === cls) : callee.kind === 'function' && callee.fn?.scope === scope;
    return ok ? callee : undefined;
  };
  for (const call of callsNamed(ev, wanted, MAX_CALLEES_PER_FILE)) {
    if (out.length >= MAX_CALLER_CONTEXTS) break;
    const at = innermostScope(ev.sr.scopes, call) ?? ev.sr.module;
    if (at === scope) continue;
    const atCtx = ev.defaultCtx(at);
    const callee = calleeIn(call, atCtx);
    if (!callee) continue;
    const c = ev.callContext(scope, call, ev.argsOf(call), atCtx, viaInstance ? callee : undefined);
    if (c && !out.includes(c)) out.push(c);
    // The caller as its own callers in this file call it (`main()` calling `encoder(text, text_mask=mask)`, whose forward
    // calls each attention layer with that mask): their arguments reach this call, as they do when the whole file is read.
    if (levels > 1)
      for (const up of callerContexts(ev, at, MAX_IMPORTER_HOPS, levels - 1)) {
        if (out.length >= MAX_CALLER_CONTEXTS) break;
        const through = calleeIn(call, up);
        const c3 = through && ev.callContext(scope, call, ev.argsOf(call), up, viaInstance ? through : undefined);
        if (c3 && !out.includes(c3)) out.push(c3);
      }
    // The caller is itself a module a further file builds and calls with its arguments (`Encoder.forward(tokens,
    // pad_mask)` called by the model's file, passing `pad_mask` on to each layer): one hop more, as that file calls it.
    if (hops < MAX_IMPORTER_HOPS && callableFromImporters(ev, at)) {
      for (const outer of callsFromImporters(ev, [at], hops + 1)) {
        if (out.length >= MAX_CALLER_CONTEXTS) break;
        const bound = ev.importerCallContext(outer);
        const through = calleeIn(call, bound);
        const c2 = through && ev.callContext(scope, call, ev.argsOf(call), bound, viaInstance ? through : undefined);
        if (c2 && !out.includes(c2)) out.push(c2);
      }
    }
  }
  // Not called in its own file (a model's forward that a training script calls): as the files importing that file
  // call it, one more hop (`layers.py` ← `model.py`'s `Encoder.forward` ← `train.py`'s loop over a DataLoader). Those
  // calls pass every argument known (callsFromImporters leaves out `*args` and unknown `**kwargs`), so a parameter they
  // leave out takes its default, as in the first hop (`attention_mask=None` passed on to the kernel: no mask there).
  if (out.length === 0 && hops < MAX_IMPORTER_HOPS)
    for (const c of callsFromImporters(ev, [scope], hops + 1)) {
      if (out.length >= MAX_CALLER_CONTEXTS) break;
      out.push(ev.importerCallContext(c));
    }
  return out;
}

/** Files between a mask site's file and the file whose call decides it, at most, beyond the first importer. */
const MAX_IMPORTER_HOPS = 1;

/** Ways an importing file builds one instance, at most. */
const MAX_CONSTRUCTIONS = 4;

/**
 * The arguments an instance's constructor call gets in the importing file (`Attend(causal=causal)`), as portable
 * values. When the call sits in the `__init__` of a class of that file and passes its parameters on, each place
 * that file builds that class (`Attention(dim, causal=True)`) gives one set of values: the flag as it is built.
 */
function constructorArguments(ev: Evaluator, init: { readonly call: PyNode; readonly ctx: Ctx }, origin: ValueOrigin): NonNullable<ObjectInfo['initArgs']>[] {
  const evaluate = (ctx: Ctx): NonNullable<ObjectInfo['initArgs']> | undefined => {
    const args = ev.argsOf(init.call);
    if (args.hasSplat) return undefined;
    return {
      positional: args.positional.map((a) => portable(ev.eval(a, ctx), origin)),
      keywords: [...args.keywords].map(([name, kw]) => [name, portable(ev.eval(kw.value, ctx), origin)] as const),
    };
  };
  const scope = init.ctx.scope;
  const outer = scope.name === '__init__' ? scope.ownerClass : undefined;
  const passesParams = readsNameOf(ev, childByField(init.call, 'arguments') ?? init.call, new Set(scope.params.map((p) => p.name)));
  if (!outer || init.ctx.bindings !== undefined || !passesParams) {
    const direct = evaluate(init.ctx);
    return direct ? [direct] : [];
  }
  const out: NonNullable<ObjectInfo['initArgs']>[] = [];
  for (const call of callsNamed(ev, (name) => name === outer.name, MAX_CALLEES_PER_FILE)) {
    if (out.length >= MAX_CONSTRUCTIONS) break;
    const at = innermostScope(ev.sr.scopes, call) ?? ev.sr.module;
    const atCtx = ev.defaultCtx(at);
    const cls = ev.eval(unparen(childByField(call, 'function')!), atCtx);
    if (cls.kind !== 'class' || cls.cls !== outer) continue;
    const ctx = ev.callContext(scope, call, ev.argsOf(call), atCtx, { kind: 'object', object: { cls: outer, init: { call, ctx: atCtx } } });
    const values = ctx && evaluate(ctx);
    if (values) out.push(values);
  }
  if (out.length > 0) return out;
  const direct = evaluate(init.ctx);
  return direct ? [direct] : [];
}

/**
 * The name `callsNamed` gives a call of a call's result (`Attention(dim)(x, mask)`, `make_layer()(x)`): no name of the
 * code's can be it, so only a search for any instance's call (a name that is not a class's) accepts it.
 */
const CALL_OF_CALL = '()';

/**
 * Calls `name(...)` or `mod.name(...)` in a module whose name `wanted` accepts, in source order (at most `max`); a call
 * of a call's result (`Attention(dim)(x, mask)`: a module built and called in one expression) is named `CALL_OF_CALL`.
 */
export function callsNamed(ev: Evaluator, wanted: (name: string) => boolean, max: number): PyNode[] {
  const calls: PyNode[] = [];
  walk(ev.tree.root, (n) => {
    if (calls.length >= max) return false;
    if (n.type !== 'call') return;
    const fn = childByField(n, 'function');
    const u = fn ? unparen(fn) : undefined;
    const name =
      u?.type === 'identifier'
        ? ev.text(u)
        : u?.type === 'attribute'
          ? ev.text(childByField(u, 'attribute') ?? u)
          : u?.type === 'call'
            ? CALL_OF_CALL
            : undefined;
    if (name !== undefined && wanted(name)) calls.push(n);
  });
  return calls;
}

/**
 * The names a module binds by importing, under another name, something `wanted` accepts (`from pkg.utils import
 * make_mask as mm` binds `mm` for `make_mask`): its calls are calls of that function (the callee is still checked).
 */
function importAliases(ev: Evaluator, wanted: (name: string) => boolean): ReadonlySet<string> {
  const out = new Set<string>();
  for (const [name, defs] of ev.sr.module.envAtEnd) {
    for (const d of defs) {
      const imported = d.kind === 'import' && d.importFrom ? d.importPath?.at(-1) : undefined;
      if (imported !== undefined && imported !== name && wanted(imported)) out.add(name);
    }
  }
  return out;
}

/** Where an importing file calls a function of the linted file. */
export interface CallSite {
  readonly path: string;
  readonly line: number;
  readonly column: number;
}

/**
 * The first call of the module-level function `fnName` of the linted file, in a workspace file that imports it,
 * whose argument for one of `params` satisfies `accept` (evaluated in the importing file). Undefined when the
 * file is linted alone or no such call is found. Files read are noted as dependencies of the lint.
 */
export function importerCallPassing(ev: Evaluator, fnName: string, params: readonly ParamInfo[], accept: (v: AValue) => boolean): CallSite | undefined {
  const link = ev.link;
  if (!link?.importers || params.length === 0) return undefined;
  for (const path of importingFiles(link, MAX_IMPORTERS)) {
    const m = link.workspace.module(path);
    if (!m) continue;
    const aliases = importAliases(m.ev, (name) => name === fnName);
    const found = callsNamed(m.ev, (name) => name === fnName || aliases.has(name), MAX_CALLEES_PER_FILE).find((call) => passes(m.ev, call, params, accept));
    if (found) {
      const { line, column } = m.ev.lines.position(found.start);
      return { path, line, column };
    }
  }
  return undefined;
}

function passes(ev: Evaluator, call: PyNode, params: readonly ParamInfo[], accept: (v: AValue) => boolean): boolean {
  const args = namedChildren(childByField(call, 'arguments') ?? call);
  const positional = args.filter((a) => a.type !== 'keyword_argument');
  if (positional.some((a) => a.type === 'list_splat' || a.type === 'dictionary_splat')) return false;
  const ctx = ev.defaultCtx(innermostScope(ev.sr.scopes, call) ?? ev.sr.module);
  for (const p of params) {
    const kw = args.find((a) => a.type === 'keyword_argument' && ev.text(childByField(a, 'name') ?? a) === p.name);
    const node = kw ? childByField(kw, 'value') : p.index !== undefined ? positional[p.index] : undefined;
    if (node && accept(ev.eval(node, ctx))) return true;
  }
  return false;
}

function innermostScope(scopes: readonly Scope[], node: PyNode): Scope | undefined {
  let best: Scope | undefined;
  for (const s of scopes) {
    if (s.kind === 'comprehension' || s.kind === 'lambda' || s.kind === 'module') continue;
    if (s.node.start <= node.start && node.end <= s.node.end && (!best || s.node.start >= best.node.start)) best = s;
  }
  return best;
}

/** Constructions of one class read, at most, in this file and in each importing file. */
const MAX_CONSTRUCTIONS_READ = 8;

/** One argument of a construction: its keyword (none for a positional one) and its value's text, as argumentText reads it. */
interface ConstructionArg {
  readonly keyword?: string;
  readonly text: string;
}

/**
 * A file whose constructions of a class are read: its path (none for the linted file), its tree, parsed whole, and its
 * evaluator (for its module-level names).
 */
interface ConstructionFile {
  readonly path?: string;
  readonly tree: PyTree;
  readonly ev: Evaluator;
}

/**
 * The linted file's tree parsed whole: the tree the analysis reads leaves out the bodies and blocks with no attention
 * text (syntax/tree.ts, `skipped`; syntax/blocks.ts, selectBlocks), where a model that builds the class often sits.
 */
function wholeTree(tree: PyTree): PyTree {
  return tree.whole?.() ?? tree;
}

/**
 * This file (parsed whole) and the files importing it whose text names the class (their trees as the workspace parsed
 * them, whole).
 */
function constructionFiles(ev: Evaluator, cls: ClassInfo): ConstructionFile[] {
  const files: ConstructionFile[] = [{ tree: wholeTree(ev.tree), ev }];
  if (ev.link) {
    for (const path of importingFiles(ev.link, MAX_IMPORTERS, true)) {
      const m = ev.link.workspace.module(path);
      if (m && m.tree.source.includes(cls.name)) files.push({ path, tree: m.tree, ev: m.ev });
    }
  }
  return files;
}

/** The calls constructionCalls found in a tree, by the name called (a file's trees are read for several sites). */
const callsByTree = new WeakMap<PyTree, Map<string, readonly PyNode[]>>();

/**
 * The calls `Name(...)` of a file, in source order: `call` nodes whose function is the identifier `name` (not an
 * attribute `obj.Name(...)`; `class Name(...)` and text in strings or comments are no calls).
 */
function constructionCalls(tree: PyTree, name: string): readonly PyNode[] {
  let byName = callsByTree.get(tree);
  if (!byName) callsByTree.set(tree, (byName = new Map()));
  const known = byName.get(name);
  if (known) return known;
  const out: PyNode[] = [];
  byName.set(name, out);
  walk(tree.root, (n) => {
    if (n.type !== 'call') return;
    const fn = childByField(n, 'function');
    if (fn?.type === 'identifier' && fn.end - fn.start === name.length && tree.source.startsWith(name, fn.start)) out.push(n);
  });
  return out;
}

/**
 * A node's text as constructions are compared: without the comments and line continuations inside it, and without
 * whitespace (`n_embd // n_head` and `n_embd//n_head` are the same argument).
 */
function argumentText(tree: PyTree, node: PyNode): string {
  let cut = '';
  let at = node.start;
  walk(node, (n) => {
    if (n.type !== 'comment' && n.type !== 'line_continuation') return;
    cut += tree.source.slice(at, n.start);
    at = n.end;
    return false;
  });
  cut += tree.source.slice(at, node.end);
  return cut.replace(/\\\r?\n/g, '').replace(/\s+/g, '');
}

/**
 * The arguments of each construction `Name(...)` in a file's tree: positional ones in order, keyword arguments by
 * name. Undefined when a construction unpacks arguments (`*args`, `**cfg`: any parameter may be passed), passes a
 * generator, is cut short by a syntax error, or when the file holds more than MAX_CONSTRUCTIONS_READ of them.
 */
function constructionArgLists(file: ConstructionFile, name: string): ConstructionArg[][] | undefined {
  const out: ConstructionArg[][] = [];
  for (const call of constructionCalls(file.tree, name)) {
    const list = childByField(call, 'arguments');
    if (list?.type !== 'argument_list' || list.missing) return undefined;
    const args: ConstructionArg[] = [];
    for (const a of namedChildren(list)) {
      if (a.type === 'list_splat' || a.type === 'dictionary_splat' || a.type === 'ERROR' || a.missing) return undefined;
      if (a.type === 'line_continuation') continue;
      if (a.type === 'keyword_argument') {
        const k = childByField(a, 'name');
        const v = childByField(a, 'value');
        if (!k || !v) return undefined;
        args.push({ keyword: text(file.tree, k), text: argumentText(file.tree, v) });
      } else args.push({ text: argumentText(file.tree, a) });
    }
    // An argument list the parser closed itself (`Head(n_embd,` at the end of the text) is cut short.
    if (list.children.some((c) => c.type === 'ERROR' || c.missing) || file.tree.source[list.end - 1] !== ')') return undefined;
    out.push(args);
    if (out.length > MAX_CONSTRUCTIONS_READ) return undefined;
  }
  return out;
}

/**
 * Whether every place the workspace builds class `cls` (calls `Cls(...)` in this file and in the files importing
 * it) passes the same argument for its `__init__` parameters `a` and `b`: the same expression (`Head(bs, n_embd,
 * n_embd)`), or two equal number literals (`Head(8, 32, 32)`); a parameter left out counts as its default. False
 * when no construction is found, when one unpacks arguments (`Cls(*args)`), or when any passes two different ones.
 */
export function constructionsPassSame(ev: Evaluator, cls: ClassInfo, a: string, b: string): boolean {
  const init = cls.methods.get('__init__');
  const pb = init?.params.find((p) => p.name === b);
  const plain = (p: ParamInfo | undefined): p is ParamInfo => !!p && (p.kind === 'positional' || p.kind === 'keyword-only');
  if (!init || !plain(pb) || !/^\w+$/.test(cls.name)) return false;
  const pa = init.params.find((p) => p.name === a);
  // `a` not a parameter: a width the module fixes (`n_embd = 32` at module level, `nn.Linear(n_embd, head_size)`).
  if (!pa) return constructionsPassConstant(ev, cls, a, pb);
  if (!plain(pa)) return false;
  let found = 0;
  for (const file of constructionFiles(ev, cls)) {
    const lists = constructionArgLists(file, cls.name);
    if (!lists) return false;
    for (const args of lists) {
      found++;
      const x = argument(ev, args, pa);
      const y = argument(ev, args, pb);
      if (x === undefined || y === undefined) return false;
      if (x === y) continue;
      // None for `b`, which the constructor replaces by `a` (`head_size = head_size or n_embd`): `a` itself.
      if (y === 'None' && fallsBackTo(ev, init.node, b, a)) continue;
      const nx = /^\d+$/.test(x) ? Number(x) : NaN;
      if (!(nx === (/^\d+$/.test(y) ? Number(y) : NaN))) return false;
    }
  }
  return found > 0;
}

/**
 * The constructor rebinds parameter `b` to parameter `a` when it is None, by a statement of its body (not of a function
 * nested in it): `b = b or a`, `b = a if b is None else b`, `b = b if b is not None else a` (an `assignment` whose right
 * side is a `boolean_operator` `or` or a `conditional_expression`), or `if b is None:` whose block starts with `b = a`.
 */
function fallsBackTo(ev: Evaluator, init: PyNode, b: string, a: string): boolean {
  const named = (n: PyNode | undefined, name: string): boolean => !!n && unparen(n).type === 'identifier' && ev.text(unparen(n)) === name;
  // `b is None` (`negated`: `b is not None`).
  const isNone = (n: PyNode | undefined, negated: boolean): boolean => {
    const c = n ? unparen(n) : undefined;
    if (c?.type !== 'comparison_operator') return false;
    const operands = namedChildren(c);
    const ops = c.children.filter((x) => !x.named).map((x) => x.type);
    return operands.length === 2 && named(operands[0], b) && operands[1]?.type === 'none' && ops.join(' ') === (negated ? 'is not' : 'is');
  };
  // `b = <value>` with `value` accepted.
  const assigns = (stmt: PyNode | undefined, value: (v: PyNode) => boolean): boolean => {
    const e = stmt?.type === 'expression_statement' ? namedChildren(stmt) : [];
    const asg = e.length === 1 ? e[0] : undefined;
    const right = asg?.type === 'assignment' ? childByField(asg, 'right') : undefined;
    return !!asg && !!right && named(childByField(asg, 'left'), b) && value(unparen(right));
  };
  const fallback = (v: PyNode): boolean => {
    if (v.type === 'boolean_operator') {
      const op = childByField(v, 'operator');
      return (op ? op.type : '') === 'or' && named(childByField(v, 'left'), b) && named(childByField(v, 'right'), a);
    }
    if (v.type !== 'conditional_expression') return false;
    const [then, cond, otherwise] = namedChildren(v);
    return (named(then, a) && isNone(cond, false) && named(otherwise, b)) || (named(then, b) && isNone(cond, true) && named(otherwise, a));
  };
  let found = false;
  walk(childByField(init, 'body') ?? init, (n) => {
    if (found || n.type === 'function_definition' || n.type === 'class_definition' || n.type === 'lambda') return false;
    if (assigns(n, fallback)) found = true;
    else if (n.type === 'if_statement' && isNone(childByField(n, 'condition'), false)) {
      const block = childByField(n, 'consequence');
      if (block && assigns(namedChildren(block)[0], (v) => named(v, a))) found = true;
    }
  });
  return found;
}

/**
 * The first place the workspace builds class `cls` (`MultiHeadAttention(h, d_k, d_model)`), in this file (no path)
 * or, failing that, in a file importing it: for a finding that rests on how the class is built.
 */
export function firstConstruction(ev: Evaluator, cls: ClassInfo): { path?: string; source: string; start: number; end: number } | undefined {
  for (const f of constructionFiles(ev, cls)) {
    const call = constructionCalls(f.tree, cls.name)[0];
    if (call) return { ...(f.path !== undefined ? { path: f.path } : {}), source: f.tree.source, start: call.start, end: call.end };
  }
  return undefined;
}

/** The argument a construction passes for parameter `p` (its default when left out), as argumentText reads it. */
function argument(ev: Evaluator, args: readonly ConstructionArg[], p: ParamInfo): string | undefined {
  const kw = args.find((x) => x.keyword === p.name);
  if (kw) return kw.text;
  const positional = args.filter((x) => x.keyword === undefined);
  const pos = p.kind === 'positional' && p.index !== undefined ? positional[p.index - 1]?.text : undefined;
  if (pos !== undefined) return pos;
  return p.default ? argumentText(ev.tree, p.default) : undefined;
}

/**
 * Where a tree binds `name`, outside the range of `skip`: `assigned` counts the targets of assignments (`name = ...`,
 * `name: int = ...`, `a, name = ...`, `name += ...`, `(name := ...)`); `other` counts the other bindings: parameters
 * of functions and lambdas, `for name in` (statements and comprehensions), `as name` (imports, `with`, `except`). A
 * keyword argument `f(name=...)` binds nothing; nor does `from m import name` (the import the caller looks for).
 */
function bindingsOf(tree: PyTree, name: string, skip?: { readonly start: number; readonly end: number }): { assigned: number; other: number } {
  const out = { assigned: 0, other: 0 };
  const is = (n: PyNode | undefined): boolean => n?.type === 'identifier' && n.end - n.start === name.length && tree.source.startsWith(name, n.start);
  // The names a target binds: an identifier, or those of a tuple or list of targets (not an attribute's or a subscript's).
  // Each name a target binds, through tuple and list unpacking, parentheses and `*rest` (syntax/python.ts).
  const targets = (n: PyNode | undefined, into: 'assigned' | 'other'): void => {
    if (n) for (const t of targetNames(n)) if (is(t.node)) out[into]++;
  };
  walk(tree.root, (n) => {
    if (skip && n.start >= skip.start && n.end <= skip.end) return false;
    switch (n.type) {
      case 'assignment':
        if (childByField(n, 'right')) targets(childByField(n, 'left'), 'assigned');
        break;
      case 'augmented_assignment':
        targets(childByField(n, 'left'), 'assigned');
        break;
      case 'named_expression':
        targets(childByField(n, 'name'), 'assigned');
        break;
      case 'for_statement':
      case 'for_in_clause':
        targets(childByField(n, 'left'), 'other');
        break;
      case 'parameters':
      case 'lambda_parameters':
        for (const p of namedChildren(n)) {
          const id = is(p) ? p : (childByField(p, 'name') ?? namedChildren(p).find((c) => c.type === 'identifier'));
          if (is(id)) out.other++;
        }
        break;
      case 'aliased_import':
        if (is(childByField(n, 'alias'))) out.other++;
        break;
      case 'as_pattern': {
        const alias = childByField(n, 'alias');
        targets(alias?.type === 'as_pattern_target' ? namedChildren(alias)[0] : alias, 'other');
        break;
      }
      default:
    }
  });
  return out;
}

/**
 * A statement of the tree importing `name` itself, not renamed, from a module whose last dotted part is `module`
 * (`from model import Head, n_embd`, `from .config import (n_embd, ...)`).
 */
function importsName(tree: PyTree, module: string, name: string): boolean {
  let found = false;
  walk(tree.root, (n) => {
    if (found) return false;
    if (n.type !== 'import_from_statement') return;
    const from = childByField(n, 'module_name');
    const dotted = from?.type === 'relative_import' ? namedChildren(from).find((c) => c.type === 'dotted_name') : from;
    const last = dotted?.type === 'dotted_name' ? namedChildren(dotted).at(-1) : undefined;
    if (!last || text(tree, last) !== module) return false;
    found = n.children.some((c) => c.field === 'name' && c.type === 'dotted_name' && text(tree, c) === name);
    return false;
  });
  return found;
}

/**
 * Whether every construction of `cls` the workspace shows passes, for parameter `pb`, the width `name` that this
 * module fixes by one module-level assignment (`n_embedding = 32`, the projection `nn.Linear(n_embedding,
 * head_size)`): the same name (`Head(n_embedding)`: one head as wide as the embedding), or, when the constant is a
 * number, an equal number literal (`Head(32)`). The name counts only where it is that constant: in this file when no
 * function binds the name for itself (a parameter or a local); in an importing file when it imports the name and
 * binds it nowhere else (`from model import Head, n_embedding`).
 */
function constructionsPassConstant(ev: Evaluator, cls: ClassInfo, name: string, pb: ParamInfo): boolean {
  if (!/^[A-Za-z_]\w*$/.test(name)) return false;
  const defs = ev.sr.module.envAtEnd.get(name);
  const def = defs?.length === 1 ? defs[0] : undefined;
  if (!def || def.path.length > 0 || def.scope !== ev.sr.module) return false;
  // The module an importing file must take the name from: this one for a constant assigned here, the same module as
  // this file's for an imported one (`from config import n_embd`, not renamed).
  const fromModule =
    def.kind === 'assign' && def.value
      ? ev.link?.path.replace(/^.*[\\/]/, '').replace(/\.py$/, '')
      : def.kind === 'import' && def.importFrom && def.importFrom.moduleParts > 0 && def.target.type === 'dotted_name' && def.importPath?.at(-1) === name
        ? def.importPath.at(def.importFrom.moduleParts - 1)
        : undefined;
  if (def.kind !== 'import' && !(def.kind === 'assign' && def.value)) return false;
  const valueText = def.kind === 'assign' && def.value ? ev.text(def.value).replace(/\s+/g, '') : '';
  const number = /^\d+$/.test(valueText) ? Number(valueText) : undefined;
  // This file without the constant's own statement, parsed whole: a class with no attention site (the model that
  // builds the head) is left out of the analysed tree.
  const stmt = def.kind === 'assign' ? (def.target.parent ?? def.target) : undefined;
  const rebound = (tree: PyTree, skip?: PyNode): boolean => {
    const b = bindingsOf(tree, name, skip);
    return b.assigned > 0 || b.other > 0;
  };
  if (rebound(wholeTree(ev.tree), stmt)) return false;
  let found = 0;
  for (const [i, file] of constructionFiles(ev, cls).entries()) {
    const lists = constructionArgLists(file, cls.name);
    if (!lists) return false;
    const nameIsConstant = i === 0 || (!!fromModule && importsName(file.tree, fromModule, name) && !rebound(file.tree));
    for (const args of lists) {
      found++;
      const y = argument(ev, args, pb);
      if (y === undefined) return false;
      if (y === name && nameIsConstant) continue;
      if (number !== undefined && /^\d+$/.test(y) && Number(y) === number) continue;
      return false;
    }
  }
  return found > 0;
}

/**
 * A construction's argument as a number: a whole-number literal, or, in the class's own file (`own`), a name
 * bound once at module level, by no function, to such a literal or to another such name (`d_model = 512`,
 * `d_k = d_model`). Undefined when the value is not shown.
 */
function argumentNumber(ev: Evaluator, cls: ClassInfo, text: string, own: boolean, depth = 0): number | undefined {
  if (/^\d+$/.test(text)) return Number(text);
  if (!own || depth > 3 || !/^[A-Za-z_]\w*$/.test(text)) return undefined;
  const defs = ev.sr.module.envAtEnd.get(text);
  const def = defs?.length === 1 ? defs[0] : undefined;
  if (!def || def.kind !== 'assign' || !def.value || def.path.length > 0 || def.scope !== ev.sr.module) return undefined;
  // Bound once in the file without the class itself (its own constructor's parameters bear the same names).
  const b = bindingsOf(wholeTree(ev.tree), text, cls.node);
  if (b.assigned !== 1 || b.other > 0) return undefined;
  return argumentNumber(ev, cls, ev.text(def.value).replace(/\s+/g, ''), own, depth + 1);
}

/**
 * Whether every construction of `cls` the workspace shows (this file and the files importing it) passes the same
 * value for its `__init__` parameters `a` and `b` (the same expression, or equal numbers as argumentNumber reads
 * them) and a number above 1 for its one head-count parameter: `MultiHeadAttention(h, d_k, d_model)` with `h = 8`, `d_k = 512`,
 * `d_model = 512` at module level. False when no construction is found or any does not show all three.
 */
export function constructionsPassSameWithHeads(ev: Evaluator, cls: ClassInfo | undefined, a: string | undefined, b: string | undefined): boolean {
  if (!cls || !a || !b || a === b || !/^\w+$/.test(cls.name)) return false;
  const init = cls.methods.get('__init__');
  const plain = (p: ParamInfo | undefined): p is ParamInfo => !!p && (p.kind === 'positional' || p.kind === 'keyword-only');
  // The one head-count parameter of the constructor (`h`, `num_heads`).
  const heads = init?.params.filter((p) => isHeadCountName(p.name)) ?? [];
  const [pa, pb] = [a, b].map((n) => init?.params.find((p) => p.name === n));
  const ph = heads.length === 1 ? heads[0] : undefined;
  if (!plain(pa) || !plain(pb) || !plain(ph)) return false;
  let found = 0;
  for (const [i, file] of constructionFiles(ev, cls).entries()) {
    const lists = constructionArgLists(file, cls.name);
    if (!lists) return false;
    for (const args of lists) {
      found++;
      const [x, y, h] = [pa, pb, ph].map((p) => argument(ev, args, p));
      if (x === undefined || y === undefined || h === undefined) return false;
      const hn = argumentNumber(ev, cls, h, i === 0);
      if (hn === undefined || hn <= 1) return false;
      if (x === y) continue;
      const nx = argumentNumber(ev, cls, x, i === 0);
      if (nx === undefined || nx !== argumentNumber(ev, cls, y, i === 0)) return false;
    }
  }
  return found > 0;
}

/** `node` is a parameter of `scope`, read as it came in (`scores` of `scores.masked_fill(...)` in `def fill(scores, mask)`). */
function fillsParameter(ev: Evaluator, node: PyNode | undefined, scope: Scope): boolean {
  const u = node ? unparen(node) : undefined;
  if (u?.type !== 'identifier') return false;
  const name = ev.text(u);
  return scope.params.some((p) => p.name === name) && (ev.resolve(u, name) ?? []).every((d) => d.kind === 'param');
}

/**
 * Scores an importing file passes (`v`, as that file knows them; `p`, as they cross): what that file does with them
 * after the call, which this file cannot see, goes with them. A softmax there that normalises them (or what the callee
 * hands back, still those scores: cross-file.ts) and a NaN guard there on the weights (`nan_to_num`, `where(isnan(w),
 * 0, w)`) are found by where the scores were formed in that file.
 */
function afterTheCall(importer: Evaluator, at: Ctx, v: AValue, p: AValue, path: string): AValue {
  const formed = v.attn?.stage === 'scores' ? v.attn.formedAt : undefined;
  if (!formed || !p.attn) return p;
  // The function making the call, evaluated whole in that context (a module's analysis is read on demand).
  importer.evaluateFunction(at);
  const src = importer.tree.source;
  const softmax = importer.facts.softmax.find((s) => s.input.attn?.formedAt === formed);
  let guard: AValue | undefined;
  for (const guards of importer.facts.nanGuards.values()) guard ??= guards.find((g) => g.attn?.formedAt === formed);
  if (!softmax && !guard) return p;
  return {
    ...p,
    attn: {
      ...p.attn,
      ...(softmax ? { softmaxIn: { path, line: lineOf(src, softmax.node.start) } } : {}),
      ...(guard ? { nanGuardIn: { path, line: lineOf(src, formed.start) } } : {}),
    },
  };
}

/** A number written out as a construction's argument: `-1e4`, `0.5`, `float("-inf")`, `-float('inf')`. */
function literalNumber(text: string): number | undefined {
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  const inf = /^(-?)float\((["'])(-?)inf\2\)$/.exec(text);
  if (inf) return (inf[1] === '-') !== (inf[3] === '-') ? -Infinity : Infinity;
  return undefined;
}

/**
 * What the constructions of a config class with no `__init__` of its own (a dataclass, a NamedTuple) that the workspace
 * shows (calls `Cls(...)` in this file and in the files importing it) pass for its field `field` (index `index` in
 * declaration order): `'default'` when every one leaves it out, the number when every one passes the same number written
 * out (`Cfg(neg=-1e4)`), undefined when none is found, null when they differ or one passes a value the text does not
 * show (`Cfg(neg=args.neg)`, a value set at run time) or unpacks its arguments (`Cfg(**kw)`).
 */
export function constructedField(ev: Evaluator, cls: ClassInfo, field: string, index: number): 'default' | number | null | undefined {
  if (!/^\w+$/.test(cls.name)) return undefined;
  let found = 0;
  let out: 'default' | number | undefined;
  for (const file of constructionFiles(ev, cls)) {
    const lists = constructionArgLists(file, cls.name);
    if (!lists) return null;
    for (const args of lists) {
      found++;
      const kw = args.find((x) => x.keyword === field);
      const text = kw ? kw.text : args.filter((x) => x.keyword === undefined)[index]?.text;
      const value = text === undefined ? 'default' : literalNumber(text);
      if (value === undefined || (out !== undefined && out !== value)) return null;
      out = value;
    }
  }
  return found > 0 ? out : undefined;
}

/**
 * What every construction of `cls` the workspace shows (this file and the files importing it) passes for its
 * `__init__` parameter `param` (`STAttBlock`'s `SpatialAttention(K, d, bn_decay)`: `d`), each with the source of its
 * file and that file's evaluator (its module-level constants). Undefined when no construction is found, or one unpacks
 * its arguments or leaves the parameter out.
 */
export function constructionArguments(ev: Evaluator, cls: ClassInfo, param: string): { text: string; source: string; ev: Evaluator }[] | undefined {
  const p = cls.methods.get('__init__')?.params.find((x) => x.name === param);
  if (!p || (p.kind !== 'positional' && p.kind !== 'keyword-only') || !/^\w+$/.test(cls.name)) return undefined;
  const out: { text: string; source: string; ev: Evaluator }[] = [];
  for (const file of constructionFiles(ev, cls)) {
    const lists = constructionArgLists(file, cls.name);
    if (!lists) return undefined;
    for (const args of lists) {
      const text = argument(ev, args, p);
      if (text === undefined) return undefined;
      out.push({ text, source: file.tree.source, ev: file.ev });
    }
  }
  return out.length > 0 ? out : undefined;
}
