import { strict as assert } from 'node:assert';
import { multiheadAttention, tensor } from '../../../src/engine';
import { seededAttentionWeights } from '../../../src/engine/random';
import { InspectSession, thumbnails } from '../../../src/models/session';
import { STALE_RUN, TOO_MANY_TOKENS } from '../../../src/protocol/engine';
import { TOKEN_COUNT_LIMIT } from '../../../src/protocol/engine-errors';

const seeded = { kind: 'seeded' as const, seed: 7, heads: 4, dModel: 32 };

describe('InspectSession with the seeded model', () => {
  it('tokenizes, runs every head and matches nn.MultiheadAttention on the same seeded weights', async () => {
    const session = new InspectSession();
    const info = await session.configure(seeded);
    assert.equal(info.nHead, 4);
    const text = 'the cat sat on the mat';
    const run = await session.run({ text, maxTokens: 100 });
    assert.deepEqual(
      run.tokens.map((t) => t.text),
      ['the', 'cat', 'sat', 'on', 'the', 'mat'],
    );
    assert.equal(run.tokens[5].start, text.indexOf('mat'));
    assert.equal(run.seqLen, 6);
    assert.ok(run.attentions);
    // Independent path: the engine's nn.MultiheadAttention with per-head weights on the same draws.
    const w = seededAttentionWeights({ seed: 7, dModel: 32, numHeads: 4, tokens: run.tokens.map((t) => t.text) });
    const x = tensor(w.embeddings.data, [1, 6, 32]);
    const { weights } = multiheadAttention(
      x,
      x,
      x,
      { numHeads: 4, inProjWeight: w.inProjWeight, outProjWeight: w.outProjWeight },
      { averageAttnWeights: false },
    );
    assert.ok(weights);
    assert.equal(weights.data.length, run.attentions.length);
    for (let i = 0; i < weights.data.length; i++) assert.ok(Math.abs(weights.data[i] - run.attentions[i]) < 1e-6, `weight ${i}`);
    // The same token at two positions has the same embedding, so its rows are identical.
    for (let j = 0; j < 6; j++) assert.ok(Math.abs(run.attentions[0 * 6 + j] - run.attentions[4 * 6 + j]) < 1e-6);
  });

  it('applies causal and padding masks', async () => {
    const session = new InspectSession();
    await session.configure(seeded);
    const run = await session.run({ text: 'a b c d', maxTokens: 10, causal: true, attentionMask: [1, 1, 1, 0] });
    const T = 4;
    const a = run.attentions!;
    for (let h = 0; h < 4; h++)
      for (let i = 0; i < T; i++) {
        let sum = 0;
        for (let j = 0; j < T; j++) {
          const w = a[(h * T + i) * T + j];
          sum += w;
          if (j > i || j === 3) assert.equal(w, 0, `head ${h} row ${i} key ${j} is masked`);
        }
        assert.ok(Math.abs(sum - 1) < 1e-5);
      }
  });

  it('serves one head and a step trace of the last run, and refuses stale runs', async () => {
    const session = new InspectSession();
    await session.configure(seeded);
    const run = await session.run({ text: '我爱自然语言处理。', maxTokens: 50 });
    assert.equal(run.seqLen, 9);
    const head2 = session.attention({ runId: run.runId, layer: 0, head: 2 });
    assert.deepEqual(Array.from(head2.data), Array.from(run.attentions!.subarray(2 * 81, 3 * 81)));
    const trace = session.trace({ runId: run.runId, layer: 0, head: 2, options: {} });
    for (let i = 0; i < 81; i++) assert.ok(Math.abs(trace.probs.data[i] - head2.data[i]) < 1e-6);
    const wrongDim = session.trace({ runId: run.runId, layer: 0, head: 2, options: { softmaxDim: -2 } });
    assert.ok(wrongDim.warnings.some((w) => w.id === 'rows-not-normalized'));
    assert.throws(() => session.attention({ runId: run.runId, layer: 0, head: 4 }), /no layer 0, head 4/);
    await session.run({ text: 'again', maxTokens: 5 });
    assert.throws(
      () => session.attention({ runId: run.runId, layer: 0, head: 0 }),
      (e: Error) => e.name === STALE_RUN,
    );
  });

  it('refuses a text past the token limit, saying how long it is (counted up to TOKEN_COUNT_LIMIT tokens, not all of a huge text)', async () => {
    const session = new InspectSession();
    await session.configure(seeded);
    await assert.rejects(
      session.run({ text: 'word '.repeat(300), maxTokens: 64 }),
      (e: Error) => e.name === TOO_MANY_TOKENS && e.message === 'the text has 300 tokens; the limit is 64',
    );
    await assert.rejects(
      session.run({ text: 'word '.repeat(100_000), maxTokens: 64 }),
      (e: Error) => e.name === TOO_MANY_TOKENS && e.message === `the text has more than ${TOKEN_COUNT_LIMIT} tokens; the limit is 64`,
    );
    await assert.rejects(session.run({ text: ' \n ', maxTokens: 64 }), /no tokens/);
  });

  it('explains bad seeded settings', async () => {
    const session = new InspectSession();
    await assert.rejects(session.configure({ kind: 'seeded', seed: 0, heads: 5, dModel: 64 }), /5 heads do not divide d_model 64/);
  });
});

describe('thumbnails', () => {
  it('averages the weights each cell covers', () => {
    // One 4×4 head to 2×2: each cell is the mean of a 2×2 block.
    const a = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
    const t = thumbnails(a, 1, 4, 2);
    assert.deepEqual(Array.from(t), [(1 + 2 + 5 + 6) / 4, (3 + 4 + 7 + 8) / 4, (9 + 10 + 13 + 14) / 4, (11 + 12 + 15 + 16) / 4]);
    // Uneven bands (5 → 2): the mean over the covered cells preserves the overall mean.
    const b = Float32Array.from({ length: 25 }, (_, i) => i);
    const tb = thumbnails(b, 1, 5, 2);
    const mean = (xs: ArrayLike<number>) => Array.from(xs).reduce((s, x) => s + x, 0) / xs.length;
    assert.ok(Math.abs(tb[0] - mean([0, 1, 2, 5, 6, 7, 10, 11, 12])) < 1e-5);
  });
});
