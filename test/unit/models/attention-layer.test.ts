// A bare attention layer's weights (nn.MultiheadAttention state_dict and q/k/v layouts) on seeded embeddings.
import { strict as assert } from 'node:assert';
import { multiheadAttention } from '../../../src/engine';
import { seededAttentionWeights } from '../../../src/engine/random';
import type { Tensor } from '../../../src/engine/tensor';
import { attendMask, attentionLayerForward, findAttentionLayer, loadModel, readAttentionLayer, seededEmbeddings } from '../../../src/models';
import { assertClose, loadFixture, toFloat } from '../helpers/fixtures';
import { fixtureTensors, wordTokens } from './helpers';

const fx = loadFixture('weight_files');
const config4 = JSON.stringify({ num_heads: 4 });

describe('attention layer from nn.MultiheadAttention weights', () => {
  for (const file of ['mha_state_dict.pt', 'mha_weights.npz']) {
    it(`${file}: reproduces the module's per-head weights on the fixture input with its key_padding_mask`, async () => {
      const tensors = await fixtureTensors(file);
      const found = findAttentionLayer(tensors)!;
      assert.ok(found, 'the layer is found');
      const w = readAttentionLayer(tensors, found, JSON.parse(JSON.stringify({ num_heads: 4 })), file);
      assert.deepEqual([w.embedDim, w.projDim, w.nHead, w.hasOutProj], [16, 16, 4, true]);
      // This file's tensors carry no dtype field (all float32); the mask is a plain list (True = padding).
      const x = toFloat({ dtype: 'float32', ...fx.inputs.x }); // (1, 6, 16)
      const ignore: boolean[] = fx.inputs.key_padding_mask;
      const allowed = attendMask(6, { attentionMask: ignore.map((p) => (p ? 0 : 1)) });
      const layer = attentionLayerForward(w, { data: x.data, shape: [6, 16] }, allowed);
      assertClose(layer.probs.data, toFloat({ dtype: 'float32', ...fx.expected.weights }).data, { label: 'per-head weights' });
    });
  }

  it('a lone [3E, E] matrix (a .npy, named after its file) is read as in_proj_weight', async () => {
    const reference = await fixtureTensors('mha_state_dict.pt');
    const x: Tensor = { data: Float32Array.from({ length: 4 * 16 }, (_, i) => Math.cos(i)), shape: [4, 16] };
    const noBias = new Map([['in_proj_weight', reference.get('in_proj_weight')!]]); // the fixture's biases are zero
    const expected = attentionLayerForward(readAttentionLayer(noBias, findAttentionLayer(noBias)!, { num_heads: 4 }, 'ref'), x, undefined);
    for (const file of ['in_proj_weight.npy', 'in_proj_weight_f64_fortran.npy']) {
      const tensors = await fixtureTensors(file);
      const model = loadModel(tensors, { fileName: file, configJson: config4 });
      assert.equal(model.info.family, 'attention-layer', file);
      assert.match(model.info.detail, /No output projection in the file/);
      const layer = attentionLayerForward(readAttentionLayer(tensors, findAttentionLayer(tensors)!, { num_heads: 4 }, file), x, undefined);
      assertClose(layer.probs, expected.probs, { label: file });
    }
    // Any other lone tensor is not an attention layer.
    assert.throws(
      () => loadModel(new Map([['w', { data: new Float32Array(32), shape: [4, 8] }]]), { fileName: 'w.npy' }),
      /w\.npy: 1 tensor, none named like GPT-2/,
    );
  });

  it('loadModel: seeded embeddings (the seeded model’s recipe), words tokenizer, causal on request', async () => {
    const tensors = await fixtureTensors('mha_state_dict.pt');
    const model = loadModel(tensors, { fileName: 'mha_state_dict.pt', configJson: config4, seed: 7 });
    assert.equal(model.info.family, 'attention-layer');
    assert.deepEqual(model.tokenizer, { kind: 'words' });
    assert.deepEqual([model.info.nLayer, model.info.nHead, model.info.dModel, model.info.headDim], [1, 4, 16, 4]);
    assert.match(model.info.detail, /torch\.manual_seed\(7\); torch\.randn\(n_distinct, 16\)/);
    const words = ['the', 'cat', 'saw', 'the', 'dog'];
    const T = words.length;
    // The embeddings are exactly the seeded model's for the same seed and tokens.
    const x = seededEmbeddings(7, 16, words);
    assert.deepEqual(Array.from(x.data), Array.from(seededAttentionWeights({ seed: 7, dModel: 16, numHeads: 4, tokens: words }).embeddings.data));
    // The attention is nn.MultiheadAttention's on those inputs (the engine's MHA, an independent path).
    const result = await model.forward(wordTokens(words));
    const mha = multiheadAttention(
      { data: x.data, shape: [1, T, 16] },
      { data: x.data, shape: [1, T, 16] },
      { data: x.data, shape: [1, T, 16] },
      {
        numHeads: 4,
        inProjWeight: tensors.get('in_proj_weight')!,
        inProjBias: tensors.get('in_proj_bias')!,
        outProjWeight: tensors.get('out_proj.weight')!,
        outProjBias: tensors.get('out_proj.bias')!,
      },
      { averageAttnWeights: false },
    );
    assertClose(result.attentions!, mha.weights!.data, { label: 'vs multiheadAttention' });
    // Causal: the future is masked and the reported mask says so.
    const causal = await model.forward(wordTokens(words), { causal: true });
    for (let h = 0; h < 4; h++) for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) assert.equal(causal.attentions![(h * T + i) * T + j], 0);
    assert.equal(causal.headInputs(0, 1).allowed![1], 0);
    assert.equal(result.headInputs(0, 1).allowed, undefined);
    // Another seed, other embeddings, other weights.
    const other = await loadModel(tensors, { fileName: 'mha_state_dict.pt', configJson: config4, seed: 8 }).forward(wordTokens(words));
    assert.notDeepEqual(Array.from(other.attentions!), Array.from(result.attentions!));
  });

  it('finds q_proj/k_proj/v_proj, query/key/value and W_q/W_k/W_v layouts, under a prefix, and picks the first of several', async () => {
    const mha = await fixtureTensors('mha_state_dict.pt');
    const packed = mha.get('in_proj_weight')!; // (48, 16) = [W_q; W_k; W_v]
    const part = (i: number): Tensor => ({ data: packed.data.slice(i * 256, (i + 1) * 256), shape: [16, 16] });
    const x: Tensor = { data: Float32Array.from({ length: 5 * 16 }, (_, i) => Math.sin(i * 0.7)), shape: [5, 16] };
    const reference = attentionLayerForward(readAttentionLayer(mha, findAttentionLayer(mha)!, { num_heads: 4 }, 'mha'), x, undefined);
    const layouts: Array<[string, Map<string, Tensor>, RegExp]> = [
      [
        'q_proj',
        new Map([
          ['layers.1.attn.q_proj.weight', part(0)],
          ['layers.1.attn.k_proj.weight', part(1)],
          ['layers.1.attn.v_proj.weight', part(2)],
          ['layers.0.attn.q_proj.weight', part(0)],
          ['layers.0.attn.k_proj.weight', part(1)],
          ['layers.0.attn.v_proj.weight', part(2)],
          ['layers.0.attn.out_proj.weight', part(0)],
        ]),
        /at 'layers\.0\.attn'.*1 more attention layer \(layers\.1\.attn\.\)/,
      ],
      [
        'query/key/value',
        new Map([
          ['query.weight', part(0)],
          ['key.weight', part(1)],
          ['value.weight', part(2)],
        ]),
        /query \/ key \/ value/,
      ],
      [
        'W_q',
        new Map([
          ['W_q', part(0)],
          ['W_k', part(1)],
          ['W_v', part(2)],
          ['W_o', part(1)],
        ]),
        /W_q \/ W_k \/ W_v matrices/,
      ],
    ];
    for (const [what, tensors, detail] of layouts) {
      const model = loadModel(tensors, { fileName: what, configJson: config4 });
      assert.match(model.info.detail, detail, what);
      const found = findAttentionLayer(tensors)!;
      const layer = attentionLayerForward(readAttentionLayer(tensors, found, { num_heads: 4 }, what), x, undefined);
      // No biases in these files and zero biases in the fixture module: the same weights.
      assertClose(layer.probs, reference.probs, { label: what });
    }
  });

  it('rejects malformed layers with the tensor name and the expected shape', () => {
    const bad = new Map<string, Tensor>([['in_proj_weight', { data: new Float32Array(40), shape: [10, 4] }]]);
    assert.throws(() => loadModel(bad, { fileName: 'bad.pt' }), /bad\.pt: tensor 'in_proj_weight' has 10 rows, not a multiple of 3/);
    const sq = (n: number): Tensor => ({ data: new Float32Array(n * n), shape: [n, n] });
    const mismatch = new Map([
      ['q_proj.weight', sq(8)],
      ['k_proj.weight', sq(4)],
      ['v_proj.weight', sq(8)],
    ]);
    assert.throws(() => loadModel(mismatch, { fileName: 'bad.pt' }), /tensor 'k_proj\.weight' has shape \[4, 4\] but an attention layer needs \[8, 8\]/);
    const packed = new Map([['in_proj_weight', { data: new Float32Array(48 * 16), shape: [48, 16] }]]);
    assert.throws(() => loadModel(packed, { fileName: 'a.pt', configJson: '{"num_heads": 5}' }), /5 heads do not divide the model width 16/);
  });
});
