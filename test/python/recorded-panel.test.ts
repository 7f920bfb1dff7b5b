// A real recorded program in the panel: HF Llama (the fixture checkpoint and its tokenizer) generating with a KV
// cache on a left-padded batch, recorded with the sid root's torch 2.14 + transformers. The decoding steps are
// 1 query × S cached keys; the axes carry the tokenizer's text; each batch element is its own run; the debugger
// on the captured q, k, v and mask gives the weights the call computed. Run by `npm run test:record`.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main';
import { traceFileReader } from '../../src/cli/files';
import {
  analyseTrace,
  buildRecordedRun,
  forwardPassOf,
  parseTrace,
  readCallTensors,
  recordedAttention,
  recordedLabels,
  recordedTrace,
  type TraceCall,
} from '../../src/record';
import { tokenizerFromJson } from '../../src/tokenize';

const ROOT = join(__dirname, '..', '..');
const SID_PYTHON = join(ROOT, '.cache', 'torch-sid', 'bin', 'python3');
const PROGRAM = 'test/python/programs/hf_llama_kv_cache_fixed.py';

if (existsSync(join(ROOT, '.cache', 'torch-sid', 'installed.txt'))) {
  describe('a recorded HF Llama with a KV cache, as the panel shows it (torch 2.14)', function () {
    this.timeout(300_000);
    let out: string;
    before(async () => {
      out = mkdtempSync(join(tmpdir(), 'ai-recorded-llama-'));
      let stderr = '';
      const code = await runCli(['record', '--python', SID_PYTHON, '--out', out, '--format', 'json', '--', PROGRAM], {
        stdout: () => undefined,
        stderr: (t) => (stderr += t),
      });
      assert.equal(code, 0, stderr);
    });
    after(() => rmSync(out, { recursive: true, force: true }));

    it('labels keys and queries with the tokenizer’s text, per batch element, and steps through 1 query × S keys', () => {
      const read = traceFileReader(out);
      const trace = parseTrace(new TextDecoder().decode(read('trace.json')), 'trace.json');
      assert.deepEqual(analyseTrace(trace, read).findings, []);
      const tensorsOf = (c: TraceCall) => readCallTensors(c, read);
      const prefill = trace.calls[0];
      const step = trace.calls.find((c) => c.shapes.q?.[2] === 1)!;
      assert.ok(step, 'a decoding step was recorded');
      const S = step.shapes.k![2];
      assert.equal(S, prefill.shapes.k![2] + 1, 'the first step attends the prefill and itself');
      assert.equal(step.tokens?.fromCache, true);
      assert.match(step.tokens?.tokenizer?.name ?? '', /fixtures[\\/]modern[\\/]llama$/);

      const tokenizer = tokenizerFromJson(readFileSync(join(ROOT, 'test', 'fixtures', 'modern', 'llama', 'tokenizer.json'), 'utf8'));
      const ids = tensorsOf(step).get('token_ids')!.tensor;
      const pad = step.tokens.paddingIdx;
      for (const batch of [0, 1]) {
        const labels = recordedLabels(step, tensorsOf(step), read, batch);
        const rowIds = Array.from(ids.data.subarray(batch * S, (batch + 1) * S));
        assert.deepEqual(
          labels.keys!.map((t) => t.display),
          tokenizer.decodeForDisplay!(rowIds),
        );
        assert.equal(labels.queries!.length, 1);
        const rec = buildRecordedRun(trace, forwardPassOf(trace, step.id), tensorsOf, { runId: 1 + batch, batch, labels });
        assert.equal(rec.run.nLayer, 2);
        assert.equal(rec.run.seqLen, S);
        assert.deepEqual(
          rec.run.queryTokens!.map((t) => t.display),
          labels.queries!.map((t) => t.display),
        );
        assert.deepEqual([rec.run.recorded!.batch, rec.run.recorded!.batchSize, rec.run.recorded!.callIds], [batch, 2, rec.callIds]);
        const padKeys = rowIds.flatMap((id, j) => (id === pad ? [j] : []));
        assert.equal(padKeys.length > 0, batch === 1, 'the short text is left-padded');
        for (let head = 0; head < rec.run.nHead; head++) {
          const w = recordedAttention(rec, { runId: 1 + batch, layer: 1, head });
          assert.deepEqual([w.rows, w.cols], [1, S]);
          assert.ok(Math.abs(w.data.reduce((a, x) => a + x, 0) - 1) < 1e-5);
          for (const j of padKeys) assert.equal(w.data[j], 0, `padding key ${j} gets no weight`);
          const stepped = recordedTrace(rec, { runId: 1 + batch, layer: 1, head, options: { scale: { kind: 'custom', value: step.params.scale as number } } });
          assert.deepEqual(stepped.probs.shape, [1, S]);
          for (let j = 0; j < S; j++) assert.ok(Math.abs(stepped.probs.data[j] - w.data[j]) < 1e-5, `debugger weight ${j}`);
        }
        for (const j of padKeys) assert.equal(rec.run.tokens[j].special, true);
      }
      // The prefill is square: no separate query labels.
      const square = buildRecordedRun(trace, forwardPassOf(trace, prefill.id), tensorsOf, {
        runId: 9,
        batch: 0,
        labels: recordedLabels(prefill, tensorsOf(prefill), read, 0),
      });
      assert.equal(square.run.queryTokens, undefined);
      assert.ok(square.run.tokens.some((t) => /[a-z]/i.test(t.display)));
    });
  });
}
