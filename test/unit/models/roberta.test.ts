// RoBERTa and XLM-R (BERT's layers, positions counted from padding_idx + 1) against real HF transformers
// 5.12.1 (test/fixtures/modern/roberta, xlm_roberta), each batch element on its own with its attention_mask.
import { strict as assert } from 'node:assert';
import { bertForward, bertPositionIds, loadModel, parseConfigJson, readBert } from '../../../src/models';
import { readTensors } from '../../../src/weights';
import { assertClose } from '../helpers/fixtures';
import { fixtureSlice, idTokens } from './helpers';
import { ENCODER_FIXTURES, modernExpected, modernFile, modernText } from './modern-fixtures';

describe('RoBERTa position ids', () => {
  it('count real tokens from padding_idx + 1 and leave padding at padding_idx', () => {
    assert.deepEqual(bertPositionIds([0, 7, 9, 2, 1, 1], 1), [2, 3, 4, 5, 1, 1]);
    assert.deepEqual(bertPositionIds([5, 6], undefined), [0, 1]);
  });
});

for (const family of ENCODER_FIXTURES) {
  describe(`${family} forward vs HF transformers (test/fixtures/modern/${family})`, () => {
    const fx = modernExpected(family);
    const configJson = modernText(family, 'config.json');
    const nLayer = fx.expected.attentions.shape[0];

    for (let b = 0; b < fx.input_ids.length; b++) {
      const padded = fx.attention_mask[b].includes(0);
      it(`batch element ${b}${padded ? ' (right-padded)' : ''}: attentions, hidden states and last_hidden_state`, async () => {
        const tensors = await readTensors(modernFile(family, 'model.safetensors'), 'model.safetensors');
        const cp = readBert(tensors, '', parseConfigJson(configJson), 'model.safetensors');
        assert.equal(cp.config.paddingIdx, 1);
        const out = await bertForward(cp, fx.input_ids[b], { attentionMask: fx.attention_mask[b] });
        for (let l = 0; l < nLayer; l++) {
          assertClose(out.layers[l].probs!, fixtureSlice(fx.expected.attentions, [l, b]), { atol: 1e-5, label: `attentions[${l}][${b}]` });
        }
        for (let l = 0; l <= nLayer; l++) {
          assertClose(out.hiddenStates[l], fixtureSlice(fx.expected.hidden_states, [l, b]), { atol: 1e-4, label: `hidden_states[${l}][${b}]` });
        }
        assertClose(out.hiddenStates[nLayer], fixtureSlice(fx.expected.last_hidden_state!, [b]), { atol: 1e-4, label: `last_hidden_state[${b}]` });
      });
    }

    it('is named for its family by loadModel', async () => {
      const tensors = await readTensors(modernFile(family, 'model.safetensors'), 'model.safetensors');
      const model = loadModel(tensors, { fileName: 'model.safetensors', configJson, tokenizerJson: modernText(family, 'tokenizer.json') });
      assert.equal(model.info.family, family === 'roberta' ? 'roberta' : 'xlm-roberta');
      const run = await model.forward(idTokens(fx.input_ids[0]), { attentionMask: fx.attention_mask[0] });
      assertClose(
        run.attentions!.subarray(
          0,
          fx.expected.attentions.shape.slice(2).reduce((a, d) => a * d, 1),
        ),
        fixtureSlice(fx.expected.attentions, [0, 0]),
        { atol: 1e-5 },
      );
    });
  });
}
