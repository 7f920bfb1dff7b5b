// Long runs in the session: thumbnails and entropies streamed from blocks of rows equal the ones computed
// from materialised weights; row ranges and block-averaged views of a head equal independent computations on
// the whole head; a counting stub model shows that no block exceeds the byte budget, that checkpoints come
// between blocks (so a cancel stops the run), and that traces past MAX_TRACE_CELLS are refused clearly.
import { strict as assert } from 'node:assert';
import { MAX_TRACE_CELLS, type Tensor } from '../../../src/engine';
import { blockRows, STREAM_BLOCK_BYTES } from '../../../src/models/head-stream';
import { InspectSession, MAX_ATTENTION_RESULT_WEIGHTS, meanRowEntropy, thumbnails } from '../../../src/models/session';
import type { AttentionModel, ForwardOptions, ForwardResult } from '../../../src/models/types';
import type { ModelInfo, TokenInfo } from '../../../src/protocol/engine';
import { maxAbsDiff } from '../helpers/fixtures';

const seeded = { kind: 'seeded' as const, seed: 11, heads: 3, dModel: 24 };
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i % 17}x${i % 5}`).join(' ');

/** Block means of rows [r0, r1) of a (T, T) head in block × block squares, by plain loops (float64). */
function blockMeans(head: Float32Array, T: number, r0: number, r1: number, block: number): number[] {
  const rows = Math.ceil((r1 - r0) / block),
    cols = Math.ceil(T / block);
  const out: number[] = [];
  for (let a = 0; a < rows; a++) {
    for (let b = 0; b < cols; b++) {
      let sum = 0,
        n = 0;
      for (let i = r0 + a * block; i < Math.min(r1, r0 + (a + 1) * block); i++) {
        for (let j = b * block; j < Math.min(T, (b + 1) * block); j++) {
          sum += head[i * T + j];
          n++;
        }
      }
      out.push(sum / n);
    }
  }
  return out;
}

describe('long runs: streamed summaries and head views', () => {
  const text = words(45);

  it('streamed thumbnails and entropies equal those of the materialised weights', async () => {
    const full = new InspectSession();
    await full.configure(seeded);
    const a = await full.run({ text, maxTokens: 100, causal: true, thumbnailSize: 8 });
    const T = a.seqLen;
    // 5 rows per block: 9 blocks per head.
    const lazy = new InspectSession(undefined, { materialiseBytes: 0, streamBlockBytes: 5 * 4 * T });
    await lazy.configure(seeded);
    const b = await lazy.run({ text, maxTokens: 100, causal: true, thumbnailSize: 8 });
    assert.ok(a.attentions, 'the short materialised run sends its weights');
    assert.equal(b.attentions, undefined, 'a run without materialised weights sends none');
    assert.equal(a.causal, true);
    assert.equal(b.causal, true);
    assert.equal(b.thumbnails.size, 8);
    assert.ok(maxAbsDiff(b.thumbnails.data, a.thumbnails.data) < 1e-6, `thumbnails differ by ${maxAbsDiff(b.thumbnails.data, a.thumbnails.data)}`);
    assert.ok(maxAbsDiff(b.headEntropy, a.headEntropy) < 1e-5, 'entropies');
    // And both equal the plain functions on the materialised weights.
    assert.ok(maxAbsDiff(a.thumbnails.data, thumbnails(a.attentions, 3, T, 8)) < 1e-7);
    assert.ok(maxAbsDiff(a.headEntropy, meanRowEntropy(a.attentions, 3, T)) < 1e-7);
  });

  it('serves rows and block-averaged views that equal the whole head', async () => {
    const full = new InspectSession();
    await full.configure(seeded);
    const a = await full.run({ text, maxTokens: 100 });
    assert.equal(a.causal, false);
    const T = a.seqLen;
    const lazy = new InspectSession(undefined, { materialiseBytes: 0, streamBlockBytes: 7 * 4 * T });
    await lazy.configure(seeded);
    const b = await lazy.run({ text, maxTokens: 100 });
    for (let h = 0; h < 3; h++) {
      const head = a.attentions!.subarray(h * T * T, (h + 1) * T * T);
      const whole = lazy.attention({ runId: b.runId, layer: 0, head: h });
      assert.deepEqual([whole.rows, whole.cols, whole.block, whole.rowStart, whole.rowEnd, whole.seqLen], [T, T, 1, 0, T, T]);
      assert.ok(maxAbsDiff(whole.data, head) < 1e-6);
      const some = lazy.attention({ runId: b.runId, layer: 0, head: h, rowStart: 10, rowEnd: 31 });
      assert.deepEqual([some.rows, some.cols], [21, T]);
      assert.ok(maxAbsDiff(some.data, head.subarray(10 * T, 31 * T)) < 1e-6);
      for (const [downsample, r0, r1] of [
        [8, 0, T],
        [10, 0, T],
        [4, 3, 40],
        [T, 0, T],
        [1, 0, T],
      ]) {
        const view = await lazy.attentionCancellable({ runId: b.runId, layer: 0, head: h, rowStart: r0, rowEnd: r1, downsample });
        const block = Math.max(1, Math.ceil(Math.max(r1 - r0, T) / downsample));
        assert.equal(view.block, block, `downsample ${downsample}`);
        assert.deepEqual([view.rows, view.cols], [Math.ceil((r1 - r0) / block), Math.ceil(T / block)]);
        const expected = blockMeans(head, T, r0, r1, block);
        assert.ok(maxAbsDiff(view.data, expected) < 1e-6, `downsample ${downsample} rows ${r0}..${r1}`);
        // The materialised session answers the same view from its weights.
        const same = full.attention({ runId: a.runId, layer: 0, head: h, rowStart: r0, rowEnd: r1, downsample });
        assert.ok(maxAbsDiff(same.data, view.data) < 1e-6);
      }
    }
  });

  it('refuses views that do not exist or would be too large, naming the argument', async () => {
    const session = new InspectSession();
    await session.configure(seeded);
    const run = await session.run({ text: 'a b c d', maxTokens: 10 });
    const ask = (extra: object) => () => session.attention({ runId: run.runId, layer: 0, head: 0, ...extra });
    assert.throws(ask({ rowStart: 3, rowEnd: 3 }), /layer 0 head 0: query rows 3\.\.3 are not a non-empty range within 0\.\.4/);
    assert.throws(ask({ rowEnd: 5 }), /query rows 0\.\.5/);
    assert.throws(ask({ downsample: 0 }), /downsample must be an integer in 1\.\.4096/);
    assert.throws(ask({ downsample: 2.5 }), /downsample must be an integer/);
    assert.throws(ask({ downsample: 5000 }), /downsample must be an integer in 1\.\.4096/);
    assert.throws(() => session.attention({ runId: run.runId, layer: 0, head: 3 }), /no layer 0, head 3/);
  });
});

// ----- a counting stub model: cheap rows of any length, and a record of what was asked ---------------------

interface Asked {
  calls: { head: number; r0: number; r1: number; outFloats?: number }[];
  headInputs: number;
}

/**
 * A one-layer model whose head h row i attends uniformly to keys 0..i (causal), or to every key when h is
 * odd; its weights are never materialised, and headInputs is counted (a long run must not need it).
 */
function stubModel(nHead: number, asked: Asked): AttentionModel {
  const info: ModelInfo = {
    family: 'seeded',
    name: 'stub',
    nameParts: { template: 'stub', args: [] },
    detail: 'stub',
    detailParts: { template: 'stub', args: [] },
    nLayer: 1,
    nHead,
    dModel: nHead,
    headDim: 1,
    causal: false,
    tokenizer: 'words',
  };
  return {
    info,
    tokenizer: { kind: 'words' },
    async forward(tokens: TokenInfo[], options: ForwardOptions = {}): Promise<ForwardResult> {
      const T = tokens.length;
      await options.checkpoint?.();
      const empty: Tensor = { data: new Float32Array(T), shape: [T, 1] };
      return {
        seqLen: T,
        causal: true,
        headInputs() {
          asked.headInputs++;
          return { q: empty, k: empty, v: empty, scale: 1, mask: { causal: true }, allowed: undefined };
        },
        headAttentionRows(_layer, head, r0, r1, out) {
          asked.calls.push({ head, r0, r1, outFloats: out?.length });
          const rows = stubRows(T, head, r0, r1);
          if (!out) return rows;
          out.set(rows);
          return out.subarray(0, rows.length);
        },
      };
    },
  };
}

function stubRows(T: number, head: number, r0: number, r1: number): Float32Array {
  const out = new Float32Array((r1 - r0) * T);
  for (let i = r0; i < r1; i++) {
    const n = head % 2 === 0 ? i + 1 : T;
    out.fill(1 / n, (i - r0) * T, (i - r0) * T + n);
  }
  return out;
}

/** A session on the stub with a stub tokenizer that needs no model files: the words tokenizer suffices. */
async function stubSession(nHead: number, asked: Asked, options = {}): Promise<InspectSession> {
  const session = new InspectSession(async () => stubModel(nHead, asked), options);
  await session.configure({ kind: 'file', fileName: 'stub', bytes: new Uint8Array(1) });
  return session;
}

describe('long runs with a counting stub model', () => {
  it('streams every head in blocks within the byte budget, with a checkpoint after each block', async () => {
    const asked: Asked = { calls: [], headInputs: 0 };
    const T = 300;
    const budget = 32 * 4 * T; // 32 rows per block
    const session = await stubSession(2, asked, { streamBlockBytes: budget });
    let checkpoints = 0;
    const progress: number[] = [];
    const run = await session.run(
      { text: words(T), maxTokens: 1000, thumbnailSize: 16 },
      { checkpoint: async () => void checkpoints++, progress: (f) => progress.push(f) },
    );
    assert.equal(run.seqLen, T);
    assert.equal(run.causal, true);
    assert.equal(run.attentions, undefined);
    assert.equal(asked.headInputs, 0, 'summaries need no (T, T) inputs');
    const blocks = Math.ceil(T / 32);
    assert.equal(asked.calls.length, 2 * blocks);
    for (const c of asked.calls) {
      assert.ok((c.r1 - c.r0) * T * 4 <= budget, `block ${c.r0}..${c.r1} exceeds the budget`);
      assert.ok(c.outFloats !== undefined && c.outFloats * 4 <= budget, 'each block is written into one reused buffer within the budget');
    }
    // The rows of each head were asked in order, each once, covering 0..T.
    for (const head of [0, 1])
      assert.deepEqual(
        asked.calls.filter((c) => c.head === head).map((c) => c.r0),
        Array.from({ length: blocks }, (_, i) => i * 32),
      );
    assert.ok(checkpoints >= 2 * blocks, `${checkpoints} checkpoints for ${2 * blocks} blocks`);
    assert.ok(
      progress.every((f, i) => f >= 0 && f <= 1 && (i === 0 || f >= progress[i - 1])),
      'progress only grows, within [0, 1]',
    );
    assert.equal(progress[progress.length - 1], 1);
    // Independent results: the thumbnails of the whole materialised stub, and mean entropies ln(i + 1) / ln T.
    const all = new Float32Array(2 * T * T);
    all.set(stubRows(T, 0, 0, T), 0);
    all.set(stubRows(T, 1, 0, T), T * T);
    assert.ok(maxAbsDiff(run.thumbnails.data, thumbnails(all, 2, T, 16)) < 1e-6);
    let causalEntropy = 0;
    for (let i = 0; i < T; i++) causalEntropy += Math.log(i + 1);
    assert.ok(Math.abs(run.headEntropy[0] - causalEntropy / T) < 1e-4);
    assert.ok(Math.abs(run.headEntropy[1] - Math.log(T)) < 1e-4);
  });

  it('uses 16 MiB blocks by default', () => {
    assert.equal(STREAM_BLOCK_BYTES, 16 * 2 ** 20);
    assert.equal(blockRows(8192), 512);
    assert.equal(blockRows(16384), 256);
    assert.equal(blockRows(10 ** 8), 1, 'at least one row');
  });

  it('stops at a cancelled checkpoint, in the run and in a view', async () => {
    const asked: Asked = { calls: [], headInputs: 0 };
    const T = 200;
    const session = await stubSession(1, asked, { streamBlockBytes: 10 * 4 * T });
    let n = 0;
    const cancelAfter = (k: number) => async () => {
      if (++n > k) throw new Error('cancelled');
    };
    await assert.rejects(session.run({ text: words(T), maxTokens: 1000 }, { checkpoint: cancelAfter(5) }), /cancelled/);
    assert.ok(asked.calls.length <= 5, `${asked.calls.length} blocks computed after the cancel`);
    n = 0;
    const run = await session.run({ text: words(T), maxTokens: 1000 });
    asked.calls = [];
    await assert.rejects(session.attentionCancellable({ runId: run.runId, layer: 0, head: 0, downsample: 20 }, { checkpoint: cancelAfter(2) }), /cancelled/);
    assert.equal(asked.calls.length, 3);
  });

  it('refuses a trace past MAX_TRACE_CELLS and a whole head past the answer limit, and still serves a downsampled view', async () => {
    const asked: Asked = { calls: [], headInputs: 0 };
    const T = Math.floor(Math.sqrt(MAX_TRACE_CELLS)) + 1; // 4097
    const session = await stubSession(1, asked);
    const run = await session.run({ text: words(T), maxTokens: 20_000, thumbnailSize: 4 });
    assert.throws(
      () => session.trace({ runId: run.runId, layer: 0, head: 0, options: {} }),
      /the step-through debugger traces at most 4096 tokens \(4096×4096 cells per step\); this run has 4097 tokens: inspect a shorter selection/,
    );
    assert.equal(asked.headInputs, 0, 'refused before any (T, T) work');
    const view = session.attention({ runId: run.runId, layer: 0, head: 0, downsample: 1024 });
    assert.deepEqual([view.rows, view.cols, view.block], [820, 820, 5]);
    // First cell: queries 0..4 × keys 0..4; query i puts 1/(i+1) on each of keys 0..i, so each row sums to 1 there.
    assert.ok(Math.abs(view.data[0] - 5 / 25) < 1e-6, `first cell ${view.data[0]}`);
    assert.ok(MAX_ATTENTION_RESULT_WEIGHTS < 8193 * 8193);
    const big = await stubSession(1, { calls: [], headInputs: 0 });
    const longRun = await big.run({ text: words(8193), maxTokens: 20_000, thumbnailSize: 2 });
    assert.throws(
      () => big.attention({ runId: longRun.runId, layer: 0, head: 0 }),
      /rows 0\.\.8193 hold 8193 × 8193 = 67125249 weights, more than the 67108864 one answer may hold; ask for fewer rows or a downsampled view/,
    );
    assert.equal(big.attention({ runId: longRun.runId, layer: 0, head: 0, rowStart: 8000, rowEnd: 8193 }).rows, 193);
  });
});
