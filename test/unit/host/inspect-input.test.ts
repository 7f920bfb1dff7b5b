// What Inspect Selection and Load Weights ask of the user: a selection of numbers is read as token ids, a
// bare attention layer's head count is one of its width's divisors (and the chosen count reaches the
// model, checked against the module's real per-head weights), and a reload finds the inspected text again.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InspectSession, loadCheckpoint } from '../../../src/models/session';
import { NOT_IN_VOCABULARY } from '../../../src/protocol/engine';
import { loadModel } from '../../../src/models';
import { restoreState } from '../../../src/host/panel/restore';
import { errorWithoutHint, headChoices, idsFromText } from '../../../src/host/inspect-input';
import { MAX_KEPT_TEXT } from '../../../src/protocol/webview';
import { attendMask, attentionLayerForward, findAttentionLayer, readAttentionLayer } from '../../../src/models';
import { assertClose, loadFixture, toFloat } from '../helpers/fixtures';
import { fixtureTensors } from '../models/helpers';

describe('inspect input', () => {
  it('reads a selection of numbers only as token ids', () => {
    assert.deepEqual(idsFromText('464, 3797, 3332'), [464, 3797, 3332]);
    assert.deepEqual(idsFromText(' [101 2023 102]\n'), [101, 2023, 102]);
    assert.deepEqual(idsFromText('7'), [7]);
    for (const text of ['', 'the cat', '1, 2, x', '1.5, 2', '-1, 2', '1,,2', '99999999999999999999'])
      assert.equal(idsFromText(text), undefined, JSON.stringify(text));
  });

  it('offers every divisor of the width as a head count, with its head size', () => {
    assert.deepEqual(
      headChoices(16).map((c) => [c.heads, c.headDim]),
      [
        [1, 16],
        [2, 8],
        [4, 4],
        [8, 2],
        [16, 1],
      ],
    );
    assert.deepEqual(headChoices(0), []);
  });

  it('drops the CLI hint after the first ";" of an engine error', () => {
    assert.equal(
      errorWithoutHint('GPT-2: token 3 ("x") has no vocabulary id; GPT-2 needs ids from its tokenizer (or --ids)'),
      'GPT-2: token 3 ("x") has no vocabulary id',
    );
    assert.equal(errorWithoutHint('no hint here'), 'no hint here');
  });

  it('mha_state_dict.pt: 1 head assumed without config.json; the chosen 4 heads reproduce nn.MultiheadAttention(num_heads=4)', async () => {
    const tensors = await fixtureTensors('mha_state_dict.pt');
    const assumed = loadModel(tensors, { fileName: 'mha_state_dict.pt' });
    assert.equal(assumed.info.nHead, 1);
    assert.equal(assumed.info.headsAssumed, true);
    const chosen = loadModel(tensors, { fileName: 'mha_state_dict.pt', heads: 4 });
    assert.equal(chosen.info.nHead, 4);
    assert.equal(chosen.info.headsAssumed, false);
    assert.match(chosen.info.detail, /4 heads of 4 dims \(from the number of heads chosen when loading\)/);
    assert.throws(() => loadModel(tensors, { fileName: 'mha_state_dict.pt', heads: 3 }), /3 heads do not divide the model width 16/);
    // config.json, when present, wins over a remembered choice.
    assert.equal(loadModel(tensors, { fileName: 'mha_state_dict.pt', heads: 8, configJson: JSON.stringify({ num_heads: 2 }) }).info.nHead, 2);
    // The chosen count gives the module's real per-head weights.
    const fx = loadFixture('weight_files');
    const w = readAttentionLayer(tensors, findAttentionLayer(tensors)!, { num_heads: 4 }, 'mha_state_dict.pt');
    const x = toFloat({ dtype: 'float32', ...fx.inputs.x });
    const allowed = attendMask(6, { attentionMask: (fx.inputs.key_padding_mask as boolean[]).map((p) => (p ? 0 : 1)) });
    assertClose(attentionLayerForward(w, { data: x.data, shape: [6, 16] }, allowed).probs.data, toFloat({ dtype: 'float32', ...fx.expected.weights }).data, {
      label: 'per-head weights',
    });
  });

  it('a reload finds the inspected text in the panel’s saved state, and ignores anything malformed', () => {
    const text = '我爱自然语言处理。';
    assert.deepEqual(restoreState({ mode: 'debugger', inspected: { text, uri: 'file:///w/hello.md', offset: 12 } }).inspected, {
      text,
      uri: 'file:///w/hello.md',
      offset: 12,
    });
    assert.deepEqual(restoreState({ inspected: { text } }).inspected, { text });
    assert.deepEqual(restoreState({ inspected: { text, uri: 42, offset: -1 } }).inspected, { text });
    for (const bad of [undefined, null, 'x', { text: '' }, { text: 7 }, { text: 'x'.repeat(MAX_KEPT_TEXT + 1) }]) {
      assert.equal(restoreState({ inspected: bad }).inspected, undefined, JSON.stringify(bad)?.slice(0, 40));
    }
  });
});

describe('a checkpoint whose vocabulary cannot hold the tokens', () => {
  it('fails with a VocabularyError the editor can explain', async () => {
    const session = new InspectSession(loadCheckpoint);
    const bytes = new Uint8Array(readFileSync(join(__dirname, '..', '..', 'fixtures', 'torch', 'gpt2_tiny.safetensors')));
    const info = await session.configure({ kind: 'file', fileName: 'gpt2_tiny.safetensors', bytes });
    // gpt2_tiny has 64 ids; GPT-2's tokenizer gives "The cat sat" ids in the thousands.
    await assert.rejects(
      session.run({ text: 'The cat sat', maxTokens: 512 }),
      (e: Error) => e.name === NOT_IN_VOCABULARY && /out of range \(the vocabulary has ids 0\.\.63\)/.test(e.message),
    );
    // The ids themselves run.
    assert.equal((await session.run({ text: '1, 2, 3', ids: idsFromText('1, 2, 3'), maxTokens: 512 })).seqLen, 3);
    assert.notEqual(info.family, 'seeded');
  });
});
