// The linter as the metamorphic harness calls it: a case's files as an in-memory workspace (listed as a project
// folder on disk would be), every file linted with its path so imports between them are followed.
import { createLinter } from '../../src/lint';
import type { WorkspaceFiles } from '../../src/lint/analysis/workspace';
import type { WorkspaceLinter } from './harness';

/** A workspace whose files are replaced before each linted case; every case is a new version of every file. */
function swappableWorkspace(): { workspace: WorkspaceFiles; set(files: ReadonlyMap<string, string>): void } {
  let files: ReadonlyMap<string, string> = new Map();
  let generation = 0;
  const dir = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');
  const workspace: WorkspaceFiles = {
    read: (p) => files.get(p),
    version: (p) => (files.has(p) ? generation : undefined),
    listPython: (d) => [...files.keys()].filter((p) => p.endsWith('.py') && dir(p) === d),
    listDirs: (d) => {
      const out = new Set<string>();
      for (const p of files.keys()) {
        const rest = d === '' ? p : p.startsWith(`${d}/`) ? p.slice(d.length + 1) : undefined;
        if (rest?.includes('/')) out.add(`${d === '' ? '' : `${d}/`}${rest.slice(0, rest.indexOf('/'))}`);
      }
      return [...out].sort();
    },
  };
  return {
    workspace,
    set(next) {
      files = next;
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
    async lintFiles(files) {
      made ??= createLinter(grammar, { workspace: ws.workspace });
      const linter = await made;
      ws.set(new Map(files.map((f) => [f.path, f.text])));
      return files.flatMap((f) => linter.lintPython(f.text, { path: f.path }).map((x) => ({ path: f.path, line: x.line, code: x.code, message: x.message })));
    },
  };
}
