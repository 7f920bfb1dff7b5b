// Host side of the lint worker: started on the first request, requests correlated by id and answered in
// order, a worker that crashes, exits or stops answering replaced by a fresh one on the next request (the
// requests it held fail with LintWorkerRestartedError, never an unhandled rejection), terminated on dispose.
import { Worker } from 'node:worker_threads';
import type { FromWorkerEnvelope, ToWorkerEnvelope } from '../protocol/rpc';
import { LINTER_START_ERROR, type LintRequests, type LintRequestType, type LintWorkerData } from './lint-protocol';

export interface LintClientOptions {
  /** The built worker script (dist/lint-worker.js; tests run src/worker/lint-worker.ts through tsx). */
  workerPath: string;
  workerData: LintWorkerData;
  /** Extra arguments for the worker's node (tests use `--require tsx/cjs`). */
  execArgv?: string[];
  /** A request unanswered for this long means a hung worker: it is replaced. Default 60 s. */
  timeoutMs?: number;
  /** Called each time a worker had to be replaced (crash, unexpected exit, hang), with the reason. */
  onRestart?: (reason: string) => void;
}

/** The request failed because its worker crashed, exited or hung; the next request starts a new worker. */
export class LintWorkerRestartedError extends Error {
  override readonly name = 'LintWorkerRestartedError';
}

/** The request failed because the client was disposed. */
export class LintClientDisposedError extends Error {
  override readonly name = 'LintClientDisposedError';
}

export function isLinterStartError(e: unknown): boolean {
  return e instanceof Error && e.name === LINTER_START_ERROR;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

export class LintWorkerClient {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private disposed = false;
  /** Workers started so far (1 after the first request; each restart adds one). */
  starts = 0;

  constructor(private readonly options: LintClientOptions) {}

  get running(): boolean {
    return this.worker !== undefined;
  }

  /** The worker's thread id (tests use it to see a replacement), or undefined when none runs. */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  request<K extends LintRequestType>(type: K, payload: LintRequests[K][0]): Promise<LintRequests[K][1]> {
    if (this.disposed) return Promise.reject(new LintClientDisposedError('the lint worker has been shut down'));
    const worker = this.ensureWorker();
    const messageId = this.nextId++;
    const timeoutMs = this.options.timeoutMs ?? 60_000;
    return new Promise((resolve, reject) => {
      this.pending.set(messageId, {
        resolve: resolve as (v: unknown) => void,
        reject,
        timer: setTimeout(() => this.restart(worker, `the lint worker did not answer within ${Math.round(timeoutMs / 1000)} s`), timeoutMs),
      });
      try {
        worker.postMessage({ kind: 'request', messageId, type, payload } satisfies ToWorkerEnvelope);
      } catch (e) {
        // A payload that cannot be cloned: this request fails, the worker is fine.
        this.settle(messageId, undefined, new Error(`${type}: could not send the request to the lint worker (${(e as Error).message})`));
      }
    });
  }

  /** Terminates the worker; pending and later requests fail with LintClientDisposedError. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const w = this.worker;
    this.worker = undefined;
    this.failAll(new LintClientDisposedError('the lint worker has been shut down'));
    void w?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.workerPath, { execArgv: this.options.execArgv, workerData: this.options.workerData });
    this.starts++;
    worker.on('message', (msg: FromWorkerEnvelope) => {
      if (this.worker === worker) this.onMessage(msg);
    });
    worker.on('error', (err) => this.restart(worker, `the lint worker crashed: ${err.message}`));
    worker.on('exit', (code) => this.restart(worker, `the lint worker exited unexpectedly (code ${code})`));
    // An idle lint worker must not keep the process (tests, the CLI, a closing extension host) alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private onMessage(msg: FromWorkerEnvelope): void {
    if (msg.kind !== 'reply') return;
    if (msg.ok) this.settle(msg.inReplyTo, msg.result);
    else {
      const err = new Error(msg.error.message);
      err.name = msg.error.name;
      this.settle(msg.inReplyTo, undefined, err);
    }
  }

  private settle(id: number, result: unknown, error?: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    if (error) entry.reject(error);
    else entry.resolve(result);
  }

  private failAll(error: Error): void {
    for (const id of [...this.pending.keys()]) this.settle(id, undefined, error);
  }

  /** Drops `worker` (if it is still the current one): its requests fail, the next request starts a new one. */
  private restart(worker: Worker, reason: string): void {
    if (this.worker !== worker || this.disposed) return;
    this.worker = undefined;
    void worker.terminate();
    this.failAll(new LintWorkerRestartedError(reason));
    this.options.onRestart?.(reason);
  }
}
