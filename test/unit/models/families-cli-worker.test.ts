// Model folders through the two public doors: the built CLI (`inspect --weights FOLDER_OR_FILE --ids ...
// --attention-mask ...`) and the real engine worker (configureModel with a folder), each against real HF
// transformers 5.12.1 (test/fixtures/modern).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EngineClient } from '../../../src/worker/client';
import { assertClose } from '../helpers/fixtures';
import { fixtureSlice } from './helpers';
import { modernExpected, modernFile, modernPath } from './modern-fixtures';
import { encodeShards } from './safetensors-writer';
import { readTensors } from '../../../src/weights';

const ROOT = join(__dirname, '..', '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function inspectJson(args: string[]): any {
  const r = spawnSync(process.execPath, [CLI, 'inspect', ...args, '--format', 'json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  assert.equal(r.status, 0, `exit ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The (n_layer, H, T, T) attentions of batch element b of a fixture, flattened. */
function expectedAttentions(family: string, b: number): Float32Array {
  const fx = modernExpected(family);
  const [nLayer] = fx.expected.attentions.shape;
  const parts = Array.from({ length: nLayer }, (_, l) => fixtureSlice(fx.expected.attentions, [l, b]).data);
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe("inspect --weights FOLDER_OR_FILE (built CLI) on today's families", function () {
  this.timeout(120_000);
  before(() => {
    if (!existsSync(CLI)) {
      const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(build.status, 0, `build failed: ${build.stderr}`);
    }
  });

  for (const family of ['llama', 'gemma2', 'xlm_roberta']) {
    for (const b of [0, 1]) {
      it(`${family} folder, batch element ${b}: --ids and --attention-mask reproduce HF's attentions`, () => {
        const fx = modernExpected(family);
        const out = inspectJson(['--weights', modernPath(family), '--ids', fx.input_ids[b].join(','), '--attention-mask', fx.attention_mask[b].join(',')]);
        const [nLayer, , H, T] = fx.expected.attentions.shape;
        assert.deepEqual(out.attentions.shape, [nLayer, H, T, T]);
        assertClose(Float32Array.from(out.attentions.data), expectedAttentions(family, b), { atol: 1e-5, label: `${family}[${b}]` });
        assert.equal(out.model.family, family === 'xlm_roberta' ? 'xlm-roberta' : family);
      });
    }
  }

  it('qwen2 model.safetensors given as a file finds config.json beside it', () => {
    const fx = modernExpected('qwen2');
    const out = inspectJson([
      '--weights',
      modernPath('qwen2', 'model.safetensors'),
      '--ids',
      fx.input_ids[0].join(','),
      '--attention-mask',
      fx.attention_mask[0].join(','),
    ]);
    assert.equal(out.model.family, 'qwen2');
    assert.deepEqual(out.model.kvHeads, [0, 0, 0, 0]);
    assertClose(Float32Array.from(out.attentions.data), expectedAttentions('qwen2', 0), { atol: 1e-5 });
  });

  it('a folder without weights exits 2 naming the folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ai-empty-model-'));
    try {
      writeFileSync(join(dir, 'config.json'), '{"model_type": "llama"}');
      const r = spawnSync(process.execPath, [CLI, 'inspect', '--weights', dir, '--ids', '1,2'], { encoding: 'utf8' });
      assert.equal(r.status, 2);
      assert.match(r.stderr, /is a folder without model weights: expected one of model\.safetensors\.index\.json/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('engine worker: configureModel with a model folder', function () {
  this.timeout(60_000);
  let client: EngineClient;
  let dir: string;
  beforeEach(() => {
    client = new EngineClient({ workerPath: join(ROOT, 'src', 'worker', 'main.ts'), execArgv: ['--require', 'tsx/cjs'], workerData: { kernel: 'ts' } });
  });
  afterEach(() => {
    client.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('reads a sharded bf16 Phi-3 folder and a Mistral folder, and exposes the GQA map and windows', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ai-phi3-sharded-'));
    const tensors = await readTensors(modernFile('phi3', 'model.safetensors'), 'model.safetensors');
    for (const [name, bytes] of encodeShards(
      [...tensors].map(([name, t]) => ({ name, shape: t.shape, data: t.data })),
      'BF16',
      50_000,
    ))
      writeFileSync(join(dir, name), bytes);
    writeFileSync(join(dir, 'config.json'), modernFile('phi3', 'config.json'));
    writeFileSync(join(dir, 'tokenizer.json'), modernFile('phi3', 'tokenizer.json'));
    const phi = await client.request('configureModel', { kind: 'folder', fileName: 'phi3-bf16', path: dir });
    assert.equal(phi.family, 'phi3');
    assert.equal(phi.tokenizer, 'tokenizer.json');
    const run = await client.request('run', { text: 'The cat sat.', maxTokens: 64 });
    assert.ok(run.seqLen > 2 && run.attentions);

    const info = await client.request('configureModel', { kind: 'folder', fileName: 'mistral', path: modernPath('mistral') });
    assert.deepEqual(info.kvHeads, [0, 0, 1, 1]);
    assert.deepEqual(info.layerWindows, [5, 5]);
    const fx = modernExpected('mistral');
    const r = await client.request('run', { text: '', ids: fx.input_ids[1], attentionMask: fx.attention_mask[1], maxTokens: 64 });
    assertClose(r.attentions!, expectedAttentions('mistral', 1), { atol: 1e-5 });
    await assert.rejects(
      client.request('configureModel', { kind: 'folder', fileName: 'nowhere', path: join(dir, 'missing') }),
      /nowhere: is a folder without model weights/,
    );
  });
});
