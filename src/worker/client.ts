// The engine channel's client: the shared RPC client (./rpc-client.ts) typed with the engine protocol
// (src/protocol/engine.ts), naming itself "the attention engine" in its errors.
import type { EngineRequests } from '../protocol/engine';
import { ClientDisposedError, RpcClient, WorkerRestartedError, type RpcClientOptions } from './rpc-client';

export type { RequestOptions } from './rpc-client';

/** A request failed because the engine worker crashed, hung or ignored a cancel; the next request starts a new one. */
export class EngineRestartedError extends WorkerRestartedError {
  override readonly name = 'EngineRestartedError';
}

export class EngineClient extends RpcClient<EngineRequests> {
  constructor(options: RpcClientOptions) {
    super(options, {
      label: 'the attention engine',
      restarted: (reason) => new EngineRestartedError(reason),
      disposed: (message) => new ClientDisposedError(message),
    });
  }
}
