// The host side of every worker channel (the engine's, the linter's): one typed request/response client over
// the envelopes of src/protocol/rpc.ts. It starts the worker lazily, correlates replies, forwards progress and
// cancellation, transfers buffers, and replaces a worker that crashes, exits or stops answering: every request
// the worker held fails with a WorkerRestartedError (never an unhandled rejection) and the next request starts
// a fresh worker (`generation` counts them, so callers can replay state the old one held).
import { Worker } from 'node:worker_threads';
import { isMessageParts, MessageError, type MessageParts } from '../protocol/message';
import { CancelledError, type FromWorkerEnvelope, type RequestMap, type ToWorkerEnvelope } from '../protocol/rpc';

/** What the client needs of a cancellation token (vscode.CancellationToken has this shape). */
export interface CancellationSignal {
  readonly isCancellationRequested: boolean;
  onCancellationRequested(listener: () => void): { dispose(): void };
}

export interface RequestOptions {
  signal?: CancellationSignal;
  /** Buffers to transfer with the payload (they are detached here). */
  transfer?: ArrayBuffer[];
  /** `message` in English; `parts` its template and arguments when the worker sent them (to render translated). */
  onProgress?: (fraction: number, message: string, parts?: MessageParts) => void;
  /** Overrides the client's default time limit for this request. */
  timeoutMs?: number;
}

export interface RpcClientOptions {
  /** Path of the worker script (a dist/ bundle; tests run a .ts file with `execArgv: ['--require', 'tsx/cjs']`). */
  workerPath: string;
  /** Extra arguments for the worker's node. */
  execArgv?: string[];
  /** Start-up data handed to every worker this client starts. */
  workerData?: unknown;
  /** A request unanswered for this long means a hung worker: it is replaced. Default 120 s. */
  timeoutMs?: number;
  /** After a cancel, how long the worker has to acknowledge before it is replaced. Default 2 s. */
  cancelGraceMs?: number;
  /** Called each time a worker had to be replaced (crash, unexpected exit, hang, ignored cancel), with the reason. */
  onRestart?: (reason: string) => void;
}

/** How a client names its worker in messages, and the errors it fails requests with. */
export interface RpcClientIdentity {
  /** "the attention engine", "the lint worker": starts every message. */
  label: string;
  restarted: (reason: string) => WorkerRestartedError;
  disposed: (message: string) => ClientDisposedError;
}

/** The request failed because its worker crashed, exited, hung or ignored a cancel; the next request starts a new one. */
export class WorkerRestartedError extends Error {
  override readonly name: string = 'WorkerRestartedError';
}

/** The request failed because the client was disposed. */
export class ClientDisposedError extends Error {
  override readonly name: string = 'ClientDisposedError';
}

const DEFAULT_IDENTITY: RpcClientIdentity = {
  label: 'the worker',
  restarted: (reason) => new WorkerRestartedError(reason),
  disposed: (message) => new ClientDisposedError(message),
};

interface Pending {
  type: string;
  resolve(v: unknown): void;
  reject(e: Error): void;
  onProgress?: (fraction: number, message: string, parts?: MessageParts) => void;
  timer: ReturnType<typeof setTimeout>;
  disposeSignal?: () => void;
}

export class RpcClient<R extends RequestMap<R>> {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Cancelled requests (already rejected) whose worker-side reply has not come back yet, with their grace timers. */
  private readonly abandoned = new Map<number, ReturnType<typeof setTimeout>>();
  private disposed = false;
  private generationCount = 0;

  constructor(
    private readonly options: RpcClientOptions,
    private readonly identity: RpcClientIdentity = DEFAULT_IDENTITY,
  ) {}

  /** Workers started so far (1 after the first request; each replacement adds one). */
  get generation(): number {
    return this.generationCount;
  }

  get running(): boolean {
    return this.worker !== undefined;
  }

  /** The current worker's thread id (tests use it to see a replacement), or undefined when none runs. */
  get threadId(): number | undefined {
    return this.worker?.threadId;
  }

  request<K extends keyof R & string>(type: K, payload: R[K][0], opts: RequestOptions = {}): Promise<R[K][1]> {
    if (this.disposed) return Promise.reject(this.identity.disposed(`${this.identity.label} has been shut down`));
    if (opts.signal?.isCancellationRequested) return Promise.reject(new CancelledError());
    const worker = this.ensureWorker();
    const messageId = this.nextId++;
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs ?? 120_000;
    return new Promise<R[K][1]>((resolve, reject) => {
      const entry: Pending = {
        type,
        resolve: resolve,
        reject,
        onProgress: opts.onProgress,
        timer: setTimeout(() => {
          this.restart(worker, `${this.identity.label} did not answer '${type}' within ${duration(timeoutMs)} and was restarted`);
        }, timeoutMs),
      };
      if (opts.signal) {
        const sub = opts.signal.onCancellationRequested(() => this.cancel(messageId));
        entry.disposeSignal = () => sub.dispose();
      }
      this.pending.set(messageId, entry);
      const msg: ToWorkerEnvelope = { kind: 'request', messageId, type, payload };
      try {
        worker.postMessage(msg, opts.transfer ?? []);
      } catch (e) {
        // A payload that cannot be cloned: this request fails, the worker is fine.
        this.settle(
          messageId,
          undefined,
          new Error(`${type}: could not send the request to ${this.identity.label} (${e instanceof Error ? e.message : String(e)})`),
        );
      }
    });
  }

  /** Stops the worker; pending and later requests fail with the client's disposed error. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(this.identity.disposed(`${this.identity.label} has been shut down`));
    void worker?.terminate();
  }

  private cancel(messageId: number): void {
    const worker = this.worker;
    if (!this.pending.has(messageId) || !worker) return;
    worker.postMessage({ kind: 'cancel', messageId } satisfies ToWorkerEnvelope);
    // The worker checks for cancellation between chunks of work. If it is stuck in one long chunk, do not
    // keep the caller waiting: reject now, and replace the worker if it does not answer within the grace time.
    this.settle(messageId, undefined, new CancelledError());
    const grace = setTimeout(() => {
      if (this.abandoned.has(messageId)) this.restart(worker, `${this.identity.label} did not stop after a cancel and was restarted`);
    }, this.options.cancelGraceMs ?? 2_000);
    this.abandoned.set(messageId, grace);
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.workerPath, { execArgv: this.options.execArgv, workerData: this.options.workerData });
    this.generationCount++;
    worker.on('message', (msg: FromWorkerEnvelope) => {
      if (this.worker === worker) this.onMessage(msg);
    });
    worker.on('error', (err) => this.restart(worker, `${this.identity.label} crashed: ${err.message}`));
    worker.on('exit', (code) => this.restart(worker, `${this.identity.label} exited unexpectedly (code ${code})`));
    // An idle worker must not keep the process (tests, the CLI, a closing extension host) alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private onMessage(msg: FromWorkerEnvelope): void {
    if (msg.kind === 'ready') return;
    const graceTimer = this.abandoned.get(msg.inReplyTo);
    if (graceTimer !== undefined) {
      // The worker answered (or reported progress on) a request already rejected as cancelled: it is healthy.
      if (msg.kind === 'reply') {
        clearTimeout(graceTimer);
        this.abandoned.delete(msg.inReplyTo);
      }
      return;
    }
    const entry = this.pending.get(msg.inReplyTo);
    if (!entry) return;
    if (msg.kind === 'progress') {
      entry.onProgress?.(msg.fraction, msg.message, isMessageParts(msg.parts) ? msg.parts : undefined);
      return;
    }
    if (msg.ok) this.settle(msg.inReplyTo, msg.result);
    else this.settle(msg.inReplyTo, undefined, reviveError(msg.error));
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
    for (const timer of this.abandoned.values()) clearTimeout(timer);
    this.abandoned.clear();
  }

  /** Drops `worker` if it is still the current one: everything it held fails, the next request starts a new one. */
  private restart(worker: Worker, reason: string): void {
    if (this.worker !== worker || this.disposed) return;
    this.worker = undefined;
    void worker.terminate();
    this.failAll(this.identity.restarted(reason));
    this.options.onRestart?.(reason);
  }
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

/**
 * Rebuilds an error that crossed the channel, keeping its name (CancelledError, TooManyTokensError, ...) and, for
 * one made from a template, its parts (a MessageError the host renders in the display language).
 */
function reviveError(e: { name: string; message: string; parts?: unknown }): Error {
  if (e.name === 'CancelledError') return new CancelledError(e.message);
  const err = isMessageParts(e.parts) ? new MessageError(e.parts) : new Error(e.message);
  err.message = e.message;
  err.name = e.name;
  return err;
}
