// Statements a broken parse cut off from their function (session 49, eng-s49d2).
//
// Python never allows an indented statement at module level. When tree-sitter recovers from a syntax error inside a
// function (a triple-quoted string written at column 0 in the middle of a `try:` body ends the function for the
// parser), the indented statements after the break are placed at module level, apart from the function whose
// parameters and earlier statements bound their names (`query = query * scaling` before the break). Read there, the
// names are unbound: what the function did to them before the break is not in view, and a claim that something is
// missing from them (no scale folded into `query`) has no evidence behind it.
import type { PyNode, PyTree } from '../syntax/tree';

const DEFINITIONS = new Set(['function_definition', 'class_definition', 'decorated_definition']);
/** A definition's header at column 0 (read from the text: blocks that cannot matter are not parsed at all). */
const TOP_LEVEL_DEFINITION = /^(?:async[ \t]+def|def|class)[ \t]/m;

/**
 * True when `node` sits in a module-level statement whose line is indented in the source, in a tree with syntax errors,
 * after a function or class defined at column 0 (the block the statement was cut from). A file that is an indented
 * fragment from its first line (no definition before the statement) is not such a case, nor is a statement inside a
 * definition the parse kept whole.
 */
export function orphanedByBrokenParse(tree: PyTree, node: PyNode): boolean {
  if (!tree.hasErrors) return false;
  // The statement holding `node` at module level, or in an ERROR node at module level (recovery may gather the
  // statements after the break into one: its first line is the break's, at column 0, theirs are indented).
  let top = node;
  while (top.parent && top.parent.type !== 'module' && top.parent.type !== 'ERROR') {
    if (DEFINITIONS.has(top.parent.type)) return false;
    top = top.parent;
  }
  for (let p = top.parent; p; p = p.parent) if (DEFINITIONS.has(p.type)) return false;
  const lineStart = tree.source.lastIndexOf('\n', top.start - 1) + 1;
  // The line it starts on is indented (recovery may leave a stray keyword before it there: `except` as an ERROR).
  return /[ \t]/.test(tree.source.charAt(lineStart)) && TOP_LEVEL_DEFINITION.test(tree.source.slice(0, lineStart));
}
