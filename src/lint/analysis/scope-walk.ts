// The state of the scopes pass (./scopes.ts) while it walks a file: the tables it fills (scopes, classes,
// definitions, uses) and the environment operations (a new definition, fork and join at branches). The visitors (./scope-statements.ts, ./scope-expressions.ts, ./scope-assignments.ts,
// ./scope-imports.ts) all write through one ScopeWalk.
import { childByField, text, type PyNode, type PyTree } from '../syntax/tree';
import type { ClassInfo, Def, Scope, ScopeResult } from './scopes';

/** Name → the definitions that can reach this point of the walk. */
export type Env = Map<string, Def[]>;

export const fork = (env: Env): Env => new Map(env);

/** The environment of a scope whose walk has not ended (or was skipped): read, never written. */
const EMPTY_ENV: Env = new Map();

/** The environment after branches meet: each name reached by the definitions of every live branch. null: no branch flows on. */
export function join(envs: (Env | null)[]): Env | null {
  const live = envs.filter((e): e is Env => e !== null);
  if (live.length === 0) return null;
  if (live.length === 1) return live[0] ?? null;
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
}

export class ScopeWalk {
  private nextDefId = 0;
  private nextScopeId = 0;
  readonly scopes: Scope[] = [];
  readonly classes: ClassInfo[] = [];
  readonly uses: (Def[] | undefined)[];
  readonly useScope: (Scope | undefined)[];
  readonly rankFacts = new Map<number, number>();
  readonly batchFirst = new Set<number>();
  readonly defsByTarget = new Map<number, Def[]>();
  readonly scopeOfNode = new Map<number, Scope>();
  readonly defsOfScope = new Map<number, Def[]>();
  readonly exprsOfScope = new Map<number, PyNode[]>();

  constructor(readonly src: PyTree) {
    this.uses = new Array(src.nodeCount);
    this.useScope = new Array(src.nodeCount);
  }

  /** An expression evaluated in the scope (a statement's, a condition, a return value). */
  noteExpr(node: PyNode | undefined, scope: Scope): void {
    if (!node) return;
    const list = this.exprsOfScope.get(scope.id);
    if (list) list.push(node);
    else this.exprsOfScope.set(scope.id, [node]);
  }

  newScope(init: Omit<Scope, 'id' | 'returns' | 'children' | 'envAtEnd'>): Scope {
    // envAtEnd is replaced when the scope's walk ends; until then (and for skipped bodies) it is the shared empty one.
    // Every field written here (one object shape for every kind of scope, as addDef does for definitions).
    const s: Scope = {
      id: this.nextScopeId++,
      kind: init.kind,
      node: init.node,
      parent: init.parent,
      name: init.name,
      params: init.params,
      envAtEnd: EMPTY_ENV,
      outerEnv: init.outerEnv,
      ownerClass: init.ownerClass,
      selfName: init.selfName,
      classInfo: init.classInfo,
      returns: [],
      children: [],
    };
    this.scopes.push(s);
    init.parent?.children.push(s);
    this.scopeOfNode.set(init.node.id, s);
    return s;
  }

  /** A new definition: it alone now reaches its name in env. `self.x` definitions in a method are also the class's attributes. */
  addDef(env: Env, def: Omit<Def, 'id'>): Def {
    // One object shape for every kind of definition (the call sites' literals each have their own): the
    // evaluator reads these fields everywhere, and reads of one shape are much cheaper than of many.
    const d: Def = {
      id: this.nextDefId++,
      name: def.name,
      kind: def.kind,
      target: def.target,
      value: def.value,
      path: def.path,
      star: def.star,
      op: def.op,
      prev: def.prev,
      scope: def.scope,
      param: def.param,
      importPath: def.importPath,
      importFrom: def.importFrom,
      defines: def.defines,
    };
    env.set(d.name, [d]);
    const list = this.defsByTarget.get(d.target.id);
    if (list) list.push(d);
    else this.defsByTarget.set(d.target.id, [d]);
    const ofScope = this.defsOfScope.get(d.scope.id);
    if (ofScope) ofScope.push(d);
    else this.defsOfScope.set(d.scope.id, [d]);
    const cls = d.scope.ownerClass;
    if (cls && d.name.startsWith('self.')) {
      const attr = cls.attrDefs.get(d.name);
      if (attr) attr.push(d);
      else cls.attrDefs.set(d.name, [d]);
    }
    return d;
  }

  /** Name a target node binds: identifier text, or 'self.x' for attributes of the method's self. */
  boundName(node: PyNode, scope: Scope): string | undefined {
    if (node.type === 'identifier') return text(this.src, node);
    if (node.type === 'attribute' && scope.selfName) {
      const obj = childByField(node, 'object');
      const attr = childByField(node, 'attribute');
      if (obj && attr && obj.type === 'identifier' && text(this.src, obj) === scope.selfName) return `self.${text(this.src, attr)}`;
    }
    return undefined;
  }

  /** A read of `name` at node: the definitions reaching it. */
  recordUse(node: PyNode, name: string, env: Env, scope: Scope): void {
    this.useScope[node.id] = scope;
    const defs = env.get(name);
    if (defs) this.uses[node.id] = defs;
  }

  result(module: Scope): ScopeResult {
    const { scopes, classes, uses, useScope, rankFacts, batchFirst, defsByTarget, scopeOfNode, defsOfScope, exprsOfScope } = this;
    return { module, scopes, classes, uses, useScope, rankFacts, batchFirst, defsByTarget, scopeOfNode, defsOfScope, exprsOfScope };
  }
}
