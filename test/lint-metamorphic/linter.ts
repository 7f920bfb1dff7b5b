// The linter as the metamorphic harness calls it: a case's files as an in-memory workspace (listed as a project
// folder on disk would be), every file linted with its path so imports between them are followed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter } from '../../src/lint';
import type { WorkspaceFiles } from '../../src/lint/analysis/workspace';
import type { CaseContext, WorkspaceLinter } from './harness';

/** A workspace whose files are replaced before each linted case; every case is a new version of every file. */
function swappableWorkspace(): { workspace: WorkspaceFiles; set(files: ReadonlyMap<string, string>, context?: CaseContext): void } {
  let files: ReadonlyMap<string, string> = new Map();
  // the rest of the workspace (repos mode): read from disk once per repository, never rewritten
  let context: CaseContext | undefined;
  let contextPaths = new Set<string>();
  let contextTexts = new Map<string, string | undefined>();
  let generation = 0;
  const dir = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  const all = (): string[] => [...new Set([...files.keys(), ...contextPaths])];
  const readContext = (p: string): string | undefined => {
    if (context === undefined || !contextPaths.has(p)) return undefined;
    if (!contextTexts.has(p)) {
      let text: string | undefined;
      try {
        text = readFileSync(join(context.root, p), 'utf8');
      } catch {
        text = undefined;
      }
      contextTexts.set(p, text);
    }
    return contextTexts.get(p);
  };
  const workspace: WorkspaceFiles = {
    read: (p) => files.get(p) ?? readContext(p),
    version: (p) => (files.has(p) || contextPaths.has(p) ? generation : undefined),
    listPython: (d) => all().filter((p) => p.endsWith('.py') && dir(p) === d),
    listDirs: (d) => {
      const out = new Set<string>();
      for (const p of all()) {
        const rest = d === '' ? p : p.startsWith(`${d}/`) ? p.slice(d.length + 1) : undefined;
        if (rest?.includes('/')) out.add(`${d === '' ? '' : `${d}/`}${rest.slice(0, rest.indexOf('/'))}`);
      }
      return [...out].sort();
    },
  };
  return {
    workspace,
    set(next, ctx) {
      files = next;
      if (ctx?.root !== context?.root) {
        contextTexts = new Map();
        contextPaths = new Set(ctx?.pythonPaths ?? []);
      }
      context = ctx;
      generation++;
    },
  };
}

/**
 * One linter for every case (a linter per case exhausts the wasm runtime's tables): the workspace's files are
 * replaced before each case and their version changes, so no case sees another's files or cached analysis.
 */
export function caseLinter(grammar: { treeSitter: Uint8Array; python: Uint8Array }): WorkspaceLinter {
  const ws = swappableWorkspace();
  let made: ReturnType<typeof createLinter> | undefined;
  return {
    async lintFiles(files, context) {
      made ??= createLinter(grammar, { workspace: ws.workspace });
      const linter = await made;
      ws.set(new Map(files.map((f) => [f.path, f.text])), context);
      return files.flatMap((f) => linter.lintPython(f.text, { path: f.path }).map((x) => ({ path: f.path, line: x.line, code: x.code, message: x.message })));
    },
  };
}
