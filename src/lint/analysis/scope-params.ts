// What a def's or lambda's header says, for the scopes pass: its parameters (positional index, kind, default)
// and whether it is a static or class method (no `self`).
import { childByField, firstNamedChild, namedChildren, text, type PyNode, type PyTree } from '../syntax/tree';
import type { ParamInfo } from './scopes';

export function readParams(src: PyTree, paramsNode: PyNode): ParamInfo[] {
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
}

export function decoratorsOf(fn: PyNode): PyNode[] {
  const p = fn.parent;
  if (!p || p.type !== 'decorated_definition') return [];
  return p.children
    .filter((c) => c.type === 'decorator')
    .map((d) => firstNamedChild(d))
    .filter((x): x is PyNode => !!x);
}

/**
 * A class method's first parameter is the class, never passed at a call (`self.m(x, mask)`, `cls.m(...)`,
 * `Cls.m(...)` all bind `x` first): it keeps no position, and the parameters after it count from 0, as a static
 * method's do.
 */
export function withImplicitClassParam(src: PyTree, fn: PyNode, params: ParamInfo[]): ParamInfo[] {
  const first = params[0];
  if (!decoratorsOf(fn).some((d) => text(src, d) === 'classmethod') || first?.kind !== 'positional') return params;
  return params.map((p) => (p === first ? { ...p, index: undefined } : p.index !== undefined ? { ...p, index: p.index - 1 } : p));
}

export function isStaticMethod(src: PyTree, fn: PyNode): boolean {
  return decoratorsOf(fn).some((d) => {
    const t = text(src, d);
    return t === 'staticmethod' || t === 'classmethod';
  });
}
