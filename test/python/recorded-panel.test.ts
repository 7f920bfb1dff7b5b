// A real recorded program in the panel: HF Llama (the fixture checkpoint and its tokenizer) generating with a KV
// cache on a left-padded batch, recorded with the sid root's torch 2.14 + transformers. The decoding steps are
// 1 query × S cached keys; the axes carry the tokenizer's text; each batch element is its own run; the debugger
// on the captured q, k, v and mask gives the weights the call computed. Run by `npm run test:record`.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// Token ids from a chat template (HF apply_chat_template), with a tiny WordLevel tokenizer built in the program:
// the ids reach the embedding through the tokenizer's own __call__, which the recorder watches, so the axes carry
// the template's tokens (role markers included) — for a padded batch of conversations and for a plain list of ids.
const CHAT_PROGRAM = `import math, torch
from tokenizers import Tokenizer, models, pre_tokenizers
from transformers import PreTrainedTokenizerFast

words = ["[PAD]", "[UNK]", "<|user|>", "<|assistant|>", "<|end|>", "the", "cat", "sat", "on", "mat", "a", "dog"]
backend = Tokenizer(models.WordLevel({w: i for i, w in enumerate(words)}, unk_token="[UNK]"))
backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tokenizer = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="[PAD]")
tokenizer.add_special_tokens({"additional_special_tokens": ["<|user|>", "<|assistant|>", "<|end|>"]})
tokenizer.chat_template = (
    "{% for m in messages %}<|{{ m['role'] }}|> {{ m['content'] }} <|end|> {% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)

torch.manual_seed(0)
embed = torch.nn.Embedding(len(words), 16, padding_idx=0)
proj = torch.nn.Linear(16, 48)

def attend(ids, keep):
    q, k, v = proj(embed(ids)).chunk(3, dim=-1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(16)
    scores = scores.masked_fill(~keep[:, None, :], float("-inf"))
    return scores.softmax(-1) @ v

chats = [[{"role": "user", "content": "the cat sat on the mat"}], [{"role": "user", "content": "a dog"}]]
batch = tokenizer.apply_chat_template(chats, add_generation_prompt=True, padding=True, return_tensors="pt", return_dict=True)
attend(batch["input_ids"], batch["attention_mask"].bool())
ids = tokenizer.apply_chat_template(chats[1], add_generation_prompt=True, return_dict=False)
attend(torch.tensor([ids]), torch.ones(1, len(ids), dtype=torch.bool))
`;

if (existsSync(join(ROOT, '.cache', 'torch-sid', 'installed.txt'))) {
  describe('token ids from apply_chat_template, as the panel labels them (torch 2.14 + transformers)', function () {
    this.timeout(300_000);
    let dir: string;
    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'ai-recorded-chat-'));
      writeFileSync(join(dir, 'chat.py'), CHAT_PROGRAM);
      let stderr = '';
      const code = await runCli(['record', '--python', SID_PYTHON, '--out', join(dir, 'trace'), '--format', 'json', '--', join(dir, 'chat.py')], {
        stdout: () => undefined,
        stderr: (t) => (stderr += t),
      });
      assert.equal(code, 0, stderr);
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('names the tokenizer of chat-templated ids and labels the axes with the template’s tokens', () => {
      const read = traceFileReader(join(dir, 'trace'));
      const trace = parseTrace(new TextDecoder().decode(read('trace.json')), 'trace.json');
      assert.equal(trace.calls.length, 2);
      const labelsOf = (call: TraceCall, batch: number) => recordedLabels(call, readCallTensors(call, read), read, batch).keys!.map((t) => t.text);
      for (const call of trace.calls) assert.equal(call.tokens?.tokenizer?.className !== undefined && call.tokens.tokenizer.file !== null, true);
      const [padded, single] = trace.calls;
      assert.deepEqual(labelsOf(padded, 0), ['<|user|>', 'the', 'cat', 'sat', 'on', 'the', 'mat', '<|end|>', '<|assistant|>']);
      assert.deepEqual(labelsOf(padded, 1), ['<|user|>', 'a', 'dog', '<|end|>', '<|assistant|>', '[PAD]', '[PAD]', '[PAD]', '[PAD]']);
      assert.deepEqual(labelsOf(single, 0), ['<|user|>', 'a', 'dog', '<|end|>', '<|assistant|>']);
      assert.deepEqual(analyseTrace(trace, read).findings, []);
    });
  });
}
