// The lint channel's client: the shared RPC client (./rpc-client.ts) typed with the lint protocol
// (src/protocol/lint.ts), naming itself "the lint worker" in its errors. Requests are answered in order; a
// worker that crashes, exits or stops answering (default 60 s) is replaced by a fresh one on the next request.
import { LINTER_START_ERROR, type LintRequests, type LintWorkerData } from '../protocol/lint';
import { ClientDisposedError, RpcClient, WorkerRestartedError, type RpcClientOptions } from './rpc-client';

export interface LintClientOptions extends Omit<RpcClientOptions, 'workerData' | 'cancelGraceMs'> {
  workerData: LintWorkerData;
}

/** The request failed because its worker crashed, exited or hung; the next request starts a new worker. */
export class LintWorkerRestartedError extends WorkerRestartedError {
  override readonly name = 'LintWorkerRestartedError';
}

/** The request failed because the client was disposed. */
export class LintClientDisposedError extends ClientDisposedError {
  override readonly name = 'LintClientDisposedError';
}

export function isLinterStartError(e: unknown): boolean {
  return e instanceof Error && e.name === LINTER_START_ERROR;
}

export class LintWorkerClient extends RpcClient<LintRequests> {
  constructor(options: LintClientOptions) {
    super(
      { timeoutMs: 60_000, ...options },
      {
        label: 'the lint worker',
        restarted: (reason) => new LintWorkerRestartedError(reason),
        disposed: (message) => new LintClientDisposedError(message),
      },
    );
  }
}
