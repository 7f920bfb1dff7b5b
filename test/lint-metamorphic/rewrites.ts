// Semantics-preserving rewrites of Python attention code, read from the tree-sitter tree (test/lint-metamorphic/
// syntax.ts), each a list of edits with a line map (edits.ts). A rewrite that cannot be applied safely to a file
// leaves it as it was; a case where no file changed is "not applicable". The harness (harness.ts) lints the
// original and the rewritten case and compares the findings.
import { applyEdits, identity, lineIndex, newFile, place, type Edit, type MappedFile, type Place } from './edits';
import {
  afterImports,
  all,
  beginsLine,
  callArgs,
  calleeName,
  type CallArgs,
  contains,
  enclosingFunction,
  field,
  fresh,
  functionLocals,
  hasError,
  identifierTexts,
  indentOf,
  isPrimary,
  isVariable,
  lazyBetween,
  lineStart,
  named,
  statementOf,
  textOf,
  topLevelOf,
  walk,
  wrapped,
  type PyParser,
  type SNode,
} from './syntax';

export interface SourceFile {
  path: string;
  text: string;
}

/** One parsed file of a case, as a rewrite sees it. */
export interface FileView {
  path: string;
  src: string;
  root: SNode;
  /** Every file of the case (for call sites in other files). */
  others: readonly FileView[];
}

export interface FileRewrite {
  edits: Edit[];
  /** New files the rewrite adds beside the case's files. */
  extra?: MappedFile[];
}

export interface Rewrite {
  name: string;
  /** What the rewrite does, one line. */
  doc: string;
  file(view: FileView): FileRewrite | null;
}

/** Calls that make a function an attention function (its scores, weights, masks or output). */
const SITE_CALLS = new Set(['softmax', 'masked_fill', 'masked_fill_', 'matmul', 'bmm', 'baddbmm', 'einsum', 'scaled_dot_product_attention']);
/** What a functional call's object is (a module, not a tensor): `F.softmax(x, ...)` versus `x.softmax(...)`. */
const MODULE_OBJECTS = new Set([
  'F',
  'torch',
  'nn.functional',
  'torch.nn.functional',
  'functional',
  'jax.nn',
  'nn',
  'tf.nn',
  'tf.math',
  'jnp',
  'np',
  'special',
  'scipy.special',
  'mx',
  'mx.nd',
  'K',
  'ops',
]);

function isModuleObject(src: string, obj: SNode | undefined): boolean {
  return obj !== undefined && MODULE_OBJECTS.has(textOf(src, obj).replace(/\s+/g, ''));
}

function isSite(src: string, n: SNode): boolean {
  if (n.type === 'binary_operator') return n.children.some((c) => c.field === 'operator' && c.type === '@');
  if (n.type !== 'call') return false;
  const c = calleeName(src, n);
  return c !== undefined && SITE_CALLS.has(c.last);
}

/** Functions that hold an attention site in their own body (not only in a nested function). */
export function attentionFunctions(src: string, root: SNode): SNode[] {
  const out = new Set<SNode>();
  walk(root, (n) => {
    if (isSite(src, n)) {
      const fn = enclosingFunction(n);
      if (fn) out.add(fn);
    }
  });
  return [...out].sort((a, b) => a.start - b.start);
}

function isMatmulLike(src: string, n: SNode): boolean {
  if (n.type === 'binary_operator') return n.children.some((c) => c.field === 'operator' && c.type === '@');
  if (n.type === 'call') {
    const c = calleeName(src, n);
    return c !== undefined && ['matmul', 'bmm', 'einsum', 'baddbmm', 'mm'].includes(c.last);
  }
  return false;
}

function containsMatmul(src: string, n: SNode): boolean {
  return all(n, (m) => isMatmulLike(src, m)).length > 0;
}

function operatorOf(n: SNode): string | undefined {
  return n.children.find((c) => c.field === 'operator')?.type;
}

function isNumber(n: SNode): boolean {
  if (n.type === 'integer' || n.type === 'float') return true;
  if (n.type === 'unary_operator') {
    const arg = field(n, 'argument');
    return arg !== undefined && (arg.type === 'integer' || arg.type === 'float');
  }
  return false;
}

/** `float('-inf')`, `-float("inf")`, `float('nan')`: literal fill values written as calls. */
function isFloatLiteralCall(src: string, n: SNode): boolean {
  let m = n;
  if (m.type === 'unary_operator') {
    const arg = field(m, 'argument');
    if (!arg) return false;
    m = arg;
  }
  if (m.type !== 'call') return false;
  const c = calleeName(src, m);
  const args = callArgs(src, m);
  return c?.dotted === 'float' && args.positional.length === 1 && args.keywords.size === 0 && args.positional[0].type === 'string';
}

function moduleImports(src: string, root: SNode): Set<string> {
  const names = new Set<string>();
  for (const s of named(root)) {
    if (s.type === 'import_statement') {
      for (const c of named(s)) {
        if (c.type === 'dotted_name') names.add(textOf(src, c.children[0]));
        else if (c.type === 'aliased_import') {
          const alias = field(c, 'alias');
          if (alias) names.add(textOf(src, alias));
        }
      }
    }
  }
  return names;
}

// ---------------------------------------------------------------------------------------------------------------
// rename: an attention function's parameters and locals get other names, keyword arguments at its call sites too.

const RENAMES: Record<string, string> = {
  q: 'query_states',
  k: 'key_states',
  v: 'value_states',
  query: 'query_states',
  key: 'key_states',
  value: 'value_states',
  scores: 'logits',
  attn: 'probs',
  attn_weights: 'probs',
  attention_scores: 'logits',
  attention_probs: 'probs',
  weights: 'probs',
  mask: 'm2',
  attn_mask: 'm3',
  attention_mask: 'm4',
  scale: 'factor',
  x: 'inp',
};

function renameView(view: FileView): FileRewrite | null {
  const { src, root } = view;
  const taken = new Set<string>();
  for (const f of view.others) for (const t of identifierTexts(f.src, f.root)) taken.add(t);
  const fns = attentionFunctions(src, root).filter((fn, _i, arr) => !arr.some((o) => o !== fn && contains(o, fn)));
  const edits: Edit[] = [];
  let counter = 0;
  for (const fn of fns) {
    const body = field(fn, 'body');
    const fnName = field(fn, 'name');
    if (!body || !fnName) continue;
    const blocked = all(fn, (n) => {
      if (n.type === 'global_statement' || n.type === 'nonlocal_statement' || n.type === 'class_definition') return true;
      if (n.type === 'call') return ['locals', 'vars', 'eval', 'exec', 'super'].includes(calleeName(src, n)?.dotted ?? '');
      return false;
    });
    // super() without arguments reads the function's first parameter by position, which a rename keeps; zero-arg
    // super is fine, but locals()/eval() read names.
    if (blocked.some((n) => n.type !== 'call' || calleeName(src, n)?.dotted !== 'super')) continue;
    const { params, locals } = functionLocals(src, fn);
    const name = textOf(src, fnName);
    const renamed = new Map<string, string>();
    const keywordEdits: Edit[] = [];
    for (const n of [...params, ...locals]) {
      if (n === 'self' || n === 'cls' || renamed.has(n)) continue;
      if (params.has(n)) {
        // A parameter renamed changes its keyword: every keyword use must be a call to this function in this file.
        let safe = true;
        const mine: SNode[] = [];
        for (const f of view.others) {
          for (const kw of all(f.root, 'keyword_argument')) {
            const kn = field(kw, 'name');
            if (!kn || textOf(f.src, kn) !== n) continue;
            const call = kw.parent?.parent;
            const callee = call?.type === 'call' ? calleeName(f.src, call) : undefined;
            if (f.path === view.path && callee?.last === name && !contains(fn, kw)) mine.push(kn);
            else if (!contains(fn, kw) || callee?.last === name) safe = false;
          }
        }
        if (!safe) continue;
        const to = fresh(taken, RENAMES[n] ?? `n${++counter}`);
        renamed.set(n, to);
        for (const kn of mine) keywordEdits.push({ start: kn.start, end: kn.end, text: to });
      } else {
        renamed.set(n, fresh(taken, RENAMES[n] ?? `n${++counter}`));
      }
    }
    if (renamed.size === 0) continue;
    const paramsNode = field(fn, 'parameters');
    walk(fn, (n) => {
      if (n.field === 'return_type') return false;
      if (n.parent === paramsNode || (n.parent && n.parent.parent === paramsNode)) {
        if (n.field === 'value' || n.field === 'type') return false;
      }
      if (n.type === 'identifier' && isVariable(n)) {
        const to = renamed.get(textOf(src, n));
        if (to !== undefined) edits.push({ start: n.start, end: n.end, text: to });
      }
      return true;
    });
    edits.push(...keywordEdits);
  }
  return edits.length > 0 ? { edits } : null;
}

// ---------------------------------------------------------------------------------------------------------------
// temporary: the argument of softmax / masked_fill and the scale of the scores go to a fresh local on the line before.

function hoistCandidates(src: string, root: SNode): SNode[] {
  const out: SNode[] = [];
  walk(root, (n) => {
    if (n.type === 'call') {
      const c = calleeName(src, n);
      const args = callArgs(src, n);
      if (!c) return true;
      const functional = isModuleObject(src, c.object) || c.object === undefined;
      if (c.last === 'softmax' || c.last === 'log_softmax') {
        if (functional && args.positional[0]) out.push(args.positional[0]);
        else if (!functional && c.object) out.push(c.object);
      } else if (c.last === 'masked_fill' || c.last === 'masked_fill_') {
        const m = functional ? args.positional[1] : args.positional[0];
        if (m) out.push(m);
      }
    } else if (n.type === 'binary_operator') {
      const op = operatorOf(n);
      const left = field(n, 'left');
      const right = field(n, 'right');
      if ((op === '/' || op === '*') && left && right) {
        if (containsMatmul(src, left) && !containsMatmul(src, right)) out.push(right);
        else if (op === '*' && containsMatmul(src, right) && !containsMatmul(src, left)) out.push(left);
      }
    }
    return true;
  });
  return out.filter((e) => e.type !== 'identifier' && !isNumber(e) && e.type !== 'keyword_argument');
}

function hoistView(view: FileView): FileRewrite | null {
  const { src, root } = view;
  const taken = identifierTexts(src, root);
  const lineAt = lineIndex(src);
  const chosen: SNode[] = [];
  for (const e of hoistCandidates(src, root).sort((a, b) => a.start - b.start)) {
    const stmt = statementOf(e);
    if (!stmt || !beginsLine(src, stmt) || e.start === stmt.start) continue;
    if (stmt.type !== 'expression_statement' && stmt.type !== 'return_statement') continue;
    if (lazyBetween(e, stmt)) continue;
    if (all(e, (m) => m.type === 'yield' || m.type === 'await' || m.type === 'named_expression').length > 0) continue;
    if (chosen.some((c) => c.start < e.end && e.start < c.end)) continue;
    chosen.push(e);
  }
  if (chosen.length === 0) return null;
  const edits: Edit[] = [];
  const byStmt = new Map<SNode, SNode[]>();
  for (const e of chosen) {
    const stmt = statementOf(e)!;
    byStmt.set(stmt, [...(byStmt.get(stmt) ?? []), e]);
  }
  for (const [stmt, exprs] of byStmt) {
    const indent = indentOf(src, stmt);
    const lines: string[] = [];
    const anchors: Place[] = [];
    for (const e of exprs) {
      const t = fresh(taken, 't_1');
      const text = textOf(src, e);
      lines.push(`${t} = ${text.includes('\n') ? `(${text})` : text}\n${indent}`);
      anchors.push(place(view.path, lineAt(e.start)));
      edits.push({ start: e.start, end: e.end, text: t });
    }
    edits.push({ start: stmt.start, end: stmt.start, text: lines.join(''), anchor: anchors });
  }
  return { edits };
}

// ---------------------------------------------------------------------------------------------------------------
// inline: a local assigned once and read once later in the same block (or a block inside it) is replaced by its value.

function isInPlaceCall(src: string, n: SNode): boolean {
  if (n.type !== 'call') return false;
  const c = calleeName(src, n);
  return c !== undefined && c.object !== undefined && c.last.endsWith('_') && !c.last.startsWith('__');
}

function inlineView(view: FileView): FileRewrite | null {
  const { src, root } = view;
  const lineAt = lineIndex(src);
  const edits: Edit[] = [];
  const used: Array<[number, number]> = [];
  const free = (a: number, b: number) => !used.some(([s, e]) => s < b && a < e);
  for (const fn of attentionFunctions(src, root)) {
    const { params, targets } = functionLocals(src, fn);
    const body = field(fn, 'body');
    if (!body) continue;
    if (all(fn, (n) => n.type === 'call' && ['locals', 'vars', 'eval', 'exec'].includes(calleeName(src, n)?.dotted ?? '')).length > 0) continue;
    const refs = all(fn, (n) => n.type === 'identifier' && isVariable(n));
    for (const stmt of all(body, 'expression_statement')) {
      if (enclosingFunction(stmt) !== fn) continue;
      const asg = stmt.children[0];
      if (stmt.children.length !== 1 || asg?.type !== 'assignment') continue;
      const left = field(asg, 'left');
      const right = field(asg, 'right');
      if (!left || !right || left.type !== 'identifier' || field(asg, 'type')) continue;
      if (right.type === 'assignment' || right.type === 'expression_list' || right.type === 'yield') continue;
      const name = textOf(src, left);
      if (params.has(name) || targets.filter((t) => textOf(src, t) === name).length !== 1) continue;
      const reads = refs.filter((r) => r !== left && textOf(src, r) === name);
      if (reads.length !== 1) continue;
      const use = reads[0];
      const block = stmt.parent;
      if (!block || use.start < stmt.end || !contains(block, use)) continue;
      if (!beginsLine(src, stmt) || named(block).length < 2) continue;
      if (lazyBetween(use, block) || use.parent?.type === 'delete_statement' || use.parent?.type === 'global_statement') continue;
      // No loop between the block and the use (the value would be computed once per iteration).
      let loop = false;
      for (let p = use.parent; p && p !== block; p = p.parent) if (p.type === 'for_statement' || p.type === 'while_statement') loop = true;
      if (loop) continue;
      if (
        all(right, (m) => m.type === 'yield' || m.type === 'await' || m.type === 'named_expression' || isInPlaceCall(src, m) || m.type === 'lambda').length > 0
      ) {
        continue;
      }
      // Nothing the value reads is rebound or changed in place between the assignment and the use.
      const reads2 = new Set(all(right, (m) => m.type === 'identifier' && isVariable(m)).map((m) => textOf(src, m)));
      const between = (n: SNode) => n.start >= stmt.end && n.end <= use.start;
      if (targets.some((t) => between(t) && reads2.has(textOf(src, t)))) continue;
      if (
        all(fn, (m) => between(m) && (isInPlaceCall(src, m) || m.type === 'augmented_assignment' || m.type === 'call')).some(
          (m) => m.type !== 'call' || isInPlaceCall(src, m),
        )
      )
        continue;
      // the statement's whole lines go (trailing comment included)
      const from = lineStart(src, stmt.start);
      const nl = src.indexOf('\n', stmt.end);
      const to = nl < 0 ? src.length : nl + 1;
      const rest = src.slice(stmt.end, nl < 0 ? src.length : nl).trim();
      if (rest !== '' && !rest.startsWith('#')) continue;
      if (!free(from, to) || !free(use.start, use.end)) continue;
      const value = textOf(src, right);
      const text = isPrimary(right) && !value.includes('\n') ? value : `(${value})`;
      const defLines: Place[] = [];
      for (let l = lineAt(stmt.start); l <= lineAt(stmt.end); l++) defLines.push(place(view.path, l));
      edits.push({ start: from, end: to, text: '' });
      edits.push({ start: use.start, end: use.end, text, anchor: [place(view.path, lineAt(use.start)), ...defLines] });
      used.push([from, to], [use.start, use.end], [right.start, right.end]);
    }
  }
  return edits.length > 0 ? { edits } : null;
}

// ---------------------------------------------------------------------------------------------------------------
// method / attribute forms

/** `F.softmax(x, dim=d)` ↔ `x.softmax(dim=d)`; `x.softmax(d)` → `torch.softmax(x, d)` (when `torch` is imported). */
function softmaxFormView(view: FileView): FileRewrite | null {
  const { src, root } = view;
  const hasTorch = moduleImports(src, root).has('torch');
  const edits: Edit[] = [];
  for (const call of all(root, 'call')) {
    const c = calleeName(src, call);
    if (!c || c.last !== 'softmax' || !c.object) continue;
    const args = callArgs(src, call);
    if (args.splat || !args.list) continue;
    const fnNode = field(call, 'function')!;
    const rest = named(args.list);
    if (isModuleObject(src, c.object)) {
      if (!['F', 'torch', 'nn.functional', 'torch.nn.functional', 'functional'].includes(textOf(src, c.object))) continue;
      const x = args.positional[0];
      if (!x || rest[0] !== x) continue;
      if (!args.keywords.has('dim') && args.positional.length < 2) continue; // implicit dim: not the same call
      const after = rest.slice(1).map((a) => textOf(src, a));
      edits.push({ start: call.start, end: call.end, text: `${wrapped(src, x)}.softmax(${after.join(', ')})` });
    } else {
      if (!hasTorch) continue;
      // `obj.softmax(...)` is Tensor.softmax only when its one argument is an axis (`self.softmax(scores)` calls a module)
      if (!isTensorSoftmaxCall(args)) continue;
      const inner = rest.map((a) => textOf(src, a));
      edits.push({ start: fnNode.start, end: call.end, text: `torch.softmax(${textOf(src, c.object)}, ${inner.join(', ')})` });
    }
  }
  return nonOverlapping(edits);
}

/** `x.softmax(-1)`, `x.softmax(dim=d)`: a method call whose one argument is an axis (a literal, or the keyword dim). */
function isTensorSoftmaxCall(args: CallArgs): boolean {
  if (args.splat) return false;
  if (args.positional.length === 1 && args.keywords.size === 0) return isNumber(args.positional[0]);
  return args.positional.length === 0 && args.keywords.has('dim');
}

/** softmax's `dim=d` ↔ positional `d`. */
function softmaxKwPosView(view: FileView): FileRewrite | null {
  const { src, root } = view;
  const edits: Edit[] = [];
  for (const call of all(root, 'call')) {
    const c = calleeName(src, call);
    if (!c || (c.last !== 'softmax' && c.last !== 'log_softmax') || !c.object) continue;
    const args = callArgs(src, call);
    if (args.splat) continue;
    const functional = isModuleObject(src, c.object);
    if (functional && !['F', 'torch', 'nn.functional', 'torch.nn.functional', 'functional'].includes(textOf(src, c.object))) continue;
    if (!functional && !isTensorSoftmaxCall(args)) continue;
    const dimAt = functional ? 1 : 0;
    const kw = args.keywords.get('dim');
    if (kw && args.positional.length === dimAt) {
      edits.push({ start: kw.node.start, end: kw.node.end, text: textOf(src, kw.value) });
    } else if (!kw && args.positional.length === dimAt + 1) {
      const d = args.positional[dimAt];
      // positional after a keyword would be a syntax error: only when no keyword precedes it
      if ([...args.keywords.values()].some((k) => k.node.start < d.start)) continue;
      edits.push({ start: d.start, end: d.end, text: `dim=${textOf(src, d)}` });
    }
  }
  return nonOverlapping(edits);
}

/** `a @ b` ↔ `torch.matmul(a, b)` (innermost products only; torch imported). */
function matmulFormView(view: FileView): FileRewrite | null {
  const { src, root } = view;
  if (!moduleImports(src, root).has('torch')) return null;
  const edits: Edit[] = [];
  for (const n of all(root, (m) => isMatmulLike(src, m))) {
    if (all(n, (m) => m !== n && isMatmulLike(src, m)).length > 0) continue;
    if (n.type === 'binary_operator') {
      const l = field(n, 'left');
      const r = field(n, 'right');
      if (!l || !r) continue;
      edits.push({ start: n.start, end: n.end, text: `torch.matmul(${textOf(src, l)}, ${textOf(src, r)})` });
    } else {
      const c = calleeName(src, n);
      const args = callArgs(src, n);
      if (c?.last !== 'matmul' || !['torch', 'np', 'jnp'].includes(c.object ? textOf(src, c.object) : '')) continue;
      if (args.splat || args.keywords.size > 0 || args.positional.length !== 2) continue;
      const [a, b] = args.positional;
      const side = (x: SNode) => (isPrimary(x) || x.type === 'unary_operator' ? textOf(src, x) : `(${textOf(src, x)})`);
      edits.push({ start: n.start, end: n.end, text: `(${side(a)} @ ${side(b)})` });
    }
  }
  return nonOverlapping(edits);
}

/** `x.transpose(-2, -1)` ↔ `x.transpose(-1, -2)` (and `torch.transpose(x, a, b)`, `swapaxes`): the two axes swapped. */
function transposeSwapView(view: FileView): FileRewrite | null {
  const { src, root } = view;
  const edits: Edit[] = [];
  for (const call of all(root, 'call')) {
    const c = calleeName(src, call);
    if (!c || !['transpose', 'swapaxes', 'swapdims'].includes(c.last) || !c.object) continue;
    const args = callArgs(src, call);
    if (args.splat || args.keywords.size > 0) continue;
    const at = isModuleObject(src, c.object) ? 1 : 0;
    if (args.positional.length !== at + 2) continue;
    const [a, b] = args.positional.slice(at);
    if (!isNumber(a) || !isNumber(b)) continue;
    edits.push({ start: a.start, end: a.end, text: textOf(src, b) }, { start: b.start, end: b.end, text: textOf(src, a) });
  }
  return nonOverlapping(edits);
}

/** `math.sqrt(d)` ↔ `d ** 0.5`, `d ** -0.5` → `1.0 / math.sqrt(d)` (when `math` is imported). */
function sqrtFormView(view: FileView): FileRewrite | null {
  const { src, root } = view;
  const hasMath = moduleImports(src, root).has('math');
  const edits: Edit[] = [];
  for (const n of all(root, (m) => m.type === 'call' || m.type === 'binary_operator')) {
    if (n.type === 'call') {
      const c = calleeName(src, n);
      if (c?.dotted !== 'math.sqrt') continue;
      const args = callArgs(src, n);
      if (args.splat || args.keywords.size > 0 || args.positional.length !== 1) continue;
      const x = args.positional[0];
      edits.push({ start: n.start, end: n.end, text: `(${isPrimary(x) ? textOf(src, x) : `(${textOf(src, x)})`} ** 0.5)` });
    } else if (hasMath && operatorOf(n) === '**') {
      const base = field(n, 'left');
      const exp = field(n, 'right');
      if (!base || !exp) continue;
      const e = textOf(src, exp).replace(/\s+/g, '');
      if (e === '0.5' || e === '.5') edits.push({ start: n.start, end: n.end, text: `math.sqrt(${textOf(src, base)})` });
      else if (e === '-0.5' || e === '-.5') edits.push({ start: n.start, end: n.end, text: `(1.0 / math.sqrt(${textOf(src, base)}))` });
    }
  }
  return nonOverlapping(edits);
}

function nonOverlapping(edits: Edit[]): FileRewrite | null {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  const out: Edit[] = [];
  for (const e of sorted) {
    const last = out[out.length - 1];
    if (last && e.start < last.end) continue;
    out.push(e);
  }
  return out.length > 0 ? { edits: out } : null;
}

// ---------------------------------------------------------------------------------------------------------------
// helper extraction: the statement computing the scores (or the mask, or the filled scores) becomes a module-level
// function called with the names it uses; `xfile` puts that function in a new module beside the file.

interface Extraction {
  stmt: SNode;
  target: SNode;
  value: SNode;
  params: string[];
  globals: string[];
}

function extractions(src: string, root: SNode): Extraction[] {
  const out: Extraction[] = [];
  const moduleNames = new Set<string>();
  for (const s of named(root)) {
    const def = s.type === 'decorated_definition' ? field(s, 'definition') : s;
    if (def && (def.type === 'function_definition' || def.type === 'class_definition')) {
      const nm = field(def, 'name');
      if (nm) moduleNames.add(textOf(src, nm));
    }
  }
  for (const fn of attentionFunctions(src, root)) {
    const { params, locals } = functionLocals(src, fn);
    // names bound by functions around `fn` are closures: passed too
    const outer = new Set<string>();
    for (let p = enclosingFunction(fn); p; p = enclosingFunction(p)) {
      const o = functionLocals(src, p);
      for (const n of [...o.params, ...o.locals]) outer.add(n);
    }
    const body = field(fn, 'body');
    if (!body) continue;
    const softmaxes = all(body, (m) => m.type === 'call' && enclosingFunction(m) === fn && ['softmax', 'log_softmax'].includes(calleeName(src, m)?.last ?? ''));
    const firstSoftmax = softmaxes.length > 0 ? Math.min(...softmaxes.map((m) => m.start)) : undefined;
    for (const stmt of all(body, 'expression_statement')) {
      if (enclosingFunction(stmt) !== fn || !beginsLine(src, stmt)) continue;
      const asg = stmt.children[0];
      if (stmt.children.length !== 1 || asg?.type !== 'assignment') continue;
      const target = field(asg, 'left');
      const value = field(asg, 'right');
      if (!target || !value || target.type !== 'identifier' || field(asg, 'type')) continue;
      // The scores (a product before the function's first softmax) or a mask / filled scores, never the softmax itself
      // or the product of the weights with the values.
      const callsOf = (names: string[]) => all(value, (m) => m.type === 'call' && names.includes(calleeName(src, m)?.last ?? '')).length > 0;
      if (callsOf(['softmax', 'log_softmax'])) continue;
      const scores = containsMatmul(src, value) && (firstSoftmax === undefined || stmt.end <= firstSoftmax);
      if (!scores && !callsOf(['masked_fill', 'where', 'tril', 'triu'])) continue;
      const bad = all(
        value,
        (m) => SCOPED_FOR_EXTRACT.has(m.type) || (m.type === 'call' && ['super', 'locals', 'vars', 'eval', 'exec'].includes(calleeName(src, m)?.dotted ?? '')),
      );
      if (bad.length > 0) continue;
      const names: string[] = [];
      const globals: string[] = [];
      for (const id of all(value, (m) => m.type === 'identifier' && isVariable(m))) {
        const t = textOf(src, id);
        if (params.has(t) || locals.has(t) || outer.has(t)) {
          if (!names.includes(t)) names.push(t);
        } else if (!globals.includes(t)) globals.push(t);
      }
      out.push({ stmt, target, value, params: names, globals });
    }
  }
  return out;
}

const SCOPED_FOR_EXTRACT = new Set([
  'lambda',
  'list_comprehension',
  'set_comprehension',
  'dictionary_comprehension',
  'generator_expression',
  'yield',
  'await',
  'named_expression',
]);

function extractView(view: FileView, crossFile: boolean): FileRewrite | null {
  const { src, root } = view;
  const lineAt = lineIndex(src);
  const taken = new Set<string>();
  for (const f of view.others) for (const t of identifierTexts(f.src, f.root)) taken.add(t);
  const imports = named(root).filter((s) => s.type === 'import_statement' || s.type === 'import_from_statement' || s.type === 'future_import_statement');
  const imported = new Set<string>();
  for (const s of imports) {
    for (const c of named(s)) {
      if (c.field !== 'name' && s.type === 'import_from_statement') continue;
      if (c.type === 'dotted_name') imported.add(textOf(src, c.children[0]));
      else if (c.type === 'aliased_import') {
        const alias = field(c, 'alias');
        if (alias) imported.add(textOf(src, alias));
      }
    }
  }
  if (imports.some((s) => all(s, 'wildcard_import').length > 0) && crossFile) return null;
  const builtins = new Set([
    'float',
    'int',
    'bool',
    'len',
    'max',
    'min',
    'abs',
    'range',
    'tuple',
    'list',
    'dict',
    'sum',
    'round',
    'pow',
    'None',
    'True',
    'False',
    'print',
    'isinstance',
    'getattr',
    'hasattr',
    'slice',
    'Ellipsis',
    'type',
    'str',
    'zip',
    'map',
    'any',
    'all',
  ]);
  const edits: Edit[] = [];
  const helpers: Array<{ name: string; lines: Array<{ text: string; anchor: Place[] }>; before: SNode }> = [];
  for (const ex of extractions(src, root)) {
    // in another file only imported modules and builtins can be read
    if (crossFile && ex.globals.some((g) => !imported.has(g) && !builtins.has(g))) continue;
    const name = fresh(taken, crossFile ? '_xpart' : '_part');
    const anchor: Place[] = [];
    for (let l = lineAt(ex.stmt.start); l <= lineAt(ex.stmt.end); l++) anchor.push(place(view.path, l));
    const value = textOf(src, ex.value);
    const helperLines = [
      { text: `def ${name}(${ex.params.join(', ')}):`, anchor },
      { text: `    return ${value.includes('\n') ? `(${value})` : value}`, anchor },
    ];
    const top = topLevelOf(ex.stmt);
    if (!top) continue;
    helpers.push({ name, lines: helperLines, before: top });
    edits.push({ start: ex.value.start, end: ex.value.end, text: `${name}(${ex.params.join(', ')})` });
  }
  if (helpers.length === 0) return null;
  if (!crossFile) {
    const byTop = new Map<SNode, typeof helpers>();
    for (const h of helpers) byTop.set(h.before, [...(byTop.get(h.before) ?? []), h]);
    for (const [top, hs] of byTop) {
      // one insertion per helper (insertions at one offset keep their order), each standing for its statement
      for (const h of hs) {
        edits.push({
          start: lineStart(src, top.start),
          end: lineStart(src, top.start),
          text: `${h.lines.map((l) => l.text).join('\n')}\n\n\n`,
          anchor: h.lines[0].anchor,
        });
      }
    }
    return { edits };
  }
  const dir = view.path.includes('/') ? view.path.slice(0, view.path.lastIndexOf('/') + 1) : '';
  const stem = view.path.slice(dir.length).replace(/\.py$/, '');
  const single = view.others.length === 1;
  const utilName = single ? '_util' : `_util_${stem}`;
  const utilPath = `${dir}${utilName}.py`;
  if (view.others.some((f) => f.path === utilPath)) return null;
  const utilLines: Array<{ text: string; anchor: Place[] }> = [];
  for (const s of imports) utilLines.push({ text: textOf(src, s).replace(/\n\s*/g, ' '), anchor: [] });
  for (const h of helpers) utilLines.push({ text: '', anchor: [] }, { text: '', anchor: [] }, ...h.lines);
  const importText = `from ${dir === '' ? '' : '.'}${utilName} import ${helpers.map((h) => h.name).join(', ')}\n`;
  const at = afterImports(src, root);
  edits.push({ start: at, end: at, text: at === src.length && !src.endsWith('\n') ? `\n${importText}` : importText, anchor: [] });
  return { edits, extra: [newFile(utilPath, utilLines)] };
}

// ---------------------------------------------------------------------------------------------------------------
// config: literal head counts, widths, scales and fill values go to module constants (`const`), or to the fields of
// a @dataclass config read through `self.cfg.<name>` (`cfg`).

interface LiteralSite {
  node: SNode;
  /** Inside a method whose first parameter is `self`, outside parameter defaults and nested scopes. */
  method: SNode | undefined;
}

function literalSites(src: string, root: SNode): LiteralSite[] {
  const fns = attentionFunctions(src, root);
  const classes = new Set<SNode>();
  for (const fn of fns) for (let p = fn.parent; p; p = p.parent) if (p.type === 'class_definition') classes.add(p);
  const scope = new Set<SNode>(fns);
  for (const cls of classes) for (const f of all(cls, 'function_definition')) scope.add(f);
  const out: LiteralSite[] = [];
  const add = (n: SNode | undefined): void => {
    if (!n || !(isNumber(n) || isFloatLiteralCall(src, n))) return;
    if (out.some((o) => o.node === n)) return;
    const fn = enclosingFunction(n);
    if (!fn || !scope.has(fn)) return;
    const paramsNode = field(fn, 'parameters');
    const inParams = paramsNode !== undefined && contains(paramsNode, n);
    const first = paramsNode ? named(paramsNode)[0] : undefined;
    const isMethod = first !== undefined && first.type === 'identifier' && textOf(src, first) === 'self' && fn.parent?.parent?.type === 'class_definition';
    const nested = lazyBetween(n, fn);
    out.push({ node: n, method: isMethod && !inParams && !nested ? fn : undefined });
  };
  for (const fn of scope) {
    walk(fn, (n) => {
      if (n.type === 'call') {
        const c = calleeName(src, n);
        const args = callArgs(src, n);
        if (c && (c.last === 'masked_fill' || c.last === 'masked_fill_')) add(isModuleObject(src, c.object) ? args.positional[2] : args.positional[1]);
        if (c && (c.last === 'masked_fill' || c.last === 'masked_fill_' || c.last === 'full' || c.last === 'full_like'))
          add(args.keywords.get('value')?.value ?? args.keywords.get('fill_value')?.value);
        if (c?.last === 'where') add(args.positional[2]);
        if (c?.last === 'sqrt') add(args.positional[0]);
      } else if (n.type === 'binary_operator') {
        const op = operatorOf(n);
        const l = field(n, 'left');
        const r = field(n, 'right');
        if (op === '/' || op === '*' || op === '**') {
          if (l && r && !(isNumber(l) && isNumber(r))) {
            add(l);
            add(r);
          }
        }
      } else if (n.type === 'assignment') {
        const r = field(n, 'right');
        if (r && isNumber(r) && !['0', '1'].includes(textOf(src, r))) add(r);
      } else if (n.type === 'default_parameter' || n.type === 'typed_default_parameter') {
        const v = field(n, 'value');
        if (v && isNumber(v) && !['0', '1', '0.0'].includes(textOf(src, v))) add(v);
      }
      return true;
    });
  }
  return out.sort((a, b) => a.node.start - b.node.start);
}

function constView(view: FileView): FileRewrite | null {
  const { src, root } = view;
  const lineAt = lineIndex(src);
  const taken = new Set<string>();
  for (const f of view.others) for (const t of identifierTexts(f.src, f.root)) taken.add(t);
  const sites = literalSites(src, root);
  if (sites.length === 0) return null;
  const edits: Edit[] = [];
  const defs: string[] = [];
  const anchors: Place[] = [];
  for (const s of sites) {
    const name = fresh(taken, 'VAL_1');
    defs.push(`${name} = ${textOf(src, s.node)}\n`);
    anchors.push(place(view.path, lineAt(s.node.start)));
    edits.push({ start: s.node.start, end: s.node.end, text: name });
  }
  const at = afterImports(src, root);
  const lead = at === src.length && !src.endsWith('\n') ? '\n' : '';
  // one edit per definition line, so each constant's line stands for its literal's line
  defs.forEach((d, i) => edits.push({ start: at, end: at, text: (i === 0 ? lead : '') + d, anchor: [anchors[i]] }));
  return { edits: stableInsertions(edits) };
}

/** Insertions at one offset keep their order (applyEdits sorts by start only, stably). */
function stableInsertions(edits: Edit[]): Edit[] {
  return edits;
}

function cfgView(view: FileView): FileRewrite | null {
  const { src, root } = view;
  const lineAt = lineIndex(src);
  const taken = new Set<string>();
  for (const f of view.others) for (const t of identifierTexts(f.src, f.root)) taken.add(t);
  const sites = literalSites(src, root).filter((s) => s.method !== undefined);
  if (sites.length === 0) return null;
  const classes = new Map<SNode, LiteralSite[]>();
  for (const s of sites) {
    const cls = s.method!.parent!.parent!;
    // a class that already has a `cfg` attribute is left alone
    if (all(cls, (n) => n.type === 'attribute' && textOf(src, n) === 'self.cfg').length > 0) continue;
    if (all(cls, (n) => n.type === 'identifier' && textOf(src, n) === 'cfg').length > 0) continue;
    classes.set(cls, [...(classes.get(cls) ?? []), s]);
  }
  if (classes.size === 0) return null;
  const cfgClass = fresh(taken, '_Cfg');
  const fields: string[] = [];
  const anchors: Place[] = [];
  const edits: Edit[] = [];
  for (const [cls, ss] of classes) {
    const body = field(cls, 'body');
    const firstStmt = body ? named(body)[0] : undefined;
    if (!body || !firstStmt || !beginsLine(src, firstStmt)) continue;
    for (const s of ss) {
      const fname = fresh(taken, 'val_1');
      const lit = textOf(src, s.node);
      const type = s.node.type === 'integer' || (s.node.type === 'unary_operator' && field(s.node, 'argument')?.type === 'integer') ? 'int' : 'float';
      fields.push(`    ${fname}: ${type} = ${lit}\n`);
      anchors.push(place(view.path, lineAt(s.node.start)));
      edits.push({ start: s.node.start, end: s.node.end, text: `self.cfg.${fname}` });
    }
    // after the docstring when there is one
    const isDoc = firstStmt.type === 'expression_statement' && firstStmt.children[0]?.type === 'string';
    const indent = indentOf(src, firstStmt);
    if (isDoc) {
      const nl = src.indexOf('\n', firstStmt.end);
      const at = nl < 0 ? src.length : nl + 1;
      edits.push({ start: at, end: at, text: `${indent}cfg = ${cfgClass}()\n`, anchor: [] });
    } else {
      edits.push({ start: firstStmt.start, end: firstStmt.start, text: `cfg = ${cfgClass}()\n${indent}`, anchor: [] });
    }
  }
  if (fields.length === 0) return null;
  const at = afterImports(src, root);
  const lead = at === src.length && !src.endsWith('\n') ? '\n' : '';
  edits.push({ start: at, end: at, text: `${lead}from dataclasses import dataclass\n\n\n@dataclass\nclass ${cfgClass}:\n`, anchor: [] });
  fields.forEach((f, i) => edits.push({ start: at, end: at, text: f, anchor: [anchors[i]] }));
  edits.push({ start: at, end: at, text: '\n\n', anchor: [] });
  return { edits };
}

// ---------------------------------------------------------------------------------------------------------------

export const REWRITES: readonly Rewrite[] = [
  {
    name: 'rename',
    doc: "an attention function's parameters and locals renamed (q→query_states, scores→logits, mask→m2, others n1, n2...), keyword arguments of its calls in the file too",
    file: renameView,
  },
  { name: 'hoist', doc: 'the argument of softmax / masked_fill and the scale of the scores moved to a fresh local on the line before', file: hoistView },
  { name: 'inline', doc: 'a local assigned once and read once later in its block replaced by its value', file: inlineView },
  { name: 'softmax-form', doc: 'F.softmax(x, dim=d) ↔ x.softmax(dim=d); x.softmax(d) → torch.softmax(x, d)', file: softmaxFormView },
  { name: 'softmax-kw', doc: "softmax's dim=d ↔ positional d", file: softmaxKwPosView },
  { name: 'matmul-form', doc: 'a @ b ↔ torch.matmul(a, b)', file: matmulFormView },
  { name: 'transpose-swap', doc: 'x.transpose(-2, -1) ↔ x.transpose(-1, -2) (any two literal axes)', file: transposeSwapView },
  { name: 'sqrt-form', doc: 'math.sqrt(d) ↔ d ** 0.5; d ** -0.5 → 1.0 / math.sqrt(d)', file: sqrtFormView },
  {
    name: 'extract',
    doc: 'each statement computing the scores (a product before the first softmax) or a mask / the filled scores moved to a new module-level function in the file, called with the names it uses',
    file: (v) => extractView(v, false),
  },
  { name: 'extract-xfile', doc: 'the same function moved to a new _util.py beside the file and imported', file: (v) => extractView(v, true) },
  { name: 'const', doc: 'literal head counts, widths, scales and fill values moved to module constants', file: constView },
  { name: 'cfg', doc: 'the same literals (inside methods) moved to a @dataclass config read through self.cfg.<name>', file: cfgView },
];

export type RewriteOutcome = { kind: 'applied'; files: MappedFile[] } | { kind: 'not-applicable' } | { kind: 'unsafe'; why: string };

/** The parsed files of a case, as every rewrite sees them (parsed once per case when the caller keeps them). */
export function parseViews(files: readonly SourceFile[], parser: PyParser): FileView[] {
  const views: FileView[] = [];
  for (const f of files) views.push({ path: f.path, src: f.text, root: parser.parse(f.text), others: views });
  return views;
}

/** Applies one rewrite to every file of a case; a rewritten file that no longer parses makes the case `unsafe`. */
export function applyRewrite(rewrite: Rewrite, files: readonly SourceFile[], parser: PyParser, parsed?: readonly FileView[]): RewriteOutcome {
  const views = parsed ?? parseViews(files, parser);
  const out: MappedFile[] = [];
  let changed = false;
  for (const v of views) {
    if (hasError(v.root)) {
      out.push(identity(v.path, v.src));
      continue;
    }
    let r: FileRewrite | null;
    try {
      r = rewrite.file(v);
    } catch (e) {
      return { kind: 'unsafe', why: `${v.path}: ${(e as Error).message}` };
    }
    if (!r || r.edits.length === 0) {
      out.push(identity(v.path, v.src));
      continue;
    }
    const mapped = applyEdits(v.path, v.src, r.edits);
    for (const m of [mapped, ...(r.extra ?? [])]) {
      if (hasError(parser.parse(m.text))) return { kind: 'unsafe', why: `${m.path}: the rewritten file does not parse` };
    }
    out.push(mapped, ...(r.extra ?? []));
    changed = true;
  }
  return changed ? { kind: 'applied', files: out } : { kind: 'not-applicable' };
}
