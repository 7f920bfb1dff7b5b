// Shared by the lint tests: one linter per process (grammar read from node_modules), and a helper that
// applies fixes to a source text the way an editor would.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter, type ExtendedLinter, type Finding, type TextEdit } from '../../../src/lint';
import type { WorkspaceFiles } from '../../../src/lint/analysis/workspace';
import { createPythonParser } from '../../../src/lint/parser';
import { analyseScopes } from '../../../src/lint/analysis/scopes';
import { Evaluator } from '../../../src/lint/analysis/evaluator';
import { walk, type PyNode } from '../../../src/lint/syntax/tree';
import type { AValue } from '../../../src/lint/analysis/values';

export const ROOT = join(__dirname, '..', '..', '..');

export function grammar(): { treeSitter: Uint8Array; python: Uint8Array } {
  return {
    treeSitter: readFileSync(join(ROOT, 'node_modules', 'web-tree-sitter', 'web-tree-sitter.wasm')),
    python: readFileSync(join(ROOT, 'node_modules', 'tree-sitter-python', 'tree-sitter-python.wasm')),
  };
}

let shared: Promise<ExtendedLinter> | undefined;
export const internalErrors: unknown[] = [];

export function linter(): Promise<ExtendedLinter> {
  shared ??= createLinter(grammar(), { onInternalError: (e) => internalErrors.push(e) });
  return shared;
}

/** Offset of a 1-based (line, UTF-16 column) position in `text` (lines split at \n). */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', offset);
    if (nl < 0) throw new Error(`line ${line} is past the end of the text`);
    offset = nl + 1;
  }
  return offset + column - 1;
}

/** Applies the edits of every finding's fix (non-overlapping, applied from the end). */
export function applyFixes(text: string, findings: readonly Finding[]): string {
  const edits: { start: number; end: number; newText: string }[] = [];
  for (const f of findings) {
    for (const e of f.fix?.edits ?? ([] as TextEdit[])) {
      edits.push({ start: offsetOf(text, e.line, e.column), end: offsetOf(text, e.endLine, e.endColumn), newText: e.newText });
    }
  }
  edits.sort((a, b) => b.start - a.start);
  for (let i = 1; i < edits.length; i++) {
    if (edits[i].end > edits[i - 1].start) throw new Error('overlapping fix edits');
  }
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

/** An in-memory workspace (path → text) that lists its files and directories as a project folder on disk would. */
export function memoryWorkspace(files: Record<string, string>): WorkspaceFiles {
  const dir = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  return {
    read: (p) => files[p],
    version: (p) => (p in files ? 1 : undefined),
    listPython: (d) => Object.keys(files).filter((p) => p.endsWith('.py') && dir(p) === d),
    listDirs: (d) => {
      const out = new Set<string>();
      for (const p of Object.keys(files)) {
        const rest = d === '' ? p : p.startsWith(`${d}/`) ? p.slice(d.length + 1) : undefined;
        if (rest?.includes('/')) out.add(`${d === '' ? '' : `${d}/`}${rest.slice(0, rest.indexOf('/'))}`);
      }
      return [...out].sort();
    },
  };
}

/** The lines of `code`'s findings in `src`, linted on its own. */
export async function findingLines(src: string, code: string): Promise<number[]> {
  return (await linter())
    .lintPython(src)
    .filter((f) => f.code === code)
    .map((f) => f.line);
}

/** The lines of `code`'s findings in `path`, linted in an in-memory workspace of `files` (its imports followed). */
export async function workspaceFindingLines(files: Record<string, string>, path: string, code: string): Promise<number[]> {
  const l = await createLinter(grammar(), { workspace: memoryWorkspace(files), onInternalError: (e) => assert.fail(String(e)) });
  return l
    .lintPython(files[path] ?? '', { path })
    .filter((f) => f.code === code)
    .map((f) => f.line);
}

/** store.py of the cross-file KV-cache pairs: a class that keeps keys and values and extends them by concatenation
 * along T (axis 2 of (B, H, T, D)) whatever it is called, returning all of them. */
export const KV_STORE_PY = `import torch


class Store:
    def __init__(self):
        self.k = None
        self.v = None

    def append(self, k, v):
        if self.k is None:
            self.k, self.v = k, v
        else:
            self.k = torch.cat([self.k, k], dim=2)
            self.v = torch.cat([self.v, v], dim=2)
        return self.k, self.v
`;

/** The evaluator's value of the last occurrence of exprText in src (in its innermost function). */
export async function valueOf(src: string, exprText: string): Promise<AValue> {
  const tree = (await createPythonParser(grammar())).parse(src, { full: true });
  const sr = analyseScopes(tree);
  const ev = new Evaluator(tree, sr);
  ev.run();
  let last: PyNode | undefined;
  walk(tree.root, (n) => {
    if (src.slice(n.start, n.end) === exprText && n.type !== 'expression_statement') last = n;
  });
  assert.ok(last, `${exprText} not found`);
  const n = last;
  const scope = [...sr.scopes].reverse().find((s) => s.node.start <= n.start && n.end <= s.node.end && s.kind !== 'comprehension') ?? sr.module;
  return ev.eval(n, ev.defaultCtx(scope));
}

/** model.py of those pairs: a decoder that extends its keys with the store of store.py, then `attend` (its last lines). */
export const kvStoreModelPy = (attend: string): string => `import torch
import torch.nn as nn
import torch.nn.functional as F
from store import Store


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.store = Store()

    def forward(self, q, k, v):
        k, v = self.store.append(k, v)
${attend}
`;
