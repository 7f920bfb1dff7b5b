// The lint worker's request handlers: payloads checked, the linter run, its internal errors collected per
// request. No worker_threads here (the entry, ./lint-worker.ts, wires these to the channel), so the handlers
// can be driven directly too.
import type { ExtendedLinter, LintOptions, NotebookCell } from '../lint';
import { LINTER_START_ERROR, type LintAnswer, type LintRequests } from '../protocol/lint';
import { checkWorkspaceRef, type WorkspaceLinters } from './lint-workspaces';
import type { Handlers } from './server';

/** The linter the handlers use, and the sink its internal errors go to (set by the worker per request). */
export interface LintWorkerState {
  /** Resolves to the linter, or rejects when the parser could not start. */
  linter: Promise<ExtendedLinter>;
  /** Linters of workspace roots (lints that name their workspace follow imports of its files). */
  workspaces?: WorkspaceLinters;
  /** Internal errors reported while the current request ran (the handlers empty it before each request). */
  internalErrors: string[];
}

export function lintHandlers(state: LintWorkerState): Handlers<LintRequests> {
  const run = async <T>(body: (linter: ExtendedLinter) => T, ws?: { root: string; path: string }): Promise<{ result: LintAnswer<T> }> => {
    let linter: ExtendedLinter;
    try {
      linter = await (ws && state.workspaces ? state.workspaces.entry(ws.root).linter : state.linter);
    } catch (e) {
      const err = new Error(e instanceof Error ? e.message : String(e));
      err.name = LINTER_START_ERROR;
      throw err;
    }
    state.internalErrors = [];
    const result = body(linter);
    const internalErrors = state.internalErrors;
    state.internalErrors = [];
    if (ws && state.workspaces) return { result: { result, internalErrors, dependencies: [...linter.workspaceDependencies(ws.path)] } };
    return { result: { result, internalErrors } };
  };
  /** The options a workspace lint runs with (the document's path in it), and the document's open text noted. */
  const inWorkspace = (
    ws: { root: string; path: string; version?: number } | undefined,
    options: LintOptions | undefined,
    source?: string,
  ): LintOptions | undefined => {
    if (!ws || !state.workspaces) return options;
    if (source !== undefined && ws.version !== undefined) state.workspaces.open(ws.root, ws.path, source, ws.version);
    return { ...options, path: ws.path };
  };
  return {
    lintPython: (payload) => {
      const p = received(payload);
      const source = requireString(p?.source, 'lintPython: payload.source');
      const ws = checkWorkspaceRef(p?.workspace, 'lintPython');
      const options = inWorkspace(ws, checkOptions(p?.options, 'lintPython'), source);
      return run((l) => l.lintPython(source, options), ws);
    },
    lintCells: (payload) => {
      const p = received(payload);
      const cells = checkCells(p?.cells);
      const ws = checkWorkspaceRef(p?.workspace, 'lintCells');
      const options = inWorkspace(ws, checkOptions(p?.options, 'lintCells'));
      return run((l) => l.lintCells(cells, options), ws);
    },
    closeDocument: (payload) => {
      const ws = checkWorkspaceRef(received(payload)?.workspace, 'closeDocument');
      if (ws) state.workspaces?.close(ws.root, ws.path);
      return Promise.resolve({ result: { result: null, internalErrors: [] } });
    },
    lintNotebookFile: (payload) => {
      const p = received(payload);
      const json = requireString(p?.json, 'lintNotebookFile: payload.json');
      const options = checkOptions(p?.options, 'lintNotebookFile');
      return run((l) => l.lintNotebookFile(json, options));
    },
  };
}

/** The payload's fields, for checking: it comes from another thread, typed by the protocol but not trusted. */
function received(payload: unknown): Partial<Record<string, unknown>> | undefined {
  return typeof payload === 'object' && payload !== null ? payload : undefined;
}

function requireString(v: unknown, what: string): string {
  if (typeof v !== 'string') throw new TypeError(`${what}: expected a string, got ${v === null ? 'null' : typeof v}`);
  return v;
}

function checkOptions(v: unknown, what: string): LintOptions | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object') throw new TypeError(`${what}: payload.options must be an object with select/ignore lists`);
  const o = v as { select?: unknown; ignore?: unknown };
  const list = (x: unknown, name: string): string[] | undefined => {
    if (x === undefined || x === null) return undefined;
    if (!Array.isArray(x) || !x.every((c) => typeof c === 'string')) throw new TypeError(`${what}: payload.options.${name} must be an array of rule codes`);
    return x;
  };
  return { select: list(o.select, 'select'), ignore: list(o.ignore, 'ignore') };
}

function checkCells(v: unknown): NotebookCell[] {
  if (!Array.isArray(v)) throw new TypeError('lintCells: payload.cells must be an array of { index, source }');
  return v.map((c, i) => {
    const cell = c as Partial<NotebookCell> | null;
    if (!cell || !Number.isInteger(cell.index) || (cell.index as number) < 0 || typeof cell.source !== 'string') {
      throw new TypeError(`lintCells: payload.cells[${i}] must be { index: a cell index >= 0, source: string }`);
    }
    return { index: cell.index as number, source: cell.source };
  });
}
