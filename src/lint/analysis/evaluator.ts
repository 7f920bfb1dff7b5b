// Pass 2: abstract evaluation. Computes an AValue for every expression the rules care about, following
// variables to their reaching definitions, attributes of `self` to `__init__`, calls of functions and
// modules defined in the same file into their bodies (one evaluation context per call site, a few levels
// deep), and records the sites (softmax, matmul, masks, fills, scales, SDPA) that rules read.
//
// The evaluator never throws on odd code: anything it does not understand evaluates to UNKNOWN, and
// UNKNOWN makes every rule stay silent.
import { balancedFrom } from './name-evidence';
import {
  attributeAcrossFiles,
  callAcrossFiles,
  importedValue,
  starImportedName,
  isWorkspaceModule,
  workspaceAttribute,
  type ForeignEvidence,
} from './cross-file';
import { FileFacts } from './file-facts';
import { msg, type MessageArg } from '../message';
import { PHRASES } from './phrases';
import { causalBoundOf } from './masks';
import { importerPrecision, importingChain, packageTrainerPrecision } from './importers';
import { callsFromImporters, constructedField, functionsCallersDecide, type ImporterCall } from './importer-calls';
import { latestDefinition, withOrigin } from './origins';
import { sourcePrecision, type PrecisionEvidence } from './precision';
import { PREFILTERS } from './prefilters';
import { LineIndex } from '../syntax/positions';
import { boundCount } from './bound-counts';
import { callArgs, dottedName, intLiteral, numberLiteral, operatorText, stringLiteral, type CallArgs } from '../syntax/python';
import { childByField, enclosingFunction, firstNamedChild, namedChildren, text, unparen, walk as walkTree, type PyNode, type PyTree } from '../syntax/tree';
import { canonicalQualifiedName, EMBEDDING_LAYERS, MASK_LAYERS } from './apis';
import { maskFromDoc, namedShapes, paramDoc, trailingCommentShape } from './comments';
import { noneDefaultFill, splitByNoneGuards } from './none-guards';
import { boolLiteral, boolOp, armDeadInCtx, conditionalBranch, liveInCtx, noneComparison, noneTest, notValue, overwrittenInCtx, undecided } from './flags';
import { Facts, type Ctx } from './facts';
import { emptyArgs, isStarred, rootName } from './call';
import { dimOfName, isCacheName, isConfigName, isHeadCountName, isScaleName, isTokenIdsName, maskOfName, roleOfName } from './names';
import type { ClassInfo, Def, Scope, ScopeResult } from './scopes';
import * as opsImpl from './ops';
import { invertsParam, polarityByFill } from './mask-ops';
import { callOperator, evalAttributeOf, evalBinary, evalComparison, evalSubscript, evalUnary, isModuleValue, setItemFill, type Call } from './ops';
import { portable } from './portable';
import { valueKey } from './summaries';
import {
  axesOf,
  join,
  joinAll,
  NONE,
  number,
  tensor,
  UNKNOWN,
  withRank,
  mappedSlice,
  type AValue,
  type AxisInfo,
  type FunctionRef,
  type MaskInfo,
  type ObjectInfo,
} from './values';
import { viewBase } from './scope-assignments';
import { decoratorsOf } from './scope-params';
import type { ModuleLink } from './workspace';

const MAX_CALL_DEPTH = 3;
const MAX_EVAL_DEPTH = 250;
const MAX_CONTEXTS_PER_SCOPE = 12;
const MAX_CONTEXTS = 400;
/** A comprehension over more elements than this is evaluated once, with the variable as any element. */
const MAX_COMPREHENSION_ELEMENTS = 8;
/** Summaries one imported module keeps (per function and abstract arguments). */
const MAX_SUMMARIES = 400;
/** Importing files read for attributes they set on this file's objects (`model.cache = KVCache(...)`). */
const MAX_ATTRIBUTE_IMPORTERS = 8;
/** ...directly or through one file between (generate.py → model.py → attention.py). */
const ATTRIBUTE_IMPORT_HOPS = 2;
/**
 * Methods of torch.nn.Module that return the module itself (`model = Net().cuda()`, `.to(device).eval()`): the
 * documentation says "Returns: self" for each. Not `zero_grad()` (None). Precision evidence of `.half()` is read
 * from the file's text (precision.ts), whatever the receiver.
 */
const RETURNS_THE_MODULE = new Set([
  'apply',
  'bfloat16',
  'cpu',
  'cuda',
  'double',
  'eval',
  'float',
  'half',
  'ipu',
  'requires_grad_',
  'share_memory',
  'to',
  'to_empty',
  'train',
  'type',
  'xpu',
]);
/** `<obj>.attr = ...` (not `==`): an attribute assigned on an object. */
const OUTSIDE_ASSIGNMENT = /([\w.\])]+)\.([A-Za-z_]\w*)\s*=(?!=)/g;

/** Where a file sets an attribute on an object not `self`: the statement's line (UTF-16 offsets into `source`). */
interface OutsideAssignment {
  readonly path: string;
  readonly source: string;
  readonly start: number;
  readonly end: number;
}

/**
 * The attributes a file assigns on objects other than `self`, each with its first such assignment; a text fact
 * of an importing file (workspace.textFacts: read once per version of the file, not once per lint).
 */
function outsideAssignments(source: string): ReadonlyMap<string, Omit<OutsideAssignment, 'path'>> {
  const out = new Map<string, Omit<OutsideAssignment, 'path'>>();
  for (const m of source.matchAll(OUTSIDE_ASSIGNMENT)) {
    if (m[1] === 'self' || !m[2] || out.has(m[2])) continue;
    const lineEnd = source.indexOf('\n', m.index);
    out.set(m[2], { source, start: m.index, end: lineEnd < 0 ? source.length : lineEnd });
  }
  return out;
}
/** Functions whose sites point at their call site (a hand-written softmax whose axis is a parameter) keep one context per call site. */
const CALL_SITE_TEXT = /\.sum\(/;

/** Memo marker of a value being computed (a cycle reads it as unknown). */
const IN_PROGRESS: AValue = Object.freeze({ kind: 'unknown' });
/**
 * What a cycle reads (a loop-carried value read while it is being computed): unknown, and an unknown path,
 * so that rules judging the operations on the way to the scores (a missing scale) stay silent.
 */
function mapOf<V>(outer: Map<number, Map<number, V>>, key: number): Map<number, V> {
  let m = outer.get(key);
  if (!m) {
    m = new Map();
    outer.set(key, m);
  }
  return m;
}

const CYCLIC: AValue = Object.freeze({ kind: 'unknown', ops: Object.freeze([Object.freeze([Object.freeze({ kind: 'opaque' as const })])]) });

/**
 * A name read inside the loop that redefines it from itself (`for ...: mask = torch.any(mask.view(b, -1, 2), -1)`):
 * one of its definitions is still being evaluated (CYCLIC). The mask the other definitions agree on is what the
 * loop starts from, and the loop's own definition is judged from it; the join with the loop's result (after the
 * loop) keeps the meaning only where both agree (`mask = ~mask` in a loop leaves it unknown). Only the mask is
 * kept: every other fact of the value stays as pessimistic as the cycle makes it.
 */
function loopCarriedMask(v: AValue, values: readonly AValue[]): AValue {
  if (v.mask || (v.kind !== 'tensor' && v.kind !== 'unknown') || !values.includes(CYCLIC)) return v;
  const rest = values.filter((x) => x !== CYCLIC);
  const start = rest.length > 0 ? joinAll(rest) : undefined;
  if (start?.kind !== 'tensor' || !start.mask) return v;
  return { ...v, kind: 'tensor', mask: start.mask };
}

/** Names that resolve without an import in notebooks and snippets. */
const DEFAULT_ALIASES: Readonly<Record<string, string>> = {
  torch: 'torch',
  F: 'torch.nn.functional',
  nn: 'torch.nn',
  np: 'numpy',
  numpy: 'numpy',
  jnp: 'jax.numpy',
  jax: 'jax',
  tf: 'tensorflow',
  math: 'math',
  einops: 'einops',
  rearrange: 'einops.rearrange',
  repeat: 'einops.repeat',
  keras: 'keras',
  scipy: 'scipy',
};

/** Text without which a function body records no site (built from the API table). */
const SITE_TEXT = PREFILTERS.activeFunction;

/** `name(` / `self.name(`: a call of a function or method by name (group 1: `self.`, group 2: the name). */
const CALLED_NAME = /(self\.)?\b([A-Za-z_]\w*)\s*\(/g;

/**
 * A function named as a value, to be called through another name: `attn_fn = attention` or one arm of
 * `attn_fn = chunked_attention if flag else attention` (group 1: the name).
 */
/** `name = value` on one line (group 1: the name, without `self.`; group 2: the value). */
const FUNCTION_ALIAS = /(?:self\.)?\b([A-Za-z_]\w*)[ \t]*=[ \t]*([^=\n#][^\n#]*?)[ \t]*(?=#|\r?\n|$)/gm;

/** A function mapped with `jax.vmap(f, ...)` (also of `functools.partial(f, ...)`): calling the result calls it (group 1). */
const VMAPPED_NAME = /\bvmap\s*\(\s*(?:(?:functools\.)?partial\s*\(\s*)?([A-Za-z_]\w*)/g;

/** Names of functions `t` maps with jax.vmap (their calls are calls of those functions). */
function vmappedNames(t: string, into: { push(n: string): unknown } | Set<string>): void {
  if (!t.includes('vmap')) return;
  VMAPPED_NAME.lastIndex = 0;
  for (let m = VMAPPED_NAME.exec(t); m; m = VMAPPED_NAME.exec(t)) {
    const n = m[1] ?? '';
    if (into instanceof Set) into.add(n);
    else into.push(n);
  }
}

const FUNCTION_VALUE_NAME = /(?:[^=!<>]=|\belse\b)[ \t]*([A-Za-z_]\w*)[ \t]*(?=\bif\b|#|\r?\n|$)/gm;

/** Text of statements evaluated eagerly (see Evaluator.isRoot; built from the API table). */
const ROOT_TEXT = PREFILTERS.rootStatement;

/** What a statement's text says about evaluating it eagerly; the names it calls are judged per file (activeNames). */
interface RootTextFacts {
  /** The text can hold a site or a fact the rules read (ROOT_TEXT). */
  readonly rootText: boolean;
  /** It calls a method of self. */
  readonly callsSelf: boolean;
  /** The names it calls (`name(`), when neither of the above. */
  readonly called: readonly string[];
}

function rootTextFacts(t: string): RootTextFacts {
  if (ROOT_TEXT.test(t)) return { rootText: true, callsSelf: false, called: [] };
  const called: string[] = [];
  CALLED_NAME.lastIndex = 0;
  for (let m = CALLED_NAME.exec(t); m; m = CALLED_NAME.exec(t)) {
    if (m[1] !== undefined) return { rootText: false, callsSelf: true, called: [] };
    called.push(m[2] ?? ''); // the name group of a match is there
  }
  vmappedNames(t, called);
  return { rootText: false, callsSelf: false, called };
}

/**
 * Root facts by statement node and by definition target, across lints: a block whose text did not change keeps
 * its nodes from one parse to the next (parser.ts), and the text they span with them.
 */
const ROOT_FACTS_OF_NODE = new WeakMap<PyNode, RootTextFacts>();
const ROOT_FACTS_OF_DEF = new WeakMap<PyNode, { value: PyNode; facts: RootTextFacts }>();

/** Definitions whose right-hand side is evaluated eagerly when it is a root (parameters and imports are read on demand). */
const EAGER_DEFS: ReadonlySet<Def['kind']> = new Set(['assign', 'aug', 'for', 'with', 'inplace', 'setitem', 'walrus', 'buffer', 'comp']);

/**
 * Arguments by call node, across lints: a block whose text did not change keeps its nodes from one parse to the
 * next (parser.ts), and what they are (nodes, keyword names: the block's own text) with them. Never mutated.
 */
const ARGS_OF_CALL = new WeakMap<PyNode, CallArgs>();

/** A scale folded into a layer's weights in place: the factor, its node, and whether the weights are divided by it. */
interface FoldedScale {
  readonly factor: AValue;
  readonly node: PyNode;
  readonly divide: boolean;
}

const BUILTINS = new Set([
  'iter',
  'next',
  'float',
  'int',
  'len',
  'map',
  'zip',
  'list',
  'tuple',
  'sum',
  'max',
  'min',
  'abs',
  'range',
  'isinstance',
  'getattr',
  'super',
  'print',
  'enumerate',
  'dict',
  'bool',
  'str',
  'round',
  'pow',
  'reversed',
  'sorted',
  'any',
  'all',
  'hasattr',
  'type',
]);

/** Whether a mask's description goes back to a tokenizer's attention_mask (its phrase, or one nested in it). */
function readsTokenizerMask(why: MessageArg): boolean {
  return typeof why === 'object' && (why.template === PHRASES.tokenizerMask || why.args.some(readsTokenizerMask));
}

/** A step hook of a training loop and the hook of its class whose DataLoader feeds it (PyTorch Lightning's). */
const STEP_HOOK_LOADERS: Readonly<Record<string, string>> = {
  training_step: 'train_dataloader',
  validation_step: 'val_dataloader',
  test_step: 'test_dataloader',
  predict_step: 'predict_dataloader',
};

export class Evaluator {
  readonly facts = new Facts();
  readonly lines: LineIndex;
  /** See `precision`: computed on first use. */
  private precisionKnown: PrecisionEvidence | undefined;
  /** The file imports numpy/jax but not torch: `x.transpose(a, b)` is a permutation. */
  readonly numpyStyleTranspose: boolean;
  /**
   * The file mentions muP, where 1/d attention scaling is deliberate: the word, or a name made of it
   * (`use_mup`, `self.is_using_mup`, `mup_config`; letters or digits around it make another word).
   */
  readonly mup: boolean;

  private nextCtxId = 0;
  private readonly defaultCtxs = new Map<number, Ctx>();
  private readonly callCtxs = new Map<string, Ctx>();
  private readonly ctxCount = new Map<number, number>();
  private readonly memo = new Map<number, Map<number, AValue>>();
  private readonly defMemo = new Map<number, Map<number, AValue>>();
  /** Per parameter def: the convention its own function's uses state against a name (conventionOfUses), null when none. */
  private readonly usedConvention = new Map<number, MaskInfo | null>();
  private readonly embeddedParams = new Map<number, boolean>();
  /** Names this file assigns an embedding table to (`self.embed = nn.Embedding(...)` gives `embed`). */
  private embeddingNames: ReadonlySet<string> | undefined;
  private readonly pending: Ctx[] = [];
  private readonly bodiesDone = new Set<number>();
  private readonly commentShapeCache = new Map<number, { byName: Map<string, AxisInfo[]>; block: string }>();
  private trailingShapes: Map<number, AxisInfo[]> | undefined;
  /** Names used as `X // n_head` when splitting heads (model widths), per function scope. */
  readonly modelDimTexts = new Set<string>();
  /** Whole-file facts rules ask at every site (imports, T5 family, definitions by name), computed once. */
  readonly file: FileFacts;

  /** Evidence from other workspace files that this file's values carry (see cross-file.ts). */
  readonly foreignEvidence: ForeignEvidence[] = [];

  constructor(
    readonly tree: PyTree,
    readonly sr: ScopeResult,
    /** The workspace this file is part of, and its path there (absent: the file is analysed alone). */
    readonly link?: ModuleLink,
  ) {
    this.lines = new LineIndex(tree.source);
    this.file = new FileFacts(tree, sr);
    this.numpyStyleTranspose = /^[ \t]*(import|from)[ \t]+(numpy|jax)/m.test(tree.source) && !/^[ \t]*(import|from)[ \t]+torch/m.test(tree.source);
    this.mup = /(?<![A-Za-z0-9])mu[pP](?![A-Za-z0-9])|MuReadout|mu_param|attn_mult/.test(tree.source);
  }

  /**
   * File-level evidence that the code runs in float16 or bfloat16 (.half(), torch.float16, autocast, fp16/bf16
   * flags): which half precision, since float16 and bfloat16 break different fills. Computed on first use (only a
   * fill below a half-precision range asks), since in a workspace it walks the files importing this one; that walk
   * notes them as dependencies of the lint, and a place found there is foreign evidence, linked to the findings of
   * the rule that asked (engine.ts links a rule's reports after its visit).
   */
  get precision(): PrecisionEvidence {
    if (this.precisionKnown) return this.precisionKnown;
    const own = sourcePrecision(this.tree.source);
    // No evidence in the file's code: a workspace file that imports it may run it in half precision (a trainer).
    // That code outranks this file's comments and docstrings, which only corroborate it.
    const ownCode = (own.fp16 || own.bf16) && !own.fromProse;
    const imported = !ownCode && this.link?.importers ? importerPrecision(this.link, this.tree.source) : undefined;
    // No importing file decides it either way: the training loop of the file's package may run it (a trainer beside it
    // that runs the model it is given, importing none).
    const silent = !own.fp16 && !own.bf16;
    const packaged = silent && !imported && this.link?.importers ? packageTrainerPrecision(this.link, this.tree.source) : undefined;
    const known = imported ?? packaged ?? own;
    this.precisionKnown = known;
    if (known.from) {
      const message = known.from.package
        ? known.fp16
          ? PHRASES.halfPrecisionSetInPackage
          : PHRASES.bfloat16SetInPackage
        : known.from.project
          ? known.fp16
            ? PHRASES.halfPrecisionSetInProject
            : PHRASES.bfloat16SetInProject
          : known.fp16
            ? PHRASES.halfPrecisionSetInImporter
            : PHRASES.bfloat16SetInImporter;
      this.foreignEvidence.push({ path: known.from.path, line: known.from.line, column: known.from.column, message: msg(message) });
    }
    return known;
  }

  // ---------------------------------------------------------------------------------------------- driver

  /** Evaluates every scope (default contexts), then every call context discovered on the way. */
  run(deadline?: number): void {
    const active = this.activeFunctions();
    this.activeMemo = active;
    for (const scope of this.sr.scopes) {
      if (scope.kind === 'comprehension' || scope.kind === 'lambda') continue;
      if (scope.node.skipped) continue;
      if (scope.kind === 'function' && !active.has(scope)) continue;
      this.evaluateBody(this.defaultCtx(scope));
      if (deadline !== undefined && Date.now() > deadline) return;
    }
    while (this.pending.length > 0) {
      const ctx = this.pending.shift()!;
      this.evaluateBody(ctx);
      if (deadline !== undefined && Date.now() > deadline) return;
    }
    // Masks whose meaning only the callers know: judged again as the files importing this one call them.
    if (this.link?.importers) {
      const fns = functionsCallersDecide(this);
      if (fns.length > 0) for (const c of callsFromImporters(this, fns)) this.evaluateCalledWith(c);
      while (this.pending.length > 0) this.evaluateBody(this.pending.shift()!);
    }
  }

  /** Evaluates a function's body as another file calls it (importer-calls.ts), recording its sites in that context. */
  private evaluateCalledWith(c: ImporterCall): void {
    if (c.scope.node.skipped) return;
    // Every argument of the call is known (importer-calls.ts leaves out `*args` and unknown `**kwargs`): a parameter
    // it leaves out takes its default, as in a call of this file.
    const ctx: Ctx = { ...this.importerContext(c), defaultsHold: true };
    this.evaluateBody(ctx);
    this.returnValue(c.scope, ctx);
  }

  /** The context of a function of this file as another file calls it (importer-calls.ts). */
  importerContext(c: ImporterCall): Ctx {
    return {
      id: this.nextCtxId++,
      scope: c.scope,
      bindings: this.bindArguments(c.scope, c.positional, c.keywords, c.self),
      depth: 1,
      ...(c.at ? { calledAt: c.at } : {}),
    };
  }

  /**
   * Functions worth evaluating on their own: those whose text can hold a site, and those that call them
   * (callers create the call contexts the sites are judged in). Others are evaluated on demand only
   * (an __init__ whose attributes a forward reads, a helper a forward calls).
   */
  private activeFunctions(): Set<Scope> {
    const fns = this.sr.scopes.filter((s) => s.kind === 'function' && !s.node.skipped);
    const text = new Map(fns.map((f) => [f, this.tree.source.slice(f.node.start, f.node.end)]));
    const active = new Set(fns.filter((f) => SITE_TEXT.test(text.get(f)!)));
    // Names each function calls (`name(` and `self.name(`), read once.
    const called = new Map<Scope, Set<string>>();
    const selfCalls = new Set<Scope>();
    for (const f of fns) {
      if (active.has(f)) continue;
      const t = text.get(f)!;
      const names = new Set<string>();
      CALLED_NAME.lastIndex = 0;
      for (let m = CALLED_NAME.exec(t); m; m = CALLED_NAME.exec(t)) {
        names.add(m[2] ?? '');
        if (m[1]) selfCalls.add(f);
      }
      FUNCTION_VALUE_NAME.lastIndex = 0;
      for (let m = FUNCTION_VALUE_NAME.exec(t); m; m = FUNCTION_VALUE_NAME.exec(t)) names.add(m[1] ?? '');
      vmappedNames(t, names);
      called.set(f, names);
    }
    // Callers of active functions become active (they create the contexts sites are judged in).
    for (let round = 0; round < 3; round++) {
      const names = new Set([...active].map((f) => f.name).filter((n) => n !== '__init__'));
      // A module whose forward holds a site is called through its instances (`layer = Attention(d); layer(x, mask)`):
      // code that builds the module calls it.
      for (const f of active) if ((f.name === 'forward' || f.name === '__call__') && f.parent?.kind === 'class') names.add(f.parent.name);
      // ... and so does code that builds a subclass of it (`class CausalAttention(Attention)`), whose instances run it.
      for (const name of this.subclassesNamed(names)) names.add(name);
      let added = false;
      for (const f of fns) {
        if (active.has(f)) continue;
        if (selfCalls.has(f) || [...called.get(f)!].some((n) => names.has(n))) {
          active.add(f);
          added = true;
        }
      }
      if (!added) break;
    }
    this.activeNames = new Set([...active].map((f) => f.name));
    // A name bound to such a function (`attn_fn = chunked_attention if flag else attention`) or to a method chosen by
    // name (`pairwise_func = getattr(self, self.mode)`) calls it: that name is active too.
    for (const f of active) {
      const t = text.get(f)!;
      FUNCTION_ALIAS.lastIndex = 0;
      for (let m = FUNCTION_ALIAS.exec(t); m; m = FUNCTION_ALIAS.exec(t)) {
        const [, target, value] = m;
        if (!target || !value) continue;
        const chosen = /^getattr\(\s*self\s*,/.test(value) || value.split(/\s+(?:if|else)\s+/).some((n) => this.activeNames.has(n.replace(/^self\./, '')));
        if (chosen) this.activeNames.add(target);
      }
    }
    // Calls of such a module go through the names its instances are bound to (`layer = Attention(d)`,
    // `self.attn = Attention(d)`): those names are active too.
    const modules = [...active].flatMap((f) => ((f.name === 'forward' || f.name === '__call__') && f.parent?.kind === 'class' ? [f.parent.name] : []));
    const moduleNames = [...modules, ...this.subclassesNamed(new Set(modules))];
    if (moduleNames.length > 0) {
      const bound = new RegExp(`(?:self\\.)?\\b(\\w+)\\s*=\\s*(?:${moduleNames.map((n) => n.replace(/\W/g, '')).join('|')})\\s*\\(`, 'g');
      for (const f of active) {
        const t = text.get(f)!;
        bound.lastIndex = 0;
        for (let m = bound.exec(t); m; m = bound.exec(t)) if (m[1]) this.activeNames.add(m[1]);
      }
      for (const n of moduleNames) this.activeNames.add(n);
      this.activateLayerLoops(fns, text, active, moduleNames);
    }
    return active;
  }

  /**
   * A loop over a list of such modules held by the object (`self.layers = nn.ModuleList([Block(d) for ...])`, then
   * `for layer, layer_past in zip(self.layers, past_key_values): x = layer(x, layer_past)`) calls the module through
   * its loop variable: the function is active and the variable's calls are roots.
   */
  private activateLayerLoops(fns: readonly Scope[], text: ReadonlyMap<Scope, string>, active: Set<Scope>, moduleNames: readonly string[]): void {
    const ctor = moduleNames.map((n) => n.replace(/\W/g, '')).join('|');
    const listAttr = new RegExp(`self\\.(\\w+)\\s*=\\s*(?:nn\\.ModuleList\\s*\\(\\s*)?\\[\\s*(?:${ctor})\\s*\\(`, 'g');
    // Module lists holding such modules (`self.layers = nn.ModuleList([nn.ModuleList([norm, Attention(d), ff]) ...])`,
    // or filled by `self.layers.append(...)`), unpacked by the loop that runs them (`for norm, attn, ff in self.layers`).
    const nestedAttr = /self\.(\w+)(?:\s*=\s*(?:nn\.)?ModuleList\s*\(|\.append\s*\()/g;
    const ctorCall = new RegExp(`\\b(?:${ctor})\\s*\\(`);
    const attrs = new Set<string>();
    for (const f of fns) {
      const t = text.get(f)!;
      listAttr.lastIndex = 0;
      for (let m = listAttr.exec(t); m; m = listAttr.exec(t)) if (m[1]) attrs.add(m[1]);
      nestedAttr.lastIndex = 0;
      for (let m = nestedAttr.exec(t); m; m = nestedAttr.exec(t)) if (m[1] && ctorCall.test(balancedFrom(t, m.index + m[0].length))) attrs.add(m[1]);
    }
    if (attrs.size === 0) return;
    const loop = new RegExp(`for\\s+\\(?\\s*(\\w+(?:\\s*,\\s*\\w+)*)\\s*,?\\s*\\)?\\s+in\\s+(?:zip\\s*\\(\\s*)?self\\.(?:${[...attrs].join('|')})\\b`, 'g');
    for (const f of fns) {
      const t = text.get(f)!;
      loop.lastIndex = 0;
      for (let m = loop.exec(t); m; m = loop.exec(t)) {
        if (!m[1]) continue;
        for (const name of m[1].split(',')) this.activeNames.add(name.trim());
        active.add(f);
      }
    }
  }

  /** This file's classes (by name) that extend one of `names`, directly or through another of this file's classes. */
  private subclassesNamed(names: ReadonlySet<string>): string[] {
    const out: string[] = [];
    const known = new Set(names);
    for (let round = 0; round < 3; round++) {
      let added = false;
      for (const cls of this.sr.classes) {
        if (known.has(cls.name) || !cls.bases.some((b) => known.has(text(this.tree, b)))) continue;
        known.add(cls.name);
        out.push(cls.name);
        added = true;
      }
      if (!added) break;
    }
    return out;
  }

  /** Names of this file's functions that can hold a site (set by activeFunctions). */
  private activeNames = new Set<string>();

  /**
   * Statements evaluated eagerly: those whose text can hold a site or a fact the rules read (a call of a
   * function that holds one, a head split `//`, a renormalising `.sum(`, a NaN guard, a scale). The rest is
   * evaluated on demand, when a site's operands lead to it.
   */
  private isRoot(node: PyNode): boolean {
    let facts = ROOT_FACTS_OF_NODE.get(node);
    if (!facts) {
      facts = rootTextFacts(this.tree.source.slice(node.start, node.end));
      ROOT_FACTS_OF_NODE.set(node, facts);
    }
    return this.isRootFacts(facts);
  }

  /** A definition is a root when its target or its value is (`scaled = scores / dk` names a scaling). */
  private isRootDef(d: Def): boolean {
    const v = d.value!;
    let entry = ROOT_FACTS_OF_DEF.get(d.target);
    if (entry?.value !== v) {
      entry = { value: v, facts: rootTextFacts(this.tree.source.slice(Math.min(d.target.start, v.start), Math.max(d.target.end, v.end))) };
      ROOT_FACTS_OF_DEF.set(d.target, entry);
    }
    return this.isRootFacts(entry.facts);
  }

  private isRootFacts(f: RootTextFacts): boolean {
    if (f.rootText || f.callsSelf) return true;
    for (const name of f.called) if (this.activeNames.has(name)) return true;
    return false;
  }

  /** Evaluates a function's body in `ctx` (its sites recorded), once: another file asks what it does after a call. */
  evaluateFunction(ctx: Ctx): void {
    this.evaluateBody(ctx);
  }

  private evaluateBody(ctx: Ctx): void {
    if (this.bodiesDone.has(ctx.id)) return;
    this.bodiesDone.add(ctx.id);
    for (const d of this.sr.defsOfScope.get(ctx.scope.id) ?? []) if (d.value && EAGER_DEFS.has(d.kind) && this.isRootDef(d)) this.evalDef(d, ctx);
    for (const e of this.sr.exprsOfScope.get(ctx.scope.id) ?? []) if (this.isRoot(e)) this.eval(e, ctx);
    // Lambdas and comprehensions inside evaluate with the function's context.
    for (const child of ctx.scope.children) {
      if (child.kind !== 'comprehension') continue;
      for (const d of this.sr.defsOfScope.get(child.id) ?? []) if (d.value && this.isRootDef(d)) this.evalDef(d, ctx);
    }
  }

  /**
   * Whether the file's own code stores, under the key `attention_mask` (a dict literal's entry, `dict(attention_mask=...)`
   * or `batch["attention_mask"] = ...`), a mask its construction shows True at the positions to ignore (a collate
   * function's `"attention_mask": ids == pad_id`). Then the key does not follow the tokenizers' convention in this file,
   * and a batch of unknown origin read by that key (`batch["attention_mask"]` in a step whose batch the analysis does not
   * trace) is no evidence of a keep mask. Computed once per file.
   */
  attentionMaskKeyInverted(): boolean {
    if (this.attentionMaskKeyInvertedMemo !== undefined) return this.attentionMaskKeyInvertedMemo;
    // Re-entry while the stores are evaluated reads the key as the tokenizers' (the answer so far).
    this.attentionMaskKeyInvertedMemo = false;
    const values: PyNode[] = [];
    walkTree(this.tree.root, (n) => {
      if (n.type === 'pair' && stringLiteral(this.tree, childByField(n, 'key')) === 'attention_mask') {
        const v = childByField(n, 'value');
        if (v) values.push(v);
      } else if (n.type === 'keyword_argument' && text(this.tree, childByField(n, 'name') ?? n) === 'attention_mask') {
        const call = n.parent?.parent;
        const fn = call?.type === 'call' ? childByField(call, 'function') : undefined;
        const v = childByField(n, 'value');
        if (fn && v && text(this.tree, fn) === 'dict') values.push(v);
      } else if (n.type === 'assignment') {
        const left = childByField(n, 'left');
        const right = childByField(n, 'right');
        const sub = left?.type === 'subscript' ? childByField(left, 'subscript') : undefined;
        if (right && sub && stringLiteral(this.tree, sub) === 'attention_mask') values.push(right);
      }
    });
    const inverted = values.some((v) => {
      const fn = enclosingFunction(v, true);
      const scope = (fn ? this.sr.scopeOfNode.get(fn.id) : undefined) ?? this.sr.module;
      const m = this.eval(v, this.defaultCtx(scope)).mask;
      // A store made from the key's own mask (`"attention_mask": 1 - enc["attention_mask"]`) states no other convention.
      return !!m && m.polarity === 'ignore' && !m.additive && !m.byName && !m.documented && !readsTokenizerMask(m.why);
    });
    this.attentionMaskKeyInvertedMemo = inverted;
    return inverted;
  }
  private attentionMaskKeyInvertedMemo: boolean | undefined;

  defaultCtx(scope: Scope): Ctx {
    const s = this.ctxScope(scope);
    let c = this.defaultCtxs.get(s.id);
    if (!c) {
      c = { id: this.nextCtxId++, scope: s, depth: 0 };
      this.defaultCtxs.set(s.id, c);
    }
    return c;
  }

  /** Comprehension scopes evaluate inside their function's context. */
  ctxScope(scope: Scope): Scope {
    let s = scope;
    while (s.kind === 'comprehension' && s.parent) s = s.parent;
    return s;
  }

  /** All contexts a scope was evaluated in (default first). */
  contextsOf(scope: Scope): Ctx[] {
    const out: Ctx[] = [];
    const d = this.defaultCtxs.get(scope.id);
    if (d) out.push(d);
    for (const c of this.callCtxs.values()) if (c.scope === scope) out.push(c);
    return out;
  }

  // ---------------------------------------------------------------------------------------------- nodes

  /** The value `node` was evaluated to in ctx, when it was (nothing is evaluated here; a value still in progress is not one). */
  evaluatedValue(node: PyNode, ctx: Ctx): AValue | undefined {
    const v = this.memo.get(ctx.id)?.get(node.id);
    return v === IN_PROGRESS ? undefined : v;
  }

  eval(node: PyNode | undefined, ctx: Ctx): AValue {
    if (!node) return UNKNOWN;
    let m = this.memo.get(ctx.id);
    if (!m) {
      m = new Map();
      this.memo.set(ctx.id, m);
    }
    const hit = m.get(node.id);
    if (hit) return hit === IN_PROGRESS ? this.cycleTo(node, ctx.id) : hit;
    const open = this.cycleFloor !== Infinity ? this.openCycleNodes.get(ctx.id)?.get(node.id) : undefined;
    if (open) return open;
    // Machine-generated expressions nest thousands deep: past this depth the value is simply unknown.
    if (this.depth > MAX_EVAL_DEPTH) return UNKNOWN;
    m.set(node.id, IN_PROGRESS);
    this.depth++;
    const frame = this.frames.length;
    this.frames.push(node);
    this.frameCtxs.push(ctx.id);
    let v: AValue;
    try {
      v = withOrigin(this.evalNode(node, ctx), node, this.definitionSite);
    } catch (e) {
      m.delete(node.id);
      throw e;
    } finally {
      this.depth--;
      this.frames.pop();
      this.frameCtxs.pop();
    }
    if (this.cycleFloor < frame) {
      // Computed from a value still being computed below (a loop-carried name): kept only until that value is done.
      m.delete(node.id);
      mapOf(this.openCycleNodes, ctx.id).set(node.id, v);
      return v;
    }
    m.set(node.id, v);
    this.closeCycle();
    return v;
  }

  private depth = 0;
  /** Where a name read's value was defined (origins.ts: facts first seen at a name). */
  private readonly definitionSite = (n: PyNode): PyNode | undefined => latestDefinition(this.resolve(n, text(this.tree, n)));

  private evalNode(node: PyNode, ctx: Ctx): AValue {
    switch (node.type) {
      case 'parenthesized_expression':
        return this.eval(firstNamedChild(node), ctx);
      case 'identifier':
        return this.evalIdentifier(node, ctx);
      case 'attribute':
        return this.evalAttribute(node, ctx);
      case 'call':
        return this.evalCall(node, ctx);
      case 'binary_operator':
        return evalBinary(this, node, ctx);
      case 'unary_operator':
        return evalUnary(this, node, ctx);
      case 'not_operator':
        return notValue(this.eval(childByField(node, 'argument'), ctx));
      case 'comparison_operator': {
        // `x is None` / `x is not None`: known where x is None or certainly not (flags.ts).
        const test = noneComparison(this, node);
        if (test) return noneTest(this.eval(test.operand, ctx), test.negated);
        return evalComparison(this, node, ctx);
      }
      case 'boolean_operator': {
        const l = this.eval(childByField(node, 'left'), ctx);
        const r = this.eval(childByField(node, 'right'), ctx);
        const op = operatorText(this.tree, node) === 'or' ? 'or' : 'and';
        const decided = boolOp(op, l, r);
        if (decided) return decided;
        if (op === 'or') {
          // `qk_scale or head_dim ** -0.5`, `attn_head_dim or dim // heads`: an optional number (None unless the
          // caller overrides it) falls back to the value computed here, which is what the code uses by default.
          if (l.maybeNone && (l.kind === 'number' || l.kind === 'unknown') && l.num === undefined && r.kind === 'number' && !r.maybeNone) return r;
          return undecided(join(l, r));
        }
        return r.kind === 'bool' ? undecided(r) : join(l, r);
      }
      case 'subscript':
        return evalSubscript(this, node, ctx);
      case 'integer':
      case 'float': {
        const n = numberLiteral(this.tree, node);
        return n === undefined ? number() : number({ num: n });
      }
      case 'string':
      case 'concatenated_string': {
        const s = stringLiteral(this.tree, node);
        return s === undefined ? { kind: 'string' } : { kind: 'string', str: s };
      }
      case 'true':
        return boolLiteral(node, true);
      case 'false':
        return boolLiteral(node, false);
      case 'none':
        return NONE;
      case 'tuple':
      case 'list':
      case 'expression_list': {
        // `(*x.shape, h)`: a splatted tuple of known length is spread; of unknown length, the positions are unknown.
        const elements: AValue[] = [];
        for (const c of namedChildren(node)) {
          const splat = this.splatted(c, ctx);
          if (!splat) elements.push(this.eval(c, ctx));
          else if (splat.kind !== 'tuple' || !splat.elements) return { kind: 'tuple' };
          else elements.push(...splat.elements);
        }
        return { kind: 'tuple', elements };
      }
      case 'conditional_expression': {
        const parts = namedChildren(node);
        if (parts.length < 3) return UNKNOWN;
        // A condition known in this context (`self.causal if mask is None else False` with the caller's None) picks its branch.
        const branch = conditionalBranch(this, node, ctx);
        if (branch) return this.eval(branch, ctx);
        return join(this.eval(parts[0], ctx), this.eval(parts[2], ctx));
      }
      case 'lambda': {
        const scope = this.sr.scopeOfNode.get(node.id);
        return scope ? { kind: 'function', fn: { scope } } : UNKNOWN;
      }
      case 'named_expression':
        return this.eval(childByField(node, 'value'), ctx);
      case 'list_splat':
        // Only reached as the innermost object of a starred expression (`*x.shape[:2]`, see splatted).
        return this.eval(firstNamedChild(node), ctx);
      case 'await':
        return this.eval(firstNamedChild(node), ctx);
      case 'list_comprehension':
      case 'generator_expression':
        return this.evalComprehension(node, ctx);
      case 'keyword_argument':
        return this.eval(childByField(node, 'value'), ctx);
      case 'dictionary':
        return this.evalDictionary(node, ctx);
      case 'assignment':
        return this.eval(childByField(node, 'right'), ctx);
      default:
        return UNKNOWN;
    }
  }

  /**
   * `{"input_ids": ids, "mask": ids != pad_id}`: a dict whose keys are string literals holds its values by key, as a
   * bound `**kwargs` does (`batch["mask"]` reads the value back, `f(**batch)` passes it by keyword). A later key
   * overrides an earlier one; a `**other` splat brings the keys its value is known to hold. A splat whose keys are
   * unknown, or a key that is not a string literal, leaves the dict unknown: any key may be in it (also for
   * `f(**d)`, which would otherwise pass only the keys in view and leave the rest to their defaults).
   */
  private evalDictionary(node: PyNode, ctx: Ctx): AValue {
    const entries = new Map<string, AValue>();
    for (const item of namedChildren(node)) {
      if (item.type === 'dictionary_splat') {
        const spread = this.eval(firstNamedChild(item), ctx).kwargs;
        if (!spread) return UNKNOWN;
        for (const [k, v] of spread) entries.set(k, v);
        continue;
      }
      if (item.type !== 'pair') continue;
      const key = stringLiteral(this.tree, childByField(item, 'key'));
      if (key === undefined) return UNKNOWN;
      entries.set(key, this.eval(childByField(item, 'value'), ctx));
    }
    return { kind: 'unknown', kwargs: [...entries] };
  }

  /**
   * `[f(t) for t in (q, k, v)]` → the tuple of f applied to each element, when the iterable's elements are known
   * (a literal tuple, `x.chunk(3, -1)`, a zip or enumerate of such): the body is evaluated once per element, in
   * a context where the variable is that element (elementCtx), so that `q, k, v = (...)` gives each name its own
   * value. Otherwise every element is the body evaluated with the variable as any element (their join).
   */
  private evalComprehension(node: PyNode, ctx: Ctx): AValue {
    const clauses = namedChildren(node).filter((c) => c.type === 'for_in_clause');
    const body = childByField(node, 'body');
    const clause = clauses[0];
    if (clauses.length !== 1 || !clause || !body) return UNKNOWN;
    const iterNode = childByField(clause, 'right');
    // An `if` clause drops elements: which, and so how many, is not known.
    const filtered = namedChildren(node).some((c) => c.type === 'if_clause');
    const elements = iterNode && !filtered ? this.iteratedElements(iterNode, ctx) : undefined;
    if (iterNode && elements) return { kind: 'tuple', elements: elements.map((e, i) => this.eval(body, this.elementCtx(node, iterNode, ctx, i, e))) };
    let iter = this.eval(iterNode, ctx);
    // `zip(self.linears, (query, key, value))`: as many elements as the literal tuple zipped in (the annotated
    // transformer's q/k/v projection idiom).
    if (!(iter.kind === 'tuple' && iter.elements) && iterNode && unparen(iterNode).type === 'call') {
      const call = unparen(iterNode);
      const fn = childByField(call, 'function');
      const args = childByField(call, 'arguments');
      if (fn && args && text(this.tree, fn) === 'zip') {
        for (const a of namedChildren(args)) {
          const inner = unparen(a);
          if (inner.type !== 'tuple' && inner.type !== 'list') continue;
          iter = { kind: 'tuple', elements: namedChildren(inner).map(() => UNKNOWN) };
          break;
        }
      }
    }
    // `[Block(d) for _ in range(depth)]`: as many items as the loop runs, each what the body builds (a module's layers,
    // or copies of one layer, `[copy.deepcopy(nn.Linear(d, d)) for _ in range(4)]`).
    if (iter.kind === 'number' || (iterNode && /^range\s*\(/.test(text(this.tree, unparen(iterNode))))) {
      const item = this.eval(body, ctx);
      // So are masks of one meaning built per example (`[pad_mask(ids[i]) for i in range(B)]`).
      const masks = item.kind === 'tensor' && !!item.mask?.polarity;
      // (also module lists of such layers, `[nn.ModuleList([norm, Attention(d), ff]) for _ in range(depth)]`, unpacked
      // by the loop that runs them: `for norm, attn, ff in self.layers`)
      return isModuleValue(item) || item.passedArg !== undefined || masks ? { kind: 'tuple', items: item } : UNKNOWN;
    }
    if (iter.kind !== 'tuple' || !iter.elements) {
      // `[make_pad_mask(row, pad_id) for row in ids]`: how many items is not known, but each is a mask of one
      // meaning, the body's with the variable as any item (then stacked or iterated, it keeps that meaning).
      const item = this.eval(body, ctx);
      return item.kind === 'tensor' && item.mask?.polarity ? { kind: 'tuple', items: item } : UNKNOWN;
    }
    // Each element is evaluated through the comprehension variable's definition: the join of every element.
    return { kind: 'tuple', elements: iter.elements.map(() => this.eval(body, ctx)) };
  }

  /**
   * The items a for-clause's iterable yields, one by one, when they are known: a tuple of known elements
   * (`(q, k, v)`, `qkv` from `.chunk(3, dim=-1)`); `zip(...)` of such tuples (an argument whose elements are not
   * known gives its item, `zip(self.linears, (query, key, value))`); `enumerate(...)` of one (the index is a number).
   */
  private iteratedElements(iterNode: PyNode, ctx: Ctx): readonly AValue[] | undefined {
    const u = unparen(iterNode);
    const fnNode = u.type === 'call' ? childByField(u, 'function') : undefined;
    const fn = fnNode ? text(this.tree, fnNode) : '';
    if ((fn === 'zip' || fn === 'enumerate') && fnNode && this.resolve(fnNode, fn) === undefined) {
      const args = this.argsOf(u);
      if (args.hasSplat || args.keywords.size > 0 || args.positional.length === 0) return undefined;
      if (fn === 'enumerate') {
        const items = args.positional.length === 1 ? this.knownElements(this.eval(args.positional[0], ctx)) : undefined;
        return items?.map((e) => ({ kind: 'tuple', elements: [number(), e] }));
      }
      const seqs = args.positional.map((a) => this.eval(a, ctx));
      const known = seqs.map((v) => this.knownElements(v));
      const lengths = known.flatMap((k) => (k ? [k.length] : []));
      if (lengths.length === 0) return undefined;
      const n = Math.min(...lengths);
      return Array.from({ length: n }, (_, i): AValue => ({ kind: 'tuple', elements: seqs.map((v, j) => known[j]?.[i] ?? elementOf(v)) }));
    }
    return this.knownElements(this.eval(iterNode, ctx));
  }

  /** The elements of a tuple whose elements are known (and few enough to evaluate a body for each). */
  private knownElements(v: AValue): readonly AValue[] | undefined {
    return v.kind === 'tuple' && v.elements && v.elements.length > 0 && v.elements.length <= MAX_COMPREHENSION_ELEMENTS ? v.elements : undefined;
  }

  /** The context of one element of a comprehension evaluated in `ctx` (see Ctx.element), one per element value. */
  private elementCtx(node: PyNode, iterable: PyNode, ctx: Ctx, i: number, value: AValue): Ctx {
    const key = `${node.id}|${ctx.id}|${i}|${valueKey(value)}`;
    let c = this.elementCtxs.get(key);
    if (!c) {
      c = { ...ctx, id: this.nextCtxId++, element: { outer: ctx, node, iterable, value } };
      this.elementCtxs.set(key, c);
    }
    return c;
  }

  private readonly elementCtxs = new Map<string, Ctx>();

  private evalIdentifier(node: PyNode, ctx: Ctx): AValue {
    const name = text(this.tree, node);
    const resolved = this.resolve(node, name);
    // Definitions in an `if` arm that cannot run in this context (its condition known False) do not reach the read.
    // Nor do those an `if` arm certainly running here overwrites before the read.
    const defs = resolved && resolved.length > 1 ? overwrittenInCtx(this, liveInCtx(this, resolved, ctx), node, ctx) : resolved;
    let v: AValue;
    const filled = defs && defs.length > 1 ? this.noneFilledMask(node, defs, ctx) : undefined;
    if (filled) v = filled;
    else if (defs && defs.length > 1) {
      // `if mask is not None: mask = f(mask)`: what reaches only through the skipped block is None.
      const { live, asNone } = splitByNoneGuards(this, node, defs);
      const values = live.map((d) => this.evalDef(d, ctx));
      v = joinAll([...values, ...(asNone.length > 0 ? [NONE] : [])]);
      if (v.kind === 'tensor' && !v.multiHead && this.splitWhenSeveralHeads(node, live, values)) v = { ...v, multiHead: true };
      // A definition computed from a value still being computed counts as the cycle itself.
      const provisional = live.map((d) => this.provisional(d, ctx));
      v = loopCarriedMask(
        v,
        values.map((x, i) => (provisional[i] ? CYCLIC : x)),
      );
    } else if (defs && defs.length > 0) v = joinAll(defs.map((d) => this.evalDef(d, ctx)));
    else v = this.unresolvedName(name);
    return this.nameRole(v, name);
  }

  /**
   * A mask parameter defaulting to None that its function fills in with a mask it builds (`if pad_mask is None:
   * pad_mask = (tokens != PAD).float()`), where nothing but the parameter's name says what callers give: the mask the
   * code builds is what the function uses when none is given, and code outranks a name. Undefined otherwise (a caller's
   * mask known from code, no mask built, or definitions of another form): the ordinary join decides.
   */
  private noneFilledMask(node: PyNode, defs: readonly Def[], ctx: Ctx): AValue | undefined {
    const nf = noneDefaultFill(this, node, defs);
    if (!nf) return undefined;
    const fill = joinAll(nf.fills.map((d) => this.evalDef(d, ctx)));
    if (fill.kind !== 'tensor' || !fill.mask?.polarity || fill.mask.byName || fill.mask.documented) return undefined;
    const given = this.evalDef(nf.param, ctx);
    if (given.kind === 'none') return fill;
    if (!given.maybeNone || (given.kind !== 'unknown' && given.kind !== 'tensor')) return undefined;
    if (given.kind === 'tensor' && given.mask && (!given.mask.byName || given.mask.documented)) return undefined;
    return fill;
  }

  /**
   * Heads split only when there are several (`if self.nb_head > 1: Q = self._fold(Q, batch, q_len)`): the path that
   * skips the block has one head, whose width is the model width, so wherever there are several heads the value is
   * split into them. True when every definition made in such a block (top level of its consequence, no `else`, ending
   * before the read) is a multi-head tensor and the others come before the block.
   */
  private splitWhenSeveralHeads(use: PyNode, defs: readonly Def[], values: readonly AValue[]): boolean {
    let guard: PyNode | undefined;
    let split = false;
    for (const [i, d] of defs.entries()) {
      const stmt = d.kind === 'assign' && d.target.parent?.type === 'assignment' ? d.target.parent.parent : undefined;
      const block = stmt?.type === 'expression_statement' ? stmt.parent : undefined;
      const ifStmt = block?.type === 'block' && block.field === 'consequence' ? block.parent : undefined;
      const cond = ifStmt?.type === 'if_statement' && !childByField(ifStmt, 'alternative') ? childByField(ifStmt, 'condition') : undefined;
      const m = cond ? /^\s*([\w.]+)\s*(?:>\s*1|>=\s*2|!=\s*1)\s*$/.exec(text(this.tree, cond)) : null;
      if (ifStmt && m?.[1] && isHeadCountName(m[1]) && ifStmt.end <= use.start && (!guard || guard === ifStmt)) {
        if (!values[i]?.multiHead) return false;
        guard = ifStmt;
        split = true;
      }
    }
    // Every other definition comes before the block (the unsplit value the block splits).
    return split && !!guard && defs.every((d) => d.target.end <= guard.start || (guard.start <= d.target.start && d.target.end <= guard.end));
  }

  /** Reaching definitions of a name read at `node`: local ones, else the enclosing scopes'. */
  resolve(node: PyNode, name: string): Def[] | undefined {
    const local = this.sr.uses[node.id];
    if (local) return local;
    const scope = this.sr.useScope[node.id];
    if (!scope) return undefined;
    return this.lookupFree(name, scope);
  }

  private lookupFree(name: string, scope: Scope): Def[] | undefined {
    let s: Scope | undefined = scope;
    while (s && s.parent) {
      const parent: Scope = s.parent;
      if (parent.kind === 'module') return this.sr.module.envAtEnd.get(name) ?? this.lateFunction(name, s);
      if (parent.kind !== 'class') {
        const defs = s.outerEnv?.get(name);
        if (defs) return defs;
      }
      s = parent;
    }
    return undefined;
  }

  /**
   * A module-level function defined after the module's first top-level compound statement (scopes.ts moduleExitEnv),
   * which the module's environment does not hold: visible to the file's functions when the function can hold a site or
   * calls one (activeFunctions), so a helper's callers defined after a top-level `try:` / `if not hasattr(...):` reach
   * it and make its call contexts. Other names bound after such a statement stay unresolved: following every one of
   * them costs a helper-rich file what evaluating all of its code costs (two to three times the time).
   */
  private lateFunction(name: string, from: Scope): Def[] | undefined {
    const defs = this.sr.moduleExitEnv?.get(name);
    if (!defs || defs.length === 0) return undefined;
    const active = this.activeScopes();
    // A function calling itself (`hip_masking(...)` inside hip_masking) stays unresolved: each call would make a
    // context of its own, down to the depth limit. So does a decorated one: what the decorator returns is called
    // (`@triton.jit` kernels launched as `kernel[grid](...)`, `@numba.njit`), not always the function as written.
    if (
      !defs.every(
        (d) => d.kind === 'funcdef' && d.defines !== undefined && d.defines !== from && active.has(d.defines) && decoratorsOf(d.defines.node).length === 0,
      )
    )
      return undefined;
    for (const d of defs) this.lateFunctions.add(d.defines!);
    return defs;
  }

  /** The functions lateFunction resolved: a call of one makes its context, and its value stays unknown (callFunction). */
  private readonly lateFunctions = new Set<Scope>();
  private activeMemo: Set<Scope> | undefined;
  /**
   * activeFunctions, computed once (empty while it is being computed); asked before `run` (a module of the workspace
   * read for another file), it leaves the names `run` judges statements by (activeNames) as they were.
   */
  private activeScopes(): Set<Scope> {
    if (!this.activeMemo) {
      this.activeMemo = new Set();
      const names = this.activeNames;
      const active = this.activeFunctions();
      this.activeNames = names;
      this.activeMemo = active;
    }
    return this.activeMemo;
  }

  private unresolvedName(name: string): AValue {
    const alias = DEFAULT_ALIASES[name];
    if (alias) return { kind: 'module', qname: alias };
    if (BUILTINS.has(name)) return { kind: 'module', qname: `builtins.${name}` };
    // `from .utils import *`: a name the star import of a workspace module binds.
    return (this.link && starImportedName(this.link, this.tree, this.link.path, name)) || UNKNOWN;
  }

  /** A tensor read through a name that states its role (q, key_states, ...) takes that role. */
  nameRole(v: AValue, name: string): AValue {
    if (v.kind !== 'tensor' && v.kind !== 'unknown') return v;
    const role = roleOfName(name);
    if (!role) return v;
    if (v.role === role && v.roleText) return v;
    // An unknown value named q/k becomes a tensor with that role; whatever else it carries (a cycle's unknown path) stays.
    return { ...v, kind: 'tensor' as const, role, roleText: name };
  }

  /**
   * Attributes assigned from outside their class (`<obj>.attr = ...`, `<obj>` not `self`) in this file or in a
   * workspace file that imports it, directly or through one file between (`blk.cache = KVCache(...)` in
   * generate.py, which imports the model built of this file's modules), read once.
   */
  private outsideAssigned: Set<string> | undefined;
  /** The first assignment of each such attribute in an importing file: where it is set (UTF-16 offsets into source). */
  private readonly importerAssigned = new Map<string, OutsideAssignment>();

  private setFromOutside(attr: string): boolean {
    if (!this.outsideAssigned) {
      this.outsideAssigned = new Set();
      for (const m of this.tree.source.matchAll(OUTSIDE_ASSIGNMENT)) if (m[1] !== 'self' && m[2]) this.outsideAssigned.add(m[2]);
      const link = this.link;
      for (const path of link?.importers ? importingChain(link, ATTRIBUTE_IMPORT_HOPS, MAX_ATTRIBUTE_IMPORTERS) : []) {
        for (const [name, at] of link?.workspace.textFacts(path, outsideAssignments) ?? []) {
          if (this.outsideAssigned.has(name)) continue;
          this.outsideAssigned.add(name);
          this.importerAssigned.set(name, { path, ...at });
        }
      }
    }
    return this.outsideAssigned.has(attr);
  }

  /** `<obj>.attr = ...` with `<obj>` not `self`, in this file or in a workspace file importing it. */
  attributeSetOutside(attr: string): boolean {
    return this.setFromOutside(attr);
  }

  /**
   * Where a workspace file importing this one sets `attr` on an object of this file (`model.cache = KVCache(...)`
   * in generate.py) when this file itself does not: the statement's place in that file.
   */
  attributeSetByImporter(attr: string): OutsideAssignment | undefined {
    return this.setFromOutside(attr) ? this.importerAssigned.get(attr) : undefined;
  }

  private evalAttribute(node: PyNode, ctx: Ctx): AValue {
    // self.x: method-local definitions first, then the class's.
    const local = this.sr.uses[node.id];
    const objNode = childByField(node, 'object');
    const attrNode = childByField(node, 'attribute');
    if (!objNode || !attrNode) return UNKNOWN;
    const attr = text(this.tree, attrNode);
    if (local && local.length > 0) return this.nameRole(joinAll(local.map((d) => this.evalDef(d, ctx))), attr);
    const obj = this.eval(objNode, ctx);
    if (isWorkspaceModule(obj)) return workspaceAttribute(this, obj, attr) ?? UNKNOWN;
    return evalAttributeOf(this, obj, attr, node, ctx);
  }

  /**
   * The value spread by a starred element of a tuple: `*t` (a list_splat), or `*x.shape`, which the grammar reads as
   * the attribute `shape` of the list_splat `*x`. Undefined when the element is not starred.
   */
  splatted(el: PyNode, ctx: Ctx): AValue | undefined {
    if (el.type === 'list_splat') return this.eval(namedChildren(el)[0], ctx);
    // `*x.shape[:2]` is the subscript of the attribute `shape` of the list_splat `*x`: the star applies to the
    // whole expression, whose innermost object evaluates as the starred name (case 'list_splat' in eval).
    return isStarred(el) ? this.eval(el, ctx) : undefined;
  }

  /** Value of `obj.attr` for an instance of a class defined in this file. */
  attributeOfObject(obj: AValue, attr: string): AValue | undefined {
    const cls = obj.object?.cls;
    if (!cls) return undefined;
    const owner = this.ownerOf(cls.scope);
    if (owner !== this) {
      // A dataclass instance returned from its file carries the fields its constructor call set (cross-file.ts).
      const carried = obj.kwargs?.find(([k]) => k === attr);
      if (carried) return carried[1];
      return owner?.attributeOfObject({ kind: 'object', object: { cls } }, attr) ?? this.declaredField(cls, attr, obj);
    }
    const defs = this.classAttrDefs(cls, `self.${attr}`);
    // Set by a base class of another workspace file (`self.scale` in its __init__): its file evaluates it.
    const inherited = defs[0] && !this.owns(defs[0].scope) ? defs[0].scope.ownerClass : undefined;
    if (inherited) return attributeAcrossFiles(this, inherited, attr);
    if (defs.length > 0) {
      const init = obj.object?.init;
      const v = this.nameRole(
        joinAll(
          defs.map((d) => {
            const scope = this.ctxScope(d.scope);
            if (init && scope.name === '__init__' && scope.ownerClass === cls) {
              const c = this.callContext(scope, init.call, this.argsOf(init.call), init.ctx, obj);
              return this.evalDef(d, c ?? this.defaultCtx(scope));
            }
            // Set in a base class's __init__, which the instance's own __init__ runs through `super().__init__(...)`.
            if (init && scope.name === '__init__' && scope.ownerClass) {
              const c = this.initCtxThrough(cls, scope, obj, init.call, this.argsOf(init.call), init.ctx);
              if (c) return this.evalDef(d, c);
            }
            const initArgs = obj.object?.initArgs;
            if (initArgs && scope.name === '__init__' && scope.ownerClass === cls) return this.evalDef(d, this.builtElsewhereCtx(scope, obj, initArgs));
            return this.evalDef(d, this.defaultCtx(scope));
          }),
        ),
        attr,
      );
      // Set only to None by the class, and set from outside it (`block.attention.kv_cache = KVCache(...)` in a
      // `setup_caches`): None is only its value before that code runs.
      return v.kind === 'none' && this.setFromOutside(attr) ? { ...UNKNOWN, maybeNone: true } : v;
    }
    const method = this.classMethod(cls, attr);
    if (method) return { kind: 'function', fn: { scope: method, self: obj } };
    return this.declaredField(cls, attr, obj);
  }

  /**
   * A field declared in the body of a class with no `__init__` of its own (a dataclass: `causal: bool = True`) of an
   * instance whose constructor call is in view: the argument passed for it (by name, or by position in declaration
   * order), else its default, since that call leaves it out.
   */
  private declaredField(cls: ClassInfo, attr: string, obj: AValue): AValue | undefined {
    const init = obj.object?.init;
    const owner = this.ownerOf(cls.scope);
    const fields = owner?.declaredFields(cls);
    if (!init || !owner || !fields) return undefined;
    const index = fields.findIndex((f) => f.name === attr);
    const field = fields[index];
    if (!field) return undefined;
    // The constructor call is in this file (an instance crossing files loses it: portable.ts).
    const args = this.argsOf(init.call);
    if (args.hasSplat) return undefined;
    const kw = args.keywords.get(attr);
    if (kw) return this.eval(kw.value, init.ctx);
    const pos = args.positional[index];
    if (pos) return this.eval(pos, init.ctx);
    if (!field.value) return undefined;
    const value = owner.eval(field.value, owner.defaultCtx(cls.scope));
    return owner === this ? value : portable(value);
  }

  /**
   * A field of a config class with no `__init__` (`neg: float = -1e9` of a dataclass) as the constructions the workspace
   * shows set it: a number they all pass written out, 'default' when they all leave it out, null when they differ or
   * one passes a value not shown, undefined when none is in view.
   */
  constructedFieldValue(cls: ClassInfo, attr: string): AValue | 'default' | null | undefined {
    const owner = this.ownerOf(cls.scope);
    const fields = owner?.declaredFields(cls);
    const index = fields ? fields.findIndex((f) => f.name === attr) : -1;
    if (index < 0) return undefined;
    const built = constructedField(this, cls, attr, index);
    return typeof built === 'number' ? number({ num: built }) : built;
  }

  /** The fields declared in a class body (`name: type [= default]`) of a class with no `__init__` of its own, in order. */
  declaredFields(cls: ClassInfo): { readonly name: string; readonly value?: PyNode }[] | undefined {
    const body = childByField(cls.node, 'body');
    if (!body || this.classMethod(cls, '__init__')) return undefined;
    const fields: { name: string; value?: PyNode }[] = [];
    for (const stmt of body.children) {
      const a = stmt.type === 'expression_statement' ? firstNamedChild(stmt) : undefined;
      const left = a?.type === 'assignment' ? childByField(a, 'left') : undefined;
      if (!a || !left || left.type !== 'identifier' || !childByField(a, 'type')) continue;
      fields.push({ name: text(this.tree, left), value: childByField(a, 'right') });
    }
    return fields;
  }

  /**
   * `Cls.NAME` (or an instance's `obj.NAME` that no method sets): the value assigned to NAME in the class body
   * (`MASK_VALUE = -1e9`, a dataclass field's default `mask_value: float = -1e9`), in this class or a base; a
   * class of another workspace file is asked there. Undefined when the body assigns nothing under that name.
   */
  classBodyValue(cls: ClassInfo, name: string, seen?: Set<ClassInfo>): AValue | undefined {
    const owner = this.ownerOf(cls.scope);
    if (owner !== this) return owner ? attributeAcrossFiles(this, cls, name, 'body') : undefined;
    if (seen?.has(cls)) return undefined;
    const defs = (cls.scope.envAtEnd.get(name) ?? []).filter((d) => d.value !== undefined && d.kind !== 'import');
    if (defs.length > 0) return joinAll(defs.map((d) => this.evalDef(d, this.defaultCtx(cls.scope))));
    seen ??= new Set<ClassInfo>();
    seen.add(cls);
    for (const base of this.baseClasses(cls)) {
      const v = this.classBodyValue(base, name, seen);
      if (v) return v;
    }
    return undefined;
  }

  /** A dataclass-style field declared in the class body (`mask: torch.Tensor`): its annotation's type. */
  classField(cls: ClassInfo, name: string): AValue | undefined {
    const owner = this.ownerOf(cls.scope);
    if (owner !== this) return owner?.classField(cls, name);
    const body = childByField(cls.node, 'body');
    if (!body) return undefined;
    for (const stmt of body.children) {
      if (stmt.type !== 'expression_statement') continue;
      const a = firstNamedChild(stmt);
      if (!a || a.type !== 'assignment') continue;
      const left = childByField(a, 'left');
      const type = childByField(a, 'type');
      if (!left || !type || text(this.tree, left) !== name) continue;
      const t = text(this.tree, type);
      if (/Tensor|ndarray|Array/.test(t)) return /Optional|None/.test(t) ? tensor({ maybeNone: true }) : tensor();
      if (/^(int|float)$/.test(t)) return number();
      return undefined;
    }
    return undefined;
  }

  /**
   * `self.proj(x)` where this file builds `self.proj` once, by a call whose keyword folds a scale into the weights
   * (`initial_scale=head_dim ** -0.25`): the output carries that scale (ops.ts: scaledAtConstruction).
   */
  private scaledLayerOutput(cls: ClassInfo, c: Call, out: AValue): AValue {
    if (out.kind !== 'tensor') return out;
    const folded = this.foldedWeightScales(cls).get(c.name) ?? this.foldedEntryScales().get(c.name);
    if (folded) return opsImpl.scaledByFoldedWeights(this, out, folded.factor, folded.node, folded.divide, c);
    const defs = this.classAttrDefs(cls, `self.${c.name}`);
    const def = defs.length === 1 ? defs[0] : undefined;
    if (!def || !this.owns(def.scope)) return out;
    const value = def.value && def.value.type === 'assignment' ? childByField(def.value, 'right') : def.value;
    const ctor = value ? unparen(value) : undefined;
    if (!ctor || ctor.type !== 'call') return out;
    return opsImpl.scaledAtConstruction(this, out, ctor, this.defaultCtx(this.ctxScope(def.scope)), c);
  }

  private readonly foldedCache = new Map<ClassInfo, Map<string, FoldedScale>>();

  /**
   * The layers of a class whose weights the class scales in place by a negative power of a width (the attention scale
   * folded into the query projection: `self.q_proj.weight.mul_(head_dim ** -0.5)`, `self.q_proj.weight.data *= s`,
   * `.copy_(self.q_proj.weight * s)`, Keras `self.wq.kernel.assign(self.wq.kernel * s)`, or a division by a positive
   * power): their outputs carry that factor. Only the weight (or kernel) counts, and only a factor that is a power of a
   * width in its own function.
   */
  private foldedWeightScales(cls: ClassInfo): Map<string, FoldedScale> {
    let found = this.foldedCache.get(cls);
    if (found) return found;
    found = new Map();
    this.foldedCache.set(cls, found);
    const owner = (n: PyNode | undefined): string | undefined =>
      n ? /^self\.(\w+)\.(?:weight|kernel)(?:\.data)?$/.exec(this.text(unparen(n)))?.[1] : undefined;
    const record = (name: string | undefined, factorNode: PyNode | undefined, divide: boolean, at: PyNode): void => {
      if (!name || !factorNode || found.has(name)) return;
      const fn = enclosingFunction(at);
      const scope = fn ? this.sr.scopeOfNode.get(fn.id) : undefined;
      if (!scope) return;
      const f = this.eval(factorNode, this.defaultCtx(this.ctxScope(scope)));
      if (!f.dimPow || (divide ? f.dimPow.power <= 0 : f.dimPow.power >= 0)) return;
      found.set(name, { factor: f, node: factorNode, divide });
    };
    // `W * s`, `s * W` or `W / s` of the same weight: the factor and whether it divides.
    const productOf = (name: string | undefined, e: PyNode | undefined, at: PyNode): void => {
      const b = e ? unparen(e) : undefined;
      if (!name || !b || b.type !== 'binary_operator') return;
      const op = operatorText(this.tree, b);
      const l = childByField(b, 'left');
      const r = childByField(b, 'right');
      if (op === '*' && owner(l) === name) record(name, r, false, at);
      else if (op === '*' && owner(r) === name) record(name, l, false, at);
      else if (op === '/' && owner(l) === name) record(name, r, true, at);
    };
    walkTree(cls.node, (n) => {
      if (n.type === 'call') {
        const fn = childByField(n, 'function');
        if (!fn || fn.type !== 'attribute') return;
        const method = this.text(childByField(fn, 'attribute') ?? fn);
        const name = owner(childByField(fn, 'object'));
        const args = childByField(n, 'arguments');
        const first = args ? namedChildren(args).find((a) => a.type !== 'keyword_argument') : undefined;
        if (method === 'mul_') record(name, first, false, n);
        else if (method === 'div_') record(name, first, true, n);
        else if (method === 'copy_' || method === 'assign') productOf(name, first, n);
      } else if (n.type === 'augmented_assignment') {
        const op = operatorText(this.tree, n);
        const name = owner(childByField(n, 'left'));
        if (op === '*=') record(name, childByField(n, 'right'), false, n);
        else if (op === '/=') record(name, childByField(n, 'right'), true, n);
      } else if (n.type === 'assignment') {
        productOf(owner(childByField(n, 'left')), childByField(n, 'right'), n);
      }
    });
    return found;
  }

  private foldedEntries: Map<string, FoldedScale> | undefined;

  /**
   * Layers whose weights a checkpoint conversion or a load hook of this file scales by a negative power of a width,
   * editing the state dict entry in place: `sd[name] = sd[name] * head_dim ** -0.5` (also `*=`, `.mul_(s)`, `/ sqrt`)
   * where the key names the layer's weight (`sd[prefix + "q_proj.weight"]`) or an enclosing `if` tests it
   * (`if name.endswith("q_proj.weight"):`). Keyed by the layer's attribute name (`q_proj`).
   */
  private foldedEntryScales(): Map<string, FoldedScale> {
    if (this.foldedEntries) return this.foldedEntries;
    const found = new Map<string, FoldedScale>();
    this.foldedEntries = found;
    // Most files name no weight in a string: no walk.
    if (!/\.(?:weight|kernel)\b[^'"\n]*['"]/.test(this.tree.source)) return found;
    const names = (n: PyNode): string[] => {
      const out: string[] = [];
      walkTree(n, (x) => {
        if (x.type !== 'string') return;
        for (const m of this.text(x).matchAll(/(\w+)\.(?:weight|kernel)\b/g)) if (m[1]) out.push(m[1]);
        return false;
      });
      return out;
    };
    /** The layers a subscripted entry `sd[key]` is: named in its key, or else in the conditions of the `if`s around it. */
    const layersOf = (target: PyNode): string[] => {
      const t = unparen(target);
      if (t.type !== 'subscript') return [];
      const key = childByField(t, 'subscript');
      const own = key ? names(key) : [];
      if (own.length > 0) return own;
      for (let p = t.parent; p && p.type !== 'function_definition'; p = p.parent) {
        const cond = p.type === 'if_statement' || p.type === 'elif_clause' ? childByField(p, 'condition') : undefined;
        const inCond = cond ? names(cond) : [];
        if (inCond.length > 0) return inCond;
      }
      return [];
    };
    const record = (target: PyNode | undefined, factorNode: PyNode | undefined, divide: boolean, at: PyNode): void => {
      if (!target || !factorNode) return;
      const layers = layersOf(target);
      if (layers.length === 0) return;
      const fn = enclosingFunction(at);
      const scope = (fn ? this.sr.scopeOfNode.get(fn.id) : undefined) ?? this.sr.module;
      const f = this.eval(factorNode, this.defaultCtx(this.ctxScope(scope)));
      if (!f.dimPow || (divide ? f.dimPow.power <= 0 : f.dimPow.power >= 0)) return;
      for (const l of layers) if (!found.has(l)) found.set(l, { factor: f, node: factorNode, divide });
    };
    walkTree(this.tree.root, (n) => {
      if (n.type === 'call') {
        const fn = childByField(n, 'function');
        if (!fn || fn.type !== 'attribute') return;
        const method = this.text(childByField(fn, 'attribute') ?? fn);
        if (method !== 'mul_' && method !== 'div_') return;
        const args = childByField(n, 'arguments');
        record(childByField(fn, 'object'), args ? namedChildren(args).find((a) => a.type !== 'keyword_argument') : undefined, method === 'div_', n);
      } else if (n.type === 'augmented_assignment') {
        const op = operatorText(this.tree, n);
        if (op === '*=' || op === '/=') record(childByField(n, 'left'), childByField(n, 'right'), op === '/=', n);
      } else if (n.type === 'assignment') {
        const left = childByField(n, 'left');
        const right = childByField(n, 'right');
        const b = right ? unparen(right) : undefined;
        if (!left || !b || b.type !== 'binary_operator') return;
        const op = operatorText(this.tree, b);
        const l = childByField(b, 'left');
        const r = childByField(b, 'right');
        const same = (x: PyNode | undefined): boolean => !!x && this.text(unparen(x)) === this.text(unparen(left));
        if (op === '*' && same(l)) record(left, r, false, n);
        else if (op === '*' && same(r)) record(left, l, false, n);
        else if (op === '/' && same(l)) record(left, r, true, n);
      }
    });
    return found;
  }

  classAttrDefs(cls: ClassInfo, name: string, seen?: Set<ClassInfo>): Def[] {
    if (seen?.has(cls)) return [];
    const own = cls.attrDefs.get(name);
    if (own && own.length > 0) return own;
    seen ??= new Set<ClassInfo>(); // only when the bases are searched (most attributes are the class's own)
    seen.add(cls);
    for (const base of this.baseClasses(cls)) {
      const d = this.classAttrDefs(base, name, seen);
      if (d.length > 0) return d;
    }
    return [];
  }

  classMethod(cls: ClassInfo, name: string, seen?: Set<ClassInfo>): Scope | undefined {
    if (seen?.has(cls)) return undefined;
    const m = cls.methods.get(name);
    if (m) return m;
    seen ??= new Set<ClassInfo>();
    seen.add(cls);
    for (const base of this.baseClasses(cls)) {
      const r = this.classMethod(base, name, seen);
      if (r) return r;
    }
    return undefined;
  }

  private baseClasses(cls: ClassInfo): ClassInfo[] {
    const owner = this.ownerOf(cls.scope);
    if (owner !== this) return owner ? owner.baseClasses(cls) : [];
    const out: ClassInfo[] = [];
    for (const b of cls.bases) {
      if (b.type === 'attribute' && this.link) {
        // A base class read through an imported module of the workspace (`import pkg.layers as L`, `L.AttentionBase`;
        // `from . import layers`, `layers.AttentionBase`).
        const v = this.eval(b, this.defaultCtx(this.sr.module));
        if (v.kind === 'class' && v.cls) out.push(v.cls);
        continue;
      }
      if (b.type !== 'identifier') continue;
      const defs = this.resolve(b, text(this.tree, b));
      for (const d of defs ?? []) {
        if (d.kind === 'classdef' && d.defines?.classInfo) out.push(d.defines.classInfo);
        else if (d.kind === 'import' && this.link) {
          // A base class imported from another workspace file (`from .modeling_utils import PreTrainedModel`).
          const v = this.evalDef(d, this.defaultCtx(this.sr.module));
          if (v.kind === 'class' && v.cls) out.push(v.cls);
        }
      }
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------- defs

  /**
   * The context a definition read in `ctx` is evaluated in: its own function's context (ctx when it is that
   * function's, else the function's default one). In a comprehension element's context (Ctx.element) only the
   * comprehension's own for-clause definitions are read there; every other one is read in the enclosing context.
   */
  private defCtx(def: Def, ctx: Ctx): Ctx {
    let c = ctx;
    while (c.element && !(def.kind === 'comp' && within(def.target, c.element.node))) c = c.element.outer;
    const scope = this.ctxScope(def.scope);
    return scope === c.scope ? c : this.defaultCtx(scope);
  }

  evalDef(def: Def, ctx: Ctx): AValue {
    const c = this.defCtx(def, ctx);
    let m = this.defMemo.get(c.id);
    if (!m) {
      m = new Map();
      this.defMemo.set(c.id, m);
    }
    const hit = m.get(def.id);
    if (hit) return hit === IN_PROGRESS ? this.cycleTo(def, c.id) : hit;
    const open = this.cycleFloor !== Infinity ? this.openCycleDefs.get(c.id)?.get(def.id) : undefined;
    if (open) return open;
    m.set(def.id, IN_PROGRESS);
    const frame = this.frames.length;
    this.frames.push(def);
    this.frameCtxs.push(c.id);
    let v: AValue;
    try {
      v = this.evalDefUncached(def, c);
      v = this.applyStatedShape(def, v);
      if (def.kind !== 'param' && def.kind !== 'import' && def.kind !== 'funcdef' && def.kind !== 'classdef') v = this.nameRole(v, def.name);
    } catch (e) {
      m.delete(def.id);
      throw e;
    } finally {
      this.frames.pop();
      this.frameCtxs.pop();
    }
    if (this.cycleFloor < frame) {
      m.delete(def.id);
      mapOf(this.openCycleDefs, c.id).set(def.id, v);
      return v;
    }
    m.set(def.id, v);
    this.closeCycle();
    return v;
  }

  /**
   * Cycles (a name read in the loop that redefines it: `for ...: m = rearrange(m, ...); m = m.any(-1)`): the read
   * of a value still being computed gives CYCLIC, and every value computed from it, up to the frame it points back
   * to, is provisional: not memoised for good (else the first definition evaluated inside the cycle would keep a
   * value computed without the loop's entry value), only until that frame is done. Values of one open cycle are
   * shared (so a cycle costs one evaluation, not one per read); once the frame the cycle returns to is done, they
   * are dropped and computed again on their next read, from the finished value.
   */
  private readonly frames: (PyNode | Def)[] = [];
  private readonly frameCtxs: number[] = [];
  private cycleFloor = Infinity;
  private readonly openCycleNodes = new Map<number, Map<number, AValue>>();
  private readonly openCycleDefs = new Map<number, Map<number, AValue>>();

  /** The definition's value was computed from a value still being computed (inside an open cycle). */
  private provisional(def: Def, ctx: Ctx): boolean {
    if (this.cycleFloor === Infinity) return false;
    const c = this.defCtx(def, ctx);
    return this.openCycleDefs.get(c.id)?.has(def.id) === true;
  }

  private cycleTo(target: PyNode | Def, ctxId: number): AValue {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      if (this.frames[i] === target && this.frameCtxs[i] === ctxId) {
        if (i < this.cycleFloor) this.cycleFloor = i;
        break;
      }
    }
    return CYCLIC;
  }

  /** A frame at or below every open cycle's target is done: the cycle is closed and its provisional values go. */
  private closeCycle(): void {
    if (this.cycleFloor === Infinity || this.cycleFloor < this.frames.length) return;
    this.cycleFloor = Infinity;
    this.openCycleNodes.clear();
    this.openCycleDefs.clear();
  }

  private evalDefUncached(def: Def, ctx: Ctx): AValue {
    switch (def.kind) {
      case 'assign':
      case 'walrus':
      case 'with':
      case 'buffer': {
        const v = unpack(this.eval(def.value, ctx), def.path, def.star, unpackArity(def));
        // `past_k, past_v = layer_past`: the pieces unpacked from a KV cache are cached keys and values.
        if (def.path.length === 1 && !def.star && def.value && isCacheName(rootName(this, def.value) ?? '') && (v.kind === 'tensor' || v.kind === 'unknown'))
          // (a cache a caller passes whose items are not known, `zip(self.layers, past_key_values)`, still holds cached keys)
          return v.kind === 'unknown' ? { ...v, kind: 'tensor' as const, fromCache: true } : markFromCache(v);
        return v;
      }
      case 'for':
      case 'comp': {
        // One element of a comprehension over known elements: the variable is that element (Ctx.element).
        const el = ctx.element;
        if (def.kind === 'comp' && el && def.value === el.iterable) return unpack(el.value, def.path, def.star);
        // `for i in range(n)` / `for i, x in enumerate(xs)`: counters are numbers, whatever their name.
        const it = def.value ? unparen(def.value) : undefined;
        const fnNode = it?.type === 'call' ? childByField(it, 'function') : undefined;
        const fn = fnNode ? text(this.tree, fnNode) : '';
        if (fn === 'range' || (fn === 'enumerate' && def.path[0] === 0)) return number();
        // `for i, (q, k, v, mask) in enumerate(reversed(levels))`: the items of the list iterated, in any order.
        if (fn === 'enumerate' && def.path[0] === 1 && it) {
          const items = this.iteratedList(it);
          if (items) return unpack(elementOf(this.eval(items, ctx)), def.path.slice(1), def.star);
        }
        // `for q, k, v, mask in reversed(levels)`: the same items.
        const items = it && fn !== 'enumerate' ? this.iteratedList(it) : undefined;
        if (items && items !== it) return unpack(elementOf(this.eval(items, ctx)), def.path, def.star);
        return unpack(elementOf(this.eval(def.value, ctx)), def.path, def.star);
      }
      case 'aug': {
        // The definitions before it that can reach it here: one in an arm this call cannot take (`bias.masked_fill_(...)`
        // under `if is_causal:`, called with is_causal=False) is none, as for any read of the name (liveInCtx).
        const prev = joinAll(liveInCtx(this, def.prev ?? [], ctx).map((d) => this.evalDef(d, ctx)));
        const rhs = this.eval(def.value, ctx);
        return callOperator(this, def.op ?? '', prev, rhs, def.target, def.value, def.target, ctx);
      }
      case 'inplace': {
        const filled = this.eval(def.value, ctx);
        // Through a view (`scores.view(B, H, T, S).masked_fill_(...)`): the base tensor, in its own layout, with the
        // operations the fill added (its masking) on its paths.
        const fn = def.value && def.value.type === 'call' ? childByField(def.value, 'function') : undefined;
        const recv = fn?.type === 'attribute' ? childByField(fn, 'object') : undefined;
        if (!recv || viewBase(this.tree, unparen(recv)) === unparen(recv)) return filled;
        const base = joinAll((def.prev ?? []).map((d) => this.evalDef(d, ctx)));
        if (base.kind !== 'tensor' || filled.kind !== 'tensor') return filled;
        return filled.ops ? { ...base, ops: filled.ops } : base;
      }
      case 'setitem':
        return this.evalSetItem(def, ctx);
      case 'param':
        return this.paramValue(def, ctx);
      case 'import': {
        const ws = importedValue(this, def);
        if (ws) return ws;
        // A relative import outside a workspace: only the imported name is known.
        const parts = def.importFrom && def.importFrom.level > 0 ? (def.importPath ?? []).slice(def.importFrom.moduleParts) : (def.importPath ?? []);
        const qname = canonicalQualifiedName(parts.join('.'));
        // `from numpy import inf`: the constant, as `np.inf` is (not a relative import of a name of one's own).
        return (!def.importFrom || def.importFrom.level === 0 ? opsImpl.moduleConstant(qname) : undefined) ?? { kind: 'module', qname };
      }
      case 'funcdef':
        return def.defines ? { kind: 'function', fn: { scope: def.defines } } : UNKNOWN;
      case 'classdef':
        return def.defines?.classInfo ? { kind: 'class', cls: def.defines.classInfo } : UNKNOWN;
      default:
        return UNKNOWN;
    }
  }

  /**
   * The list whose items `enumerate(...)` / `reversed(...)` / `list(...)` go through (`enumerate(reversed(xs))` → xs),
   * the node itself for anything else; undefined for an `enumerate` with no argument.
   */
  private iteratedList(node: PyNode): PyNode | undefined {
    let n = unparen(node);
    for (;;) {
      const fnNode = n.type === 'call' ? childByField(n, 'function') : undefined;
      const fn = fnNode ? text(this.tree, fnNode) : '';
      if (fn !== 'enumerate' && fn !== 'reversed' && fn !== 'list' && fn !== 'tuple') return n;
      const first = namedChildren(childByField(n, 'arguments') ?? n).find((a) => a.type !== 'keyword_argument');
      if (!first) return fn === 'enumerate' ? undefined : n;
      n = unparen(first);
    }
  }

  /** `x[idx] = value`: masking by index assignment keeps x's facts and records a mask op when it fills. */
  private evalSetItem(def: Def, ctx: Ctx): AValue {
    const prev = joinAll((def.prev ?? []).map((d) => this.evalDef(d, ctx)));
    const assign = def.value;
    const rhs = assign ? childByField(assign, 'right') : undefined;
    if (!rhs) return prev;
    const fill = this.eval(rhs, ctx);
    const region = this.keptRegion(prev, def.target, fill, ctx);
    if (region) return region;
    const copied = copiedIntoZeros(prev, fill);
    if (copied) return copied;
    const edited = editedTriangle(prev, def.target, fill);
    if (edited) return edited;
    const placed = triangleIntoZeros(this.tree, prev, def.target, fill);
    if (placed) return placed;
    return overwrittenOnes(setItemFill(this, prev, def.target, rhs, fill, ctx), fill, this.text(unparen(rhs)));
  }

  /**
   * A padding mask built by filling each example's region in a loop over the batch: `mask = zeros(B, Lq, Lk);
   * mask[i, :len_q[i], :len_k[i]] = 1` (set-transformer style) is a keep mask whose padding runs along every axis cut
   * by a `:n` slice, so with a query-side cut every padded query row is fully masked. The other fills read the same
   * way from what the slices cover, written per example (indexed by the loop's example, `m[i, ...]`): zeros with
   * True/1 written from each length on (`m[i, n:] = True`) mark the padding (ignore); ones with False/0 written from
   * each length on (`m[i, n:] = False`) keep the real positions, and ones with False/0 written before each length mark
   * the padding. A one-axis mask (`m = zeros(L); m[:n] = True`, one example's mask made in a helper) counts when its
   * bound is a value, not a literal.
   */
  private keptRegion(prev: AValue, target: PyNode, fill: AValue, ctx: Ctx): AValue | undefined {
    if (prev.kind !== 'tensor' || (!prev.zeros && !prev.ones) || prev.mask) return undefined;
    const rhsText = text(this.tree, unparen(childByField(target.parent ?? target, 'right') ?? target));
    const one = (fill.kind === 'number' && fill.num === 1) || (fill.kind === 'bool' && rhsText === 'True');
    const zero = (fill.kind === 'number' && fill.num === 0) || (fill.kind === 'bool' && rhsText === 'False');
    // What the fill writes against what was there: 1 on zeros or 0 on ones changes the slices' region.
    if (prev.zeros ? !one : !zero) return undefined;
    const subs = namedChildren(target).filter((c) => c.field === 'subscript');
    // Every axis indexed; a rank the code does not state (`zeros(max_len)`, max_len a parameter) is taken as one axis only
    // for a single index, and then which axis is padded is left unknown.
    if (subs.length === 0 || (prev.ndim === undefined ? subs.length !== 1 : subs.length !== prev.ndim)) return undefined;
    const rank = prev.ndim;
    // A fixed row (`mask[-1, :M] = True`, the summary query barred from the memory keys) marks one region, not each
    // example's lengths: what its 1s mean is not known from the construction.
    if (subs.some((s) => s.type === 'integer' || (s.type === 'unary_operator' && namedChildren(s)[0]?.type === 'integer'))) return undefined;
    // A range with both ends on any axis (`m[r0:r1, :c] = True`, a block of rows barred from the first keys: DN-DETR's
    // denoising-group mask) marks a block, not each example's positions up to its length.
    if (subs.some((s) => s.type === 'slice' && interiorRange(text(this.tree, s)))) return undefined;
    // `before`: the slice covers each example's tokens (`:n`, or `W - len(s):` right-aligned); `past`: its padding.
    const before: number[] = [];
    const past: number[] = [];
    let rightAligned = false;
    let unclear = false;
    let boundName: string | undefined;
    subs.forEach((s, i) => {
      if (s.type !== 'slice') return;
      const parts = namedChildren(s);
      const t = text(this.tree, s).replace(/\s+/g, '');
      if (parts.length !== 1) return;
      // One axis alone: a literal bound is a fixed region (`m[:1] = True`), not a length.
      if (subs.length === 1 && parts[0]?.type === 'integer') return;
      // A bound counted back from the end: `W - len(s)` / `-len(s)` starts each example's tokens written
      // right-aligned (left padding), so `W - len(s):` covers the tokens and `:W - len(s)` the padding; a bound minus
      // anything else (`L - pad_len`, `-n`) may count the tokens or the padding: no region is known.
      const bound = parts[0];
      boundName ??= bound ? /^[\w.]+/.exec(text(this.tree, bound))?.[0] : undefined;
      const fromEnd = bound ? readBound(this.tree, bound, () => countedFromEnd(boundCount(this, bound, ctx))) : undefined;
      if (fromEnd === 'unclear') unclear = true;
      if (fromEnd === 'len') rightAligned = true;
      const inside = fromEnd === 'len' ? t.endsWith(':') : t.startsWith(':');
      // `:n` (starts at 0, ends at a per-example length) or `n:` (from the length to the end)
      if (t.startsWith(':') || t.endsWith(':')) (inside ? before : past).push(i - subs.length);
    });
    if (unclear) return undefined;
    // Slices of both kinds in one fill (`m[i, :n, n:]`) mark no one region.
    if ((before.length === 0) === (past.length === 0)) return undefined;
    // Other than 1s up to a length in zeros, a write over several axes counts only per example, in a loop over the
    // batch (`m[i, n:] = True`): `t[:, :, :n_sink] = 0` on ones drops a fixed number of leading keys for every row, and
    // its 1s are the keys kept, not padding.
    const usual = prev.zeros && before.length > 0;
    if (!usual && subs.length > 1 && !subs.some((s) => s.type === 'identifier')) return undefined;
    const padAxes = rank === undefined ? undefined : before.length > 0 ? before : past;
    // 1 inside the lengths (zeros, `:n` = 1; ones, `n:` = 0) keeps; 1 past them marks the padding.
    const keep = prev.zeros ? before.length > 0 : past.length > 0;
    const written = `\`${text(this.tree, target)} = ${prev.zeros && before.length > 0 ? '1' : rhsText}\``;
    const why = rightAligned
      ? prev.zeros
        ? msg(keep ? PHRASES.onesOnRightAligned : PHRASES.onesBeforeRightAligned, written)
        : msg(keep ? PHRASES.zerosBeforeRightAligned : PHRASES.zerosOnRightAligned, written)
      : prev.zeros
        ? msg(keep ? PHRASES.onesInsideLengths : PHRASES.onesPastLengths, written)
        : msg(keep ? PHRASES.zerosPastLengths : PHRASES.zerosInsideLengths, written);
    const { zeros: _zeros, ones: _ones, ...rest } = prev;
    const polarity = keep ? 'keep' : 'ignore';
    const filledInto = { base: prev.zeros ? 'zeros' : 'ones', polarity } as const;
    return {
      ...rest,
      mask: { polarity, padding: true, ...(padAxes ? { padAxes } : {}), dtype: prev.dtype ?? 'float', why, filledInto, lengthBound: boundName ?? '' },
    };
  }

  private paramValue(def: Def, ctx: Ctx): AValue {
    const p = def.param!;
    const bound = ctx.bindings?.get(p.name);
    if (bound) return this.conventionOfUses(def, bound);
    const scope = def.scope;
    if (scope.selfName === p.name && scope.ownerClass) return { kind: 'object', object: { cls: scope.ownerClass } };
    const batch = this.stepHookBatch(def, ctx);
    if (batch) return batch;
    const v = this.unboundParamValue(def, ctx);
    // With no caller in view the parameter may be anything a caller passes, None included.
    return ctx.defaultsHold || v.kind === 'unknown' ? v : { ...v, unbound: true };
  }

  /**
   * A mask whose keep convention comes only from a name (`attention_mask`, here or in a caller) against two uses
   * of the parameter in its own function that agree with each other: it fills where the mask is True and inverts
   * it for another consumer (`~attention_mask` to SDPA on a fast path). Both would be wrong under the name's
   * convention; the code's convention decides. One use alone (the fill of a bug) does not.
   */
  private conventionOfUses(def: Def, v: AValue): AValue {
    if (v.kind !== 'tensor' || !v.mask?.byName || v.mask.polarity !== 'keep' || v.mask.additive) return v;
    let used = this.usedConvention.get(def.id);
    if (used === undefined) {
      const byFill = polarityByFill(this, def.scope, def, def.param!.name);
      used = byFill && invertsParam(this, def.scope, def) ? byFill : null;
      this.usedConvention.set(def.id, used);
    }
    return used ? { ...v, mask: { ...v.mask, ...used } } : v;
  }

  /**
   * The `batch` of a training loop's step hook (`training_step(self, batch, batch_idx)`, and the validation, test and
   * predict ones): the loop calls it with each batch of the DataLoader the same class's hook returns
   * (`train_dataloader()`, ...), so when the class defines that hook, the batch is what its loader yields (a collate
   * function's dict, read back by key). Undefined when the class has no such hook or its loader is not understood.
   */
  private stepHookBatch(def: Def, ctx: Ctx): AValue | undefined {
    const scope = def.scope;
    const cls = scope.ownerClass;
    const hook = cls && Object.hasOwn(STEP_HOOK_LOADERS, scope.name) ? STEP_HOOK_LOADERS[scope.name] : undefined;
    if (!cls || !hook || !scope.selfName || def.param?.index !== 1) return undefined;
    const loader = this.classMethod(cls, hook);
    if (!loader || loader.params.length !== 1) return undefined;
    const self: AValue = { kind: 'object', object: { cls } };
    const batches = this.callWithValues({ kind: 'function', fn: { scope: loader, self } }, [], def.param.node, ctx);
    // dataLoaderBatches: a sequence whose one element stands for every batch.
    const batch = batches.kind === 'tuple' && batches.elements?.length === 1 ? batches.elements[0] : undefined;
    return batch && (batch.kind !== 'unknown' || batch.kwargs !== undefined) ? batch : undefined;
  }

  private unboundParamValue(def: Def, ctx: Ctx): AValue {
    const p = def.param!;
    const scope = def.scope;
    if (p.kind === 'star') return { kind: 'tuple' };
    if (p.kind === 'kwstar') return UNKNOWN;
    // A parameter whose shape a comment or docstring states is a tensor, whatever its name suggests.
    const annotated = this.annotatedClass(p.node);
    if (annotated) return { kind: 'object', object: { cls: annotated } };
    let v = this.valueFromParamName(p.name, p.node, scope.name === '__init__');
    if (v.kind !== 'tensor' && (this.sr.rankFacts.has(def.id) || this.commentShapes(this.ctxScope(scope)).byName.has(p.name))) v = this.tensorFromName(p.name);
    v = this.applyParamDoc(scope, p.name, v);
    // A mask whose name says nothing about its meaning: the function's own masked_fill may state it.
    if (v.kind === 'tensor' && v.mask?.byName && !v.mask.polarity && !v.mask.additive) {
      const used = polarityByFill(this, scope, def, p.name);
      if (used) v = { ...v, mask: { ...v.mask, ...used } };
    } else v = this.conventionOfUses(def, v);
    if (v.kind === 'tensor' && !v.role) v = this.nameRole(v, p.name);
    if (v.kind === 'tensor' && !v.tokenIds && !v.mask && this.embeddedParam(def)) v = { ...v, tokenIds: true };
    if (p.default) {
      const d = this.eval(p.default, this.defaultCtx(scope.parent ?? scope));
      // A call that leaves the parameter out passes its default: a flag's literal, None (a mask, a cache). A size
      // defaulting to None is filled in below (`if d_k is None: d_k = n_channels`) and stays the optional number it
      // was: which width it ends up as is not settled by the call.
      if (ctx.defaultsHold && (d.kind === 'bool' || (d.kind === 'none' && v.kind !== 'number'))) return d;
      // Elsewhere a flag's default says nothing of what callers pass.
      if (d.kind === 'bool') return { kind: 'bool', flagParam: { name: p.name, ...(d.truth !== undefined ? { default: d.truth } : {}) } };
      if (d.kind === 'none') v = { ...v, maybeNone: true };
      else if (d.kind === 'number') v = v.kind === 'number' ? { ...d, ...v, num: d.num } : d;
      else if (d.kind === 'string') v = d;
    }
    return v;
  }

  /**
   * A parameter its own function hands, as it is, to an embedding table (`self.embed(trg)` with `self.embed =
   * nn.Embedding(...)`, a Keras `Embedding` or a Flax `Embed`): the code shows it holds token ids, whatever its
   * name (`trg`, `smiles`, `chars`), so `trg == 0` compares them with the padding id as `input_ids == 0` does.
   */
  private embeddedParam(def: Def): boolean {
    // Only calls of names the file assigns an embedding table to (`nn.Embedding(`, `layers.Embedding(`, `nn.Embed(`)
    // are evaluated; a file that builds none is not searched.
    // (A match starts at a word boundary: the leftmost match does anyway, and the engine need not try each letter.)
    this.embeddingNames ??= this.tree.source.includes('Embed')
      ? new Set([...this.tree.source.matchAll(/\b(\w+)\s*=\s*(?:[\w.]+\.)?Embed(?:ding)?\s*\(/g)].flatMap((m) => (m[1] ? [m[1]] : [])))
      : new Set<string>();
    const names = this.embeddingNames;
    if (names.size === 0) return false;
    const cached = this.embeddedParams.get(def.id);
    if (cached !== undefined) return cached;
    this.embeddedParams.set(def.id, false);
    const scope = def.scope;
    const name = def.param!.name;
    const body = childByField(scope.node, 'body');
    let found = false;
    if (body && new RegExp(`\\(\\s*${name}\\s*\\)`).test(text(this.tree, body))) {
      walkTree(body, (n) => {
        if (found) return false;
        if (n.type !== 'call') return true;
        const args = namedChildren(childByField(n, 'arguments') ?? n);
        const a0 = args.length === 1 ? args[0] : undefined;
        if (a0?.type !== 'identifier' || text(this.tree, a0) !== name || !(this.sr.uses[a0.id] ?? []).includes(def)) return true;
        const f = childByField(n, 'function');
        const last = f?.type === 'attribute' ? childByField(f, 'attribute') : f;
        if (!f || !last || !names.has(text(this.tree, last))) return true;
        const callee = this.eval(f, this.defaultCtx(scope));
        if (callee.kind === 'layer' && callee.layer && EMBEDDING_LAYERS.has(callee.layer.api)) found = true;
        return !found;
      });
    }
    this.embeddedParams.set(def.id, found);
    return found;
  }

  /** What a parameter's name (and annotation) says about its value. */
  private valueFromParamName(name: string, nameNode: PyNode, inInit = false): AValue {
    const annotation = nameNode.parent ? childByField(nameNode.parent, 'type') : undefined;
    const ann = annotation ? text(this.tree, annotation) : '';
    const sizeLike = (): AValue => {
      if (isHeadCountName(name)) return number({ headCount: true });
      if (isScaleName(name)) return number({ scaleName: name });
      const dim = dimOfName(name) ?? { which: 'unknown' as const, text: name };
      return number({ dimPow: { dim, power: 1 } });
    };
    if (/^int\b/.test(ann)) return sizeLike();
    if (/^float\b/.test(ann)) {
      const dim = dimOfName(name);
      return number({ ...(dim ? { dimPow: { dim, power: 1 } } : {}), ...(isScaleName(name) ? { scaleName: name } : {}) });
    }
    if (/^bool\b/.test(ann)) return { kind: 'bool' };
    // A configuration object (`config`, `cfg`, `args`, `attn_config`): its fields are read by name
    // (`config.hidden_size` is the model width, `config.num_attention_heads` a head count), it is no size itself.
    if (!ann && isConfigName(name)) return UNKNOWN;
    // Constructor parameters are sizes and flags unless their name says tensor or mask.
    if (inInit && !ann && !roleOfName(name) && !maskOfName(name) && !/mask|tensor|weight|emb(edding)?s?$/.test(name)) return sizeLike();
    if (/^str\b/.test(ann)) return { kind: 'string' };
    const isTensorAnn = /Tensor|ndarray|Array/.test(ann);
    if (!isTensorAnn) {
      const dim = dimOfName(name);
      if (dim) return number({ dimPow: { dim, power: 1 } });
      if (isScaleName(name)) return number({ scaleName: name });
      if (isHeadCountName(name)) return number({ headCount: true });
      if (/^(dim|axis|eps|dropout|p|training|causal|is_causal|bias|config|cfg|args|kwargs)$/.test(name)) return UNKNOWN;
    }
    return this.tensorFromName(name, ann);
  }

  /** `cache: ContiguousCache` / `Optional[KVCache]` where the class is defined in this file or imported from a workspace file. */
  private annotatedClass(nameNode: PyNode): ClassInfo | undefined {
    const annotation = nameNode.parent ? childByField(nameNode.parent, 'type') : undefined;
    if (!annotation) return undefined;
    const m = /^(?:Optional\[)?([A-Za-z_]\w*)\]?$/.exec(text(this.tree, annotation).replace(/\s+/g, ''));
    if (!m) return undefined;
    const defs = this.sr.module.envAtEnd.get(m[1] ?? '');
    const d = defs && defs.length === 1 ? defs[0] : undefined;
    if (d?.kind === 'import' && this.link) {
      // A class imported from another workspace file (`cfg: AttnConfig` from config.py).
      const v = this.evalDef(d, this.defaultCtx(this.sr.module));
      return v.kind === 'class' ? v.cls : undefined;
    }
    return d?.kind === 'classdef' ? d.defines?.classInfo : undefined;
  }

  /** What the function's comments or docstring say a mask parameter means ("mask: (B, N) bool, True = padding"). */
  private applyParamDoc(scope: Scope, name: string, v: AValue): AValue {
    if (v.kind !== 'tensor') return v;
    const doc = paramDoc(this.commentShapes(this.ctxScope(scope)).block, name);
    if (!doc) return v;
    const m = maskFromDoc(doc);
    // A parameter whose name does not say mask (`valid`, `pad`, `keep`) counts when its description states a
    // boolean mask in True/False words ("bool (B, S), True at padding"), not a 0/1 that could be any number.
    if (!/mask/i.test(name) && !(m.polarity && /\b(True|False)\b/.test(doc) && (m.dtype === 'bool' || /\bmask\b/i.test(doc)))) return v;
    if (m.additive && !m.polarity) return { ...v, mask: { additive: true, dtype: 'float', why: msg(PHRASES.documentedAdditive, `\`${name}\``) } };
    if (!m.polarity) return m.dtype && v.mask ? { ...v, mask: { ...v.mask, dtype: m.dtype } } : v;
    return {
      ...v,
      ...(m.dtype ? { dtype: m.dtype } : {}),
      mask: {
        polarity: m.polarity,
        dtype: m.dtype,
        padding: v.mask?.padding,
        padAxes: v.mask?.padAxes,
        documented: true,
        why: msg(m.polarity === 'keep' ? PHRASES.documentedKeep : PHRASES.documentedIgnore, `\`${name}\``, `\`${doc.trim().slice(0, 60).replace(/`/g, "'")}\``),
      },
    };
  }

  /** A tensor parameter: its role, mask polarity and token-id-ness as its name states them. */
  private tensorFromName(name: string, ann = ''): AValue {
    const mask = maskOfName(name);
    const role = roleOfName(name);
    return tensor({
      ...(mask ? { mask } : {}),
      ...(role ? { role, roleText: name } : {}),
      ...(isTokenIdsName(name) ? { tokenIds: true } : {}),
      ...(/Optional|None/.test(ann) ? { maybeNone: true } : {}),
    });
  }

  /** Rank stated by `B, T, C = x.size()` or by a shape comment, for values whose rank is otherwise unknown. */
  private applyStatedShape(def: Def, v: AValue): AValue {
    if (v.kind !== 'tensor' && v.kind !== 'unknown') return v;
    if (v.ndim !== undefined) return v;
    const rank = this.sr.rankFacts.get(def.id);
    let axes: AxisInfo[] | undefined;
    if (def.kind === 'param') axes = this.commentShapes(this.ctxScope(def.scope)).byName.get(def.name);
    else if (def.kind === 'assign' || def.kind === 'aug' || def.kind === 'inplace') axes = this.trailingShapeFor(def);
    if (axes && axes[0]?.sizeText === '...') {
      // Only the trailing axes are stated: the features are last when the last one is a feature size.
      const last = axes[axes.length - 1];
      const t = v.kind === 'unknown' ? tensor() : v;
      return last?.label === 'feat' ? { ...t, featLast: true } : t;
    }
    if (axes && (rank === undefined || rank === axes.length)) return withRank(v.kind === 'unknown' ? tensor() : v, axes.length, axes);
    if (rank !== undefined) {
      // `B, T, C = x.shape`: the first axis is named as the batch.
      const named = this.sr.batchFirst.has(def.id) ? Array.from({ length: rank }, (_, i): AxisInfo => (i === 0 ? { label: 'batch' } : {})) : undefined;
      return withRank(v.kind === 'unknown' ? tensor() : v, rank, named);
    }
    return v;
  }

  private trailingShapeFor(def: Def): AxisInfo[] | undefined {
    if (!this.trailingShapes) {
      const map = new Map<number, AxisInfo[]>();
      for (const n of this.tree.comments) {
        const axes = trailingCommentShape(text(this.tree, n));
        if (axes) map.set(this.lines.position(n.start).line, axes);
      }
      this.trailingShapes = map;
    }
    // The comment sits on the line where the statement ends; only single-target assignments qualify.
    if (def.path.length > 0) return undefined;
    const stmtEnd = def.value ? def.value.end : def.target.end;
    return this.trailingShapes.get(this.lines.position(stmtEnd).line);
  }

  private commentsByDefCache: Map<number, string> | undefined;
  /** Comment text grouped by the nearest enclosing def/class node (one pass over all comments). */
  private commentsByDef(): Map<number, string> {
    if (!this.commentsByDefCache) {
      const m = new Map<number, string>();
      for (const n of this.tree.comments) {
        let p = n.parent;
        while (p && p.type !== 'function_definition' && p.type !== 'class_definition') p = p.parent;
        if (!p) continue;
        m.set(p.id, (m.get(p.id) ?? '') + text(this.tree, n) + '\n');
      }
      this.commentsByDefCache = m;
    }
    return this.commentsByDefCache;
  }

  private commentShapes(scope: Scope): { byName: Map<string, AxisInfo[]>; block: string } {
    const hit = this.commentShapeCache.get(scope.id);
    if (hit) return hit;
    let block = '';
    const body = childByField(scope.node, 'body');
    if (body) {
      // Comments right after `def f():` sit beside the body in tree-sitter's tree: take every comment whose
      // nearest enclosing def is this one.
      block += this.commentsByDef().get(scope.node.id) ?? '';
      const first = firstNamedChild(body);
      if (first && first.type === 'expression_statement') {
        const s = firstNamedChild(first);
        if (s && s.type === 'string') block += text(this.tree, s) + '\n';
      }
    }
    const r = { byName: namedShapes(block), block };
    this.commentShapeCache.set(scope.id, r);
    return r;
  }

  // ---------------------------------------------------------------------------------------------- calls

  private evalCall(node: PyNode, ctx: Ctx): AValue {
    const fnNode = childByField(node, 'function');
    if (!fnNode) return UNKNOWN;
    const args = this.argsOf(node);
    const f = unparen(fnNode);
    if (f.type === 'attribute') {
      const objNode = childByField(f, 'object');
      const attrNode = childByField(f, 'attribute');
      if (!objNode || !attrNode) return UNKNOWN;
      const attr = text(this.tree, attrNode);
      const local = this.sr.uses[f.id];
      if (local && local.length > 0) {
        // self.fn = something assigned in this method, then called.
        const callee = joinAll(local.map((d) => this.evalDef(d, ctx)));
        return this.applyValue(callee, f, node, args, ctx);
      }
      const base = this.apiBaseOfSuper(objNode, attr, ctx);
      if (base) return opsImpl.callLayerMethod(this, { node, ctx, args, name: attr, recv: base, recvNode: objNode, calleeNode: f });
      const recv = this.eval(objNode, ctx);
      const call: Call = { node, ctx, args, name: attr, recv, recvNode: objNode, calleeNode: f };
      return this.callOnValue(call);
    }
    const callee = this.eval(f, ctx);
    return this.applyValue(callee, f, node, args, ctx);
  }

  /**
   * `super().call(...)` / `super().forward(...)` / `super().__call__(...)` in a class deriving from a library attention
   * layer (`class PaddedMHA(keras.layers.MultiHeadAttention)`, `class MyMHA(nn.MultiheadAttention)`): that layer's call,
   * with its mask conventions (the API table's). The layer as a base class names it; undefined for any other base.
   */
  private apiBaseOfSuper(objNode: PyNode, attr: string, ctx: Ctx): AValue | undefined {
    if (attr !== 'call' && attr !== 'forward' && attr !== '__call__') return undefined;
    const o = unparen(objNode);
    const fn = o.type === 'call' ? childByField(o, 'function') : undefined;
    if (!fn || fn.type !== 'identifier' || text(this.tree, fn) !== 'super') return undefined;
    let cls: PyNode | null = o.parent;
    while (cls && cls.type !== 'class_definition') cls = cls.parent;
    const supers = cls ? childByField(cls, 'superclasses') : undefined;
    if (!supers) return undefined;
    for (const b of namedChildren(supers)) {
      if (b.type === 'keyword_argument') continue;
      const v = this.eval(b, ctx);
      if (v.kind !== 'module' || !v.qname || isWorkspaceModule(v)) continue;
      const layer = this.applyValue(v, b, o, emptyArgs(), ctx);
      if (layer.kind === 'layer' && layer.layer && MASK_LAYERS[layer.layer.api]) return layer;
    }
    return undefined;
  }

  /** `recv.name(args)` for any receiver kind. */
  private callOnValue(c: Call): AValue {
    const recv = c.recv!;
    if (isWorkspaceModule(recv)) {
      const fn = workspaceAttribute(this, recv, c.name);
      return fn && c.calleeNode ? this.applyValue(fn, c.calleeNode, c.node, c.args, c.ctx) : UNKNOWN;
    }
    if (recv.kind === 'module' && recv.qname) {
      return opsImpl.callQualified(this, canonicalQualifiedName(`${recv.qname}.${c.name}`), { ...c, recv: undefined, recvNode: undefined });
    }
    if (recv.kind === 'object' && recv.object) {
      const method = this.classMethod(recv.object.cls, c.name);
      if (method) {
        const r = this.callFunction(method, c.node, c.args, c.ctx, recv);
        // Methods of a KV cache (`cache.update(k, v)`, `kv_cache.update_and_fetch(...)`) return cached keys/values.
        return isCacheName(recv.object.cls.name) || isCacheName(c.recvNode ? this.text(c.recvNode) : '') ? markFromCache(r) : r;
      }
      const attr = this.attributeOfObject(recv, c.name);
      // `Encoder(vocab=1000).to(device).eval()`: a method the class inherits from its framework base class
      // (it defines no such method or attribute) that returns the module itself keeps the instance.
      if ((!attr || attr.kind === 'unknown') && RETURNS_THE_MODULE.has(c.name) && recv.object.cls.bases.length > 0) return recv;
      const out =
        attr && attr.kind !== 'unknown' && attr.kind !== 'tensor'
          ? this.applyValue(attr, c.calleeNode!, c.node, c.args, c.ctx)
          : opsImpl.callUnknownLayer(this, c);
      return this.scaledLayerOutput(recv.object.cls, c, out);
    }
    if (recv.kind === 'class' && recv.cls) {
      const method = this.classMethod(recv.cls, c.name);
      if (method) return this.callFunction(method, c.node, c.args, c.ctx);
      return UNKNOWN;
    }
    if (recv.kind === 'layer') return opsImpl.callLayerMethod(this, c);
    // `ys.append(attend(q, k, v, mask=m))`: the collected values are computed here, in this context (a helper's
    // call in the argument is a call site like any other).
    if (recv.kind !== 'tensor' && (c.name === 'append' || c.name === 'extend' || c.name === 'insert')) for (const a of c.args.positional) this.eval(a, c.ctx);
    return opsImpl.callMethod(this, c);
  }

  applyValue(callee: AValue, calleeNode: PyNode, node: PyNode, args: CallArgs, ctx: Ctx): AValue {
    switch (callee.kind) {
      case 'module':
        if (isWorkspaceModule(callee)) return UNKNOWN;
        return callee.qname ? opsImpl.callQualified(this, canonicalQualifiedName(callee.qname), { node, ctx, args, name: callee.qname, calleeNode }) : UNKNOWN;
      case 'function':
        if (callee.fn?.bound || callee.fn?.mapped) return this.callBound(callee.fn, node, args, ctx);
        if (callee.fn) return this.callFunction(callee.fn.scope, node, args, ctx, callee.fn.self);
        // One of several functions (`attn_fn = chunked_attention if flag else attention`): each runs as called here.
        return callee.fnChoices ? joinAll(callee.fnChoices.map((f) => this.callFunction(f.scope, node, args, ctx, f.self))) : UNKNOWN;
      case 'class':
        if (!callee.cls) return UNKNOWN;
        // An instance of a class of another file keeps its constructor call too (a node of this file): its methods run
        // in the class's own file with unknown constructor arguments, unless that file reads them from here
        // (importer-calls.ts: constructorArguments).
        return { kind: 'object', object: { cls: callee.cls, init: { call: node, ctx } } };
      case 'layer':
        return opsImpl.applyLayer(this, callee, { node, ctx, args, name: '', calleeNode });
      case 'object': {
        // One of several modules (`self.attention` built from one of two classes by a config switch): each whose forward
        // takes the call's arguments runs as called here.
        if (!callee.object)
          return callee.objectChoices
            ? joinAll(
                callee.objectChoices.map((o) => {
                  const f = this.classMethod(o.cls, 'forward') ?? this.classMethod(o.cls, '__call__') ?? this.classMethod(o.cls, 'call');
                  return f && acceptsCall(f, args) ? this.applyValue({ kind: 'object', object: o }, calleeNode, node, args, ctx) : UNKNOWN;
                }),
              )
            : UNKNOWN;
        const cls = callee.object.cls;
        const fwd = this.classMethod(cls, 'forward') ?? this.classMethod(cls, '__call__') ?? this.classMethod(cls, 'call');
        if (!fwd) return UNKNOWN;
        // A workspace class written as a Linear layer (its input times a weight shaped by its constructor): a projection.
        const first = args.hasSplat ? undefined : args.positional[0];
        const projected =
          first && args.positional.length === 1 ? opsImpl.userProjection(this, callee.object, fwd, this.eval(first, ctx), calleeNode) : undefined;
        return projected ?? this.callFunction(fwd, node, args, ctx, callee);
      }
      default: {
        const name = dottedName(this.tree, calleeNode);
        return opsImpl.callUnknown(this, { node, ctx, args, name: name ? name.join('.') : '', calleeNode });
      }
    }
  }

  /** Calls a function defined in this file: its return value in a context for this call site. */
  callFunction(scope: Scope, call: PyNode, args: CallArgs, ctx: Ctx, self?: AValue): AValue {
    if (!this.owns(scope)) return writtenSizesAtCall(this, callAcrossFiles(this, scope, call, args, ctx, self), scope, args);
    if (scope.node.skipped) return UNKNOWN;
    if (this.lateFunctions.has(scope)) {
      // A function defined after the module's first top-level compound statement: called here, its sites are judged
      // with this call's arguments (the context is evaluated with the others); what it returns stays unknown here.
      this.callContext(scope, call, args, ctx, self);
      return UNKNOWN;
    }
    const c = this.callContext(scope, call, args, ctx, self) ?? this.defaultCtx(scope);
    return writtenSizesAtCall(this, this.returnValue(scope, c), scope, args);
  }

  /**
   * Calls a `functools.partial` of a function (`attend = partial(attention, scale=s)`, then `attend(q, k, v)`): the
   * function with the partial's positionals before the call's own and the call's keywords over the partial's.
   */
  private callBound(fn: FunctionRef, call: PyNode, args: CallArgs, ctx: Ctx): AValue {
    const bound = fn.bound ?? { positional: [], keywords: new Map<string, AValue>() };
    if ((!fn.bound && !fn.mapped) || args.hasSplat) return UNKNOWN;
    const scope = fn.scope;
    let positional = [...bound.positional, ...args.positional.map((a) => this.eval(a, ctx))];
    const keywords = new Map<string, AValue>();
    for (const [name, v] of bound.keywords) if (acceptsKeyword(scope, name)) keywords.set(name, v);
    for (const [name, v] of this.keywordValues(scope, args, ctx)) keywords.set(name, v);
    // `jax.vmap(f, in_axes=(0, None))(x, mask)`: f sees a slice of each mapped argument (keywords are always mapped)
    // and returns a slice of what the call returns.
    const mapped = fn.mapped;
    if (mapped) {
      positional = positional.map((v, i) => (mapped === true || mapped[i] !== false ? mappedSlice(v) : v));
      for (const [name, v] of keywords) keywords.set(name, mappedSlice(v));
      const out = this.callBound(
        { scope, ...(fn.self ? { self: fn.self } : {}), bound: { positional, keywords } },
        call,
        { ...args, positional: [], keywords: new Map() },
        ctx,
      );
      return mappedSlice(out);
    }
    if (!this.owns(scope)) return callAcrossFiles(this, scope, call, { ...args, keywords: new Map() }, ctx, fn.self, positional, keywords);
    if (scope.node.skipped || ctx.depth >= MAX_CALL_DEPTH) return UNKNOWN;
    const c = this.contextFor(scope, call, args, ctx, this.bindArguments(scope, positional, keywords, fn.self));
    return c ? this.returnValue(scope, c) : UNKNOWN;
  }

  /** A context for evaluating `scope` as called at `call` (undefined when too deep or too many). */
  callContext(scope: Scope, call: PyNode, args: CallArgs, ctx: Ctx, self?: AValue, argValues?: AValue[]): Ctx | undefined {
    if (ctx.depth >= MAX_CALL_DEPTH) return undefined;
    // `f(x, **kwargs)` passing on a `**kwargs` whose keywords its binding call knows: those are keywords here.
    const spread = args.hasSplat && args.dictSplat ? this.eval(args.dictSplat, ctx).kwargs : undefined;
    if (spread) {
      const keywords = this.keywordValues(scope, args, ctx);
      for (const [name, v] of spread) if (!keywords.has(name) && acceptsKeyword(scope, name)) keywords.set(name, v);
      args = { ...args, hasSplat: false };
      const bound = this.bindArguments(scope, argValues ?? args.positional.map((a) => this.eval(a, ctx)), keywords, self);
      return this.contextFor(scope, call, args, ctx, bound);
    }
    // A summary per (function, abstract arguments): call sites passing the same abstract values share it.
    const bindings = this.bindArguments(
      scope,
      args.hasSplat ? undefined : (argValues ?? args.positional.map((a) => this.eval(a, ctx))),
      args.hasSplat ? undefined : this.keywordValues(scope, args, ctx),
      self,
    );
    return this.contextFor(scope, call, args, ctx, bindings);
  }

  private contextFor(scope: Scope, call: PyNode, args: CallArgs, ctx: Ctx, bindings: Map<string, AValue>): Ctx | undefined {
    const perCallSite = this.perCallSite(scope);
    const key = `${scope.id}|${bindingsKey(bindings)}|${perCallSite ? `${call.id}|${ctx.id}` : ''}${args.hasSplat ? '|*' : ''}`;
    const existing = this.callCtxs.get(key);
    if (existing) return existing;
    const count = this.ctxCount.get(scope.id) ?? 0;
    if (count >= MAX_CONTEXTS_PER_SCOPE || this.callCtxs.size >= MAX_CONTEXTS) return undefined;
    const c: Ctx = { id: this.nextCtxId++, scope, bindings, depth: ctx.depth + 1, callSite: call, ...(args.hasSplat ? {} : { defaultsHold: true }) };
    this.callCtxs.set(key, c);
    this.ctxCount.set(scope.id, count + 1);
    this.pending.push(c);
    return c;
  }

  /**
   * The context of a base class's `__init__` (`target`) as an instance of `cls` built at `call` runs it: the class's
   * own `__init__` bound by the call, then each `super().__init__(...)` (or `Base.__init__(self, ...)`) on the way.
   */
  private initCtxThrough(cls: ClassInfo, target: Scope, obj: AValue, call: PyNode, args: CallArgs, callCtx: Ctx, depth = 0): Ctx | undefined {
    if (depth > 3) return undefined;
    const own = cls.methods.get('__init__');
    if (!own) {
      const base = this.baseClasses(cls)[0];
      return base ? this.initCtxThrough(base, target, obj, call, args, callCtx, depth + 1) : undefined;
    }
    const c = this.callContext(own, call, args, callCtx, obj);
    if (!c || own === target) return c;
    let superCall: PyNode | undefined;
    walkTree(own.node, (n) => {
      if (superCall) return false;
      if (n.type !== 'call') return;
      const fn = childByField(n, 'function');
      if (fn && /^(super\([^)]*\)|\w+)\.__init__$/.test(text(this.tree, fn).replace(/\s+/g, ''))) superCall = n;
    });
    if (!superCall) return undefined;
    const fnText = text(this.tree, childByField(superCall, 'function')!).replace(/\s+/g, '');
    // `Base.__init__(self, ...)` passes self itself: dropped, the context binds the instance.
    const explicit = !fnText.startsWith('super(');
    const base = this.baseClasses(cls).find((b) => !explicit || fnText.startsWith(`${b.name}.`));
    if (!base) return undefined;
    const superArgs = this.argsOf(superCall);
    const passed = explicit ? { ...superArgs, positional: superArgs.positional.slice(1) } : superArgs;
    return this.initCtxThrough(base, target, obj, superCall, passed, c, depth + 1);
  }

  /**
   * A context of `c.scope` as a file importing this one calls it (importer-calls.ts), made for reading the calls it
   * makes on (its arguments known there), not evaluated as a whole.
   */
  importerCallContext(c: ImporterCall): Ctx {
    return { ...this.importerContext(c), defaultsHold: true };
  }

  private readonly builtElsewhereCtxs = new Map<string, Ctx>();
  /** The context of `__init__` as another workspace file built the instance (its arguments crossed as portable values). */
  private builtElsewhereCtx(scope: Scope, obj: AValue, initArgs: NonNullable<ObjectInfo['initArgs']>): Ctx {
    const bindings = this.bindArguments(scope, initArgs.positional, new Map(initArgs.keywords), obj);
    const key = `${scope.id}|${bindingsKey(bindings)}`;
    const hit = this.builtElsewhereCtxs.get(key);
    if (hit) return hit;
    const c: Ctx = { id: this.nextCtxId++, scope, bindings, depth: 1, defaultsHold: true };
    this.builtElsewhereCtxs.set(key, c);
    return c;
  }

  /** Parameter name → value for a call with these argument values (positional undefined: a `*args` call). */
  private bindArguments(
    scope: Scope,
    positional: readonly AValue[] | undefined,
    keywords: ReadonlyMap<string, AValue> | undefined,
    self: AValue | undefined,
  ): Map<string, AValue> {
    const bindings = new Map<string, AValue>();
    let pi = 0;
    if (self && scope.selfName) {
      bindings.set(scope.selfName, self);
      pi = 1;
    }
    if (!positional || !keywords) return bindings;
    for (const [i, v] of positional.entries()) {
      const p = scope.params.find((x) => x.index === pi);
      if (!p) {
        // `def split_heads(x, *shape)` called as `split_heads(t, B, T, H, D)`: the extra arguments are the tuple.
        const star = scope.params.find((x) => x.kind === 'star');
        if (star) bindings.set(star.name, { kind: 'tuple', elements: positional.slice(i) });
        break;
      }
      bindings.set(p.name, onesAsMask(p.name, v));
      pi++;
    }
    const extra: (readonly [string, AValue])[] = [];
    for (const [name, v] of keywords) {
      if (scope.params.some((p) => p.name === name && p.kind !== 'kwstar')) bindings.set(name, onesAsMask(name, v));
      else extra.push([name, v]);
    }
    // `**kwargs` holds the keywords no parameter takes (passed on as `f(**kwargs)`, read back there by name).
    const kwstar = scope.params.find((p) => p.kind === 'kwstar');
    if (kwstar && extra.length > 0) bindings.set(kwstar.name, { kind: 'unknown', kwargs: extra });
    return bindings;
  }

  private keywordValues(scope: Scope, args: CallArgs, ctx: Ctx): Map<string, AValue> {
    const out = new Map<string, AValue>();
    for (const [name, kw] of args.keywords) if (acceptsKeyword(scope, name)) out.set(name, this.eval(kw.value, ctx));
    return out;
  }

  private readonly perCallSiteCache = new Map<number, boolean>();
  /** Whether a function's contexts stay one per call site (see CALL_SITE_TEXT). */
  private perCallSite(scope: Scope): boolean {
    let r = this.perCallSiteCache.get(scope.id);
    if (r === undefined) {
      r = CALL_SITE_TEXT.test(this.tree.source.slice(scope.node.start, scope.node.end));
      this.perCallSiteCache.set(scope.id, r);
    }
    return r;
  }

  private readonly summaryCtxs = new Map<string, Ctx>();

  /**
   * What `scope` returns when called with these (portable) values: its summary, computed once per abstract
   * arguments. Asked by other files' evaluators (cross-file.ts); the sites it records stay in this file.
   */
  summaryCall(scope: Scope, positional: readonly AValue[], keywords: ReadonlyMap<string, AValue>, self?: AValue): AValue {
    if (scope.node.skipped) return UNKNOWN;
    const bindings = this.bindArguments(scope, positional, keywords, self);
    const key = `${scope.id}|${bindingsKey(bindings)}`;
    let c = this.summaryCtxs.get(key);
    if (!c) {
      if (this.summaryCtxs.size >= MAX_SUMMARIES) return this.returnValue(scope, this.defaultCtx(scope));
      c = { id: this.nextCtxId++, scope, bindings, depth: 1 };
      this.summaryCtxs.set(key, c);
    }
    return this.returnValue(scope, c);
  }

  /** Whether a scope belongs to this file's analysis. */
  owns(scope: Scope): boolean {
    return this.sr.scopes[scope.id] === scope;
  }

  /** The evaluator of the file a scope belongs to: this one, an imported module's, or undefined. */
  private ownerOf(scope: Scope): Evaluator | undefined {
    return this.owns(scope) ? this : this.link?.workspace.ownerOf(scope);
  }

  /** Records evidence from another file that a finding may quote (the engine links it as a related location). */
  noteForeignEvidence(e: ForeignEvidence): void {
    if (!this.foreignEvidence.some((x) => x.path === e.path && x.line === e.line)) this.foreignEvidence.push(e);
  }

  returnValue(scope: Scope, ctx: Ctx): AValue {
    if (scope.returns.length === 0) return scope.kind === 'lambda' ? UNKNOWN : NONE;
    // A `return` in an arm this call cannot take (`if kind == "query":` called with kind="key") returns nothing here.
    const live = scope.returns.filter((r) => !armDeadInCtx(this, r, ctx));
    return joinAll((live.length > 0 ? live : scope.returns).map((r) => this.eval(r, ctx)));
  }

  /** Calls a lambda/function value with already evaluated arguments (map(lambda t: ..., (q, k, v))). */
  callWithValues(fn: AValue, values: AValue[], call: PyNode, ctx: Ctx, keywords?: CallArgs['keywords']): AValue {
    if (fn.kind !== 'function' || !fn.fn) return UNKNOWN;
    const scope = fn.fn.scope;
    // Keyword arguments, when given, are nodes of this file read in ctx (`partial(collate, pad_id=0)`'s).
    const noArgs: CallArgs = { positional: [], keywords: keywords ?? new Map(), hasSplat: false, list: undefined };
    if (!this.owns(scope)) return callAcrossFiles(this, scope, call, noArgs, ctx, fn.fn.self, values);
    const c = this.callContext(scope, call, noArgs, ctx, fn.fn.self, values);
    if (!c) return UNKNOWN;
    return this.returnValue(scope, c);
  }

  /**
   * Distinct context per element for map(): keyed by element index through a synthetic call id. `argsPerCall[i]`
   * are the positional arguments of the i-th call (one per iterable: `map(f, qs, ks)`); a bound method
   * (`map(self.split_heads, (q, k, v))`) takes them after its `self`.
   */
  mapWithValues(fn: AValue, argsPerCall: readonly (readonly AValue[])[], call: PyNode, ctx: Ctx): AValue[] {
    if (fn.kind !== 'function' || !fn.fn) return argsPerCall.map(() => UNKNOWN);
    const { scope, self } = fn.fn;
    if (!this.owns(scope)) return argsPerCall.map(() => UNKNOWN);
    return argsPerCall.map((args, i) => {
      const bindings = this.bindArguments(scope, args, new Map(), self);
      const key = `${scope.id}|${call.id}#${i}|${ctx.id}|${bindingsKey(bindings)}`;
      let c = this.callCtxs.get(key);
      if (!c) {
        if (ctx.depth >= MAX_CALL_DEPTH || this.callCtxs.size >= MAX_CONTEXTS) return UNKNOWN;
        c = { id: this.nextCtxId++, scope, bindings, depth: ctx.depth + 1, callSite: call };
        this.callCtxs.set(key, c);
        this.pending.push(c);
      }
      return this.returnValue(scope, c);
    });
  }

  /** A call's arguments (parsed once per call node, and kept with the node: see ARGS_OF_CALL). */
  argsOf(call: PyNode): CallArgs {
    let a = ARGS_OF_CALL.get(call);
    if (!a) {
      a = callArgs(this.tree, call);
      ARGS_OF_CALL.set(call, a);
    }
    return a;
  }

  /** Source text of a node. */
  text(node: PyNode): string {
    return text(this.tree, node);
  }

  intLit(node: PyNode | undefined): number | undefined {
    return intLiteral(this.tree, node);
  }
}

/** Whether a call may pass `name` by keyword to `scope`: a parameter of that name, or a `**kwargs` to hold it. */
/** A method (self first) takes the call's positional arguments and keywords. */
function acceptsCall(scope: Scope, args: CallArgs): boolean {
  if (args.hasSplat) return false;
  const positional = scope.params.filter((p) => p.kind === 'positional').length - 1;
  if (args.positional.length > positional && !scope.params.some((p) => p.kind === 'star')) return false;
  return [...args.keywords.keys()].every((name) => acceptsKeyword(scope, name));
}

function acceptsKeyword(scope: Scope, name: string): boolean {
  return scope.params.some((p) => (p.name === name && p.kind !== 'star') || p.kind === 'kwstar');
}

/** Key of a call's parameter bindings (parameter order as bound). */
function bindingsKey(bindings: ReadonlyMap<string, AValue>): string {
  let k = '';
  for (const [name, v] of bindings) k += `${name}=${valueKey(v)};`;
  return k;
}

/**
 * How many names the innermost pattern of a plain unpacking holds (`B, T, C = x.shape`: 3), without a starred name:
 * the rank of the tuple being unpacked, were it a shape.
 */
function unpackArity(def: Def): number | undefined {
  const p = def.target.parent;
  if (def.star || def.path.length === 0 || !p || (p.type !== 'pattern_list' && p.type !== 'tuple_pattern')) return undefined;
  const names = p.children.filter((c) => c.named && c.type !== 'comment');
  return names.every((c) => c.type === 'identifier' || c.type === 'attribute' || c.type === 'subscript') ? names.length : undefined;
}

function unpack(v: AValue, path: readonly number[], star?: boolean, arity?: number): AValue {
  let cur = v;
  for (const [n, i] of path.entries()) {
    if (cur.kind === 'tuple' && cur.elements) {
      cur = cur.elements[i] ?? UNKNOWN;
    } else if (cur.kind === 'tuple' && cur.shapeOf) {
      // The innermost pattern's arity is the rank of a shape unpacked there (`rows, cols, batch, embed = x.shape`).
      cur = opsImpl.dimOfShape(cur.shapeOf, i, n === path.length - 1 ? arity : undefined);
    } else if (cur.kind === 'tensor') {
      // Unpacking a tensor iterates its first axis.
      cur = opsImpl.dropFirstAxis(cur);
    } else if (cur.kind === 'unknown' && cur.ops) {
      // The return of a function not in view, unpacked: each element keeps its unknown step (values.ts OpaqueOp).
      cur = { kind: 'unknown', ops: cur.ops };
    } else return UNKNOWN;
  }
  if (star) return { kind: 'tuple' };
  return cur;
}

/** Whether node `n` lies within node `outer`. */
function within(n: PyNode, outer: PyNode): boolean {
  return n.start >= outer.start && n.end <= outer.end;
}

function elementOf(v: AValue): AValue {
  if (v.kind === 'tuple' && v.elements && v.elements.length > 0) return joinAll(v.elements);
  if (v.kind === 'tuple' && v.items) return v.items;
  if (v.kind === 'tensor') return opsImpl.dropFirstAxis(v);
  return UNKNOWN;
}

function markFromCache(v: AValue): AValue {
  if (v.kind === 'tensor') return { ...v, fromCache: true };
  if (v.kind === 'tuple' && v.elements)
    return { ...v, elements: v.elements.map((e) => (e.kind === 'tensor' || e.kind === 'unknown' ? { ...e, kind: 'tensor' as const, fromCache: true } : e)) };
  return v;
}

/**
 * An all-ones tensor passed for a mask parameter (`layer(x, mask=torch.ones(B, T).bool())`): a mask that masks
 * nothing says that 1 means keep, as a default of all ones does (values.ts onesDefault), whatever the name said.
 */
function onesAsMask(name: string, v: AValue): AValue {
  if (v.kind !== 'tensor' || !v.ones || v.mask || !maskOfName(name)) return v;
  return { ...v, mask: { polarity: 'keep', ...(v.dtype ? { dtype: v.dtype } : {}), why: msg(PHRASES.allOnesPassedAs, `\`${name}\``) } };
}

/**
 * `m = torch.ones(T, T, dtype=torch.bool); m[r0:r1, c0:c1] = False` (a block-causal or graph mask cleared where pairs
 * may attend): ones with entries overwritten by anything but 1 are no longer all ones, so they are no evidence of a
 * mask that masks nothing (onesAsMask); what the mask means is left to what the writes say, here nothing.
 */
/**
 * A causal triangle written into a slice of zeros (`m = zeros(L, P + L, dtype=bool); m[:, P:] = triu(ones(L, L), 1)`):
 * the same mask on those columns and False on the rest (cached keys visible to an ignore triangle, memory hidden from a
 * keep one). Its polarity stays; its geometry moved with the slice, so the triangle is not kept, only the bound it
 * puts on what the mask can mean (masks.ts: causalBound). Only slices of the whole axes (no integer, no mask index).
 */
function triangleIntoZeros(tree: PyTree, prev: AValue, target: PyNode, written: AValue): AValue | undefined {
  if (prev.kind !== 'tensor' || !prev.zeros || prev.mask || prev.attn) return undefined;
  if (written.kind !== 'tensor' || !written.mask?.tri || written.attn) return undefined;
  const bound = causalBoundOf(written.mask, undefined).causalBound;
  if (!bound) return undefined;
  const subs = namedChildren(target).filter((c) => c.field === 'subscript');
  if (subs.length === 0 || !subs.every((s) => unparen(s).type === 'slice' || unparen(s).type === 'ellipsis')) return undefined;
  // The last axis is the keys' (every axis written, or an ellipsis before it), cut from a start to the end (`P:`, the new
  // keys after the cached ones): not the first columns of a wider mask (`:n`, a memory's).
  const head = subs[0];
  const tail = subs.at(-1);
  if (!head || !tail) return undefined;
  if (!(subs.length === prev.ndim || unparen(head).type === 'ellipsis')) return undefined;
  if (!/^[^:]*:$/.test(text(tree, unparen(tail)).replace(/\s+/g, ''))) return undefined;
  const { tri: _tri, align: _align, sizes: _sizes, ...rest } = written.mask;
  return { ...prev, zeros: undefined, mask: { ...rest, causal: true, causalBound: bound, ...(prev.dtype ? { dtype: prev.dtype } : {}) } };
}

/**
 * `allowed = ones(L, L, dtype=bool).tril(-1); allowed[0, 0] = True`: a triangular mask written into by index with a
 * constant (a strict-past mask whose first row is given back its own key, a prefix opened to every query) is no longer
 * that triangle, so which rows it empties is not known from its construction: the triangle is dropped, the mask stays
 * causal and keeps its polarity. Undefined for anything else (a fill of scores, a tensor that is no triangle).
 */
function editedTriangle(prev: AValue, target: PyNode, fill: AValue): AValue | undefined {
  if (prev.kind !== 'tensor' || !prev.mask?.tri || prev.attn) return undefined;
  // A 0/1 or boolean entry (not -inf written where a mask is, `m[m == 1] = float('-inf')`, which builds an additive
  // mask), at positions given by integers and slices (not by a mask).
  if (!(fill.kind === 'bool' || (fill.kind === 'number' && (fill.num === 0 || fill.num === 1)))) return undefined;
  const positional = (s: PyNode): boolean => {
    const u = unparen(s);
    if (u.type === 'integer' || u.type === 'slice' || u.type === 'ellipsis') return true;
    return u.type === 'unary_operator' && namedChildren(u)[0]?.type === 'integer';
  };
  const subs = namedChildren(target).filter((c) => c.field === 'subscript');
  if (subs.length === 0 || !subs.every(positional)) return undefined;
  const { tri: _tri, ...rest } = prev.mask;
  return { ...prev, mask: { ...rest, causal: true } };
}

function overwrittenOnes(v: AValue, fill: AValue, fillText: string): AValue {
  if (v.kind !== 'tensor' || !v.ones) return v;
  const one = (fill.kind === 'number' && fill.num === 1) || (fill.kind === 'bool' && fillText === 'True');
  if (one) return v;
  const { ones: _ones, ...rest } = v;
  return rest;
}

/**
 * `buf = q.new_zeros(B, G, H, D); buf[rows] = q[sel]`: a zero buffer filled by index with a tensor holds that
 * tensor's entries (and zeros, which any scale leaves zero), so it carries the operations applied to them, a
 * 1/sqrt(d) folded into q by a caller included. The buffer keeps its own shape; undefined when nothing crosses.
 */
function copiedIntoZeros(buffer: AValue, written: AValue): AValue | undefined {
  if (buffer.kind !== 'tensor' || !buffer.zeros || buffer.mask || buffer.attn) return undefined;
  if (written.kind !== 'tensor' || written.mask || written.attn || !written.ops?.length) return undefined;
  return { ...buffer, zeros: undefined, ops: written.ops, ...(written.role ? { role: written.role } : {}) };
}

/** A bound minus something (`W - n`) counted by boundFromEnd, or what boundCount reads where the code shows more. */
function readBound(tree: PyTree, bound: PyNode, counted: () => 'len' | 'unclear' | undefined): 'len' | 'unclear' | undefined {
  const fromEnd = boundFromEnd(tree, bound);
  if (fromEnd === 'len') return fromEnd;
  const c = counted();
  return fromEnd === 'unclear' ? (c ?? 'unclear') : c;
}

/** A bound counting the padding reads like one counted back from the end by a length; one that may count either, unclear. */
function countedFromEnd(c: ReturnType<typeof boundCount>): 'len' | 'unclear' | undefined {
  return c === 'padding' ? 'len' : c === 'unclear' ? 'unclear' : undefined;
}

/**
 * How a slice bound counts: `W - len(s)` or `-len(s)` counts back from the end by a sequence's length (its tokens
 * written right-aligned); minus a literal (`n - 1`) or no minus at all is a length counted from the start; minus
 * anything else (`L - pad_len`, `-n`) may be a count of tokens or of padding.
 */
function boundFromEnd(tree: PyTree, bound: PyNode): 'len' | 'unclear' | undefined {
  const b = unparen(bound);
  let subtrahend: PyNode | undefined;
  if (b.type === 'unary_operator' && text(tree, b).trimStart().startsWith('-')) subtrahend = childByField(b, 'argument') ?? namedChildren(b)[0];
  else if (b.type === 'binary_operator' && operatorText(tree, b) === '-') subtrahend = childByField(b, 'right');
  if (!subtrahend) return undefined;
  const sub = unparen(subtrahend);
  if (sub.type === 'integer') return undefined;
  if (sub.type === 'call' && text(tree, childByField(sub, 'function') ?? sub) === 'len') return 'len';
  return 'unclear';
}

/**
 * A learned weight a function of the file creates and returns (`def glorot(rows, cols): return
 * tf.Variable(tf.random.truncated_normal([rows, cols]))`) carries the sizes its creation writes in the function's own
 * names (ops.ts: withWrittenSizes): at the call they are the arguments written there (`glorot(d_in, d_out)`), and a
 * size that is no parameter, or whose argument is not a plain name, is not known at the call.
 */
function writtenSizesAtCall(ev: Evaluator, ret: AValue, scope: Scope, args: CallArgs): AValue {
  const axes = ret.kind === 'tensor' && ret.learned ? axesOf(ret) : undefined;
  if (!axes?.some((a) => a.sizeText !== undefined)) return ret;
  const offset = scope.selfName ? 1 : 0;
  const named = /^[A-Za-z_][\w.]*$/;
  const atCall = (text: string): string | undefined => {
    const p = scope.params.find((q) => q.name === text && (q.kind === 'positional' || q.kind === 'keyword-only'));
    if (!p || args.hasSplat) return undefined;
    const node = args.keywords.get(p.name)?.value ?? (p.index !== undefined ? args.positional[p.index - offset] : undefined);
    const t = node ? ev.text(node) : undefined;
    return t !== undefined && named.test(t) ? t : undefined;
  };
  return {
    ...ret,
    axes: axes.map((a) => {
      if (a.sizeText === undefined) return a;
      const { sizeText, ...rest } = a;
      const t = atCall(sizeText);
      return t === undefined ? rest : { ...rest, sizeText: t };
    }),
  };
}

/** A slice with a start other than 0 and a stop (`r0:r1`, `2 * i * n:2 * (i + 1) * n`): a range inside the axis. */
function interiorRange(slice: string): boolean {
  const parts = slice.replace(/\s+/g, '').split(':');
  const [start, stop] = parts;
  return parts.length >= 2 && !!start && start !== '0' && !!stop;
}
