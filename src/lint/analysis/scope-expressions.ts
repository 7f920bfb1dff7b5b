// Name resolution inside expressions, for the scopes pass: every identifier (and `self.x` in a method) read
// gets the definitions reaching it; walrus targets define names; lambdas and comprehensions open their own
// scopes (a comprehension's for-clauses bind in a child environment, its first iterable is read outside).
import { targetNames } from '../syntax/python';
import { childByField, firstNamedChild, namedChildren, text, type PyNode } from '../syntax/tree';
import type { Scope } from './scopes';
import { readParams } from './scope-params';
import { fork, type Env, type ScopeWalk } from './scope-walk';

const COMPREHENSIONS = new Set(['list_comprehension', 'set_comprehension', 'dictionary_comprehension', 'generator_expression']);

export function visitExpr(w: ScopeWalk, node: PyNode | undefined, env: Env, scope: Scope): void {
  if (!node) return;
  const src = w.src;
  const stack: PyNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    switch (n.type) {
      case 'identifier':
        w.recordUse(n, text(src, n), env, scope);
        continue;
      case 'attribute': {
        const pseudo = w.boundName(n, scope);
        if (pseudo) w.recordUse(n, pseudo, env, scope);
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
        visitLambda(w, n, env, scope);
        continue;
      case 'named_expression': {
        visitExpr(w, childByField(n, 'value'), env, scope);
        const name = childByField(n, 'name');
        if (name) w.addDef(env, { name: text(src, name), kind: 'walrus', target: name, value: childByField(n, 'value'), path: [], scope });
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
          visitComprehension(w, n, env, scope);
          continue;
        }
        for (let i = n.children.length - 1; i >= 0; i--) {
          const c = n.children[i];
          if (c?.named) stack.push(c);
        }
    }
  }
}

function visitLambda(w: ScopeWalk, n: PyNode, env: Env, scope: Scope): void {
  const paramsNode = childByField(n, 'parameters');
  const params = paramsNode ? readParams(w.src, paramsNode) : [];
  for (const p of params) if (p.default) visitExpr(w, p.default, env, scope);
  const body = childByField(n, 'body');
  const s = w.newScope({ kind: 'lambda', node: n, parent: scope, name: '<lambda>', params, outerEnv: env });
  if (body) s.returns.push(body);
  const inner: Env = new Map();
  for (const p of params) w.addDef(inner, { name: p.name, kind: 'param', target: p.node, path: [], scope: s, param: p });
  visitExpr(w, body, inner, s);
  s.envAtEnd = inner;
}

function visitComprehension(w: ScopeWalk, n: PyNode, env: Env, scope: Scope): void {
  // for-clauses bind in a child environment; the first iterable is evaluated outside.
  const inner = fork(env);
  const s = w.newScope({ kind: 'comprehension', node: n, parent: scope, name: '<comprehension>', params: [], outerEnv: env });
  for (const c of namedChildren(n)) {
    if (c.type === 'for_in_clause') {
      const right = childByField(c, 'right');
      visitExpr(w, right, inner, scope);
      const left = childByField(c, 'left');
      if (left) {
        for (const t of targetNames(left)) {
          const name = w.boundName(t.node, scope);
          if (name) w.addDef(inner, { name, kind: 'comp', target: t.node, value: right, path: t.path, star: t.star, scope: s });
        }
      }
    } else if (c.type === 'if_clause') {
      visitExpr(w, firstNamedChild(c), inner, scope);
    }
  }
  for (const c of namedChildren(n)) if (c.field === 'body') visitExpr(w, c, inner, scope);
  s.envAtEnd = inner;
}
