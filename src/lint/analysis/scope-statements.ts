// Statements, for the scopes pass: control flow over environments (branches fork the environment and join
// it again; a branch that ends in return/raise/break/continue does not flow on; loop bodies are walked twice so
// loop-carried definitions reach the top), and the scopes that defs and classes open (a class's methods, and
// the `self` of each method, so `self.x = ...` in `__init__` becomes the class's attribute).
import { childByField, childrenByField, firstNamedChild, namedChildren, text, type PyNode } from '../syntax/tree';
import type { ClassInfo, Scope } from './scopes';
import { bindTargets, visitExpressionStatementPart } from './scope-assignments';
import { visitExpr } from './scope-expressions';
import { bindImports } from './scope-imports';
import { decoratorsOf, isStaticMethod, readParams, withImplicitClassParam } from './scope-params';
import { fork, join, type Env, type ScopeWalk } from './scope-walk';

const TERMINATORS = new Set(['return_statement', 'raise_statement', 'continue_statement', 'break_statement']);

function visitStatement(w: ScopeWalk, n: PyNode, env: Env, scope: Scope, cls?: ClassInfo): Env | null {
  switch (n.type) {
    case 'expression_statement': {
      for (const e of namedChildren(n)) visitExpressionStatementPart(w, e, env, scope);
      return env;
    }
    case 'return_statement': {
      const e = firstNamedChild(n);
      visitExpr(w, e, env, scope);
      if (e) scope.returns.push(e);
      w.noteExpr(e, scope);
      return null;
    }
    case 'raise_statement':
      visitExpr(w, firstNamedChild(n), env, scope);
      return null;
    case 'continue_statement':
    case 'break_statement':
      return null;
    case 'if_statement': {
      visitExpr(w, childByField(n, 'condition'), env, scope);
      w.noteExpr(childByField(n, 'condition'), scope);
      const branches: (Env | null)[] = [];
      const cons = childByField(n, 'consequence');
      branches.push(cons ? walkBlock(w, cons, fork(env), scope) : env);
      let hasElse = false;
      let condEnv = env;
      for (const alt of childrenByField(n, 'alternative')) {
        if (alt.type === 'elif_clause') {
          condEnv = fork(condEnv);
          visitExpr(w, childByField(alt, 'condition'), condEnv, scope);
          const c = childByField(alt, 'consequence');
          branches.push(c ? walkBlock(w, c, fork(condEnv), scope) : condEnv);
        } else if (alt.type === 'else_clause') {
          hasElse = true;
          const b = childByField(alt, 'body');
          branches.push(b ? walkBlock(w, b, fork(condEnv), scope) : condEnv);
        }
      }
      if (!hasElse) branches.push(condEnv);
      return join(branches);
    }
    case 'for_statement': {
      const right = childByField(n, 'right');
      visitExpr(w, right, env, scope);
      const body = childByField(n, 'body');
      let loopEnv: Env | null = env;
      for (let pass = 0; pass < 2 && loopEnv; pass++) {
        const e = fork(loopEnv);
        const left = childByField(n, 'left');
        if (left) bindTargets(w, left, right, 'for', e, scope);
        const after = body ? walkBlock(w, body, e, scope) : e;
        loopEnv = join([env, after, e]);
      }
      const elseClause = n.children.find((c) => c.type === 'else_clause');
      const eb = elseClause ? childByField(elseClause, 'body') : undefined;
      const out = loopEnv ?? env;
      return eb ? join([walkBlock(w, eb, fork(out), scope), out]) : out;
    }
    case 'while_statement': {
      visitExpr(w, childByField(n, 'condition'), env, scope);
      const body = childByField(n, 'body');
      let loopEnv: Env | null = env;
      for (let pass = 0; pass < 2 && loopEnv; pass++) {
        const after = body ? walkBlock(w, body, fork(loopEnv), scope) : loopEnv;
        loopEnv = join([env, after]);
      }
      return loopEnv ?? env;
    }
    case 'try_statement': {
      const body = childByField(n, 'body');
      const afterBody = body ? walkBlock(w, body, fork(env), scope) : env;
      const base = join([env, afterBody]) ?? env;
      const outs: (Env | null)[] = [afterBody];
      for (const c of namedChildren(n)) {
        if (c.type === 'except_clause' || c.type === 'except_group_clause') {
          const e = fork(base);
          for (const x of namedChildren(c)) {
            if (x.type === 'block') outs.push(walkBlock(w, x, e, scope));
            else if (x.type === 'as_pattern') {
              const alias = childByField(x, 'alias');
              const target = alias ? (firstNamedChild(alias) ?? alias) : undefined;
              if (target && target.type === 'identifier') w.addDef(e, { name: text(w.src, target), kind: 'except', target, path: [], scope });
            } else visitExpr(w, x, e, scope);
          }
        } else if (c.type === 'else_clause') {
          const b = childByField(c, 'body');
          if (b && afterBody) outs[0] = walkBlock(w, b, fork(afterBody), scope);
        }
      }
      let result = join(outs);
      const fin = namedChildren(n).find((c) => c.type === 'finally_clause');
      if (fin) {
        const b = namedChildren(fin).find((c) => c.type === 'block');
        if (b) {
          const afterFinally = walkBlock(w, b, fork(result ?? base), scope);
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
            visitExpr(w, valueExpr, env, scope);
            const alias = childByField(v, 'alias');
            const target = alias ? firstNamedChild(alias) : undefined;
            if (target) bindTargets(w, target, valueExpr, 'with', env, scope);
          } else {
            visitExpr(w, v, env, scope);
            w.noteExpr(v, scope);
          }
        }
      }
      const body = childByField(n, 'body');
      return body ? walkBlock(w, body, env, scope) : env;
    }
    case 'function_definition':
      visitFunction(w, n, env, scope, cls);
      return env;
    case 'class_definition':
      visitClass(w, n, env, scope);
      return env;
    case 'decorated_definition': {
      const def = childByField(n, 'definition');
      if (def) return visitStatement(w, def, env, scope, cls);
      return env;
    }
    case 'import_statement':
    case 'import_from_statement':
      bindImports(w, n, env, scope);
      return env;
    case 'match_statement': {
      visitExpr(w, childByField(n, 'subject'), env, scope);
      const branches: (Env | null)[] = [env];
      const body = childByField(n, 'body');
      for (const c of body ? namedChildren(body) : []) {
        if (c.type !== 'case_clause') continue;
        const cons = childByField(c, 'consequence');
        branches.push(cons ? walkBlock(w, cons, fork(env), scope) : env);
      }
      return join(branches);
    }
    case 'assert_statement':
    case 'delete_statement':
    case 'print_statement':
    case 'exec_statement':
      for (const c of namedChildren(n)) visitExpr(w, c, env, scope);
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
        if (isStatement(c)) e = visitStatement(w, c, e, scope, cls);
        else visitExpr(w, c, e, scope);
      }
      return e ?? env;
    }
    default:
      if (isStatement(n)) {
        for (const c of namedChildren(n)) visitExpr(w, c, env, scope);
      } else visitExpr(w, n, env, scope);
      return env;
  }
}

export function walkBlock(w: ScopeWalk, block: PyNode, env: Env, scope: Scope, cls?: ClassInfo): Env | null {
  let e: Env | null = env;
  for (const stmt of block.children) {
    if (!stmt.named || stmt.type === 'comment') continue;
    if (!e) break; // unreachable code after return
    e = visitStatement(w, stmt, e, scope, cls);
    if (e && TERMINATORS.has(stmt.type)) e = null;
  }
  return e;
}

function visitFunction(w: ScopeWalk, n: PyNode, env: Env, scope: Scope, cls: ClassInfo | undefined): void {
  const nameNode = childByField(n, 'name');
  const name = nameNode ? text(w.src, nameNode) : '<function>';
  const paramsNode = childByField(n, 'parameters');
  const read = paramsNode && !n.skipped ? readParams(w.src, paramsNode) : [];
  const params = cls ? withImplicitClassParam(w.src, n, read) : read;
  for (const p of params) if (p.default) visitExpr(w, p.default, env, scope);
  for (const dec of decoratorsOf(n)) visitExpr(w, dec, env, scope);
  const isMethod = cls !== undefined && !isStaticMethod(w.src, n);
  const first = params[0];
  const selfName = isMethod && first?.kind === 'positional' ? first.name : undefined;
  const s = w.newScope({ kind: 'function', node: n, parent: scope, name, params, outerEnv: env, ownerClass: isMethod ? cls : undefined, selfName });
  if (cls) cls.methods.set(name, s);
  if (nameNode) w.addDef(env, { name, kind: 'funcdef', target: nameNode, path: [], scope, defines: s });
  if (n.skipped) return;
  const inner: Env = new Map();
  for (const p of params) w.addDef(inner, { name: p.name, kind: 'param', target: p.node, path: [], scope: s, param: p });
  const body = childByField(n, 'body');
  const end = body ? walkBlock(w, body, inner, s) : inner;
  s.envAtEnd = end ?? inner;
}

function visitClass(w: ScopeWalk, n: PyNode, env: Env, scope: Scope): void {
  const nameNode = childByField(n, 'name');
  const name = nameNode ? text(w.src, nameNode) : '<class>';
  const superclasses = childByField(n, 'superclasses');
  const bases = superclasses ? namedChildren(superclasses).filter((b) => b.type !== 'keyword_argument') : [];
  if (superclasses) visitExpr(w, superclasses, env, scope);
  const s = w.newScope({ kind: 'class', node: n, parent: scope, name, params: [], outerEnv: env });
  const info: ClassInfo = { name, node: n, scope: s, methods: new Map(), attrDefs: new Map(), bases };
  s.classInfo = info;
  w.classes.push(info);
  if (nameNode) w.addDef(env, { name, kind: 'classdef', target: nameNode, path: [], scope, defines: s });
  if (n.skipped) return;
  const body = childByField(n, 'body');
  const inner: Env = new Map();
  if (body) walkBlock(w, body, inner, s, info);
  s.envAtEnd = inner;
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

function isStatement(n: PyNode): boolean {
  return STATEMENT_TYPES.has(n.type);
}
