// Helpers for the parser tests: a copied tree as plain data, and its parent links checked.
import type { PyNode, PyTree } from '../../../src/lint/syntax/tree';

/** The tree as plain data (everything but parent links and ids, which follow from the shape). */
export function shape(tree: PyTree): unknown {
  const node = (n: PyNode): unknown[] => [n.type, n.start, n.end, n.field, n.named, n.missing, n.skipped === true, n.children.map(node)];
  return { nodeCount: tree.nodeCount, hasErrors: tree.hasErrors, comments: tree.comments.map((c) => [c.start, c.end]), root: node(tree.root) };
}

export function parentsConsistent(tree: PyTree): boolean {
  const stack: PyNode[] = [tree.root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    for (const c of n.children) {
      if (c.parent !== n) return false;
      stack.push(c);
    }
  }
  return true;
}
