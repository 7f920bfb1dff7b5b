// Worker side of every channel: dispatches requests to handlers typed from the channel's protocol, honours
// cancellation, reports progress, and replies with transferred buffers. Knows nothing about attention or
// linting; see ./handlers.ts and ./lint-handlers.ts.
import type { MessagePort } from 'node:worker_threads';
import { messagePartsOf, renderMessage, type MessageParts } from '../protocol/message';
import { CancelledError, type FromWorkerEnvelope, type RequestMap, type ToWorkerEnvelope } from '../protocol/rpc';

/** What a handler may use while it runs. */
export interface HandlerContext {
  /** Throws CancelledError once the caller has cancelled; call it between chunks of work. */
  throwIfCancelled(): void;
  /** Yields to the event loop (so a cancel message can arrive), then checks for cancellation. */
  checkpoint(): Promise<void>;
  /** A message made from a template crosses as its parts (the host renders them) and its English text. */
  progress(fraction: number, message: string | MessageParts): void;
}

export interface HandlerOutput<Result> {
  result: Result;
  /** Buffers to transfer (never the backing store of cached data: copy first). */
  transfer?: ArrayBuffer[];
}

/**
 * One handler per request type of the protocol `R`. Payloads come from another thread: a handler whose
 * payload is not plain trusted data (the lint worker's) still checks it at run time.
 */
export type Handlers<R extends RequestMap<R>> = {
  [K in keyof R]: (payload: R[K][0], ctx: HandlerContext) => Promise<HandlerOutput<R[K][1]>>;
};

export interface ServeOptions {
  /** Awaited before every request (the engine worker waits for its kernel here). */
  beforeEach?: () => Promise<unknown>;
}

export function serve<R extends RequestMap<R>>(port: MessagePort, handlers: Handlers<R>, options: ServeOptions = {}): void {
  const cancelled = new Set<number>();
  const post = (msg: FromWorkerEnvelope, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);
  // The request type is a string from the other side: look it up among the handlers' own keys only
  // ('toString' or '__proto__' are not request types).
  const byType = new Map<string, (payload: unknown, ctx: HandlerContext) => Promise<HandlerOutput<unknown>>>(Object.entries(handlers));

  port.on('message', (msg: ToWorkerEnvelope) => {
    if (msg.kind === 'cancel') cancelled.add(msg.messageId);
    else void answer(msg);
  });

  /** Runs one request to its reply; never rejects (a failure is the reply). */
  async function answer(msg: Extract<ToWorkerEnvelope, { kind: 'request' }>): Promise<void> {
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
        if (typeof message === 'string') post({ kind: 'progress', inReplyTo: id, fraction, message });
        else post({ kind: 'progress', inReplyTo: id, fraction, message: renderMessage(message), parts: message });
      },
    };
    try {
      const handler = byType.get(msg.type);
      if (!handler) throw new Error(`this worker has no request type '${msg.type}'`);
      await options.beforeEach?.();
      const { result, transfer } = await handler(msg.payload, ctx);
      post({ kind: 'reply', inReplyTo: id, ok: true, result }, transfer ?? []);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      const parts = messagePartsOf(err);
      post({ kind: 'reply', inReplyTo: id, ok: false, error: { name: err.name, message: err.message, ...(parts ? { parts } : {}) } });
    } finally {
      cancelled.delete(id);
    }
  }
  post({ kind: 'ready' });
}
