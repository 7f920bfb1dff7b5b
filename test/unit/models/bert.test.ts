// BERT on the engine against real HF transformers BertModel (bert_tiny in test/fixtures/torch), including
// the padded batch element: each batch element runs on its own with its attention_mask row.
import { strict as assert } from 'node:assert';
import type { Tensor } from '../../../src/engine/tensor';
import { bertForward, loadModel, parseConfigJson, readBert } from '../../../src/models';
import { assertClose, loadFixture } from '../helpers/fixtures';
import { fixtureSlice, fixtureTensors, idTokens, referenceProbs, withPrefix, wordTokens } from './helpers';

const ATTN = 1e-5;
const HIDDEN = 1e-4;

describe('BERT forward vs HF transformers: bert_tiny', () => {
  const fx = loadFixture('bert_tiny');
  // The fixture's config uses HF's field names, so it is a config.json as HF writes it.
  const configJson = JSON.stringify({ model_type: 'bert', ...fx.config });
  const batch: number[][] = fx.input_ids;
  const masks: number[][] = fx.attention_mask;
  const nLayer: number = fx.config.num_hidden_layers;
  const H: number = fx.config.num_attention_heads;
  const T = batch[0].length;

  let tensors: Map<string, Tensor>;
  before(async () => {
    tensors = await fixtureTensors('bert_tiny.safetensors');
  });

  for (let b = 0; b < 2; b++) {
    it(`reproduces attentions, hidden_states and last_hidden_state for batch element ${b}${b === 0 ? ' (padded)' : ''}`, async () => {
      const checkpoint = readBert(tensors, '', parseConfigJson(configJson), 'bert_tiny.safetensors');
      const out = await bertForward(checkpoint, batch[b], { attentionMask: masks[b] });
      assert.equal(out.hiddenStates.length, nLayer + 1);
      for (let l = 0; l <= nLayer; l++) {
        assertClose(out.hiddenStates[l], fixtureSlice(fx.expected.hidden_states, [l, b]), { atol: HIDDEN, label: `hidden_states[${l}][${b}]` });
      }
      for (let l = 0; l < nLayer; l++) {
        assertClose(out.layers[l].probs!, fixtureSlice(fx.expected.attentions, [l, b]), { atol: ATTN, label: `attentions[${l}][${b}]` });
      }
      assertClose(out.hiddenStates[nLayer], fixtureSlice(fx.expected.last_hidden_state, [b]), { atol: HIDDEN, label: 'last_hidden_state' });
    });
  }

  it('loadModel → forward: padded keys get weight 0, headInputs reproduce every head', async () => {
    const model = loadModel(tensors, { fileName: 'bert_tiny.safetensors', configJson });
    assert.equal(model.info.family, 'bert');
    assert.equal(model.info.causal, false);
    assert.deepEqual([model.info.nLayer, model.info.nHead, model.info.dModel, model.info.headDim], [nLayer, H, 16, 8]);
    const result = await model.forward(idTokens(batch[0]), { attentionMask: masks[0] });
    for (let l = 0; l < nLayer; l++) {
      for (let h = 0; h < H; h++) {
        const expected = fixtureSlice(fx.expected.attentions, [l, 0, h]);
        const got = result.attentions!.subarray((l * H + h) * T * T, (l * H + h + 1) * T * T);
        assertClose(got, expected.data, { atol: ATTN, label: `layer ${l} head ${h}` });
        for (let i = 0; i < T; i++) for (const j of [6, 7]) assert.equal(got[i * T + j], 0, `padded key ${j} in row ${i}`);
        const { q, k, allowed } = result.headInputs(l, h);
        assert.ok(allowed, 'the padding mask is reported');
        assertClose(referenceProbs(q, k, 1 / Math.sqrt(8), allowed), expected.data, { atol: ATTN, label: `headInputs ${l}.${h}` });
      }
    }
    // Without padding there is no mask to report.
    const unpadded = await model.forward(idTokens(batch[1]));
    assert.equal(unpadded.headInputs(0, 0).allowed, undefined);
    assertClose(unpadded.attentions!.subarray(0, H * T * T), fixtureSlice(fx.expected.attentions, [0, 1]).data, { atol: ATTN, label: 'layer 0, element 1' });
  });

  it('reads BertFor…-style names (bert. prefix, heads beside it) and gamma/beta LayerNorm names', async () => {
    const renamed = new Map<string, Tensor>();
    for (const [name, t] of withPrefix(tensors, 'bert.'))
      renamed.set(name.replace(/LayerNorm\.weight$/, 'LayerNorm.gamma').replace(/LayerNorm\.bias$/, 'LayerNorm.beta'), t);
    renamed.set('cls.predictions.bias', { data: new Float32Array(64), shape: [64] });
    const model = loadModel(renamed, { fileName: 'pytorch_model.bin', configJson });
    assert.match(model.info.detail, /names prefixed 'bert\.'/);
    const result = await model.forward(idTokens(batch[0]), { attentionMask: masks[0] });
    assertClose(result.attentions!.subarray(0, H * T * T), fixtureSlice(fx.expected.attentions, [0, 0]).data, { atol: ATTN, label: 'layer 0' });
  });

  it('without a tokenizer.json it says that only ids work; with one it uses it', async () => {
    const model = loadModel(tensors, { fileName: 'bert_tiny.safetensors', configJson });
    assert.match(model.info.detail, /without a tokenizer\.json, so it can only run on token ids \(--ids/);
    await assert.rejects(
      model.forward(wordTokens(['hello', 'world'])),
      /token 0 \("hello"\) has no vocabulary id; this BERT checkpoint came without a tokenizer\.json/,
    );
    const withTok = loadModel(tensors, { fileName: 'bert_tiny.safetensors', configJson, tokenizerJson: '{}' });
    assert.deepEqual(withTok.tokenizer, { kind: 'tokenizer-json', json: '{}' });
  });

  it('checkpoint() runs between layers', async () => {
    const model = loadModel(tensors, { fileName: 'bert_tiny.safetensors', configJson });
    let n = 0;
    await model.forward(idTokens(batch[1]), { checkpoint: async () => void n++ });
    assert.equal(n, nLayer);
  });

  it('refuses what it cannot run faithfully, naming the problem', async () => {
    const cfg = (patch: object) => JSON.stringify({ ...fx.config, ...patch });
    assert.throws(
      () => loadModel(tensors, { fileName: 'm', configJson: cfg({ model_type: 'roberta' }) }),
      /model_type 'roberta' needs "pad_token_id" \(its positions start after it\)/,
    );
    assert.throws(
      () => loadModel(tensors, { fileName: 'm', configJson: cfg({ model_type: 'deberta' }) }),
      /model_type is 'deberta' but m has BERT tensor names; only model_type 'bert', 'roberta', 'xlm-roberta', 'camembert' are supported/,
    );
    assert.throws(
      () => loadModel(tensors, { fileName: 'm', configJson: cfg({ position_embedding_type: 'relative_key' }) }),
      /position_embedding_type 'relative_key' is not supported/,
    );
    assert.throws(() => loadModel(tensors, { fileName: 'm', configJson: cfg({ hidden_size: 32 }) }), /hidden_size is 32 but m's word embeddings are 64×16/);
    const model = loadModel(tensors, { fileName: 'm', configJson });
    await assert.rejects(model.forward(idTokens(new Array(33).fill(1))), /33 tokens but the model has only 32 positions/);
    await assert.rejects(model.forward(idTokens([2, 64])), /token id 64 at position 1 is out of range/);
    const broken = new Map(tensors);
    broken.delete('encoder.layer.1.output.LayerNorm.bias');
    assert.throws(
      () => loadModel(broken, { fileName: 'm' }),
      /m: tensor 'encoder\.layer\.1\.output\.LayerNorm\.bias' is missing \(a BERT checkpoint needs it, shape \[16\]\)/,
    );
  });
});
