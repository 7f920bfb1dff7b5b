// The RoPE decoders (Llama, Qwen2, Qwen3, Mistral, Gemma 2, Gemma 3, Phi-3) against real HF transformers 5.12.1
// (test/fixtures/modern): each batch element of the fixture runs on its own with its attention_mask row
// (right padding), and every layer's attention, every hidden state and the logits must agree.
import { strict as assert } from 'node:assert';
import { decoderForward, decoderPrefix, parseConfigJson, readDecoder, decoderFamilyOf } from '../../../src/models';
import { storeFromSafetensors } from '../../../src/weights/snapshot';
import { assertClose } from '../helpers/fixtures';
import { fixtureSlice } from './helpers';
import { DECODER_FIXTURES, modernExpected, modernFile, modernText } from './modern-fixtures';

const ATTN = 1e-5;
const HIDDEN = 1e-4;
const LOGITS = 1e-4;

for (const family of DECODER_FIXTURES) {
  describe(`${family} forward vs HF transformers (test/fixtures/modern/${family})`, () => {
    const fx = modernExpected(family);
    const config = parseConfigJson(modernText(family, 'config.json'))!;
    const store = storeFromSafetensors(modernFile(family, 'model.safetensors'), 'model.safetensors');
    const nLayer = fx.expected.attentions.shape[0];

    for (let b = 0; b < fx.input_ids.length; b++) {
      const padded = fx.attention_mask[b].includes(0);
      it(`batch element ${b}${padded ? ' (right-padded)' : ''}: attentions, hidden states and logits`, async () => {
        const cp = readDecoder(store, decoderPrefix(store.keys())!, config, decoderFamilyOf(config.model_type as string)!, family);
        const out = await decoderForward(cp, fx.input_ids[b], { attentionMask: fx.attention_mask[b], logits: true });
        assert.equal(out.layers.length, nLayer);
        for (let l = 0; l < nLayer; l++) {
          assertClose(out.layers[l].probs!, fixtureSlice(fx.expected.attentions, [l, b]), { atol: ATTN, label: `attentions[${l}][${b}]` });
        }
        // hidden_states: the embeddings, then each layer's output; HF's last entry is after the final norm.
        for (let l = 0; l < nLayer; l++) {
          assertClose(out.hiddenStates[l], fixtureSlice(fx.expected.hidden_states, [l, b]), { atol: HIDDEN, label: `hidden_states[${l}][${b}]` });
        }
        assertClose(out.lastHidden, fixtureSlice(fx.expected.hidden_states, [nLayer, b]), { atol: HIDDEN, label: `hidden_states[${nLayer}][${b}]` });
        assertClose(out.logits!, fixtureSlice(fx.expected.logits!, [b]), { atol: LOGITS, label: `logits[${b}]` });
      });
    }
  });
}
