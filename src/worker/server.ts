// Worker side of the engine channel: dispatches requests to handlers, honours cancellation, reports
// progress, and replies with transferred buffers. Knows nothing about attention; see ./handlers.ts.
import type { MessagePort } from 'node:worker_threads';
import { CancelledError, type FromWorkerEnvelope, type ToWorkerEnvelope } from '../protocol/rpc';

/** What a handler may use while it runs. */
export interface HandlerContext {
  /** Throws CancelledError once the caller has cancelled; call it between chunks of work. */
  throwIfCancelled(): void;
  /** Yields to the event loop (so a cancel message can arrive), then checks for cancellation. */
  checkpoint(): Promise<void>;
  progress(fraction: number, message: string): void;
}

export interface HandlerOutput<R> {
  result: R;
  /** Buffers to transfer (never the backing store of cached data: copy first). */
  transfer?: ArrayBuffer[];
}

export type Handler = (payload: unknown, ctx: HandlerContext) => Promise<HandlerOutput<unknown>>;

export function serve(port: MessagePort, handlers: Record<string, Handler>): void {
  const cancelled = new Set<number>();
  const post = (msg: FromWorkerEnvelope, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);

  port.on('message', async (msg: ToWorkerEnvelope) => {
    if (msg.kind === 'cancel') {
      cancelled.add(msg.messageId);
      return;
    }
    const id = msg.messageId;
    const ctx: HandlerContext = {
      throwIfCancelled() {
        if (cancelled.has(id)) throw new CancelledError();
      },
      async checkpoint() {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (cancelled.has(id)) throw new CancelledError();
      },
      progress(fraction, message) {
        post({ kind: 'progress', inReplyTo: id, fraction, message });
      },
    };
    try {
      const handler = handlers[msg.type];
      if (!handler) throw new Error(`the engine has no request type '${msg.type}'`);
      const { result, transfer } = await handler(msg.payload, ctx);
      post({ kind: 'reply', inReplyTo: id, ok: true, result }, transfer ?? []);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      post({ kind: 'reply', inReplyTo: id, ok: false, error: { name: err.name, message: err.message } });
    } finally {
      cancelled.delete(id);
    }
  });
  post({ kind: 'ready' });
}
