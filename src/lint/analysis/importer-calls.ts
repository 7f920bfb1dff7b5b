// Calls of the linted file's functions from the workspace files that import it. A helper such as
// `def attention(q, k, v, mask=None)` in `functional.py` often leaves the 1/sqrt(d) scale to its callers
// (`attention(q * self.scale, k, v)` in `layers.py`). Within one file the caller's context already clears the
// helper; this finds the callers in the files that import it (its directory and those above, like the precision
// evidence of importers.ts), analyses each as a workspace module and evaluates the arguments it passes.
import { childByField, namedChildren, walk, type PyNode } from '../syntax/tree';
import type { Evaluator } from './evaluator';
import { importsFile, readFacts } from './importers';
import type { ParamInfo } from './scopes';
import type { AValue } from './values';
import { dirOf } from './workspace';

/** Files looked at, at most (as for the precision evidence of importers). */
const MAX_CANDIDATES = 200;
/** Call sites evaluated, at most, per question. */
const MAX_CALLS = 32;

/** A call in an importing file that passes, for one of `params`, a value `accept` holds for. */
export interface ImporterCall {
  readonly path: string;
  readonly line: number;
  readonly column: number;
}

/**
 * The first call of the module-level function `fnName` of the linted file, in a workspace file that imports it,
 * whose argument for one of `params` satisfies `accept` (evaluated in the importing file). Undefined when the
 * file is linted alone or no such call is found. Files read are noted as dependencies of the lint.
 */
export function importerCallPassing(ev: Evaluator, fnName: string, params: readonly ParamInfo[], accept: (v: AValue) => boolean): ImporterCall | undefined {
  const link = ev.link;
  const files = link?.workspace.files;
  if (!link?.importers || !files?.listPython || params.length === 0) return undefined;
  const callText = new RegExp(`(?:^|[^\\w])${fnName}\\s*\\(`);
  let seen = 0;
  for (let dir = dirOf(link.path); ; dir = dirOf(dir)) {
    for (const candidate of files.listPython(dir)) {
      if (candidate === link.path || ++seen > MAX_CANDIDATES) continue;
      const facts = link.workspace.textFacts(candidate, readFacts);
      if (!facts || !importsFile(files, candidate, facts, link.path)) continue;
      const source = files.read(candidate);
      if (source === undefined || !callText.test(source)) continue;
      const m = link.workspace.module(candidate);
      if (!m) continue;
      link.deps.set(candidate, files.version(candidate));
      const found = callsIn(m.ev, fnName).find((call) => passes(m.ev, call, params, accept));
      if (found) {
        const { line, column } = m.ev.lines.position(found.start);
        return { path: candidate, line, column };
      }
    }
    if (dir === '') return undefined;
  }
}

/** Calls `fnName(...)` or `mod.fnName(...)` in a module, in source order (bounded). */
function callsIn(ev: Evaluator, fnName: string): PyNode[] {
  const out: PyNode[] = [];
  walk(ev.tree.root, (n) => {
    if (out.length >= MAX_CALLS) return false;
    if (n.type === 'call') {
      const fn = childByField(n, 'function');
      const name = fn?.type === 'identifier' ? ev.text(fn) : fn?.type === 'attribute' ? ev.text(childByField(fn, 'attribute') ?? fn) : undefined;
      if (name === fnName) out.push(n);
    }
    return true;
  });
  return out;
}

function passes(ev: Evaluator, call: PyNode, params: readonly ParamInfo[], accept: (v: AValue) => boolean): boolean {
  const args = namedChildren(childByField(call, 'arguments') ?? call);
  const positional = args.filter((a) => a.type !== 'keyword_argument');
  if (positional.some((a) => a.type === 'list_splat' || a.type === 'dictionary_splat')) return false;
  const scope = [...ev.sr.scopes].reverse().find((s) => s.node.start <= call.start && call.end <= s.node.end && s.kind !== 'comprehension') ?? ev.sr.module;
  const ctx = ev.defaultCtx(scope);
  for (const p of params) {
    const kw = args.find((a) => a.type === 'keyword_argument' && ev.text(childByField(a, 'name') ?? a) === p.name);
    const node = kw ? childByField(kw, 'value') : p.index !== undefined ? positional[p.index] : undefined;
    if (node && accept(ev.eval(node, ctx))) return true;
  }
  return false;
}
