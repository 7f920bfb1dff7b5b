// Entry point of the lint worker (dist/lint-worker.js): the editor's linter off the extension host's thread.
// Reads the grammar files named in workerData once, starts tree-sitter once, and answers lint requests
// (src/protocol/lint.ts) one at a time; the parser's block cache lives here, across requests and documents.
import { readFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { createLinter } from '../lint';
import { lintHandlers, type LintWorkerState } from './lint-handlers';
import { WorkspaceLinters } from './lint-workspaces';
import type { LintWorkerData } from '../protocol/lint';
import { serve } from './server';

if (!parentPort) throw new Error('dist/lint-worker.js must run as a worker thread');

const data = workerData as Partial<LintWorkerData> | undefined;

async function readGrammar() {
  if (typeof data?.treeSitterPath !== 'string' || typeof data.pythonPath !== 'string') {
    throw new Error('the lint worker needs workerData { treeSitterPath, pythonPath }');
  }
  const read = async (path: string): Promise<Uint8Array> => {
    try {
      return new Uint8Array(await readFile(path));
    } catch (e) {
      throw new Error(`cannot read ${path} (${(e as { code?: string }).code ?? (e as Error).message})`);
    }
  };
  const [treeSitter, python] = await Promise.all([read(data.treeSitterPath), read(data.pythonPath)]);
  return { treeSitter, python };
}

const state: LintWorkerState = { linter: undefined as never, internalErrors: [] };
const onInternalError = (e: unknown) => state.internalErrors.push(e instanceof Error ? (e.stack ?? e.message) : String(e));
const grammar = readGrammar();
state.linter = grammar.then((g) => createLinter(g, { onInternalError }));
state.workspaces = new WorkspaceLinters((workspace) => grammar.then((g) => createLinter(g, { onInternalError, workspace })));
// Rejections are answered per request (LinterStartError); this one must not count as unhandled.
state.linter.catch(() => undefined);

serve(parentPort, lintHandlers(state));
