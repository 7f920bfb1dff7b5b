// The engine's oracle checks again under every kernel this machine can run (the WebAssembly SIMD
// kernel reads the same strided views, leading dimensions, alpha and beta as the TS one).
import { strict as assert } from 'node:assert';
import {
  attentionRows,
  flashAttention,
  getKernel,
  initKernels,
  multiheadAttention,
  scaledDotProductAttention,
  setKernel,
  traceAttention,
  type AnyTensor,
  type Kernel,
} from '../../../src/engine';
import { assertClose, loadFixture, toFloat, toTensor, type JsonTensor } from '../helpers/fixtures';

type Case = {
  name: string;
  params: Record<string, any>;
  inputs: Record<string, JsonTensor>;
  expected: Record<string, JsonTensor>;
  weights?: Record<string, JsonTensor>;
};
const sdpa = loadFixture<{ cases: Case[] }>('sdpa');
const mha = loadFixture<{ cases: Case[] }>('mha');

/** Every kernel initKernels can start here ('ts' always; 'wasm-simd' where WebAssembly SIMD runs). */
async function startableKernels(): Promise<Kernel[]> {
  const found: Kernel[] = [];
  for (const preference of ['ts', 'wasm-simd'] as const) {
    try {
      found.push(await initKernels(preference));
    } catch {
      // not available in this build or on this engine
    }
  }
  return found;
}

describe('engine vs torch under every available kernel', () => {
  let previous: Kernel;
  let kernels: Kernel[] = [];
  before(async () => {
    previous = getKernel();
    kernels = await startableKernels();
    setKernel(previous);
    assert.ok(
      kernels.some((k) => k.name === 'ts'),
      'the TS kernel is always available',
    );
  });
  after(() => setKernel(previous));

  /** Runs check once per kernel, with that kernel active. */
  function eachKernel(check: (kernelName: string) => void): void {
    for (const kernel of kernels) {
      setKernel(kernel);
      try {
        check(kernel.name);
      } finally {
        setKernel(previous);
      }
    }
  }

  it('every sdpa.json case: SDPA out and probs, flash out, attentionRows', () =>
    eachKernel((kn) => {
      for (const c of sdpa.cases) {
        const [q, k, v] = [c.inputs.q, c.inputs.k, c.inputs.v].map(toFloat);
        const options = {
          attnMask: c.inputs.attn_mask ? (toTensor(c.inputs.attn_mask) as AnyTensor) : undefined,
          isCausal: c.params.is_causal,
          scale: c.params.scale ?? undefined,
          enableGqa: c.params.enable_gqa,
        };
        const r = scaledDotProductAttention(q, k, v, options);
        assertClose(r.out, c.expected.out, { label: `${kn}: ${c.name} out` });
        assertClose(r.probs, c.expected.probs, { label: `${kn}: ${c.name} probs` });
        assertClose(flashAttention(q, k, v, { ...options, blockSize: 3 }).out, c.expected.out, { label: `${kn}: ${c.name} flash` });
        const rows = attentionRows(q, k, { ...options, rows: [0] });
        const L = c.params.L;
        const S = c.params.S;
        const expected = toFloat(c.expected.probs);
        for (let bh = 0; bh < expected.data.length / (L * S); bh++) {
          assertClose(rows.data.subarray(bh * S, (bh + 1) * S), expected.data.subarray(bh * L * S, bh * L * S + S), { label: `${kn}: ${c.name} row 0` });
        }
      }
    }));

  it('every mha.json case', () =>
    eachKernel((kn) => {
      for (const c of mha.cases) {
        const w = c.weights!;
        const r = multiheadAttention(
          toFloat(c.inputs.query),
          toFloat(c.inputs.key),
          toFloat(c.inputs.value),
          {
            numHeads: c.params.num_heads,
            inProjWeight: toFloat(w.in_proj_weight),
            inProjBias: toFloat(w.in_proj_bias),
            outProjWeight: toFloat(w.out_proj_weight),
            outProjBias: toFloat(w.out_proj_bias),
          },
          {
            keyPaddingMask: c.inputs.key_padding_mask ? (toTensor(c.inputs.key_padding_mask) as AnyTensor) : undefined,
            attnMask: c.inputs.attn_mask ? (toTensor(c.inputs.attn_mask) as AnyTensor) : undefined,
            needWeights: c.params.need_weights,
            averageAttnWeights: c.params.average_attn_weights,
          },
        );
        assertClose(r.out, c.expected.attn_output, { label: `${kn}: ${c.name} out` });
        if (c.expected.attn_weights) assertClose(r.weights!, c.expected.attn_weights, { label: `${kn}: ${c.name} weights` });
      }
    }));

  it('the trace of one head equals SDPA on that head', () =>
    eachKernel((kn) => {
      const c = sdpa.cases.find((x) => x.name === 'custom_scale_causal')!;
      const [q, k, v] = [c.inputs.q, c.inputs.k, c.inputs.v].map(toFloat); // (1, 3, 4, E)
      const [L, E] = q.shape.slice(2);
      const Ev = v.shape[3];
      const head = (t: typeof q, w: number) => ({ data: t.data.subarray(0, L * w), shape: [L, w] });
      const t = traceAttention(head(q, E), head(k, E), head(v, Ev), {
        scale: { kind: 'custom', value: c.params.scale },
        mask: { kind: 'causal', align: 'top-left' },
      });
      assertClose(t.output.data, toFloat(c.expected.out).data.subarray(0, L * Ev), { label: `${kn}: trace` });
    }));
});
