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

type Found = Array<{ path: string; line: number; code: string; message: string }>;

/** A question the linter asked the workspace while it linted one file, and the answer it got. */
interface Asked {
  kind: 'read' | 'exists' | 'listPython' | 'listDirs';
  arg: string;
  answer: string | undefined;
}

function answer(ws: WorkspaceFiles, kind: Asked['kind'], arg: string): string | undefined {
  if (kind === 'read') return ws.read(arg);
  // the linter asks a file's version before every use of its cached analysis: the answer that matters is its text
  if (kind === 'exists') return ws.version(arg) === undefined ? undefined : (ws.read(arg) ?? '');
  if (kind === 'listPython') return ws.listPython?.(arg).join('\n');
  return ws.listDirs?.(arg).join('\n');
}

/** The workspace as the linter sees it, every question it asks written down while `asked` is set. */
function recording(ws: WorkspaceFiles): { workspace: WorkspaceFiles; start(): Asked[]; stop(): void } {
  let asked: Asked[] | undefined;
  const note = <T>(kind: Asked['kind'], arg: string, v: T): T => {
    asked?.push({ kind, arg, answer: answer(ws, kind, arg) });
    return v;
  };
  return {
    workspace: {
      read: (p) => note('read', p, ws.read(p)),
      version: (p) => note('exists', p, ws.version(p)),
      listPython: (d) => note('listPython', d, ws.listPython?.(d) ?? []),
      listDirs: (d) => note('listDirs', d, ws.listDirs?.(d) ?? []),
    },
    start: () => (asked = []),
    stop: () => (asked = undefined),
  };
}

/**
 * One linter for every case (a linter per case exhausts the wasm runtime's tables): the workspace's files are
 * replaced before each case and their version changes, so no case sees another's files or cached analysis.
 * In the repos mode (a case with a context), a file's findings are reused when its text and every answer the
 * workspace gave while it was linted (the texts it read, the files that exist, the directory listings) are the
 * same as then: a rewrite of one file of a repository relints only that file and the files that read it.
 */
export function caseLinter(grammar: { treeSitter: Uint8Array; python: Uint8Array }): WorkspaceLinter {
  const ws = swappableWorkspace();
  const rec = recording(ws.workspace);
  let made: ReturnType<typeof createLinter> | undefined;
  let memoRoot: string | undefined;
  let memo = new Map<string, Array<{ text: string; asked: Asked[]; found: Found }>>();
  return {
    async lintFiles(files, context) {
      made ??= createLinter(grammar, { workspace: rec.workspace });
      const linter = await made;
      ws.set(new Map(files.map((f) => [f.path, f.text])), context);
      const lint = (f: { path: string; text: string }): Found =>
        linter.lintPython(f.text, { path: f.path }).map((x) => ({ path: f.path, line: x.line, code: x.code, message: x.message }));
      if (context === undefined) return files.flatMap(lint);
      if (memoRoot !== context.root) {
        memoRoot = context.root;
        memo = new Map();
      }
      return files.flatMap((f) => {
        const seen = memo.get(f.path) ?? [];
        const hit = seen.find((m) => m.text === f.text && m.asked.every((a) => answer(ws.workspace, a.kind, a.arg) === a.answer));
        if (hit) return hit.found;
        const asked = rec.start();
        let found: Found;
        try {
          found = lint(f);
        } finally {
          rec.stop();
        }
        seen.push({ text: f.text, asked, found });
        if (seen.length > 4) seen.shift();
        memo.set(f.path, seen);
        return found;
      });
    },
  };
}
