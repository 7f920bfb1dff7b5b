// Family recognition, the "no family matched" message, and the default number of heads.
import { strict as assert } from 'node:assert';
import type { Tensor } from '../../../src/engine/tensor';
import { defaultHeadCount, detectFamily, loadModel, resolveHeads } from '../../../src/models';
import { fixtureTensors, withPrefix } from './helpers';
import { renderMessage } from '../../../src/protocol/message';

const t = (...shape: number[]): Tensor => ({ data: new Float32Array(shape.reduce((p, d) => p * d, 1)), shape });

describe('loadModel: recognising the family', () => {
  it('tells GPT-2, BERT and bare attention layers apart, with their prefixes', async () => {
    const gpt2 = await fixtureTensors('gpt2_tiny.safetensors');
    const bert = await fixtureTensors('bert_tiny.safetensors');
    const mha = await fixtureTensors('mha_state_dict.pt');
    assert.deepEqual(detectFamily(gpt2), { family: 'gpt2', prefix: '' });
    assert.deepEqual(detectFamily(withPrefix(gpt2, 'transformer.')), { family: 'gpt2', prefix: 'transformer.' });
    assert.deepEqual(detectFamily(bert), { family: 'bert', prefix: '' });
    assert.deepEqual(detectFamily(withPrefix(bert, 'bert.')), { family: 'bert', prefix: 'bert.' });
    assert.equal(detectFamily(mha)?.family, 'attention-layer');
    // A name that merely ends like a marker is not one ('xwte.weight').
    assert.equal(
      detectFamily(
        new Map([
          ['xwte.weight', t(4, 2)],
          ['xh.0.attn.c_attn.weight', t(2, 6)],
        ]),
      ),
      null,
    );
  });

  it('says what it found and what it expected when nothing matches', () => {
    const tensors = new Map<string, Tensor>();
    for (let i = 0; i < 37; i++) tensors.set(`model.layers.${String(i).padStart(2, '0')}.mlp.weight`, t(2, 2));
    assert.throws(
      () => loadModel(tensors, { fileName: 'model.safetensors' }),
      (e: Error) => {
        assert.match(e.message, /^model\.safetensors: 37 tensors, none named like GPT-2 \(wte\.weight, h\.0\.attn\.c_attn\.weight\)/);
        assert.match(e.message, /or BERT \(embeddings\.word_embeddings\.weight, encoder\.layer\.0\.attention\.self\.query\.weight\)/);
        assert.match(e.message, /or an attention layer \(in_proj_weight/);
        assert.match(e.message, /it holds model\.layers\.00\.mlp\.weight, .*… \(31 more\)$/);
        return true;
      },
    );
    assert.throws(() => loadModel(new Map(), { fileName: 'empty.npz' }), /empty\.npz: 0 tensors, none named like GPT-2.*the file holds no tensors/);
  });

  it('validates its arguments', () => {
    assert.throws(() => loadModel({} as Map<string, Tensor>, { fileName: 'x' }), /tensors must be a Map/);
    assert.throws(() => loadModel(new Map(), { fileName: '' }), /fileName must be a non-empty string/);
    assert.throws(() => loadModel(new Map(), { fileName: 'x', seed: -1 }), /seed must be a non-negative integer, got -1/);
  });
});

describe('default number of heads (no config.json)', () => {
  it('is width / 64 for every released GPT-2 and BERT size', () => {
    assert.deepEqual([768, 1024, 1280, 1600, 128, 256, 512].map(defaultHeadCount), [12, 16, 20, 25, 2, 4, 8]);
  });
  it('else the largest divisor keeping heads at least 64 wide; one head below 64', () => {
    assert.equal(defaultHeadCount(800), 10); // 800 / 64 = 12.5 → 10 heads of 80
    assert.equal(defaultHeadCount(16), 1);
    assert.equal(defaultHeadCount(97), 1); // prime
    for (let w = 1; w <= 2000; w++) {
      const h = defaultHeadCount(w);
      assert.equal(w % h, 0, `${h} divides ${w}`);
      if (w >= 64) assert.ok(w / h >= 64, `width ${w}: heads of ${w / h}`);
    }
  });
  it('a config value wins and is reported as such', () => {
    const fromConfig = resolveHeads({ n_head: 2 }, ['n_head'], 16);
    assert.deepEqual([fromConfig.nHead, renderMessage(fromConfig.source), fromConfig.assumed], [2, 'from config.json', false]);
    const assumed = resolveHeads({}, ['n_head'], 768);
    assert.equal(assumed.nHead, 12);
    assert.equal(assumed.assumed, true);
    assert.match(
      renderMessage(assumed.source),
      /^assumed: no config\.json gives the number of heads, so the default rule applies, width 768 \/ 64 dims per head/,
    );
  });
});
