// The head view of a long run: when the panel asks for a downsampled head, what it says about the view, and
// how a hovered cell names the token ranges it averages. Views come from the real session.
import { strict as assert } from 'node:assert';
import { InspectSession } from '../../../src/models/session';
import { fullHead, normaliseAttention } from '../../../webview/data';
import {
  blockNote,
  cellLabels,
  cellSpan,
  DEBUGGER_MAX_TOKENS,
  describeHeadCell,
  downsampleFor,
  FULL_VIEW_MAX_TOKENS,
  LINES_MAX_TOKENS,
  rowToken,
  VIEW_MAX_SIDE,
} from '../../../webview/head-view';

describe('head view of long runs', () => {
  it('asks for every weight up to 1024 tokens and for at most 1024×1024 blocks beyond', () => {
    assert.equal(FULL_VIEW_MAX_TOKENS, 1024);
    assert.equal(downsampleFor(9), undefined);
    assert.equal(downsampleFor(1024), undefined);
    assert.equal(downsampleFor(1025), VIEW_MAX_SIDE);
    assert.equal(downsampleFor(8192), 1024);
    assert.ok(LINES_MAX_TOKENS >= 512 && DEBUGGER_MAX_TOKENS >= 512, 'the default selection limit (512) stays usable in every view');
  });

  it('names the ranges of tokens a block covers, clipped at the end', () => {
    assert.deepEqual(cellSpan(0, 8, 0, 8192), { start: 0, end: 8 });
    assert.deepEqual(cellSpan(1023, 8, 0, 8192), { start: 8184, end: 8192 });
    assert.deepEqual(cellSpan(999, 3, 0, 2999), { start: 2997, end: 2999 });
    assert.deepEqual(cellSpan(2, 4, 100, 120), { start: 108, end: 112 });
  });

  it('describes a block-averaged view and its cells from the session’s answer', async () => {
    const session = new InspectSession();
    await session.configure({ kind: 'seeded', seed: 2, heads: 2, dModel: 8 });
    const words = Array.from({ length: 30 }, (_, i) => `tok${i}`);
    const run = await session.run({ text: words.join(' '), maxTokens: 100 });
    const T = run.seqLen;
    const m = normaliseAttention(session.attention({ runId: run.runId, layer: 0, head: 1, downsample: 8 }), T);
    assert.equal(m.block, 4); // ceil(30 / 8)
    assert.equal(blockNote(m, T), 'Showing 30 tokens as 8×8 blocks: each cell is the mean of 4×4 weights.');
    const tokens = run.tokens.map((t) => t.display);
    const lines = describeHeadCell(m, tokens, 2, 7);
    assert.equal(lines[0], 'Queries 8–11 → keys 28–29');
    assert.equal(lines[1], '“tok8” … “tok11” → “tok28” … “tok29”');
    assert.match(lines[2], /^mean weight \d\.\d+(e−\d+)? over 4×2 weights$/);
    // The value shown is the view's cell (queries 8..11 × keys 28..29).
    const whole = session.attention({ runId: run.runId, layer: 0, head: 1 }).data;
    let mean = 0;
    for (let i = 8; i < 12; i++) for (let j = 28; j < 30; j++) mean += whole[i * T + j] / 8;
    assert.ok(Math.abs(m.values[2 * m.cols + 7] - mean) < 1e-6);
    assert.deepEqual(cellLabels(m, tokens, 'rows').slice(0, 3), ['tok0', 'tok4', 'tok8']);
    assert.equal(rowToken(m, 2), 8);
    // A view of the weights themselves says nothing extra and names single tokens.
    const full = fullHead(whole, T);
    assert.equal(blockNote(full, T), '');
    assert.deepEqual(describeHeadCell(full, tokens, 3, 5)[0], 'Query 3 “tok3” → key 5 “tok5”');
    assert.equal(rowToken(full, 3), 3);
    // A view of some rows only starts its labels there.
    const part = normaliseAttention(session.attention({ runId: run.runId, layer: 0, head: 1, rowStart: 10, rowEnd: 20, downsample: 10 }), T);
    assert.equal(part.block, 3);
    assert.equal(describeHeadCell(part, tokens, 3, 0)[0], 'Queries 19 → keys 0–2', 'the last row of cells is clipped at rowEnd');
  });
});
