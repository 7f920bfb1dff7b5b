// The built CLI: `node dist/cli.js inspect ...` on the PyTorch fixtures (npm test builds dist/ first; when
// dist/cli.js is missing this suite builds it).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_DIR, assertClose, loadFixture, toFloat } from './helpers/fixtures';

const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, 'inspect', ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function json(args: string[]): any {
  const r = cli(...args, '--format', 'json');
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe('attention-inspector inspect (built CLI)', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => {
    if (!existsSync(CLI)) {
      const build = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, encoding: 'utf8' });
      assert.equal(build.status, 0, `build failed: ${build.stderr}`);
    }
    dir = mkdtempSync(join(tmpdir(), 'ai-inspect-cli-'));
    // A checkpoint directory as HF lays it out: weights with config.json beside them.
    copyFileSync(join(FIXTURE_DIR, 'gpt2_tiny.safetensors'), join(dir, 'model.safetensors'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(loadFixture('gpt2_tiny').hf_config_json));
    writeFileSync(join(dir, 'bert_config.json'), JSON.stringify({ model_type: 'bert', ...loadFixture('bert_tiny').config }));
    writeFileSync(join(dir, 'junk.safetensors'), new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gpt2_tiny with the fixture input_ids: JSON attentions equal HF transformers’ within 1e-5', () => {
    const fx = loadFixture('gpt2_tiny');
    const expected = toFloat(fx.expected.attentions).data; // (n_layer, 1, n_head, T, T)
    const explicit = json(['--ids', fx.input_ids.join(','), '--weights', join(FIXTURE_DIR, 'gpt2_tiny.safetensors'), '--config', join(dir, 'config.json')]);
    assert.deepEqual(explicit.attentions.shape, [2, 2, 10, 10]);
    assertClose(explicit.attentions.data, expected, { label: 'attentions (--config)' });
    // config.json found beside the weights gives the same.
    const found = json(['--ids', fx.input_ids.join(','), '--weights', join(dir, 'model.safetensors')]);
    assertClose(found.attentions.data, expected, { label: 'attentions (config.json beside)' });
    assert.equal(found.model.family, 'gpt2');
    assert.equal(found.model.nHead, 2);
    // The English name and description, without the parts the editor translates.
    assert.match(found.model.name, /^GPT-2 model\.safetensors \(2 layers × 2 heads, d_model 16\)$/);
    assert.deepEqual(
      Object.keys(found.model).filter((k) => k.endsWith('Parts')),
      [],
    );
    assert.deepEqual(
      found.tokens.map((t: { id: number }) => t.id),
      fx.input_ids,
    );
  });

  it('bert_tiny with the padded element’s attention mask: JSON attentions equal HF’s', () => {
    const fx = loadFixture('bert_tiny');
    const doc = json([
      '--ids',
      fx.input_ids[0].join(','),
      '--attention-mask',
      fx.attention_mask[0].join(','),
      '--weights',
      join(FIXTURE_DIR, 'bert_tiny.safetensors'),
      '--config',
      join(dir, 'bert_config.json'),
    ]);
    const all = toFloat(fx.expected.attentions); // (n_layer, B, H, T, T)
    const T = 8;
    const expected = new Float32Array(2 * 2 * T * T);
    for (let l = 0; l < 2; l++) expected.set(all.data.subarray((l * 2 + 0) * 2 * T * T, (l * 2 + 1) * 2 * T * T), l * 2 * T * T);
    assertClose(doc.attentions.data, expected, { label: 'bert attentions, batch element 0' });
  });

  it('seeded with a fixed seed: shape [1, H, T, T], rows summing to 1, the same numbers every run', () => {
    const args = ['--text', 'the quick brown fox jumps over the lazy dog', '--seed', '42', '--heads', '3', '--d-model', '12'];
    const a = json(args);
    const b = json(args);
    assert.deepEqual(a.attentions.shape, [1, 3, 9, 9]);
    assert.deepEqual(a.attentions.data, b.attentions.data);
    const T = 9;
    for (let r = 0; r < 3 * T; r++) {
      const sum = a.attentions.data.slice(r * T, (r + 1) * T).reduce((s: number, x: number) => s + x, 0);
      assert.ok(Math.abs(sum - 1) < 1e-5, `row ${r} sums to ${sum}`);
    }
    const causal = json([...args, '--causal']);
    for (let h = 0; h < 3; h++) for (let i = 0; i < T; i++) for (let j = i + 1; j < T; j++) assert.equal(causal.attentions.data[(h * T + i) * T + j], 0);
    assert.notDeepEqual(
      json(['--text', 'the quick brown fox jumps over the lazy dog', '--seed', '43', '--heads', '3', '--d-model', '12']).attentions.data,
      a.attentions.data,
    );
  });

  it('text format by default', () => {
    const r = cli('--text', 'hello world', '--seed', '1');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^model {3}Seeded \(seed 1, 4 heads, d_model 64\)/);
    assert.match(r.stdout, /\nlayer 0 head 3 {3}mean H /);
  });

  it('bad input: exit 2 and a message on stderr', () => {
    const cases: Array<[string[], RegExp]> = [
      [['--text', 'a', '--frobnicate'], /unknown option '--frobnicate'/],
      [[], /give exactly one of --text TEXT or --ids/],
      [['--ids', '1,2,x'], /--ids expects comma-separated non-negative integers/],
      [['--ids', '3,99', '--weights', join(dir, 'model.safetensors')], /token id 99 is outside the vocabulary/],
      [['--text', 'a', '--weights', join(dir, 'nope.safetensors')], /cannot read --weights .*nope\.safetensors: no such file/],
      [['--text', 'a', '--weights', join(dir, 'junk.safetensors')], /junk\.safetensors/],
      [['--ids', '1,2,3', '--weights', join(FIXTURE_DIR, 'bert_tiny.safetensors'), '--config', join(dir, 'nope.json')], /cannot read --config .*nope\.json/],
      [['--text', 'hello', '--weights', join(FIXTURE_DIR, 'bert_tiny.safetensors')], /without a tokenizer\.json, so it can only run on token ids/],
    ];
    for (const [args, message] of cases) {
      const r = cli(...args);
      assert.equal(r.code, 2, `${args.join(' ')} → exit ${r.code}, stderr ${r.stderr}`);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, message, args.join(' '));
    }
  });
});
