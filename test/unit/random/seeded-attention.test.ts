import { strict as assert } from 'node:assert';
import { seededAttentionWeights, TorchGenerator, firstSeenIds } from '../../../src/engine/random';

/** The documented recipe, drawn with plain TorchGenerator calls and the division written out independently. */
function recipe(seed: number, d: number, ids: number[], nDistinct: number) {
  const gen = new TorchGenerator(seed);
  const emb = gen.randn(nDistinct, d).data;
  const scale = Math.fround(Math.sqrt(d)); // math.sqrt(d) promoted to float32
  const mats = [0, 1, 2, 3].map(() => Float32Array.from(gen.randn(d, d).data, (v) => Math.fround(v / scale)));
  const x = new Float32Array(ids.length * d);
  ids.forEach((id, t) => {
    for (let j = 0; j < d; j++) x[t * d + j] = emb[id * d + j];
  });
  return { x, wq: mats[0], wk: mats[1], wv: mats[2], wo: mats[3] };
}

describe('seededAttentionWeights', () => {
  it('draws exactly the documented sequence: emb, W_q, W_k, W_v, W_o (each / sqrt(d))', () => {
    for (const [seed, d, heads] of [
      [0, 8, 2],
      [42, 6, 3], // sqrt(6) is not exact: the float32 division matters
      [7, 2, 1], // 2x2 matrices take the scalar Box-Muller path with its cache
    ] as const) {
      const tokens = ['the', 'cat', 'sat', 'on', 'the', 'mat'];
      const w = seededAttentionWeights({ seed, dModel: d, numHeads: heads, tokens });
      assert.deepEqual(w.tokenIds, [0, 1, 2, 3, 0, 4]);
      const r = recipe(seed, d, w.tokenIds, 5);
      assert.deepEqual(w.embeddings.shape, [6, d]);
      assert.deepEqual(w.inProjWeight.shape, [3 * d, d]);
      assert.deepEqual(w.outProjWeight.shape, [d, d]);
      assert.equal(w.numHeads, heads);
      assert.deepEqual(Array.from(w.embeddings.data), Array.from(r.x));
      const dd = d * d;
      assert.deepEqual(Array.from(w.inProjWeight.data.subarray(0, dd)), Array.from(r.wq));
      assert.deepEqual(Array.from(w.inProjWeight.data.subarray(dd, 2 * dd)), Array.from(r.wk));
      assert.deepEqual(Array.from(w.inProjWeight.data.subarray(2 * dd)), Array.from(r.wv));
      assert.deepEqual(Array.from(w.outProjWeight.data), Array.from(r.wo));
      // Repeated tokens share one embedding row.
      assert.deepEqual(Array.from(w.embeddings.data.subarray(0, d)), Array.from(w.embeddings.data.subarray(4 * d, 5 * d)));
    }
  });

  it('divides by float32(sqrt(d)) rather than multiplying by a reciprocal (the two differ for d = 6)', () => {
    const d = 6;
    const w = seededAttentionWeights({ seed: 42, dModel: d, numHeads: 1, tokens: ['a'] });
    const gen = new TorchGenerator(42);
    gen.randn(1, d);
    const raw = gen.randn(d, d).data; // W_q before scaling
    const byDivision = raw.map((v) => Math.fround(v / Math.fround(Math.sqrt(d))));
    const byReciprocal = raw.map((v) => Math.fround(v * Math.fround(1 / Math.sqrt(d))));
    assert.deepEqual(Array.from(w.inProjWeight.data.subarray(0, d * d)), Array.from(byDivision));
    assert.ok(
      byDivision.some((v, i) => v !== byReciprocal[i]),
      'the check should be able to tell them apart',
    );
  });

  it('returns a Python snippet that spells out the same recipe, seed, sizes and tokens', () => {
    const tokens = ['我', 'love', '"quotes"', 'back\\slash', 'new\nline', 'line\u2028separator', '我'];
    const w = seededAttentionWeights({ seed: 1234, dModel: 16, numHeads: 4, tokens });
    const s = w.pythonSnippet;
    assert.match(s, /^seed, d_model, n_heads = 1234, 16, 4$/m);
    const order = [
      'torch.manual_seed(seed)',
      'emb = torch.randn(len(vocab), d_model)',
      'W_q = torch.randn(d_model, d_model) / math.sqrt(d_model)',
      'W_k = torch.randn(d_model, d_model) / math.sqrt(d_model)',
      'W_v = torch.randn(d_model, d_model) / math.sqrt(d_model)',
      'W_o = torch.randn(d_model, d_model) / math.sqrt(d_model)',
      'x = emb[ids]',
      'torch.nn.MultiheadAttention(d_model, n_heads, bias=False, batch_first=True)',
      'mha.in_proj_weight.data = torch.cat([W_q, W_k, W_v])',
      'mha.out_proj.weight.data = W_o',
    ];
    let at = -1;
    for (const line of order) {
      const i = s.indexOf(line);
      assert.ok(i > at, `"${line}" should appear, after the previous step`);
      at = i;
    }
    // The token list is a literal that evaluates back to the same strings (JSON string syntax is valid Python).
    const list = s.slice(s.indexOf('tokens = [') + 'tokens = '.length, s.indexOf(']\n', s.indexOf('tokens = [')) + 1);
    assert.deepEqual(JSON.parse(list.replace(/,\n\]$/, '\n]')), tokens);
    assert.ok(!s.includes('new\nline'), 'a newline inside a token must be escaped');
    assert.ok(!s.includes('\u2028'), 'U+2028 inside a token must be escaped');
  });

  it('numbers tokens by first occurrence; strings and numbers are distinct', () => {
    assert.deepEqual(firstSeenIds(['b', 'a', 'b', 1, '1', 1]).ids, [0, 1, 0, 2, 3, 2]);
    assert.throws(() => firstSeenIds(['a', 1.5]), /tokens\[1\] must be a string or a safe integer/);
  });

  it('validates its arguments with errors that name them', () => {
    const ok = { seed: 0, dModel: 8, numHeads: 2, tokens: ['a'] };
    assert.throws(() => seededAttentionWeights({ ...ok, dModel: 10, numHeads: 4 }), /dModel \(10\) must be divisible by numHeads \(4\)/);
    assert.throws(() => seededAttentionWeights({ ...ok, dModel: 0 }), /dModel must be a positive integer/);
    assert.throws(() => seededAttentionWeights({ ...ok, dModel: 8.5 }), /dModel must be a positive integer/);
    assert.throws(() => seededAttentionWeights({ ...ok, numHeads: -2 }), /numHeads must be a positive integer/);
    assert.throws(() => seededAttentionWeights({ ...ok, numHeads: 16 }), /numHeads must be at most 8/);
    assert.throws(() => seededAttentionWeights({ ...ok, dModel: 100000, numHeads: 1 }), /dModel must be at most 4096/);
    assert.throws(() => seededAttentionWeights({ ...ok, seed: 1.5 }), /seed must be an integer/);
    assert.throws(() => seededAttentionWeights({ ...ok, seed: 2n ** 64n }), /seed must be in \[-2\^63, 2\^64 - 1\]/);
    assert.throws(() => seededAttentionWeights({ ...ok, tokens: [] }), /tokens must be a non-empty array/);
  });
});
