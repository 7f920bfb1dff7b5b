// Linting many files on several cores: worker threads, each with its own parser, pull chunks of files from
// a queue; results are merged back in file order so the output does not depend on timing.
//
// The worker is the CLI bundle itself (dist/cli.js) started with workerData { lintWorker: true }. The messages
// are typed in src/protocol/lint-pool.ts.
import { availableParallelism } from 'node:os';
import { Worker, parentPort, workerData } from 'node:worker_threads';
import type { ExtendedLinter, LintOptions } from '../lint';
import type { ChunkReply, ChunkRequest, LintPoolWorkerData, LintRunResult } from '../protocol/lint-pool';
import { lintFiles, workspaceLinter, type LintGroup } from './lint';

/** Threads to use: ATTENTION_INSPECTOR_THREADS, else the cores (at most 4). */
export function threadCount(files: number): number {
  const env = Number(process.env.ATTENTION_INSPECTOR_THREADS);
  const wanted = Number.isInteger(env) && env > 0 ? env : Math.min(availableParallelism(), 4);
  return Math.max(1, Math.min(wanted, Math.ceil(files / 8)));
}

/** Whether this process can start workers from its own script (only the bundled dist/cli.js can). */
export function canUseWorkers(): boolean {
  return typeof __filename === 'string' && __filename.endsWith('.js');
}

export async function lintFilesParallel(groups: readonly LintGroup[], options: LintOptions, threads: number): Promise<LintRunResult> {
  const total = groups.reduce((n, g) => n + g.files.length, 0);
  const chunkSize = Math.max(4, Math.ceil(total / (threads * 8)));
  // Chunks never mix workspaces: a worker lints each chunk with the linter of its root.
  const chunks: Omit<ChunkRequest, 'id'>[] = [];
  for (const g of groups)
    for (let i = 0; i < g.files.length; i += chunkSize)
      chunks.push({ files: g.files.slice(i, i + chunkSize), ...(g.root !== undefined ? { root: g.root } : {}) });
  const results: (LintRunResult | undefined)[] = new Array(chunks.length);
  let next = 0;
  const workers = Array.from({ length: threads }, () => new Worker(__filename, { workerData: { lintWorker: true, options } satisfies LintPoolWorkerData }));
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const send = (): void => {
              const id = next;
              const chunk = chunks[id];
              if (chunk === undefined) {
                resolve(); // every chunk is handed out
                return;
              }
              next++;
              w.postMessage({ id, ...chunk } satisfies ChunkRequest);
            };
            w.on('message', (reply: ChunkReply) => {
              if (reply.error !== undefined) return reject(new Error(reply.error));
              results[reply.id] = reply.result;
              send();
            });
            w.on('error', reject);
            w.on('exit', (code) => {
              if (next < chunks.length || code !== 0) reject(new Error(`lint worker exited with code ${code}`));
            });
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  const merged: LintRunResult = { findings: [], files: 0, lines: 0, errors: [] };
  for (const r of results) {
    if (!r) continue;
    merged.findings.push(...r.findings);
    merged.files += r.files;
    merged.lines += r.lines;
    merged.errors.push(...r.errors);
  }
  return merged;
}

/** Worker side: lint each chunk of files it is sent with one linter. */
export async function runLintWorker(): Promise<void> {
  const port = parentPort;
  if (!port) return;
  const options = (workerData as LintPoolWorkerData).options;
  // One linter per workspace root (each keeps its imported modules' analyses across the chunks it lints).
  const linters = new Map<string, Promise<ExtendedLinter>>();
  const linterFor = (root: string | undefined): Promise<ExtendedLinter> => {
    const key = root ?? '';
    let l = linters.get(key);
    if (!l) {
      l = workspaceLinter(root);
      linters.set(key, l);
    }
    return l;
  };
  port.on('message', (req: ChunkRequest) => {
    linterFor(req.root).then(
      (linter) => {
        try {
          port.postMessage({ id: req.id, result: lintFiles(linter, req.files, options, req.root) } satisfies ChunkReply);
        } catch (e) {
          port.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) } satisfies ChunkReply);
        }
      },
      (e: unknown) => port.postMessage({ id: req.id, error: e instanceof Error ? e.message : String(e) } satisfies ChunkReply),
    );
  });
}
