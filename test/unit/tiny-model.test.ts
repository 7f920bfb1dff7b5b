// The tiny bilingual model shipped in media/models/tiny-bilingual (trained by scripts/tiny-model/train.py):
// the files are the ones the script wrote (SHA-256 against its manifest), its tokenizer.json gives the same ids
// as the script's byte-level BPE, and the extension's forward pass agrees with the script's PyTorch outputs
// (test/fixtures/tiny-model, recorded by the same run) to 1e-4 on logits and 1e-5 on attention.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decoderForward } from '../../src/models';
import { InspectSession, loadCheckpoint } from '../../src/models/session';
import { tokenizerFromJson } from '../../src/tokenize';
import { readTensors } from '../../src/weights';
import { analyse, loadTinyModel } from '../../scripts/tiny-model/analyse-heads';

const ROOT = join(__dirname, '..', '..');
const MODEL_DIR = join(ROOT, 'media', 'models', 'tiny-bilingual');
const REFERENCE_DIR = join(ROOT, 'test', 'fixtures', 'tiny-model');
const MANIFEST = join(ROOT, 'scripts', 'tiny-model', 'manifest.json');

interface Manifest {
  outputs: Record<string, string>;
  model: { num_hidden_layers: number; num_attention_heads: number; hidden_size: number; vocab_size: number; max_position_embeddings: number };
}
interface Reference {
  texts: Record<string, { text: string; ids: number[]; logits: boolean }>;
  tokenizer_samples: { text: string; ids: number[] }[];
}

const manifest: Manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
const reference: Reference = JSON.parse(readFileSync(join(REFERENCE_DIR, 'reference.json'), 'utf8'));
const read = (dir: string, name: string) => new Uint8Array(readFileSync(join(dir, name)));

/** Largest |a - b| over two equally long arrays (fails on a length mismatch). */
function maxAbsDiff(a: Float32Array, b: Float32Array, what: string): number {
  assert.equal(a.length, b.length, `${what}: ${a.length} values, expected ${b.length}`);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

describe('tiny bilingual model (media/models/tiny-bilingual)', () => {
  it('ships exactly the files scripts/tiny-model/train.py wrote (SHA-256 against manifest.json)', () => {
    const where: Record<string, string> = { 'tiny-bilingual': MODEL_DIR, reference: REFERENCE_DIR };
    const names = Object.keys(manifest.outputs).sort();
    assert.deepEqual(names, [
      'reference/reference.json',
      'reference/reference.safetensors',
      'tiny-bilingual/config.json',
      'tiny-bilingual/model.safetensors',
      'tiny-bilingual/tokenizer.json',
    ]);
    for (const name of names) {
      const [folder, file] = name.split('/');
      const digest = createHash('sha256').update(read(where[folder], file)).digest('hex');
      assert.equal(
        digest,
        manifest.outputs[name],
        `${name}: SHA-256 differs from scripts/tiny-model/manifest.json (retrain with train.py, or restore the file)`,
      );
    }
  });

  it("tokenizes like the training script's byte-level BPE, English and Chinese without unknown tokens", () => {
    const tokenizer = tokenizerFromJson(readFileSync(join(MODEL_DIR, 'tokenizer.json'), 'utf8'));
    assert.equal(tokenizer.vocabSize, manifest.model.vocab_size);
    const samples = [...reference.tokenizer_samples, ...Object.values(reference.texts)];
    assert.ok(samples.length >= 10);
    for (const { text, ids } of samples) {
      const tokens = tokenizer.encode(text);
      assert.deepEqual(
        tokens.map((t) => t.id),
        ids,
        `ids of ${JSON.stringify(text)}`,
      );
      // byte-level: the tokens' bytes are the text's bytes
      const bytes = tokens.flatMap((t) => [...tokenizer.tokenBytes!(t.id!)]);
      assert.deepEqual(Buffer.from(bytes).toString('utf8'), text, `bytes of ${JSON.stringify(text)}`);
    }
  });

  it('loads through the session like any checkpoint and matches PyTorch attention to 1e-5', async () => {
    const reference_ = await readTensors(read(REFERENCE_DIR, 'reference.safetensors'), 'reference.safetensors');
    const session = new InspectSession(loadCheckpoint);
    const info = await session.configure({
      kind: 'file',
      fileName: 'model.safetensors',
      bytes: read(MODEL_DIR, 'model.safetensors'),
      configJson: readFileSync(join(MODEL_DIR, 'config.json'), 'utf8'),
      tokenizerJson: readFileSync(join(MODEL_DIR, 'tokenizer.json'), 'utf8'),
    });
    assert.equal(info.family, 'llama');
    assert.equal(info.rope, true);
    assert.equal(info.tokenizer, 'tokenizer.json');
    const m = manifest.model;
    assert.deepEqual(
      [info.nLayer, info.nHead, info.dModel, info.maxPositions],
      [m.num_hidden_layers, m.num_attention_heads, m.hidden_size, m.max_position_embeddings],
    );
    for (const [key, { text, ids }] of Object.entries(reference.texts)) {
      const run = await session.run({ text, maxTokens: 128 });
      assert.deepEqual(
        run.tokens.map((t) => t.id),
        ids,
        `${key}: token ids`,
      );
      const expected = reference_.get(`${key}.attentions`)!;
      const T = ids.length;
      assert.deepEqual(expected.shape, [info.nLayer, info.nHead, T, T]);
      const diff = maxAbsDiff(run.attentions!, expected.data, `${key} attentions`);
      assert.ok(diff <= 1e-5, `${key}: attention differs from PyTorch by ${diff}`);
    }
  });

  it('matches PyTorch logits to 1e-4', async () => {
    const reference_ = await readTensors(read(REFERENCE_DIR, 'reference.safetensors'), 'reference.safetensors');
    const { checkpoint } = await loadTinyModel(MODEL_DIR);
    const withLogits = Object.entries(reference.texts).filter(([, t]) => t.logits);
    assert.ok(withLogits.length >= 2);
    for (const [key, { ids }] of withLogits) {
      const out = await decoderForward(checkpoint, ids, { logits: true });
      const expected = reference_.get(`${key}.logits`)!;
      assert.deepEqual(out.logits!.shape, expected.shape);
      const diff = maxAbsDiff(out.logits!.data, expected.data, `${key} logits`);
      assert.ok(diff <= 1e-4, `${key}: logits differ from PyTorch by ${diff}`);
    }
  });

  it('has a previous-token head feeding an induction head, on random tokens and on repeated sentences (docs/tiny-model.md)', async () => {
    const a = await analyse(await loadTinyModel(MODEL_DIR));
    const bestBy = (f: (s: (typeof a.heads)[number]) => number) => a.heads.reduce((b, s) => (f(s) > f(b) ? s : b));
    const prev = bestBy((s) => s.prev);
    const induct = bestBy((s) => s.induct);
    const sent = bestBy((s) => s.sent);
    const where = (s: (typeof a.heads)[number]) => `head ${s.layer}.${s.head}`;
    // An even spread over the visible keys gives each pattern its share (evenSpread, computed on the same
    // inputs); a head that does the job puts several times that share where the pattern says. The factors
    // are what "clearly" means here: far above what the model shipped before reached (1.2× on the previous
    // token, 1.2× on the induction target; docs/tiny-model.md) and well below what this model
    // measures (4.9× on the previous token, 20× on the induction target, 9.8× on repeated sentences; 5.3
    // nats gained on the second copy), so a retrain that rounds differently still passes while a model
    // without the circuit fails.
    assert.ok(prev.prev > 3 * a.evenSpread.prev, `${where(prev)}: ${prev.prev} on the previous token, even spread ${a.evenSpread.prev}`);
    assert.ok(induct.induct > 8 * a.evenSpread.induct, `${where(induct)}: ${induct.induct} on the induction target, even spread ${a.evenSpread.induct}`);
    assert.ok(
      sent.sent > 3 * a.evenSpread.sent,
      `${where(sent)}: ${sent.sent} after earlier occurrences in repeated sentences, even spread ${a.evenSpread.sent}`,
    );
    // K-composition: the induction head reads what a previous-token head below it wrote.
    assert.ok(prev.layer < induct.layer, `previous-token ${where(prev)} is not below induction ${where(induct)}`);
    assert.equal(sent.layer, induct.layer, `the induction head on text (${where(sent)}) is not in the induction head's layer (${where(induct)})`);
    // It copies: the second copy of random tokens is predicted far better than the first (which no model can
    // predict: about ln of the number of tokens it spreads over).
    assert.ok(a.copyLoss.second < a.copyLoss.first - 2, `copy loss: first ${a.copyLoss.first}, second ${a.copyLoss.second} nats`);
  });
});
