// Messages between the extension host and the lint worker (dist/lint-worker.js). The envelopes are the shared
// request/reply layer of ./rpc.ts; these are the request types, their payloads and results. Plain data only.
import type { Finding, LintOptions, NotebookCell, NotebookCellFindings } from '../lint';

/** workerData of the lint worker: where the grammar files are (it reads them once, at start). */
export interface LintWorkerData {
  /** web-tree-sitter.wasm (the tree-sitter runtime). */
  treeSitterPath: string;
  /** tree-sitter-python.wasm (the grammar). */
  pythonPath: string;
}

/** Every answer carries the linter's internal errors for that request (a rule that threw), as text. */
export interface LintAnswer<T> {
  result: T;
  internalErrors: string[];
  /**
   * For a lint in a workspace: the workspace files (relative paths) the linted file's imports led to, so the
   * host re-lints it when one of them changes.
   */
  dependencies?: string[];
}

/**
 * The workspace a linted document belongs to: the root folder (an absolute path the worker reads files
 * under) and the document's path relative to it ('/'-separated). With `version`, the text sent is the
 * document's (open, possibly unsaved) content, which then wins over the file on disk for other files'
 * imports of it until `closeDocument`.
 */
export interface LintWorkspaceRef {
  root: string;
  path: string;
  version?: number;
}

/** Request type → [payload, result]. */
export interface LintRequests {
  /** One Python file's text. */
  lintPython: [{ source: string; options?: LintOptions; workspace?: LintWorkspaceRef }, LintAnswer<Finding[]>];
  /** The code cells of an open notebook, as text (indices over all cells). */
  lintCells: [{ cells: NotebookCell[]; options?: LintOptions; workspace?: LintWorkspaceRef }, LintAnswer<NotebookCellFindings[]>];
  /** An open document was closed (or left the workspace): other files' imports read it from disk again. */
  closeDocument: [{ workspace: LintWorkspaceRef }, LintAnswer<null>];
  /** An .ipynb file's JSON text; `error` says why it could not be read. */
  lintNotebookFile: [{ json: string; options?: LintOptions }, LintAnswer<{ cells: NotebookCellFindings[]; error?: string }>];
}

export type LintRequestType = keyof LintRequests;

/** The error name a request fails with when the worker could not start the parser (bad or missing grammar). */
export const LINTER_START_ERROR = 'LinterStartError';
