// A tiny request/response layer shared by every channel (host ↔ worker, host ↔ webview).
// Requests carry a `messageId`; replies carry `inReplyTo`. One union per direction per channel.
// Each channel declares its requests as a map `type → [payload, result]` (./engine.ts, ./lint.ts); the client
// (src/worker/rpc-client.ts) and the worker's dispatcher (src/worker/server.ts) are typed from that map.

import type { MessageParts } from './message';

/** A channel's requests: request type → [payload, result]. Used as `R extends RequestMap<R>`. */
export type RequestMap<R> = { readonly [K in keyof R]: readonly [unknown, unknown] };

export interface RequestEnvelope<Type extends string = string, Payload = unknown> {
  readonly kind: 'request';
  readonly messageId: number;
  readonly type: Type;
  readonly payload: Payload;
}

export interface CancelEnvelope {
  readonly kind: 'cancel';
  readonly messageId: number;
}

export interface ReplyEnvelope<Result = unknown> {
  readonly kind: 'reply';
  readonly inReplyTo: number;
  readonly ok: true;
  readonly result: Result;
}

export interface ErrorEnvelope {
  readonly kind: 'reply';
  readonly inReplyTo: number;
  readonly ok: false;
  /** `parts`: the error's template and arguments when it has them (src/protocol/message.ts), `message` its English text. */
  readonly error: { readonly name: string; readonly message: string; readonly parts?: MessageParts };
}

export interface ProgressEnvelope {
  readonly kind: 'progress';
  readonly inReplyTo: number;
  /** 0..1 */
  readonly fraction: number;
  /** Its English text; `parts` its template and arguments when it has them (src/protocol/engine-progress.ts). */
  readonly message: string;
  readonly parts?: MessageParts;
}

export type ToWorkerEnvelope = RequestEnvelope | CancelEnvelope;
export type FromWorkerEnvelope = ReplyEnvelope | ErrorEnvelope | ProgressEnvelope | { readonly kind: 'ready' };

/** Thrown (and sent across channels by name) when the caller cancelled the request. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
  constructor(message = 'Cancelled') {
    super(message);
  }
}

export function isCancelledError(e: unknown): boolean {
  return e instanceof Error && e.name === 'CancelledError';
}

/** Every ArrayBuffer reachable from typed arrays inside `value` (deduplicated), for transfer lists. */
export function collectTransferables(value: unknown, out = new Set<ArrayBuffer>(), depth = 0): ArrayBuffer[] {
  if (depth > 32 || value === null || typeof value !== 'object') return [...out];
  if (ArrayBuffer.isView(value)) {
    const buf = value.buffer;
    if (buf instanceof ArrayBuffer) out.add(buf);
  } else if (value instanceof ArrayBuffer) {
    out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) collectTransferables(v, out, depth + 1);
  } else if (value instanceof Map) {
    for (const v of value.values()) collectTransferables(v, out, depth + 1);
  } else {
    for (const v of Object.values(value)) collectTransferables(v, out, depth + 1);
  }
  return [...out];
}
