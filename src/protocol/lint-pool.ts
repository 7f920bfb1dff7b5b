// Messages between the CLI's lint pool (src/cli/lint-pool.ts) and its worker threads (the CLI bundle started
// with LintPoolWorkerData). The pool sends chunks of files; each worker lints a chunk and replies with its
// findings or an error. Plain data only.
import type { Finding, LintOptions } from '../lint';

/** workerData of a pool worker: marks the thread as a lint worker and carries the run's options. */
export interface LintPoolWorkerData {
  lintWorker: true;
  options: LintOptions;
}

/** A finding as the CLI reports it: with the file it is in. */
export interface FileFinding extends Finding {
  /** Path as given on the command line (or found under a directory), with forward slashes. */
  path: string;
  /** 0-based notebook cell (all cells counted) for .ipynb findings; lines are then relative to the cell. */
  cell?: number;
}

/** What linting some files gave: findings in file order, files linted, lines read, errors (unreadable files). */
export interface LintRunResult {
  findings: FileFinding[];
  files: number;
  lines: number;
  errors: string[];
}

/** Pool → worker: lint these files. */
export interface ChunkRequest {
  /** The chunk's index in the run (replies are merged in this order). */
  id: number;
  files: string[];
  /** The workspace root the files belong to (a directory argument), if any. */
  root?: string;
}

/** Worker → pool: the chunk's result, or the error that stopped it. */
export type ChunkReply = { id: number; result: LintRunResult; error?: undefined } | { id: number; result?: undefined; error: string };
