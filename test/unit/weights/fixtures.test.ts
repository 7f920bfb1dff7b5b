// Every weight fixture written by real PyTorch / NumPy / safetensors must load to the tensors the
// fixture JSONs describe: names, shapes, float64 sums, and (for the models) values that reproduce the
// embeddings HF computed.
import { strict as assert } from 'node:assert';
import type { Tensor } from '../../../src/engine/tensor';
import { describeTensors, detectFormat, readTensors, readTensorsWithMetadata } from '../../../src/weights';
import { loadFixture, loadFixtureBytes } from '../helpers/fixtures';

function sum64(t: Tensor): number {
  let s = 0;
  for (const v of t.data) s += v;
  return s;
}

function sumAbs(t: Tensor): number {
  let s = 0;
  for (const v of t.data) s += Math.abs(v);
  return s;
}

/** Names, shapes and float64 sums (to float64 rounding of a different summation order). */
function checkAgainst(tensors: Map<string, Tensor>, shapes: Record<string, number[]>, sums?: Record<string, number>): void {
  assert.deepEqual([...tensors.keys()].sort(), Object.keys(shapes).sort());
  for (const [name, shape] of Object.entries(shapes)) {
    const t = tensors.get(name)!;
    assert.deepEqual(t.shape, shape, name);
    assert.ok(t.data instanceof Float32Array, name);
    assert.equal(
      t.data.length,
      shape.reduce((a, b) => a * b, 1),
      name,
    );
    if (sums) {
      const tol = 1e-12 * Math.max(1, sumAbs(t));
      assert.ok(Math.abs(sum64(t) - sums[name]) <= tol, `${name}: sum ${sum64(t)} vs ${sums[name]}`);
    }
  }
}

function assertSameBits(a: Tensor, b: Tensor, what: string): void {
  assert.deepEqual(a.shape, b.shape, what);
  assert.deepEqual(new Uint32Array(a.data.slice().buffer), new Uint32Array(b.data.slice().buffer), what);
}

describe('weights: PyTorch/NumPy fixture files', () => {
  const wf = loadFixture('weight_files');

  const multiFiles = ['mha_state_dict.pt', 'mha_weights.npz', 'mha_weights_compressed.npz'];
  for (const file of multiFiles) {
    it(`${file} loads every MultiheadAttention tensor with torch's names, shapes and sums`, async () => {
      const tensors = await readTensors(loadFixtureBytes(file), file);
      checkAgainst(tensors, wf.weight_shapes, wf.weight_sums_float64);
    });
  }

  it('formats are detected from the bytes', () => {
    const expected: Record<string, string> = {
      'mha_state_dict.pt': 'torch',
      'mha_weights.npz': 'npz',
      'mha_weights_compressed.npz': 'npz',
      'in_proj_weight.npy': 'npy',
      'in_proj_weight_f64_fortran.npy': 'npy',
      'gpt2_tiny.safetensors': 'safetensors',
      'bert_tiny.safetensors': 'safetensors',
    };
    for (const [file, format] of Object.entries(expected)) {
      assert.equal(detectFormat(loadFixtureBytes(file), file), format, file);
      // The bytes decide, not the name.
      assert.equal(detectFormat(loadFixtureBytes(file), 'renamed.dat'), format, `${file} renamed`);
    }
  });

  it('.npy files (float32 C order, float64 Fortran order) hold in_proj_weight', async () => {
    for (const [file, name] of [
      ['in_proj_weight.npy', 'in_proj_weight'],
      ['in_proj_weight_f64_fortran.npy', 'in_proj_weight_f64_fortran'],
    ]) {
      const tensors = await readTensors(loadFixtureBytes(file), file);
      assert.deepEqual([...tensors.keys()], [name]);
      checkAgainst(
        new Map([['in_proj_weight', tensors.get(name)!]]),
        { in_proj_weight: wf.weight_shapes.in_proj_weight },
        {
          in_proj_weight: wf.weight_sums_float64.in_proj_weight,
        },
      );
    }
  });

  it('all five files give bit-identical tensors', async () => {
    const reference = await readTensors(loadFixtureBytes('mha_state_dict.pt'), 'mha_state_dict.pt');
    for (const file of multiFiles.slice(1)) {
      const other = await readTensors(loadFixtureBytes(file), file);
      for (const [name, t] of reference) assertSameBits(other.get(name)!, t, `${file} ${name}`);
    }
    const c = await readTensors(loadFixtureBytes('in_proj_weight.npy'), 'in_proj_weight.npy');
    assertSameBits(c.get('in_proj_weight')!, reference.get('in_proj_weight')!, 'float32 .npy');
    // float64 Fortran: the same float32 values widened, so narrowing back is exact, and the transposition
    // from column-major must put every element where torch had it.
    const f = await readTensors(loadFixtureBytes('in_proj_weight_f64_fortran.npy'), 'in_proj_weight_f64_fortran.npy');
    assertSameBits(f.get('in_proj_weight_f64_fortran')!, reference.get('in_proj_weight')!, 'float64 Fortran .npy');
  });

  it('describeTensors reports the dtype each tensor had in its file', async () => {
    const f = await readTensorsWithMetadata(loadFixtureBytes('in_proj_weight_f64_fortran.npy'), 'in_proj_weight_f64_fortran.npy');
    assert.deepEqual(describeTensors(f.tensors), [{ name: 'in_proj_weight_f64_fortran', shape: [48, 16], numel: 768, dtype: 'float64' }]);
    const pt = await readTensors(loadFixtureBytes('mha_state_dict.pt'), 'mha_state_dict.pt');
    assert.deepEqual(
      describeTensors(pt).map((d) => [d.name, d.numel, d.dtype]),
      [
        ['in_proj_weight', 768, 'float32'],
        ['in_proj_bias', 48, 'float32'],
        ['out_proj.weight', 256, 'float32'],
        ['out_proj.bias', 16, 'float32'],
      ],
    );
  });

  it('float32 data in the stored .pt and aligned .npy is a view over the file bytes (no copy)', async () => {
    for (const file of ['mha_state_dict.pt', 'in_proj_weight.npy']) {
      const bytes = loadFixtureBytes(file);
      const tensors = await readTensors(bytes, file);
      for (const [name, t] of tensors) assert.equal(t.data.buffer, bytes.buffer, `${file} ${name}`);
    }
  });
});

describe('weights: model safetensors fixtures', () => {
  for (const model of ['gpt2_tiny', 'gpt2_hf_init']) {
    it(`${model}.safetensors: names, shapes, sums, metadata and the embeddings HF computed`, async () => {
      const fx = loadFixture(model);
      const file = `${model}.safetensors`;
      const bytes = loadFixtureBytes(file);
      const loaded = await readTensorsWithMetadata(bytes, file);
      checkAgainst(loaded.tensors, fx.weight_shapes, fx.weight_sums_float64);
      assert.equal(loaded.metadata.format, 'pt');
      for (const t of loaded.tensors.values()) assert.equal(t.data.buffer, bytes.buffer, 'F32 safetensors are views');
      // expected.embeddings [1, T, E] = wte[ids] + wpe[0..T-1], computed by HF from these weights.
      const wte = loaded.tensors.get('wte.weight')!;
      const wpe = loaded.tensors.get('wpe.weight')!;
      const E = fx.config.n_embd;
      const ids: number[] = fx.input_ids;
      const expected = fx.expected.embeddings;
      assert.deepEqual(expected.shape, [1, ids.length, E]);
      ids.forEach((id, t) => {
        for (let e = 0; e < E; e++) {
          const mine = Math.fround(wte.data[id * E + e] + wpe.data[t * E + e]);
          assert.equal(mine, Math.fround(expected.data[t * E + e]), `embedding [${t}, ${e}]`);
        }
      });
    });
  }

  it('bert_tiny.safetensors: names, shapes, and the embedding LayerNorm output HF computed', async () => {
    const fx = loadFixture('bert_tiny');
    const tensors = await readTensors(loadFixtureBytes('bert_tiny.safetensors'), 'bert_tiny.safetensors');
    checkAgainst(tensors, fx.weight_shapes);
    // hidden_states[0] [B, T, E] = LayerNorm(word[ids] + position[t] + token_type[0]), in float64 here.
    const get = (n: string) => tensors.get(`embeddings.${n}`)!.data;
    const [word, position, type, gamma, beta] = [
      'word_embeddings.weight',
      'position_embeddings.weight',
      'token_type_embeddings.weight',
      'LayerNorm.weight',
      'LayerNorm.bias',
    ].map(get);
    const E = fx.config.hidden_size;
    const eps = fx.config.layer_norm_eps;
    const hs = fx.expected.hidden_states;
    const ids: number[][] = fx.input_ids;
    const T = ids[0].length;
    let worst = 0;
    ids.forEach((row, b) =>
      row.forEach((id, t) => {
        const x = Array.from({ length: E }, (_, e) => word[id * E + e] + position[t * E + e] + type[e]);
        const mean = x.reduce((a, v) => a + v, 0) / E;
        const variance = x.reduce((a, v) => a + (v - mean) ** 2, 0) / E;
        for (let e = 0; e < E; e++) {
          const y = ((x[e] - mean) / Math.sqrt(variance + eps)) * gamma[e] + beta[e];
          worst = Math.max(worst, Math.abs(y - hs.data[(b * T + t) * E + e]));
        }
      }),
    );
    assert.ok(worst < 1e-5, `max |diff| ${worst}`);
  });
});
