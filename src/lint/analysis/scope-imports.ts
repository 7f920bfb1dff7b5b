// The definitions an import statement makes, for the scopes pass: `import a.b` binds `a`, `import a.b as c`
// binds `c`, `from m import f as g` binds `g`, each with the dotted path it names (and, for relative imports,
// the level and how many parts name the module, resolved in the workspace).
import { childByField, namedChildren, text, type PyNode } from '../syntax/tree';
import type { Scope } from './scopes';
import type { Env, ScopeWalk } from './scope-walk';

export function bindImports(w: ScopeWalk, n: PyNode, env: Env, scope: Scope): void {
  const src = w.src;
  if (n.type === 'import_statement') {
    for (const c of namedChildren(n)) {
      if (c.type === 'dotted_name') {
        const parts = namedChildren(c).map((x) => text(src, x));
        // `import a.b` binds `a` (to module a).
        const first = parts[0]; // a dotted name has at least one part
        if (first !== undefined) w.addDef(env, { name: first, kind: 'import', target: c, path: [], scope, importPath: [first] });
      } else if (c.type === 'aliased_import') {
        const dn = childByField(c, 'name');
        const alias = childByField(c, 'alias');
        if (dn && alias)
          w.addDef(env, { name: text(src, alias), kind: 'import', target: alias, path: [], scope, importPath: namedChildren(dn).map((x) => text(src, x)) });
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
    const relPath = relative
      ? namedChildren(namedChildren(moduleNode).find((x) => x.type === 'dotted_name') ?? moduleNode)
          .filter((x) => x.type === 'identifier')
          .map((x) => text(src, x))
      : [];
    const from = relative ? { moduleParts: relPath.length, level: prefix ? prefix.end - prefix.start : 1 } : { moduleParts: modPath.length, level: 0 };
    const fromPath = relative ? relPath : modPath;
    for (const c of n.children) {
      if (c === moduleNode || !c.named) continue;
      if (c.type === 'dotted_name' && c.field === 'name') {
        const parts = namedChildren(c).map((x) => text(src, x));
        const last = parts.at(-1);
        if (last !== undefined)
          w.addDef(env, { name: last, kind: 'import', target: c, path: [], scope, importPath: [...fromPath, ...parts], importFrom: from });
      } else if (c.type === 'aliased_import') {
        const dn = childByField(c, 'name');
        const alias = childByField(c, 'alias');
        if (dn && alias)
          w.addDef(env, {
            name: text(src, alias),
            kind: 'import',
            target: alias,
            path: [],
            scope,
            importPath: [...fromPath, ...namedChildren(dn).map((x) => text(src, x))],
            importFrom: from,
          });
      }
    }
  }
}
