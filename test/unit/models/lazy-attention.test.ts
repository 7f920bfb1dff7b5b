// Long inputs: a forward that does not materialise its weights (materialiseBytes: 0 forces the tiled path
// on short fixtures) still computes the right hidden states (HF fixtures), and headAttentionRows gives the
// same rows as the materialised weights (within 1e-6), under every mask: none, causal, padding, both.
import { strict as assert } from 'node:assert';
import { type Tensor, linear, tensor } from '../../../src/engine';
import {
  allowedRows,
  attendLayer,
  attendMask,
  bertForward,
  createSeededModel,
  gpt2Forward,
  loadModel,
  maskSpec,
  MATERIALISED_ATTENTION_BYTES,
  parseConfigJson,
  readBert,
  readGpt2,
  shouldMaterialise,
} from '../../../src/models';
import { linearToHeads, splitHeads } from '../../../src/models/layers';
import type { ForwardResult } from '../../../src/models/types';
import { assertClose, loadFixture, maxAbsDiff } from '../helpers/fixtures';
import { fixtureSlice, fixtureTensors, idTokens, wordTokens } from './helpers';

const ROWS = 1e-6;
const HIDDEN = 1e-4;

/** Every head's rows by headAttentionRows, in a few ranges and one row at a time, against `attentions`. */
function assertRowsMatch(lazy: ForwardResult, attentions: Float32Array, nLayer: number, nHead: number, label: string): void {
  const T = lazy.seqLen;
  for (let l = 0; l < nLayer; l++) {
    for (let h = 0; h < nHead; h++) {
      const head = attentions.subarray((l * nHead + h) * T * T, (l * nHead + h + 1) * T * T);
      const ranges: [number, number][] = [
        [0, T],
        [0, 1],
        [T - 1, T],
        [Math.floor(T / 3), Math.floor((2 * T) / 3) + 1],
      ];
      for (let i = 0; i < T; i++) ranges.push([i, i + 1]);
      for (const [r0, r1] of ranges) {
        const rows = lazy.headAttentionRows(l, h, r0, r1);
        assert.equal(rows.length, (r1 - r0) * T, `${label}: rows ${r0}..${r1} shape`);
        const d = maxAbsDiff(rows, head.subarray(r0 * T, r1 * T));
        assert.ok(d <= ROWS, `${label}: layer ${l} head ${h} rows ${r0}..${r1} differ by ${d}`);
      }
    }
  }
}

describe('lazy weights: headAttentionRows equals the materialised weights', () => {
  const words = 'the cat sat on the mat because it was tired and slept'.split(' ');
  const T = words.length;
  const padding = words.map((_, i) => (i === 3 || i >= T - 2 ? 0 : 1));
  const cases = [
    { name: 'no mask', options: {} },
    { name: 'causal', options: { causal: true } },
    { name: 'padding', options: { attentionMask: padding } },
    { name: 'causal + padding', options: { causal: true, attentionMask: padding } },
  ];

  for (const { name, options } of cases) {
    it(`seeded model, ${name}`, async () => {
      const model = createSeededModel({ seed: 5, heads: 3, dModel: 24 });
      const full = await model.forward(wordTokens(words), options);
      const lazy = await model.forward(wordTokens(words), { ...options, materialiseBytes: 0 });
      assert.ok(full.attentions, 'a short run keeps its weights');
      assert.equal(lazy.attentions, undefined, 'materialiseBytes 0 keeps none');
      assert.equal(lazy.causal, !!options.causal);
      assertRowsMatch(lazy, full.attentions, 1, 3, `lazy ${name}`);
      // The materialised result answers rows the same way (recomputed, not sliced).
      assertRowsMatch(full, full.attentions, 1, 3, `materialised ${name}`);
      // headInputs: the model's scale, its O(T) mask, and the (T, T) mask built only when read.
      const inputs = lazy.headInputs(0, 2);
      assert.equal(inputs.scale, 1 / Math.sqrt(8));
      assert.equal(inputs.mask.causal, !!options.causal);
      assert.deepEqual(inputs.allowed && Array.from(inputs.allowed), attendMask(T, options) && Array.from(attendMask(T, options)!.data));
    });
  }

  it('a bare attention layer, causal + padding', async () => {
    const tensors = await fixtureTensors('mha_state_dict.pt');
    const model = loadModel(tensors, { fileName: 'mha_state_dict.pt', configJson: JSON.stringify({ num_heads: 4 }), seed: 3 });
    const options = { causal: true, attentionMask: padding };
    const full = await model.forward(wordTokens(words), options);
    const lazy = await model.forward(wordTokens(words), { ...options, materialiseBytes: 0 });
    assert.equal(lazy.attentions, undefined);
    assertRowsMatch(lazy, full.attentions!, 1, 4, 'attention layer');
  });

  for (const withPadding of [false, true]) {
    it(`GPT-2 (gpt2_tiny) tiled${withPadding ? ' with padding (causal + padding)' : ''}: hidden states and rows`, async () => {
      const fx = loadFixture('gpt2_tiny');
      const checkpoint = readGpt2(await fixtureTensors(fx.weights_file), '', parseConfigJson(JSON.stringify(fx.hf_config_json)), fx.weights_file);
      const ids: number[] = fx.input_ids;
      const attentionMask = withPadding ? ids.map((_, i) => (i === 2 ? 0 : 1)) : undefined;
      const full = await gpt2Forward(checkpoint, ids, { attentionMask });
      let checkpoints = 0;
      const lazy = await gpt2Forward(checkpoint, ids, { attentionMask, materialiseBytes: 0, checkpoint: async () => void checkpoints++ });
      const nLayer = checkpoint.config.nLayer;
      const nHead = checkpoint.config.nHead;
      assert.equal(checkpoints, nLayer + nLayer * nHead, 'between blocks, and between heads on the tiled path');
      assert.ok(
        lazy.layers.every((l) => l.probs === undefined),
        'the tiled path keeps no probabilities',
      );
      for (let l = 0; l < nLayer; l++) {
        // The flashAttention path gives the materialised path's hidden states ...
        assertClose(lazy.attnOutputs[l], full.attnOutputs[l], { atol: 1e-5, label: `attn_outputs[${l}] tiled vs materialised` });
        assertClose(lazy.blockOutputs[l], full.blockOutputs[l], { atol: 1e-5, label: `block_outputs[${l}] tiled vs materialised` });
        // ... and without padding, HF's.
        if (!withPadding)
          assertClose(lazy.blockOutputs[l], fixtureSlice(fx.expected.block_outputs, [l, 0]), { atol: HIDDEN, label: `block_outputs[${l}] vs HF` });
      }
      if (!withPadding) assertClose(lazy.lastHidden, fixtureSlice(fx.expected.last_hidden_state, [0]), { atol: HIDDEN, label: 'last_hidden_state vs HF' });
      const model = loadModel(await fixtureTensors(fx.weights_file), { fileName: fx.weights_file, configJson: JSON.stringify(fx.hf_config_json) });
      const fullResult = await model.forward(idTokens(ids), { attentionMask });
      const lazyResult = await model.forward(idTokens(ids), { attentionMask, materialiseBytes: 0 });
      assert.equal(lazyResult.attentions, undefined);
      assert.equal(lazyResult.causal, true, 'GPT-2 is causal by construction');
      assertRowsMatch(lazyResult, fullResult.attentions!, nLayer, nHead, 'GPT-2');
      if (!withPadding) {
        const T = ids.length;
        for (let l = 0; l < nLayer; l++) {
          for (let h = 0; h < nHead; h++) {
            assertClose(lazyResult.headAttentionRows(l, h, 0, T), fixtureSlice(fx.expected.attentions, [l, 0, h]).data, {
              atol: 1e-5,
              label: `rows ${l}.${h} vs HF`,
            });
          }
        }
      }
    });
  }

  it('BERT (bert_tiny) tiled, padded batch element: hidden states vs HF and rows', async () => {
    const fx = loadFixture('bert_tiny');
    const configJson = JSON.stringify({ model_type: 'bert', ...fx.config });
    const tensors = await fixtureTensors('bert_tiny.safetensors');
    const checkpoint = readBert(tensors, '', parseConfigJson(configJson), 'bert_tiny.safetensors');
    const ids: number[] = fx.input_ids[0];
    const mask: number[] = fx.attention_mask[0];
    const lazy = await bertForward(checkpoint, ids, { attentionMask: mask, materialiseBytes: 0 });
    const nLayer = checkpoint.config.nLayer;
    for (let l = 0; l <= nLayer; l++)
      assertClose(lazy.hiddenStates[l], fixtureSlice(fx.expected.hidden_states, [l, 0]), { atol: HIDDEN, label: `hidden_states[${l}]` });
    const model = loadModel(tensors, { fileName: 'bert_tiny.safetensors', configJson });
    const full = await model.forward(idTokens(ids), { attentionMask: mask });
    const rows = await model.forward(idTokens(ids), { attentionMask: mask, materialiseBytes: 0, causal: true });
    assert.equal(rows.causal, false, 'BERT ignores a causal request and says so');
    assertRowsMatch(rows, full.attentions!, nLayer, checkpoint.config.nHead, 'BERT');
  });

  it('writes rows into a caller’s buffer when given one', async () => {
    const lazy = await createSeededModel({ seed: 4, heads: 2, dModel: 8 }).forward(wordTokens(words), {
      causal: true,
      attentionMask: padding,
      materialiseBytes: 0,
    });
    const out = new Float32Array(5 * T).fill(NaN);
    const rows = lazy.headAttentionRows(0, 1, 2, 6, out);
    assert.equal(rows.buffer, out.buffer, 'a view of the buffer');
    assert.equal(rows.length, 4 * T);
    assert.deepEqual(Array.from(rows), Array.from(lazy.headAttentionRows(0, 1, 2, 6)));
    assert.ok(Number.isNaN(out[4 * T]), 'nothing written past the rows');
    assert.throws(() => lazy.headAttentionRows(0, 1, 0, 6, out), /out holds 60 floats, 6×12 are needed/);
  });

  it('refuses rows and heads that do not exist', async () => {
    const lazy = await createSeededModel({ seed: 0, heads: 2, dModel: 8 }).forward(wordTokens(['a', 'b', 'c']), { materialiseBytes: 0 });
    assert.throws(() => lazy.headAttentionRows(0, 0, 2, 2), /query rows 2\.\.2 are not a non-empty range within 0\.\.3/);
    assert.throws(() => lazy.headAttentionRows(0, 0, 0, 4), /query rows 0\.\.4/);
    assert.throws(() => lazy.headAttentionRows(0, 0, -1, 1), /query rows -1\.\.1/);
    assert.throws(() => lazy.headAttentionRows(0, 0, 0.5, 1), /query rows 0\.5\.\.1/);
    assert.throws(() => lazy.headAttentionRows(0, 2, 0, 1), /no layer 0 head 2 \(1 layers × 2 heads\)/);
    assert.throws(() => lazy.headAttentionRows(1, 0, 0, 1), /no layer 1 head 0/);
  });
});

describe('lazy attention helpers', () => {
  /** Deterministic (H, T, d) values without a generator: sines of the index. */
  const filled = (H: number, T: number, d: number, phase: number): Tensor =>
    tensor(
      Float32Array.from({ length: H * T * d }, (_, i) => Math.sin(i * 0.37 + phase) * 1.5),
      [H, T, d],
    );

  it('allowedRows gives the rows of the (T, T) mask for every mask kind', () => {
    const T = 7;
    const pad = [1, 1, 0, 1, 1, 0, 1];
    for (const options of [{}, { causal: true }, { attentionMask: pad }, { causal: true, attentionMask: pad }]) {
      const spec = maskSpec(T, options);
      const whole = attendMask(T, options);
      if (!whole) {
        assert.equal(allowedRows(spec, T, 0, T), undefined);
        continue;
      }
      for (const [r0, r1] of [
        [0, T],
        [2, 5],
        [6, 7],
      ]) {
        assert.deepEqual(Array.from(allowedRows(spec, T, r0, r1)!), Array.from(whole.data.subarray(r0 * T, r1 * T)), JSON.stringify({ options, r0, r1 }));
      }
    }
    assert.throws(() => maskSpec(3, { attentionMask: [1, 1] }), /attention mask has 2 entries but there are 3 tokens/);
  });

  it('the tiled layer (flashAttention) gives the materialised layer’s output, across mask blocks of 256 rows', async () => {
    const [H, T, d] = [2, 300, 4];
    const q = filled(H, T, d, 0),
      k = filled(H, T, d, 1),
      v = filled(H, T, d, 2);
    const pad = Array.from({ length: T }, (_, j) => (j % 7 === 3 ? 0 : 1));
    for (const options of [{}, { causal: true }, { attentionMask: pad }, { causal: true, attentionMask: pad }]) {
      const mask = maskSpec(T, options);
      const full = await attendLayer(q, k, v, { mask, scale: 0.5, materialise: true, needContext: true });
      let checkpoints = 0;
      const tiled = await attendLayer(q, k, v, { mask, scale: 0.5, materialise: false, needContext: true, checkpoint: async () => void checkpoints++ });
      assert.equal(tiled.probs, undefined);
      assert.equal(checkpoints, H, 'one checkpoint per head');
      assertClose(tiled.context!, full.context!, { atol: 1e-5, label: JSON.stringify(Object.keys(options)) });
    }
    // A single-layer model that only shows weights computes nothing on the tiled path.
    const none = await attendLayer(q, k, v, { mask: maskSpec(T, {}), scale: 0.5, materialise: false, needContext: false });
    assert.deepEqual(none, {});
  });

  it('projects straight into the head layout with the numbers of splitHeads(linear(...)), across row chunks', () => {
    const [T, E, D, H] = [700, 12, 8, 2];
    const x = tensor(
      Float32Array.from({ length: T * E }, (_, i) => Math.sin(i * 0.11)),
      [T, E],
    );
    const w = tensor(
      Float32Array.from({ length: D * E }, (_, i) => Math.cos(i * 0.7) / 3),
      [D, E],
    );
    const b = tensor(
      Float32Array.from({ length: D }, (_, i) => i / 10 - 0.3),
      [D],
    );
    for (const bias of [b, undefined]) {
      const direct = linearToHeads(x, w, bias, H, 'test');
      const reference = splitHeads(linear(x, w, bias), H);
      assert.deepEqual(direct.shape, [H, T, D / H]);
      assert.deepEqual(Array.from(direct.data), Array.from(reference.data), `bias ${bias ? 'given' : 'none'}`);
    }
    assert.throws(() => linearToHeads(x, w, b, 3, 'seeded model q'), /seeded model q: 3 heads do not divide 8 output features/);
    assert.throws(
      () => linearToHeads(x, tensor(new Float32Array(8 * 5), [8, 5]), b, 2, 'q'),
      /q: input \[700, 12\] does not match weight \[8, 5\] \(\[out, in\]\)/,
    );
  });

  it('materialises while every weight fits in 64 MiB', () => {
    assert.equal(MATERIALISED_ATTENTION_BYTES, 64 * 2 ** 20);
    assert.equal(shouldMaterialise(1, 4, 2048, MATERIALISED_ATTENTION_BYTES), true); // exactly 64 MiB
    assert.equal(shouldMaterialise(1, 4, 2049, MATERIALISED_ATTENTION_BYTES), false);
    assert.equal(shouldMaterialise(12, 12, 341), true);
    assert.equal(shouldMaterialise(12, 12, 342), false);
    assert.equal(shouldMaterialise(1, 1, 1, 0), false);
  });
});
