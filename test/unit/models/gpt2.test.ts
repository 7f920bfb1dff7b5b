// GPT-2 on the engine against real HF transformers (gpt2_tiny, gpt2_hf_init in test/fixtures/torch).
import { strict as assert } from 'node:assert';
import { gpt2Forward, loadModel, parseConfigJson, readGpt2 } from '../../../src/models';
import { assertClose, loadFixture, toFloat } from '../helpers/fixtures';
import { fixtureSlice, fixtureTensors, idTokens, referenceProbs, withPrefix, wordTokens } from './helpers';

const ATTN = 1e-5;
const HIDDEN = 1e-4;

for (const set of ['gpt2_tiny', 'gpt2_hf_init'] as const) {
  describe(`GPT-2 forward vs HF transformers: ${set}`, () => {
    const fx = loadFixture(set);
    const configJson = JSON.stringify(fx.hf_config_json);
    const ids: number[] = fx.input_ids;
    const nLayer: number = fx.config.n_layer;

    it('reproduces embeddings, attentions, attn_outputs, block_outputs, last_hidden_state and logits', async () => {
      const tensors = await fixtureTensors(fx.weights_file);
      const checkpoint = readGpt2(tensors, '', parseConfigJson(configJson), fx.weights_file);
      const out = await gpt2Forward(checkpoint, ids, { logits: true });
      assertClose(out.embeddings, fixtureSlice(fx.expected.embeddings, [0]), { atol: HIDDEN, label: 'embeddings' });
      for (let l = 0; l < nLayer; l++) {
        assertClose(out.layers[l].probs!, fixtureSlice(fx.expected.attentions, [l, 0]), { atol: ATTN, label: `attentions[${l}]` });
        assertClose(out.attnOutputs[l], fixtureSlice(fx.expected.attn_outputs, [l, 0]), { atol: HIDDEN, label: `attn_outputs[${l}]` });
        assertClose(out.blockOutputs[l], fixtureSlice(fx.expected.block_outputs, [l, 0]), { atol: HIDDEN, label: `block_outputs[${l}]` });
      }
      assertClose(out.lastHidden, fixtureSlice(fx.expected.last_hidden_state, [0]), { atol: HIDDEN, label: 'last_hidden_state' });
      assertClose(out.logits!, fixtureSlice(fx.expected.logits, [0]), { atol: HIDDEN, label: 'logits' });
      // HF's hidden_states tuple: embeddings, block outputs, and the last one after ln_f.
      assertClose(out.embeddings, fixtureSlice(fx.expected.hf_hidden_states, [0, 0]), { atol: HIDDEN, label: 'hf_hidden_states[0]' });
      for (let l = 0; l < nLayer - 1; l++) {
        assertClose(out.blockOutputs[l], fixtureSlice(fx.expected.hf_hidden_states, [l + 1, 0]), { atol: HIDDEN, label: `hf_hidden_states[${l + 1}]` });
      }
      assertClose(out.lastHidden, fixtureSlice(fx.expected.hf_hidden_states, [nLayer, 0]), { atol: HIDDEN, label: 'hf_hidden_states[-1]' });
    });

    it('loadModel → forward gives every layer and head in one (nLayer, nHead, T, T) array', async () => {
      const model = loadModel(await fixtureTensors(fx.weights_file), { fileName: fx.weights_file, configJson });
      assert.equal(model.info.family, 'gpt2');
      assert.equal(model.info.causal, true);
      assert.deepEqual([model.info.nLayer, model.info.nHead, model.info.dModel, model.info.headDim], [nLayer, fx.config.n_head, 16, 8]);
      assert.deepEqual(model.tokenizer, { kind: 'gpt2' });
      const result = await model.forward(idTokens(ids));
      const expected = toFloat(fx.expected.attentions); // (nLayer, 1, H, T, T): the same order as (nLayer, H, T, T)
      assertClose(result.attentions!, expected.data, { atol: ATTN, label: 'attentions' });
    });
  });
}

describe('GPT-2 model details', () => {
  const fx = loadFixture('gpt2_tiny');
  const configJson = JSON.stringify(fx.hf_config_json);
  const ids: number[] = fx.input_ids;
  const T = ids.length;

  it('headInputs gives the q, k, v and causal mask that produce each head’s weights', async () => {
    const model = loadModel(await fixtureTensors('gpt2_tiny.safetensors'), { fileName: 'gpt2_tiny.safetensors', configJson });
    const result = await model.forward(idTokens(ids));
    const expected = toFloat(fx.expected.attentions);
    for (let l = 0; l < 2; l++) {
      for (let h = 0; h < 2; h++) {
        const { q, k, v, allowed } = result.headInputs(l, h);
        assert.deepEqual(
          [q.shape, k.shape, v.shape],
          [
            [T, 8],
            [T, 8],
            [T, 8],
          ],
        );
        assert.ok(allowed, 'GPT-2 reports its causal mask');
        for (let i = 0; i < T; i++) for (let j = 0; j < T; j++) assert.equal(allowed[i * T + j], j <= i ? 1 : 0);
        const probs = referenceProbs(q, k, 1 / Math.sqrt(8), allowed);
        assertClose(probs, expected.data.subarray((l * 2 + h) * T * T, (l * 2 + h + 1) * T * T), { atol: ATTN, label: `head ${l}.${h}` });
      }
    }
    assert.throws(() => result.headInputs(2, 0), /no layer 2 head 0 \(2 layers × 2 heads\)/);
    assert.throws(() => result.headInputs(0, -1), /no layer 0 head -1/);
  });

  it('reads the GPT2LMHeadModel layout (transformer. prefix, lm_head.weight) the same way', async () => {
    const base = await fixtureTensors('gpt2_tiny.safetensors');
    const prefixed = withPrefix(base, 'transformer.');
    prefixed.set('lm_head.weight', base.get('wte.weight')!);
    const model = loadModel(prefixed, { fileName: 'pytorch_model.bin', configJson });
    assert.match(model.info.detail, /names prefixed 'transformer\.'/);
    const result = await model.forward(idTokens(ids));
    assertClose(result.attentions!, toFloat(fx.expected.attentions).data, { atol: ATTN, label: 'attentions' });
    const checkpoint = readGpt2(prefixed, 'transformer.', parseConfigJson(configJson), 'pytorch_model.bin');
    assert.ok(checkpoint.weights.lmHead, 'lm_head.weight is picked up');
    const out = await gpt2Forward(checkpoint, ids, { logits: true });
    assertClose(out.logits!, fixtureSlice(fx.expected.logits, [0]), { atol: HIDDEN, label: 'logits via lm_head.weight' });
  });

  it('calls checkpoint() between blocks and reports progress', async () => {
    const model = loadModel(await fixtureTensors('gpt2_tiny.safetensors'), { fileName: 'gpt2_tiny.safetensors', configJson });
    let checkpoints = 0;
    const progress: number[] = [];
    await model.forward(idTokens(ids), { checkpoint: async () => void checkpoints++, progress: (f) => progress.push(f) });
    assert.equal(checkpoints, 2);
    assert.deepEqual(progress, [0.5, 1]);
    // A checkpoint that throws (cancellation) stops the forward.
    await assert.rejects(
      model.forward(idTokens(ids), {
        checkpoint: async () => {
          throw new Error('cancelled');
        },
      }),
      /cancelled/,
    );
  });

  it('masks padded keys on top of the causal mask when given an attention mask', async () => {
    const model = loadModel(await fixtureTensors('gpt2_tiny.safetensors'), { fileName: 'gpt2_tiny.safetensors', configJson });
    const mask = ids.map((_, i) => (i === 2 ? 0 : 1));
    const result = await model.forward(idTokens(ids), { attentionMask: mask });
    for (let l = 0; l < 2; l++) {
      for (let h = 0; h < 2; h++) {
        for (let i = 0; i < T; i++) {
          const row = result.attentions!.subarray(((l * 2 + h) * T + i) * T, ((l * 2 + h) * T + i + 1) * T);
          assert.equal(row[2], 0, `key 2 is padding (layer ${l} head ${h} row ${i})`);
          for (let j = i + 1; j < T; j++) assert.equal(row[j], 0);
          const sum = row.reduce((s, x) => s + x, 0);
          assert.ok(Math.abs(sum - 1) < 1e-5, `row ${i} sums to ${sum}`);
        }
      }
    }
  });

  it('without config.json assumes heads by the documented rule and says so', async () => {
    const model = loadModel(await fixtureTensors('gpt2_tiny.safetensors'), { fileName: 'gpt2_tiny.safetensors' });
    assert.equal(model.info.nHead, 1); // n_embd 16 < 64: one head
    assert.match(model.info.detail, /1 head of 16 dims \(assumed: no config\.json gives the number of heads/);
    assert.match(model.info.name, /\(2 layers × 1 head, d_model 16\)/);
  });

  it('uses a given tokenizer.json instead of GPT-2 BPE', async () => {
    const model = loadModel(await fixtureTensors('gpt2_tiny.safetensors'), { fileName: 'gpt2_tiny.safetensors', configJson, tokenizerJson: '{"model":{}}' });
    assert.deepEqual(model.tokenizer, { kind: 'tokenizer-json', json: '{"model":{}}' });
    assert.equal(model.info.tokenizer, 'tokenizer.json');
  });

  describe('bad input gives an Error that names the problem', () => {
    it('ids out of range, too many tokens, no tokens, tokens without ids', async () => {
      const model = loadModel(await fixtureTensors('gpt2_tiny.safetensors'), { fileName: 'gpt2_tiny.safetensors', configJson });
      await assert.rejects(model.forward(idTokens([1, 64])), /token id 64 at position 1 is out of range \(the vocabulary has ids 0\.\.63\)/);
      await assert.rejects(model.forward(idTokens([-1])), /token id -1 at position 0 is out of range/);
      await assert.rejects(model.forward(idTokens(new Array(33).fill(1))), /33 tokens but the model has only 32 positions/);
      await assert.rejects(model.forward([]), /no tokens/);
      await assert.rejects(model.forward(wordTokens(['hello'])), /token 0 \("hello"\) has no vocabulary id/);
      await assert.rejects(model.forward(idTokens([1, 2]), { attentionMask: [1] }), /attention mask has 1 entries but there are 2 tokens/);
    });

    it('a missing tensor or a wrong shape', async () => {
      const tensors = await fixtureTensors('gpt2_tiny.safetensors');
      const missing = new Map(tensors);
      missing.delete('h.1.ln_2.bias');
      assert.throws(
        () => loadModel(missing, { fileName: 'm.safetensors', configJson }),
        /m\.safetensors: tensor 'h\.1\.ln_2\.bias' is missing \(a GPT-2 checkpoint needs it, shape \[16\]\)/,
      );
      const reshaped = new Map(tensors);
      const w = tensors.get('h.0.attn.c_attn.weight')!;
      reshaped.set('h.0.attn.c_attn.weight', { data: w.data, shape: [48, 16] }); // nn.Linear layout: wrong for Conv1D
      assert.throws(
        () => loadModel(reshaped, { fileName: 'm.safetensors', configJson }),
        /'h\.0\.attn\.c_attn\.weight' has shape \[48, 16\] but a GPT-2 checkpoint needs \[16, 48\]/,
      );
      const gap = new Map([...tensors].map(([n, t]) => [n.replace(/^h\.1\./, 'h.2.'), t]));
      assert.throws(() => loadModel(gap, { fileName: 'm.safetensors' }), /m\.safetensors: GPT-2 blocks are numbered 0, 2; block 1 is missing/);
    });

    it('config.json that contradicts the tensors or is malformed', async () => {
      const tensors = await fixtureTensors('gpt2_tiny.safetensors');
      const cfg = (patch: object) => JSON.stringify({ ...fx.hf_config_json, ...patch });
      assert.throws(() => loadModel(tensors, { fileName: 'm', configJson: cfg({ n_head: 3 }) }), /config\.json: 3 heads do not divide the model width 16/);
      assert.throws(() => loadModel(tensors, { fileName: 'm', configJson: cfg({ n_head: 0 }) }), /"n_head" must be a positive integer, got 0/);
      assert.throws(() => loadModel(tensors, { fileName: 'm', configJson: cfg({ n_layer: 3 }) }), /n_layer is 3 but m holds 2 GPT-2 blocks/);
      assert.throws(() => loadModel(tensors, { fileName: 'm', configJson: cfg({ activation_function: 'mish' }) }), /activation 'mish' is not supported/);
      assert.throws(
        () => loadModel(tensors, { fileName: 'm', configJson: cfg({ model_type: 'gpt_neo' }) }),
        /model_type is 'gpt_neo' but m has GPT-2 tensor names/,
      );
      assert.throws(() => loadModel(tensors, { fileName: 'm', configJson: '{"n_head": 2,' }), /config\.json: not valid JSON/);
      assert.throws(() => loadModel(tensors, { fileName: 'm', configJson: '[2]' }), /config\.json: expected a JSON object/);
    });
  });
});
