// Checkpoints as downloaded, through the public API (openSnapshot → the session's loadSnapshot): a model folder
// with one model.safetensors, the same weights sharded with model.safetensors.index.json, in bf16 (kept in
// stored precision until a layer needs them), a single file, and what is refused.
import { strict as assert } from 'node:assert';
import type { Tensor } from '../../../src/engine/tensor';
import { decoderForward, decoderPrefix, loadModel, parseConfigJson, readDecoder } from '../../../src/models';
import { loadSnapshot, loadCheckpoint } from '../../../src/models/session';
import { readTensors } from '../../../src/weights';
import { openSnapshot, storeFromSafetensors, storeFromTensors, type SnapshotReader } from '../../../src/weights/snapshot';
import { assertClose } from '../helpers/fixtures';
import { fixtureSlice, idTokens } from './helpers';
import { modernExpected, modernFile, modernText } from './modern-fixtures';
import { encodeShards, roundToBfloat16 } from './safetensors-writer';

/** A reader over an in-memory folder. */
function folder(files: Map<string, Uint8Array>): SnapshotReader {
  return async (name) => files.get(name);
}

function fixtureFolder(family: string, withWeights = true): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>([
    ['config.json', modernFile(family, 'config.json')],
    ['tokenizer.json', modernFile(family, 'tokenizer.json')],
  ]);
  if (withWeights) files.set('model.safetensors', modernFile(family, 'model.safetensors'));
  return files;
}

async function tensorsOf(family: string): Promise<Map<string, Tensor>> {
  return readTensors(modernFile(family, 'model.safetensors'), 'model.safetensors');
}

describe('model folders (openSnapshot)', () => {
  it('a folder with model.safetensors, config.json and tokenizer.json runs Llama as HF does', async () => {
    const fx = modernExpected('llama');
    const snapshot = await openSnapshot(folder(fixtureFolder('llama')), 'llama');
    assert.deepEqual(snapshot.weightFiles, ['model.safetensors']);
    assert.equal(snapshot.configJson, modernText('llama', 'config.json'));
    assert.equal(snapshot.tokenizerJson, modernText('llama', 'tokenizer.json'));
    const model = loadSnapshot(snapshot);
    assert.equal(model.info.family, 'llama');
    assert.deepEqual(model.info.kvHeads, [0, 0, 1, 1]);
    assert.equal(model.tokenizer.kind, 'tokenizer-json');
    for (let b = 0; b < 2; b++) {
      const run = await model.forward(idTokens(fx.input_ids[b]), { attentionMask: fx.attention_mask[b] });
      const [nLayer, , H, T] = fx.expected.attentions.shape;
      for (let l = 0; l < nLayer; l++) {
        assertClose(run.attentions!.subarray(l * H * T * T, (l + 1) * H * T * T), fixtureSlice(fx.expected.attentions, [l, b]), {
          atol: 1e-5,
          label: `attentions[${l}][${b}]`,
        });
      }
    }
  });

  it('sharded float32 (model.safetensors.index.json) gives the same numbers as the single file', async () => {
    const tensors = await tensorsOf('qwen3');
    const files = fixtureFolder('qwen3', false);
    const list = [...tensors].map(([name, t]) => ({ name, shape: t.shape, data: t.data }));
    for (const [name, bytes] of encodeShards(list, 'F32', 60_000)) files.set(name, bytes);
    const snapshot = await openSnapshot(folder(files), 'qwen3');
    assert.ok(snapshot.weightFiles.length >= 3, `${snapshot.weightFiles.length} shards`);
    const fx = modernExpected('qwen3');
    const run = await loadSnapshot(snapshot).forward(idTokens(fx.input_ids[1]), { attentionMask: fx.attention_mask[1] });
    const [, , H, T] = fx.expected.attentions.shape;
    assertClose(run.attentions!.subarray(H * T * T, 2 * H * T * T), fixtureSlice(fx.expected.attentions, [1, 1]), { atol: 1e-5 });
  });

  it('sharded bf16 stays bf16 in the store and computes exactly what float32 weights rounded to bf16 compute', async () => {
    const tensors = await tensorsOf('gemma2');
    const files = fixtureFolder('gemma2', false);
    const list = [...tensors].map(([name, t]) => ({ name, shape: t.shape, data: t.data }));
    for (const [name, bytes] of encodeShards(list, 'BF16', 40_000)) files.set(name, bytes);
    const snapshot = await openSnapshot(folder(files), 'gemma2');
    for (const t of snapshot.store.values()) assert.equal(t.dtype, 'bfloat16');
    const rounded = new Map([...tensors].map(([n, t]) => [n, { data: roundToBfloat16(t.data), shape: t.shape }]));
    const config = parseConfigJson(modernText('gemma2', 'config.json'))!;
    const fx = modernExpected('gemma2');
    const ids = fx.input_ids[0];
    const fromBf16 = await decoderForward(readDecoder(snapshot.store, 'model.', config, 'gemma2', 'bf16'), ids, { logits: true });
    const fromF32 = await decoderForward(readDecoder(storeFromTensors(rounded, 'f32'), 'model.', config, 'gemma2', 'f32'), ids, { logits: true });
    assert.deepEqual(fromBf16.logits!.data, fromF32.logits!.data);
    assert.deepEqual(fromBf16.layers[1].probs!.data, fromF32.layers[1].probs!.data);
    // and bf16 rounding keeps the model close to the float32 original
    assertClose(fromBf16.layers[0].probs!, fixtureSlice(fx.expected.attentions, [0, 0]), { atol: 0.05 });
  });

  it('pytorch_model.bin-only folders and single files load too (loadCheckpoint reads any weight file)', async () => {
    const files = fixtureFolder('phi3', false);
    files.set('pytorch_model.bin', modernFile('phi3', 'model.safetensors')); // safetensors bytes under the .bin name: detected by content
    const snapshot = await openSnapshot(folder(files), 'phi3');
    assert.deepEqual(snapshot.weightFiles, ['pytorch_model.bin']);
    assert.equal(loadSnapshot(snapshot).info.family, 'phi3');
    const single = await loadCheckpoint(modernFile('mistral', 'model.safetensors'), {
      fileName: 'model.safetensors',
      configJson: modernText('mistral', 'config.json'),
    });
    assert.equal(single.info.family, 'mistral');
    assert.deepEqual(single.info.layerWindows, [5, 5]);
  });

  it('refuses, naming the folder and the file: no weights, a missing shard, a bad index, a shard that lacks a mapped tensor', async () => {
    await assert.rejects(
      openSnapshot(folder(fixtureFolder('llama', false)), 'my-model'),
      /my-model: is a folder without model weights: expected one of model\.safetensors\.index\.json, model\.safetensors/,
    );
    const tensors = await tensorsOf('llama');
    const list = [...tensors].map(([name, t]) => ({ name, shape: t.shape, data: t.data }));
    const shards = encodeShards(list, 'F32', 50_000);
    const missing = fixtureFolder('llama', false);
    for (const [n, b] of shards) if (!n.startsWith('model-00002')) missing.set(n, b);
    await assert.rejects(
      openSnapshot(folder(missing), 'm'),
      /m\/model\.safetensors\.index\.json: lists the shard model-00002-of-\d+\.safetensors, which is not in the folder/,
    );
    const bad = fixtureFolder('llama', false);
    bad.set('model.safetensors.index.json', new TextEncoder().encode(JSON.stringify({ weight_map: { 'model.norm.weight': '../../etc/passwd' } })));
    await assert.rejects(
      openSnapshot(folder(bad), 'm'),
      /maps tensor 'model\.norm\.weight' to "\.\.\/\.\.\/etc\/passwd", which is not a file name in the folder/,
    );
    const lying = fixtureFolder('llama', false);
    for (const [n, b] of shards) lying.set(n, b);
    const index = JSON.parse(new TextDecoder().decode(shards.get('model.safetensors.index.json')));
    index.weight_map['model.extra.weight'] = Object.values(index.weight_map)[0];
    lying.set('model.safetensors.index.json', new TextEncoder().encode(JSON.stringify(index)));
    await assert.rejects(openSnapshot(folder(lying), 'm'), /maps tensor 'model\.extra\.weight' to model-00001-of-\d+\.safetensors, which does not hold it/);
  });
});

describe('decoder detection and refusals (loadModel)', () => {
  it('refuses a config.json, tokenizer.json or shard index too large to parse, by its size, before decoding it', async () => {
    // Zero-filled buffers: only the length matters, since nothing may be decoded or parsed.
    const cases: Array<[string, number, RegExp]> = [
      ['config.json', 4 * 2 ** 20 + 1, /big\/config\.json: the file is 4\.0 MiB, over the limit of 4 MiB; it was not parsed$/],
      ['tokenizer.json', 128 * 2 ** 20 + 1, /big\/tokenizer\.json: the file is 128\.0 MiB, over the limit of 128 MiB; it was not parsed$/],
      [
        'model.safetensors.index.json',
        64 * 2 ** 20 + 1,
        /big\/model\.safetensors\.index\.json: the file is 64\.0 MiB, over the limit of 64 MiB; it was not parsed$/,
      ],
    ];
    for (const [name, size, message] of cases) {
      const files = fixtureFolder('llama');
      files.set(name, new Uint8Array(size));
      await assert.rejects(openSnapshot(folder(files), 'big'), message, name);
    }
  });

  it('detects every decoder family from config.json model_type', async () => {
    for (const family of ['llama', 'qwen2', 'qwen3', 'mistral', 'gemma2', 'gemma3', 'phi3']) {
      const model = loadModel(await tensorsOf(family), { fileName: 'model.safetensors', configJson: modernText(family, 'config.json') });
      assert.equal(model.info.family, family);
      assert.equal(model.info.causal, true);
    }
  });

  it('refuses a decoder without config.json, an unknown model_type, a config that disagrees with the tensors', async () => {
    const tensors = await tensorsOf('llama');
    assert.throws(
      () => loadModel(tensors, { fileName: 'w.safetensors' }),
      /w\.safetensors: the tensors are a RoPE decoder's \(model\.layers\.0\.self_attn\.o_proj\.weight, …\) but there is no config\.json beside them/,
    );
    const config = JSON.parse(modernText('llama', 'config.json'));
    assert.throws(
      () => loadModel(tensors, { fileName: 'w.safetensors', configJson: JSON.stringify({ ...config, model_type: 'falcon' }) }),
      /config\.json names model_type 'falcon', which is not supported; supported decoders: model_type llama, mistral, qwen2/,
    );
    assert.throws(
      () => loadModel(tensors, { fileName: 'w.safetensors', configJson: JSON.stringify({ ...config, num_key_value_heads: 4 }) }),
      /w\.safetensors: tensor 'model\.layers\.0\.self_attn\.k_proj\.weight' has shape \[16, 32\] but a Llama checkpoint needs \[32, 32\]/,
    );
    assert.throws(
      () =>
        loadModel(tensors, {
          fileName: 'w.safetensors',
          configJson: JSON.stringify({ ...config, rope_parameters: { rope_type: 'yarn', factor: 4, rope_theta: 1e4 } }),
        }),
      /rope_type 'yarn' is not supported \(supported: default, linear, llama3\)/,
    );
    assert.throws(
      () => loadModel(tensors, { fileName: 'w.safetensors', configJson: JSON.stringify({ ...config, num_hidden_layers: 1 }) }),
      /holds more layers than num_hidden_layers 1/,
    );
    const store = storeFromSafetensors(modernFile('llama', 'model.safetensors'), 'model.safetensors');
    assert.equal(decoderPrefix(store.keys()), 'model.');
  });

  it('reads 4.x configs: rope_theta + rope_scaling', async () => {
    const tensors = await tensorsOf('llama');
    const config = JSON.parse(modernText('llama', 'config.json'));
    const { rope_parameters: rp, ...rest } = config;
    const old = { ...rest, rope_theta: rp.rope_theta, rope_scaling: { ...rp, rope_theta: undefined } };
    const fx = modernExpected('llama');
    const model = loadModel(tensors, { fileName: 'w', configJson: JSON.stringify(old) });
    const run = await model.forward(idTokens(fx.input_ids[0]), { attentionMask: fx.attention_mask[0] });
    const [, , H, T] = fx.expected.attentions.shape;
    assertClose(run.attentions!.subarray(H * T * T, 2 * H * T * T), fixtureSlice(fx.expected.attentions, [1, 0]), { atol: 1e-5 });
  });
});
