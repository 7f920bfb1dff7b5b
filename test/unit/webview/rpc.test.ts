// The webview's requests to the host: replies find their request, a newer request on the same channel
// supersedes (and cancels) the older one, and stray replies are ignored.
import { strict as assert } from 'node:assert';
import type { FromWebviewMessage } from '../../../src/protocol/webview';
import { PanelRpc } from '../../../webview/rpc';

describe('webview rpc', () => {
  it('matches replies to requests', async () => {
    const sent: FromWebviewMessage[] = [];
    const rpc = new PanelRpc((m) => sent.push(m));
    const a = rpc.request<number>({ kind: 'attention', layer: 0, head: 1 }, 'head');
    const b = rpc.request<number>({ kind: 'trace', layer: 0, head: 0, options: {} }, 'trace');
    assert.equal(rpc.inFlight, 2);
    const [ma, mb] = sent as Extract<FromWebviewMessage, { type: 'request' }>[];
    assert.notEqual(ma.messageId, mb.messageId);
    assert.equal(rpc.handleReply({ type: 'reply', inReplyTo: mb.messageId, ok: false, error: 'boom' }), true);
    assert.equal(
      rpc.handleReply({
        type: 'reply',
        inReplyTo: ma.messageId,
        ok: true,
        result: { data: new Float32Array(1), seqLen: 1, rowStart: 0, rowEnd: 1, rows: 1, cols: 1, block: 1 },
      }),
      true,
    );
    assert.deepEqual(await b, { ok: false, error: 'boom' });
    assert.equal((await a).ok, true);
    assert.equal(rpc.inFlight, 0);
    assert.equal(
      rpc.handleReply({
        type: 'reply',
        inReplyTo: ma.messageId,
        ok: true,
        result: { data: new Float32Array(1), seqLen: 1, rowStart: 0, rowEnd: 1, rows: 1, cols: 1, block: 1 },
      }),
      false,
      'a second reply is ignored',
    );
    assert.equal(rpc.handleReply({ type: 'reply', inReplyTo: 999, ok: false, error: 'x' }), false);
  });

  it('supersedes and cancels an older request on the same channel only', async () => {
    const sent: FromWebviewMessage[] = [];
    const rpc = new PanelRpc((m) => sent.push(m));
    const first = rpc.request({ kind: 'trace', layer: 0, head: 0, options: {} }, 'trace');
    const other = rpc.request({ kind: 'attention', layer: 0, head: 0 }, 'head');
    const second = rpc.request({ kind: 'trace', layer: 0, head: 0, options: { softmaxDim: -2 } }, 'trace');
    assert.deepEqual(await first, { ok: false, superseded: true });
    const firstId = (sent[0] as { messageId: number }).messageId;
    assert.deepEqual(sent[2], { type: 'cancel', messageId: firstId });
    assert.equal(rpc.handleReply({ type: 'reply', inReplyTo: firstId, ok: true, result: {} as never }), false, 'the late answer is dropped');
    const secondId = (sent[3] as { messageId: number }).messageId;
    rpc.handleReply({ type: 'reply', inReplyTo: secondId, ok: true, result: {} as never });
    assert.equal((await second).ok, true);
    rpc.cancelAll();
    assert.deepEqual(await other, { ok: false, superseded: true });
    assert.equal(sent.filter((m) => m.type === 'cancel').length, 2);
  });
});
