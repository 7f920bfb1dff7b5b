// Host side of the engine channel. Starts the worker lazily, correlates replies, forwards cancellation,
// and replaces a worker that crashes or stops answering (the caller gets a clear error; the state that
// the worker held is replayed on the next start by `onRestart`).
import { Worker } from 'node:worker_threads';
import { CancelledError, type FromWorkerEnvelope, type ToWorkerEnvelope } from '../protocol/rpc';

export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface RequestOptions {
  signal?: CancellationSignal;
  transfer?: ArrayBuffer[];
  onProgress?: (fraction: number, message: string) => void;
  /** Overrides the client's default time limit for this request. */
  timeoutMs?: number;
}

export interface EngineClientOptions {
  /** Path of the built worker script (dist/worker.js). */
  workerPath: string;
  /** Extra arguments for the worker's node (tests use `--require tsx/cjs`). */
  execArgv?: string[];
  /** Start-up options handed to every worker this client starts (e.g. the kernel preference). */
  workerData?: unknown;
  /** A request that takes longer than this is treated as a hung worker: it is replaced. */
  timeoutMs?: number;
  /** After a cancel, how long the worker has to acknowledge before it is replaced. */
  cancelGraceMs?: number;
  /** Called when a worker had to be replaced (crash, hang, unresponsive to cancel). */
  onRestart?: (reason: string) => void;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?: (fraction: number, message: string) => void;
  timer: ReturnType<typeof setTimeout>;
  cancelTimer?: ReturnType<typeof setTimeout>;
  disposeSignal?: () => void;
}

export class EngineRestartedError extends Error {
  override readonly name = 'EngineRestartedError';
}

export class EngineClient {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private disposed = false;
  /** Incremented every time a new worker starts; lets callers know their worker-side state is gone. */
  generation = 0;

  constructor(private readonly options: EngineClientOptions) {}

  request<R>(type: string, payload: unknown, opts: RequestOptions = {}): Promise<R> {
    if (this.disposed) return Promise.reject(new Error('the attention engine has been shut down'));
    if (opts.signal?.isCancellationRequested) return Promise.reject(new CancelledError());
    const worker = this.ensureWorker();
    const messageId = this.nextId++;
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs ?? 120_000;
    return new Promise<R>((resolve, reject) => {
      const entry: Pending = {
        resolve: resolve as (v: unknown) => void,
        reject,
        onProgress: opts.onProgress,
        timer: setTimeout(() => {
          this.restart(`the attention engine did not answer '${type}' within ${Math.round(timeoutMs / 1000)} s and was restarted`);
        }, timeoutMs),
      };
      if (opts.signal) {
        const sub = opts.signal.onCancellationRequested(() => this.cancel(messageId));
        entry.disposeSignal = () => sub.dispose();
      }
      this.pending.set(messageId, entry);
      const msg: ToWorkerEnvelope = { kind: 'request', messageId, type, payload };
      worker.postMessage(msg, opts.transfer ?? []);
    });
  }

  /** Stops the worker; pending requests are rejected. */
  dispose(): void {
    this.disposed = true;
    this.failAll(new Error('the attention engine has been shut down'));
    void this.worker?.terminate();
    this.worker = undefined;
  }

  get running(): boolean {
    return this.worker !== undefined;
  }

  private cancel(messageId: number): void {
    const entry = this.pending.get(messageId);
    if (!entry || !this.worker) return;
    this.worker.postMessage({ kind: 'cancel', messageId } satisfies ToWorkerEnvelope);
    // The worker checks for cancellation between chunks of work. If it is stuck in one long chunk,
    // do not keep the user waiting: reject now and replace the worker if it does not answer soon.
    this.settle(messageId, undefined, new CancelledError());
    const grace = this.options.cancelGraceMs ?? 2_000;
    const worker = this.worker;
    const stillBusy = setTimeout(() => {
      if (this.worker === worker && this.abandoned.has(messageId)) {
        this.restart('the attention engine did not stop after a cancel and was restarted');
      }
    }, grace);
    this.abandoned.set(messageId, stillBusy);
  }

  /** Cancelled requests (already rejected here) whose worker-side reply has not come back yet. */
  private readonly abandoned = new Map<number, ReturnType<typeof setTimeout>>();

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.workerPath, { execArgv: this.options.execArgv, workerData: this.options.workerData });
    this.generation++;
    worker.on('message', (msg: FromWorkerEnvelope) => this.onMessage(msg));
    worker.on('error', (err) => {
      if (this.worker === worker) this.restart(`the attention engine crashed: ${err.message}`);
    });
    worker.on('exit', (code) => {
      if (this.worker === worker && !this.disposed) this.restart(`the attention engine exited unexpectedly (code ${code})`);
    });
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private onMessage(msg: FromWorkerEnvelope): void {
    if (msg.kind === 'ready') return;
    const abandonedTimer = msg.kind === 'reply' ? this.abandoned.get(msg.inReplyTo) : undefined;
    if (abandonedTimer !== undefined) {
      // The worker answered a request we already rejected as cancelled: it is healthy.
      clearTimeout(abandonedTimer);
      this.abandoned.delete((msg as { inReplyTo: number }).inReplyTo);
      return;
    }
    const entry = this.pending.get(msg.inReplyTo);
    if (!entry) return;
    if (msg.kind === 'progress') {
      entry.onProgress?.(msg.fraction, msg.message);
      return;
    }
    if (msg.ok) this.settle(msg.inReplyTo, msg.result);
    else {
      this.settle(msg.inReplyTo, undefined, reviveError(msg.error));
    }
  }

  private settle(id: number, result: unknown, error?: Error): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    clearTimeout(entry.timer);
    entry.disposeSignal?.();
    if (error) entry.reject(error);
    else entry.resolve(result);
  }

  private failAll(error: Error): void {
    for (const id of [...this.pending.keys()]) this.settle(id, undefined, error);
    for (const t of this.abandoned.values()) clearTimeout(t);
    this.abandoned.clear();
  }

  private restart(reason: string): void {
    const old = this.worker;
    this.worker = undefined;
    void old?.terminate();
    this.failAll(new EngineRestartedError(reason));
    if (!this.disposed) this.options.onRestart?.(reason);
  }
}

/** Rebuilds an error that crossed the channel, keeping its name (CancelledError, TooManyTokensError, ...). */
function reviveError(e: { name: string; message: string }): Error {
  if (e.name === 'CancelledError') return new CancelledError(e.message);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}
