// Requests from the webview to the host (answered by `reply` messages with `inReplyTo`), with supersession:
// a newer request of the same channel makes the older one's answer irrelevant, so it resolves as
// `superseded` instead of drawing stale data. Pure: posting is injected.
import type { FromWebviewMessage, PanelRequest, ToWebviewMessage } from '../src/protocol/webview';

export type RequestOutcome<T> = { ok: true; result: T } | { ok: false; error: string } | { ok: false; superseded: true };

type Reply = Extract<ToWebviewMessage, { type: 'reply' }>;

export class PanelRpc {
  private nextId = 1;
  private readonly pending = new Map<number, { channel: string; resolve: (o: RequestOutcome<unknown>) => void }>();
  private readonly latest = new Map<string, number>();

  constructor(private readonly post: (m: FromWebviewMessage) => void) {}

  /** Sends a request; `channel` groups requests where only the newest matters (e.g. 'trace', 'head'). */
  request<T>(request: PanelRequest, channel: string = request.kind): Promise<RequestOutcome<T>> {
    const messageId = this.nextId++;
    const previous = this.latest.get(channel);
    if (previous !== undefined && this.pending.has(previous)) {
      this.settle(previous, { ok: false, superseded: true });
      this.post({ type: 'cancel', messageId: previous });
    }
    this.latest.set(channel, messageId);
    return new Promise((resolve) => {
      this.pending.set(messageId, { channel, resolve: resolve as (o: RequestOutcome<unknown>) => void });
      this.post({ type: 'request', messageId, request });
    });
  }

  /** Feeds a reply; returns false when no request waits for it (late, superseded or unknown). */
  handleReply(msg: Reply): boolean {
    if (!this.pending.has(msg.inReplyTo)) return false;
    this.settle(msg.inReplyTo, msg.ok ? { ok: true, result: msg.result } : { ok: false, error: String(msg.error) });
    return true;
  }

  /** Every open request resolves as superseded and is cancelled (a new run replaced the data they were about). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) {
      this.settle(id, { ok: false, superseded: true });
      this.post({ type: 'cancel', messageId: id });
    }
  }

  get inFlight(): number {
    return this.pending.size;
  }

  private settle(id: number, outcome: RequestOutcome<unknown>): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    if (this.latest.get(p.channel) === id) this.latest.delete(p.channel);
    p.resolve(outcome);
  }
}
