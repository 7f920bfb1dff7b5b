// The step-through debugger on today's families (InspectSession.trace): with no switches changed, the trace
// of a head reproduces the model's own weights — RoPE rotated from q and k before it, Gemma 2's soft-cap and
// query_pre_attn_scalar scale, the sliding window of a local layer, the padded keys — and each model step can
// be switched off. The run says which kv head each query head shares.
import { strict as assert } from 'node:assert';
import { InspectSession } from '../../../src/models/session';
import { openSnapshot } from '../../../src/weights/snapshot';
import { modernExpected, modernFile } from './modern-fixtures';

async function sessionFor(family: string): Promise<InspectSession> {
  const session = new InspectSession();
  const files = ['config.json', 'tokenizer.json', 'model.safetensors'];
  const snapshot = await openSnapshot(async (name) => (files.includes(name) ? modernFile(family, name) : undefined), family);
  session.configureSnapshot(snapshot);
  return session;
}

describe('debugger steps on RoPE models (session.trace)', () => {
  it("Gemma 2 sliding layer: default trace = the run's weights (RoPE, soft-cap, window, padding, model scale); switches change it", async () => {
    const fx = modernExpected('gemma2');
    const session = await sessionFor('gemma2');
    const run = await session.run({ text: '', ids: fx.input_ids[1], attentionMask: fx.attention_mask[1], maxTokens: 64 });
    assert.deepEqual(run.kvHeads, [0, 0, 1, 1]);
    assert.deepEqual(run.model.layerWindows, [5, null]);
    const T = run.seqLen;
    const layer = 0,
      head = 3;
    const t = session.trace({ runId: run.runId, layer, head, options: {} });
    assert.equal(t.rope!.applied, true);
    assert.equal(t.softcap!.cap, 50);
    // query_pre_attn_scalar 8 = head_dim 8 here, so the default scale already is the model's; asking for it names it
    assert.ok(Math.abs(t.scale - 1 / Math.sqrt(8)) < 1e-12);
    const asked = session.trace({ runId: run.runId, layer, head, options: { scale: { kind: 'model' } } });
    assert.deepEqual(asked.scaleChoice, { kind: 'model', value: 1 / Math.sqrt(8) });
    const base = (layer * run.nHead + head) * T * T;
    // the padded queries that see no key come out as HF's flat rows in the run; the trace shows them as NaN rows (no visible key)
    const padded = new Set(fx.attention_mask[1].map((m, i) => (m ? -1 : i)).filter((i) => i >= 0));
    for (let i = 0; i < T; i++) {
      const rowSeesNothing = t.allowed.data.subarray(i * T, (i + 1) * T).every((a) => a === 0);
      if (rowSeesNothing) {
        assert.ok(padded.has(i), `row ${i} sees nothing and is padding`);
        continue;
      }
      for (let j = 0; j < T; j++) assert.ok(Math.abs(t.probs.data[i * T + j] - run.attentions![base + i * T + j]) < 1e-6, `(${i}, ${j})`);
    }
    for (let i = 0; i < T; i++) for (let j = 0; j < T; j++) if (j > i || j <= i - 5) assert.equal(t.allowed.data[i * T + j], 0);
    const noRope = session.trace({ runId: run.runId, layer, head, options: { rope: { apply: false } } });
    assert.notDeepEqual(noRope.scores.data, t.scores.data);
    const noCap = session.trace({ runId: run.runId, layer, head, options: { softcap: null } });
    assert.equal(noCap.softcap, undefined);
    const fullLayer = session.trace({ runId: run.runId, layer: 1, head: 0, options: {} });
    assert.equal(fullLayer.softcap!.cap, 50);
    assert.equal(fullLayer.allowed.data[(T - 1) * T], 1, 'the global layer has no window: the last query sees key 0');
    assert.equal(t.allowed.data[(T - 1) * T], 0, 'the sliding layer does not');
  });

  it('Llama (llama3 rope scaling, GQA): trace = run weights; a non-RoPE model refuses to switch RoPE on', async () => {
    const fx = modernExpected('llama');
    const session = await sessionFor('llama');
    const run = await session.run({ text: '', ids: fx.input_ids[0], attentionMask: fx.attention_mask[0], maxTokens: 64 });
    const T = run.seqLen;
    for (const head of [0, 3]) {
      const t = session.trace({ runId: run.runId, layer: 1, head, options: {} });
      const base = (1 * run.nHead + head) * T * T;
      t.probs.data.forEach((p, i) => assert.ok(Math.abs(p - run.attentions![base + i]) < 1e-6, `head ${head} cell ${i}`));
    }
    const roberta = await sessionFor('roberta');
    const r = await roberta.run({ text: '', ids: [0, 5, 2], maxTokens: 8 });
    assert.equal(r.kvHeads, undefined);
    assert.throws(
      () => roberta.trace({ runId: r.runId, layer: 0, head: 0, options: { rope: { apply: true } } }),
      /this model has no rotary position embeddings \(RoPE\) to switch on/,
    );
    assert.equal(
      roberta.trace({ runId: r.runId, layer: 0, head: 0, options: { rope: { apply: false } } }).rope,
      undefined,
      'switching RoPE off where there is none changes nothing',
    );
  });
});
