// Pass 1: scopes and reaching definitions.
//
// Walks every statement once, in order, keeping an environment name → definitions that can reach this
// point (branches fork the environment and join it again; a branch that ends in return/raise/break/continue
// does not flow on; loop bodies are walked twice so loop-carried definitions reach the top). Every name that
// is read gets the list of definitions reaching it. Attributes of `self` inside methods are tracked as
// pseudo-names ('self.scale'), so `self.scale = ...` in `__init__` is found from `forward`.
//
// Also collects classes (methods, `self.x = ...` definitions, `register_buffer`) and the facts a statement
// states about a variable's rank (`B, T, C = x.size()` says x has 3 dimensions).
import { callArgs, dottedName, stringLiteral, targetNames } from '../syntax/python';
import { childByField, childrenByField, firstNamedChild, namedChildren, text, unparen, type PyNode, type PyTree } from '../syntax/tree';

export type DefKind =
  | 'assign'
  | 'aug'
  | 'param'
  | 'for'
  | 'with'
  | 'import'
  | 'inplace'
  | 'setitem'
  | 'funcdef'
  | 'classdef'
  | 'comp'
  | 'walrus'
  | 'except'
  | 'buffer';

export interface ParamInfo {
  name: string;
  /** Position among positional parameters (self included); undefined for keyword-only and splats. */
  index: number | undefined;
  kind: 'positional' | 'keyword-only' | 'star' | 'kwstar';
  default?: PyNode;
  node: PyNode;
}

export interface Def {
  readonly id: number;
  /** Variable name, or 'self.attr' for attributes of a method's self. */
  readonly name: string;
  readonly kind: DefKind;
  /** The target node (identifier/attribute), or the statement for imports. */
  readonly target: PyNode;
  /** Right-hand side / iterable / with-value / in-place call / buffer value. */
  readonly value?: PyNode;
  /** Tuple-unpacking path into the value. */
  readonly path: number[];
  readonly star?: boolean;
  /** Augmented operator without '=' ('/', '*', ...). */
  readonly op?: string;
  /** Definitions reaching just before an aug/in-place/setitem definition. */
  readonly prev?: Def[];
  readonly scope: Scope;
  readonly param?: ParamInfo;
  /** Qualified module path for imports: `import torch.nn.functional as F` → ['torch','nn','functional']. */
  readonly importPath?: string[];
  /**
   * For `from M import name`: how many leading parts of importPath are the module M (the rest is the name),
   * and M's leading dots (`from ..pkg import f`: level 2). Absent for `import a.b [as m]` (all of it is a module).
   */
  readonly importFrom?: { readonly moduleParts: number; readonly level: number };
  /** The scope created by a def/class/lambda statement. */
  readonly defines?: Scope;
  /** The arms of `if` statements (innermost last) the definition sits in, within its scope (see paths.ts). */
  readonly guard?: readonly GuardStep[];
}

/** One arm of an `if` statement: the statement's node id and the arm's index (0: the `if`, then elif/else in order). */
export interface GuardStep {
  readonly branch: number;
  readonly arm: number;
}

export type ScopeKind = 'module' | 'function' | 'class' | 'lambda' | 'comprehension';

export interface ClassInfo {
  name: string;
  node: PyNode;
  scope: Scope;
  methods: Map<string, Scope>;
  /** 'self.x' → definitions in any method (mostly __init__), each evaluated in its own method. */
  attrDefs: Map<string, Def[]>;
  bases: PyNode[];
}

export interface Scope {
  readonly id: number;
  readonly kind: ScopeKind;
  readonly node: PyNode;
  readonly parent: Scope | undefined;
  readonly name: string;
  readonly params: ParamInfo[];
  /** Environment when the scope finished (what inner functions and later code see). */
  envAtEnd: Map<string, Def[]>;
  /** Enclosing environment where this scope was defined (closures). */
  readonly outerEnv: Map<string, Def[]> | undefined;
  /** For methods: the class, and the name of the first parameter (usually 'self'). */
  readonly ownerClass?: ClassInfo;
  readonly selfName?: string;
  /** For class scopes. */
  classInfo?: ClassInfo;
  /** Return-statement expressions (lambda: its body). */
  readonly returns: PyNode[];
  readonly children: Scope[];
}

export interface ScopeResult {
  module: Scope;
  scopes: Scope[];
  classes: ClassInfo[];
  /** Reaching definitions for each read of a name (indexed by node id). Absent: not defined in its own scope. */
  uses: (Def[] | undefined)[];
  /** The scope each name-reading node sits in (indexed by node id). */
  useScope: (Scope | undefined)[];
  /** Rank facts: def id → number of dimensions stated by `a, b, c = x.shape` and similar. */
  rankFacts: Map<number, number>;
  /** Definitions by target node id (for finding the def a target creates). */
  defsByTarget: Map<number, Def[]>;
  /** Scope created by a function/lambda/class node (by node id). */
  scopeOfNode: Map<number, Scope>;
  /** Definitions made in each scope (by scope id), in order. */
  defsOfScope: Map<number, Def[]>;
  /** Statement-level expressions of each scope that are not definitions (calls, returns, conditions). */
  exprsOfScope: Map<number, PyNode[]>;
  /**
   * For calls of the instance's own methods (`self.attend(q, k, v)`, by call node id): the definitions of `self.`
   * attributes reaching the call, so the method called sees the attributes as set on the caller's path.
   */
  selfAttrsAtCall: Map<number, ReadonlyMap<string, Def[]>>;
}

type Env = Map<string, Def[]>;

const TERMINATORS = new Set(['return_statement', 'raise_statement', 'continue_statement', 'break_statement']);
const COMPREHENSIONS = new Set(['list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression']);

export function analyseScopes(tree: PyTree): ScopeResult {
  const src = tree;
  let nextDefId = 0;
  let nextScopeId = 0;
  const scopes: Scope[] = [];
  const classes: ClassInfo[] = [];
  const uses: (Def[] | undefined)[] = new Array(tree.nodeCount);
  const useScope: (Scope | undefined)[] = new Array(tree.nodeCount);
  const rankFacts = new Map<number, number>();
  const defsByTarget = new Map<number, Def[]>();
  const scopeOfNode = new Map<number, Scope>();
  const defsOfScope = new Map<number, Def[]>();
  const exprsOfScope = new Map<number, PyNode[]>();
  const selfAttrsAtCall = new Map<number, ReadonlyMap<string, Def[]>>();
  const noteExpr = (node: PyNode | undefined, scope: Scope): void => {
    if (!node) return;
    const list = exprsOfScope.get(scope.id);
    if (list) list.push(node);
    else exprsOfScope.set(scope.id, [node]);
  };

  const newScope = (init: Omit<Scope, 'id' | 'returns' | 'children' | 'envAtEnd'>): Scope => {
    const s: Scope = { ...init, id: nextScopeId++, returns: [], children: [], envAtEnd: new Map() };
    scopes.push(s);
    init.parent?.children.push(s);
    scopeOfNode.set(init.node.id, s);
    return s;
  };

  /** The `if` arms the walk is inside (per scope: a nested function starts its own). */
  let guards: GuardStep[] = [];
  const inArm = <T>(branch: PyNode, arm: number, walk: () => T): T => {
    guards.push({ branch: branch.id, arm });
    try {
      return walk();
    } finally {
      guards.pop();
    }
  };

  const addDef = (env: Env, def: Omit<Def, 'id'>): Def => {
    // The literal is fresh at every call site: give it its id in place (no copy).
    const d = def as Def & { id: number; guard?: readonly GuardStep[] };
    d.id = nextDefId++;
    if (guards.length > 0 && def.kind !== 'param') d.guard = guards.slice();
    env.set(d.name, [d]);
    const list = defsByTarget.get(d.target.id);
    if (list) list.push(d);
    else defsByTarget.set(d.target.id, [d]);
    const ofScope = defsOfScope.get(d.scope.id);
    if (ofScope) ofScope.push(d);
    else defsOfScope.set(d.scope.id, [d]);
    const cls = d.scope.ownerClass;
    if (cls && d.name.startsWith('self.')) {
      const attr = cls.attrDefs.get(d.name);
      if (attr) attr.push(d);
      else cls.attrDefs.set(d.name, [d]);
    }
    return d;
  };

  const fork = (env: Env): Env => new Map(env);

  const join = (envs: (Env | null)[]): Env | null => {
    const live = envs.filter((e): e is Env => e !== null);
    if (live.length === 0) return null;
    if (live.length === 1) return live[0];
    const out: Env = new Map();
    for (const e of live) {
      for (const [name, defs] of e) {
        const cur = out.get(name);
        if (!cur) out.set(name, defs);
        else if (cur !== defs) {
          const merged = cur.slice();
          for (const d of defs) if (!merged.includes(d)) merged.push(d);
          out.set(name, merged);
        }
      }
    }
    return out;
  };

  /** Name a target node binds: identifier text, or 'self.x' for attributes of the method's self. */
  const boundName = (node: PyNode, scope: Scope): string | undefined => {
    if (node.type === 'identifier') return text(src, node);
    if (node.type === 'attribute' && scope.selfName) {
      const obj = childByField(node, 'object');
      const attr = childByField(node, 'attribute');
      if (obj && attr && obj.type === 'identifier' && text(src, obj) === scope.selfName) return `self.${text(src, attr)}`;
    }
    return undefined;
  };

  // ------------------------------------------------------------------ expressions

  const recordUse = (node: PyNode, name: string, env: Env, scope: Scope): void => {
    useScope[node.id] = scope;
    const defs = env.get(name);
    if (defs) uses[node.id] = defs;
  };

  const visitExpr = (node: PyNode | undefined, env: Env, scope: Scope): void => {
    if (!node) return;
    const stack: PyNode[] = [node];
    while (stack.length > 0) {
      const n = stack.pop()!;
      switch (n.type) {
        case 'identifier':
          recordUse(n, text(src, n), env, scope);
          continue;
        case 'attribute': {
          const pseudo = boundName(n, scope);
          if (pseudo) recordUse(n, pseudo, env, scope);
          if (pseudo && n.field === 'function' && n.parent?.type === 'call') {
            const attrs = new Map<string, Def[]>();
            for (const [name, defs] of env) if (name.startsWith('self.') && defs.some((d) => d.kind !== 'funcdef')) attrs.set(name, defs);
            if (attrs.size > 0) selfAttrsAtCall.set(n.parent.id, attrs);
          }
          const obj = childByField(n, 'object');
          if (obj) stack.push(obj);
          continue;
        }
        case 'keyword_argument': {
          const v = childByField(n, 'value');
          if (v) stack.push(v);
          continue;
        }
        case 'lambda':
          visitLambda(n, env, scope);
          continue;
        case 'named_expression': {
          visitExpr(childByField(n, 'value'), env, scope);
          const name = childByField(n, 'name');
          if (name) addDef(env, { name: text(src, name), kind: 'walrus', target: name, value: childByField(n, 'value'), path: [], scope });
          continue;
        }
        case 'string':
        case 'concatenated_string': {
          // Only interpolations can read names.
          for (const c of n.children) {
            if (c.type === 'interpolation') {
              const e = firstNamedChild(c);
              if (e) stack.push(e);
            } else if (c.type === 'string') stack.push(c);
          }
          continue;
        }
        case 'comment':
          continue;
        default:
          if (COMPREHENSIONS.has(n.type)) {
            visitComprehension(n, env, scope);
            continue;
          }
          for (let i = n.children.length - 1; i >= 0; i--) {
            const c = n.children[i];
            if (c.named) stack.push(c);
          }
      }
    }
  };

  const visitLambda = (n: PyNode, env: Env, scope: Scope): void => {
    const paramsNode = childByField(n, 'parameters');
    const params = paramsNode ? readParams(paramsNode) : [];
    for (const p of params) if (p.default) visitExpr(p.default, env, scope);
    const body = childByField(n, 'body');
    const s = newScope({ kind: 'lambda', node: n, parent: scope, name: '<lambda>', params, outerEnv: env });
    if (body) s.returns.push(body);
    const inner: Env = new Map();
    for (const p of params) addDef(inner, { name: p.name, kind: 'param', target: p.node, path: [], scope: s, param: p });
    visitExpr(body, inner, s);
    s.envAtEnd = inner;
  };

  const visitComprehension = (n: PyNode, env: Env, scope: Scope): void => {
    // for-clauses bind in a child environment; the first iterable is evaluated outside.
    const inner = fork(env);
    const s = newScope({ kind: 'comprehension', node: n, parent: scope, name: '<comprehension>', params: [], outerEnv: env });
    for (const c of namedChildren(n)) {
      if (c.type === 'for_in_clause') {
        const right = childByField(c, 'right');
        visitExpr(right, inner, scope);
        const left = childByField(c, 'left');
        if (left) {
          for (const t of targetNames(left)) {
            const name = boundName(t.node, scope);
            if (name) addDef(inner, { name, kind: 'comp', target: t.node, value: right, path: t.path, star: t.star, scope: s });
          }
        }
      } else if (c.type === 'if_clause') {
        visitExpr(firstNamedChild(c), inner, scope);
      }
    }
    for (const c of namedChildren(n)) if (c.field === 'body') visitExpr(c, inner, scope);
    s.envAtEnd = inner;
  };

  // ------------------------------------------------------------------ targets

  const bindTargets = (targetNode: PyNode, value: PyNode | undefined, kind: DefKind, env: Env, scope: Scope): void => {
    for (const t of targetNames(targetNode)) {
      const name = boundName(t.node, scope);
      if (t.node.type === 'subscript') {
        // x[i] = v mutates x: recorded as a new definition of x that depends on the previous ones.
        const base = childByField(t.node, 'value');
        visitExpr(childByField(t.node, 'subscript'), env, scope);
        for (const sub of childrenByField(t.node, 'subscript')) visitExpr(sub, env, scope);
        const baseName = base ? boundName(unparen(base), scope) : undefined;
        if (base) visitExpr(base, env, scope);
        if (baseName) {
          addDef(env, { name: baseName, kind: 'setitem', target: t.node, value: targetNode.parent ?? undefined, path: [], scope, prev: env.get(baseName) ?? [] });
        }
        continue;
      }
      if (t.node.type === 'attribute' && !name) {
        // obj.attr = v (not self): reads obj.
        visitExpr(childByField(t.node, 'object'), env, scope);
        continue;
      }
      if (!name) continue;
      addDef(env, { name, kind, target: t.node, value, path: t.path, star: t.star, scope });
    }
  };

  /** `B, T, C = x.size()` / `x.shape` → x has three dimensions. */
  const noteRankFact = (left: PyNode, right: PyNode, env: Env, scope: Scope): void => {
    const l = unparen(left);
    if (l.type !== 'pattern_list' && l.type !== 'tuple_pattern' && l.type !== 'list_pattern') return;
    const items = namedChildren(l);
    if (items.some((i) => i.type === 'list_splat_pattern')) return;
    let r = unparen(right);
    if (r.type === 'call') {
      const fn = childByField(r, 'function');
      const args = callArgs(src, r);
      if (!fn || fn.type !== 'attribute' || args.positional.length > 0) return;
      const attr = childByField(fn, 'attribute');
      if (!attr || !['size', 'get_shape', 'dim'].includes(text(src, attr))) return;
      if (text(src, attr) === 'dim') return;
      r = fn;
    } else if (r.type !== 'attribute') return;
    const attr = childByField(r, 'attribute');
    const obj = childByField(r, 'object');
    if (!attr || !obj) return;
    const a = text(src, attr);
    if (a !== 'shape' && a !== 'size' && a !== 'get_shape') return;
    const name = boundName(unparen(obj), scope);
    if (!name) return;
    for (const d of env.get(name) ?? []) rankFacts.set(d.id, items.length);
  };

  // ------------------------------------------------------------------ statements

  const readParams = (paramsNode: PyNode): ParamInfo[] => {
    const out: ParamInfo[] = [];
    let index = 0;
    let keywordOnly = false;
    for (const p of namedChildren(paramsNode)) {
      let nameNode: PyNode | undefined;
      let def: PyNode | undefined;
      let kind: ParamInfo['kind'] = keywordOnly ? 'keyword-only' : 'positional';
      switch (p.type) {
        case 'identifier':
          nameNode = p;
          break;
        case 'typed_parameter':
          nameNode = firstNamedChild(p);
          if (nameNode && nameNode.type !== 'identifier') {
            // *args: T / **kw: T
            const inner = firstNamedChild(nameNode);
            kind = nameNode.type === 'list_splat_pattern' ? 'star' : 'kwstar';
            if (kind === 'star') keywordOnly = true;
            nameNode = inner;
          }
          break;
        case 'default_parameter':
        case 'typed_default_parameter':
          nameNode = childByField(p, 'name');
          def = childByField(p, 'value');
          break;
        case 'list_splat_pattern':
          nameNode = firstNamedChild(p);
          kind = 'star';
          keywordOnly = true;
          break;
        case 'dictionary_splat_pattern':
          nameNode = firstNamedChild(p);
          kind = 'kwstar';
          break;
        case 'keyword_separator':
          keywordOnly = true;
          continue;
        case 'positional_separator':
          continue;
        default:
          continue;
      }
      if (!nameNode || nameNode.type !== 'identifier') continue;
      const positional = kind === 'positional';
      out.push({ name: text(src, nameNode), index: positional ? index : undefined, kind, default: def, node: nameNode });
      if (positional) index++;
    }
    return out;
  };

  const visitFunction = (n: PyNode, env: Env, scope: Scope, cls: ClassInfo | undefined): void => {
    const nameNode = childByField(n, 'name');
    const name = nameNode ? text(src, nameNode) : '<function>';
    const paramsNode = childByField(n, 'parameters');
    const params = paramsNode && !n.skipped ? readParams(paramsNode) : [];
    for (const p of params) if (p.default) visitExpr(p.default, env, scope);
    for (const dec of decoratorsOf(n)) visitExpr(dec, env, scope);
    const isMethod = cls !== undefined && !isStaticMethod(n);
    const selfName = isMethod && params.length > 0 && params[0].kind === 'positional' ? params[0].name : undefined;
    const s = newScope({ kind: 'function', node: n, parent: scope, name, params, outerEnv: env, ownerClass: isMethod ? cls : undefined, selfName });
    if (cls) cls.methods.set(name, s);
    if (nameNode) addDef(env, { name, kind: 'funcdef', target: nameNode, path: [], scope, defines: s });
    if (n.skipped) return;
    const inner: Env = new Map();
    for (const p of params) addDef(inner, { name: p.name, kind: 'param', target: p.node, path: [], scope: s, param: p });
    const body = childByField(n, 'body');
    const outerGuards = guards;
    guards = [];
    const end = body ? walkBlock(body, inner, s) : inner;
    guards = outerGuards;
    s.envAtEnd = end ?? inner;
  };

  const decoratorsOf = (fn: PyNode): PyNode[] => {
    const p = fn.parent;
    if (!p || p.type !== 'decorated_definition') return [];
    return p.children.filter((c) => c.type === 'decorator').map((d) => firstNamedChild(d)).filter((x): x is PyNode => !!x);
  };

  const isStaticMethod = (fn: PyNode): boolean =>
    decoratorsOf(fn).some((d) => {
      const t = text(src, d);
      return t === 'staticmethod' || t === 'classmethod';
    });

  const visitClass = (n: PyNode, env: Env, scope: Scope): void => {
    const nameNode = childByField(n, 'name');
    const name = nameNode ? text(src, nameNode) : '<class>';
    const superclasses = childByField(n, 'superclasses');
    const bases = superclasses ? namedChildren(superclasses).filter((b) => b.type !== 'keyword_argument') : [];
    if (superclasses) visitExpr(superclasses, env, scope);
    const s = newScope({ kind: 'class', node: n, parent: scope, name, params: [], outerEnv: env });
    const info: ClassInfo = { name, node: n, scope: s, methods: new Map(), attrDefs: new Map(), bases };
    s.classInfo = info;
    classes.push(info);
    if (nameNode) addDef(env, { name, kind: 'classdef', target: nameNode, path: [], scope, defines: s });
    if (n.skipped) return;
    const body = childByField(n, 'body');
    const inner: Env = new Map();
    const outerGuards = guards;
    guards = [];
    if (body) walkBlock(body, inner, s, info);
    guards = outerGuards;
    s.envAtEnd = inner;
  };

  const visitImport = (n: PyNode, env: Env, scope: Scope): void => {
    if (n.type === 'import_statement') {
      for (const c of namedChildren(n)) {
        if (c.type === 'dotted_name') {
          const parts = namedChildren(c).map((x) => text(src, x));
          // `import a.b` binds `a` (to module a).
          addDef(env, { name: parts[0], kind: 'import', target: c, path: [], scope, importPath: [parts[0]] });
        } else if (c.type === 'aliased_import') {
          const dn = childByField(c, 'name');
          const alias = childByField(c, 'alias');
          if (dn && alias) addDef(env, { name: text(src, alias), kind: 'import', target: alias, path: [], scope, importPath: namedChildren(dn).map((x) => text(src, x)) });
        }
      }
      return;
    }
    if (n.type === 'import_from_statement') {
      const moduleNode = childByField(n, 'module_name');
      if (!moduleNode) return;
      const modPath = moduleNode.type === 'dotted_name' ? namedChildren(moduleNode).map((x) => text(src, x)) : [];
      // `from .utils import f` / `from .. import m`: the dots, and the dotted name after them (resolved in the workspace).
      const relative = moduleNode.type === 'relative_import';
      const prefix = relative ? namedChildren(moduleNode).find((x) => x.type === 'import_prefix') : undefined;
      const relPath = relative ? namedChildren(namedChildren(moduleNode).find((x) => x.type === 'dotted_name') ?? moduleNode).filter((x) => x.type === 'identifier').map((x) => text(src, x)) : [];
      const from = relative ? { moduleParts: relPath.length, level: prefix ? prefix.end - prefix.start : 1 } : { moduleParts: modPath.length, level: 0 };
      const fromPath = relative ? relPath : modPath;
      for (const c of n.children) {
        if (c === moduleNode || !c.named) continue;
        if (c.type === 'dotted_name' && c.field === 'name') {
          const parts = namedChildren(c).map((x) => text(src, x));
          addDef(env, { name: parts[parts.length - 1], kind: 'import', target: c, path: [], scope, importPath: [...fromPath, ...parts], importFrom: from });
        } else if (c.type === 'aliased_import') {
          const dn = childByField(c, 'name');
          const alias = childByField(c, 'alias');
          if (dn && alias) addDef(env, { name: text(src, alias), kind: 'import', target: alias, path: [], scope, importPath: [...fromPath, ...namedChildren(dn).map((x) => text(src, x))], importFrom: from });
        }
      }
    }
  };

  const inplaceReceiver = (call: PyNode, scope: Scope): string | undefined => {
    const fn = childByField(call, 'function');
    if (!fn || fn.type !== 'attribute') return undefined;
    const attr = childByField(fn, 'attribute');
    const obj = childByField(fn, 'object');
    if (!attr || !obj) return undefined;
    const m = text(src, attr);
    if (!/^[a-z][a-z0-9_]*[a-z0-9]_$/.test(m)) return undefined;
    return boundName(unparen(obj), scope);
  };

  const visitStatement = (n: PyNode, env: Env, scope: Scope, cls?: ClassInfo): Env | null => {
    switch (n.type) {
      case 'expression_statement': {
        for (const e of namedChildren(n)) visitExpressionStatementPart(e, env, scope);
        return env;
      }
      case 'return_statement': {
        const e = firstNamedChild(n);
        visitExpr(e, env, scope);
        if (e) scope.returns.push(e);
        noteExpr(e, scope);
        return null;
      }
      case 'raise_statement':
        visitExpr(firstNamedChild(n), env, scope);
        return null;
      case 'continue_statement':
      case 'break_statement':
        return null;
      case 'if_statement': {
        visitExpr(childByField(n, 'condition'), env, scope);
        noteExpr(childByField(n, 'condition'), scope);
        const branches: (Env | null)[] = [];
        const cons = childByField(n, 'consequence');
        branches.push(cons ? inArm(n, 0, () => walkBlock(cons, fork(env), scope)) : env);
        let hasElse = false;
        let condEnv = env;
        let arm = 0;
        for (const alt of childrenByField(n, 'alternative')) {
          arm++;
          if (alt.type === 'elif_clause') {
            condEnv = fork(condEnv);
            visitExpr(childByField(alt, 'condition'), condEnv, scope);
            const c = childByField(alt, 'consequence');
            branches.push(c ? inArm(n, arm, () => walkBlock(c, fork(condEnv), scope)) : condEnv);
          } else if (alt.type === 'else_clause') {
            hasElse = true;
            const b = childByField(alt, 'body');
            branches.push(b ? inArm(n, arm, () => walkBlock(b, fork(condEnv), scope)) : condEnv);
          }
        }
        if (!hasElse) branches.push(condEnv);
        return join(branches);
      }
      case 'for_statement': {
        const right = childByField(n, 'right');
        visitExpr(right, env, scope);
        const body = childByField(n, 'body');
        let loopEnv: Env | null = env;
        for (let pass = 0; pass < 2 && loopEnv; pass++) {
          const e = fork(loopEnv);
          const left = childByField(n, 'left');
          if (left) bindTargets(left, right, 'for', e, scope);
          const after = body ? walkBlock(body, e, scope) : e;
          loopEnv = join([env, after, e]);
        }
        const elseClause = n.children.find((c) => c.type === 'else_clause');
        const eb = elseClause ? childByField(elseClause, 'body') : undefined;
        const out = loopEnv ?? env;
        return eb ? join([walkBlock(eb, fork(out), scope), out]) : out;
      }
      case 'while_statement': {
        visitExpr(childByField(n, 'condition'), env, scope);
        const body = childByField(n, 'body');
        let loopEnv: Env | null = env;
        for (let pass = 0; pass < 2 && loopEnv; pass++) {
          const after = body ? walkBlock(body, fork(loopEnv), scope) : loopEnv;
          loopEnv = join([env, after]);
        }
        return loopEnv ?? env;
      }
      case 'try_statement': {
        const body = childByField(n, 'body');
        const afterBody = body ? walkBlock(body, fork(env), scope) : env;
        const base = join([env, afterBody]) ?? env;
        const outs: (Env | null)[] = [afterBody];
        for (const c of namedChildren(n)) {
          if (c.type === 'except_clause' || c.type === 'except_group_clause') {
            const e = fork(base);
            for (const x of namedChildren(c)) {
              if (x.type === 'block') outs.push(walkBlock(x, e, scope));
              else if (x.type === 'as_pattern') {
                const alias = childByField(x, 'alias');
                const target = alias ? firstNamedChild(alias) ?? alias : undefined;
                if (target && target.type === 'identifier') addDef(e, { name: text(src, target), kind: 'except', target, path: [], scope });
              } else visitExpr(x, e, scope);
            }
          } else if (c.type === 'else_clause') {
            const b = childByField(c, 'body');
            if (b && afterBody) outs[0] = walkBlock(b, fork(afterBody), scope);
          }
        }
        let result = join(outs);
        const fin = namedChildren(n).find((c) => c.type === 'finally_clause');
        if (fin) {
          const b = namedChildren(fin).find((c) => c.type === 'block');
          if (b) {
            const afterFinally = walkBlock(b, fork(result ?? base), scope);
            result = result ? afterFinally : null;
          }
        }
        return result;
      }
      case 'with_statement': {
        for (const clause of namedChildren(n)) {
          if (clause.type !== 'with_clause') continue;
          for (const item of namedChildren(clause)) {
            const v = childByField(item, 'value');
            if (!v) continue;
            if (v.type === 'as_pattern') {
              const valueExpr = firstNamedChild(v);
              visitExpr(valueExpr, env, scope);
              const alias = childByField(v, 'alias');
              const target = alias ? firstNamedChild(alias) : undefined;
              if (target) bindTargets(target, valueExpr, 'with', env, scope);
            } else {
              visitExpr(v, env, scope);
              noteExpr(v, scope);
            }
          }
        }
        const body = childByField(n, 'body');
        return body ? walkBlock(body, env, scope) : env;
      }
      case 'function_definition':
        visitFunction(n, env, scope, cls);
        return env;
      case 'class_definition':
        visitClass(n, env, scope);
        return env;
      case 'decorated_definition': {
        const def = childByField(n, 'definition');
        if (def) return visitStatement(def, env, scope, cls);
        return env;
      }
      case 'import_statement':
      case 'import_from_statement':
        visitImport(n, env, scope);
        return env;
      case 'match_statement': {
        visitExpr(childByField(n, 'subject'), env, scope);
        const branches: (Env | null)[] = [env];
        const body = childByField(n, 'body');
        for (const c of body ? namedChildren(body) : []) {
          if (c.type !== 'case_clause') continue;
          const cons = childByField(c, 'consequence');
          branches.push(cons ? walkBlock(cons, fork(env), scope) : env);
        }
        return join(branches);
      }
      case 'assert_statement':
      case 'delete_statement':
      case 'print_statement':
      case 'exec_statement':
        for (const c of namedChildren(n)) visitExpr(c, env, scope);
        return env;
      case 'global_statement':
      case 'nonlocal_statement':
      case 'pass_statement':
      case 'future_import_statement':
      case 'comment':
        return env;
      case 'ERROR': {
        // Half-typed code: walk what can be walked.
        let e: Env | null = env;
        for (const c of namedChildren(n)) {
          if (!e) break;
          if (isStatement(c)) e = visitStatement(c, e, scope, cls);
          else visitExpr(c, e, scope);
        }
        return e ?? env;
      }
      default:
        if (isStatement(n)) {
          for (const c of namedChildren(n)) visitExpr(c, env, scope);
        } else visitExpr(n, env, scope);
        return env;
    }
  };

  const visitExpressionStatementPart = (e: PyNode, env: Env, scope: Scope): void => {
    if (e.type === 'assignment') {
      visitAssignment(e, env, scope);
      return;
    }
    if (e.type === 'augmented_assignment') {
      const left = childByField(e, 'left');
      const right = childByField(e, 'right');
      const opNode = childByField(e, 'operator');
      visitExpr(right, env, scope);
      if (left) visitExpr(left, env, scope);
      const name = left ? boundName(unparen(left), scope) : undefined;
      if (name && left) {
        const op = opNode ? text(src, opNode).replace(/=$/, '') : undefined;
        addDef(env, { name, kind: 'aug', target: unparen(left), value: right, path: [], scope, op, prev: env.get(name) ?? [] });
      }
      return;
    }
    visitExpr(e, env, scope);
    noteExpr(e, scope);
    const call = unparen(e);
    if (call.type === 'call') {
      const recv = inplaceReceiver(call, scope);
      if (recv) addDef(env, { name: recv, kind: 'inplace', target: call, value: call, path: [], scope, prev: env.get(recv) ?? [] });
      noteRegisterBuffer(call, env, scope);
    }
  };

  /** self.register_buffer("bias", value) defines self.bias. */
  const noteRegisterBuffer = (call: PyNode, env: Env, scope: Scope): void => {
    if (!scope.selfName) return;
    const fn = childByField(call, 'function');
    const name = fn ? dottedName(src, fn) : undefined;
    if (!name || name.length !== 2 || name[0] !== scope.selfName || (name[1] !== 'register_buffer' && name[1] !== 'register_parameter')) return;
    const args = callArgs(src, call);
    const bufName = stringLiteral(src, args.positional[0] ?? args.keywords.get('name')?.value);
    const value = args.positional[1] ?? args.keywords.get('tensor')?.value ?? args.keywords.get('param')?.value;
    if (!bufName || !value) return;
    addDef(env, { name: `self.${bufName}`, kind: 'buffer', target: call, value, path: [], scope });
  };

  const visitAssignment = (e: PyNode, env: Env, scope: Scope): void => {
    // a = b = value: the innermost right is the value; every left binds it.
    const lefts: PyNode[] = [];
    let cur: PyNode = e;
    let value: PyNode | undefined;
    for (;;) {
      const l = childByField(cur, 'left');
      if (l) lefts.push(l);
      const r = childByField(cur, 'right');
      if (r && r.type === 'assignment') {
        cur = r;
        continue;
      }
      value = r;
      break;
    }
    visitExpr(value, env, scope);
    if (!value) return; // annotation only
    for (const l of lefts) {
      noteRankFact(l, value, env, scope);
      bindTargets(l, value, 'assign', env, scope);
    }
  };

  const walkBlock = (block: PyNode, env: Env, scope: Scope, cls?: ClassInfo): Env | null => {
    let e: Env | null = env;
    for (const stmt of block.children) {
      if (!stmt.named || stmt.type === 'comment') continue;
      if (!e) break; // unreachable code after return
      e = visitStatement(stmt, e, scope, cls);
      if (e && TERMINATORS.has(stmt.type)) e = null;
    }
    return e;
  };

  // ------------------------------------------------------------------ run

  const moduleScope = newScope({ kind: 'module', node: tree.root, parent: undefined, name: '<module>', params: [], outerEnv: undefined });
  const moduleEnv: Env = new Map();
  walkBlock(tree.root, moduleEnv, moduleScope);
  moduleScope.envAtEnd = moduleEnv;

  return { module: moduleScope, scopes, classes, uses, useScope, rankFacts, defsByTarget, scopeOfNode, defsOfScope, exprsOfScope, selfAttrsAtCall };
}

const STATEMENT_TYPES = new Set([
  'expression_statement',
  'return_statement',
  'if_statement',
  'for_statement',
  'while_statement',
  'try_statement',
  'with_statement',
  'function_definition',
  'class_definition',
  'decorated_definition',
  'import_statement',
  'import_from_statement',
  'raise_statement',
  'pass_statement',
  'break_statement',
  'continue_statement',
  'assert_statement',
  'delete_statement',
  'global_statement',
  'nonlocal_statement',
  'match_statement',
  'print_statement',
  'exec_statement',
  'future_import_statement',
  'type_alias_statement',
]);

export function isStatement(n: PyNode): boolean {
  return STATEMENT_TYPES.has(n.type);
}
