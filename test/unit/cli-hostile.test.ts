// The CLI on hostile and odd inputs (issue 13), in-process through the same dispatcher as dist/cli.js, each
// case built from a small generated file (large ones are sparse: their size is real, their blocks are not).
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli/main';
import { escapeControls } from '../../src/cli/terminal';
import { readTensorsSync } from '../../src/weights';
import { FIXTURE_DIR, loadFixture } from './helpers/fixtures';
import { safetensorsFile } from './weights/builders';

const BUGGY = `import torch


def attend(q, k, v):
    w = torch.softmax(q @ k.transpose(-2, -1) / 8.0, dim=-2)
    return w @ v
`;

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: (t) => (out += t), stderr: (t) => (err += t) });
  return { code, out, err };
}

/** A file of `size` bytes whose blocks are never written (sparse): a huge input that costs no disk. */
function sparseFile(path: string, size: number, head = ''): void {
  writeFileSync(path, head);
  const fd = openSync(path, 'r+');
  ftruncateSync(fd, size);
  closeSync(fd);
}

describe('CLI: hostile and odd inputs (issue 13)', function () {
  this.timeout(120_000);
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ai-hostile-cli-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('1. inspect reads an .npz whose members sit at unaligned offsets (valid files are not refused)', async () => {
    const r = await run('inspect', '--weights', join(FIXTURE_DIR, 'mha_weights.npz'), '--ids', '1,2,3', '--format', 'json');
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(JSON.parse(r.out).attentions.shape, [1, 1, 3, 3]);
  });

  it('2. a config.json, tokenizer.json or JSON weight file over its limit is refused by size, before it is read or parsed', async () => {
    const ckpt = join(dir, 'ckpt');
    mkdirSync(ckpt);
    writeFileSync(join(ckpt, 'model.safetensors'), readFileSync(join(FIXTURE_DIR, 'gpt2_tiny.safetensors')));
    sparseFile(join(ckpt, 'config.json'), 300 << 20, '[');
    let r = await run('inspect', '--weights', join(ckpt, 'model.safetensors'), '--ids', '1,2');
    assert.equal(r.code, 2);
    assert.match(r.err, /config\.json beside the weights: .*config\.json: 300\.0 MiB is over the limit for a config\.json of 4\.0 MiB; it was not read/);
    writeFileSync(join(ckpt, 'config.json'), JSON.stringify(loadFixture('gpt2_tiny').hf_config_json));
    sparseFile(join(ckpt, 'tokenizer.json'), 300 << 20, '{');
    r = await run('inspect', '--weights', join(ckpt, 'model.safetensors'), '--ids', '1,2');
    assert.equal(r.code, 2);
    assert.match(r.err, /tokenizer\.json: 300\.0 MiB is over the limit for a tokenizer\.json of 128\.0 MiB/);
    sparseFile(join(dir, 'weights.json'), 280 << 20, '{"w": {"shape": [1], "data": [');
    r = await run('inspect', '--weights', join(dir, 'weights.json'), '--ids', '1');
    assert.equal(r.code, 2);
    assert.match(r.err, /weights\.json: 280\.0 MiB is over the limit for JSON weights of 64\.0 MiB; it was not read/);
  });

  it('4. lint: a file with 2,000 nested lambdas appended keeps its findings and says what was not analysed (ATT000, exit 2)', async () => {
    const path = join(dir, 'deep.py');
    writeFileSync(path, `${BUGGY}\nf = ${'lambda: '.repeat(2000)}0\n`);
    const r = await run('lint', '--format', 'json', path);
    assert.equal(r.code, 2, r.err);
    const codes = (JSON.parse(r.out) as { code: string; line: number; severity: string }[]).map((f) => `${f.code}:${f.line}:${f.severity}`);
    assert.ok(codes.includes('ATT001:5:error'), codes.join(' '));
    assert.ok(codes.includes('ATT000:8:warning'), codes.join(' '));
    // --select does not hide it; --ignore ATT000 does.
    assert.ok((await run('lint', '--select', 'ATT001', path)).out.includes('ATT000'));
    const ignored = await run('lint', '--ignore', 'ATT000', path);
    assert.equal(ignored.code, 1);
    assert.ok(!ignored.out.includes('ATT000'));
  });

  it('6. control characters in file names are escaped in text output (lint and inspect)', async () => {
    const evil = join(dir, 'evil\u001b[2J\u202e.py');
    writeFileSync(evil, BUGGY);
    const lint = await run('lint', evil);
    assert.equal(lint.code, 1);
    assert.ok(!/[\u001b\u202e]/.test(lint.out + lint.err), JSON.stringify(lint.out));
    assert.ok(lint.out.includes('evil\\u{001B}[2J\\u{202E}.py:5:'), lint.out);
    const weights = join(dir, 'w\u001b]0;owned\u0007.npz');
    writeFileSync(weights, readFileSync(join(FIXTURE_DIR, 'mha_weights.npz')));
    const inspect = await run('inspect', '--weights', weights, '--ids', '1,2');
    assert.equal(inspect.code, 0, inspect.err);
    assert.ok(!/[\u0007\u001b]/.test(inspect.out), JSON.stringify(inspect.out.slice(0, 200)));
    const missing = await run('inspect', '--weights', join(dir, 'gone\u001b[2J.pt'), '--ids', '1');
    assert.equal(missing.code, 2);
    assert.ok(!/\u001b/.test(missing.err) && missing.err.includes('gone\\u{001B}[2J.pt'), missing.err);
    assert.equal(escapeControls('a\nb\tc\u009b\u2066'), 'a\\nb\\tc\\u{009B}\\u{2066}');
  });

  it('7. a FIFO is refused at once, never read (inspect and lint)', async () => {
    const fifo = join(dir, 'pipe.pt');
    assert.equal(spawnSync('mkfifo', [fifo]).status, 0);
    const r = await run('inspect', '--weights', fifo, '--ids', '1');
    assert.equal(r.code, 2);
    assert.match(r.err, /pipe\.pt: not a regular file \(a FIFO\); only regular files are read/);
    const lintDir = join(dir, 'withfifo');
    mkdirSync(lintDir);
    assert.equal(spawnSync('mkfifo', [join(lintDir, 'pipe.py')]).status, 0);
    writeFileSync(join(lintDir, 'ok.py'), BUGGY);
    const explicit = await run('lint', join(lintDir, 'pipe.py'), join(lintDir, 'ok.py'));
    assert.equal(explicit.code, 2);
    assert.match(explicit.err, /pipe\.py: not a regular file or a directory/);
    assert.match(explicit.out, /ok\.py:5:/);
  });

  it('8. lint sizes a file before reading it: a 1.5 GB .py is skipped and named (exit 2), the rest linted', async () => {
    const big = join(dir, 'bigdir');
    mkdirSync(big);
    sparseFile(join(big, 'huge.py'), 1536 << 20, 'import torch\n');
    writeFileSync(join(big, 'small.py'), BUGGY);
    const r = await run('lint', big);
    assert.equal(r.code, 2);
    assert.match(r.err, /huge\.py: skipped, 1536\.0 MiB is over the lint limit of 8\.0 MiB; it was not read/);
    assert.match(r.out, /small\.py:5:/);
  });

  it('9. inspect refuses, before computing, a run whose printed weights would pass the cap, and says how many tokens fit', async () => {
    // A GPT-2 that claims 256 layers and 2,048 positions (each layer a copy of gpt2_tiny's first).
    const tiny = readTensorsSync(readFileSync(join(FIXTURE_DIR, 'gpt2_tiny.safetensors')), 'gpt2_tiny.safetensors').tensors;
    const entries: { name: string; dtype: string; shape: number[]; data: Uint8Array }[] = [];
    const add = (name: string, shape: number[], data: Float32Array) =>
      entries.push({ name, dtype: 'F32', shape, data: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)) });
    for (const [name, t] of tiny) {
      if (name.startsWith('h.1.')) continue;
      if (name.startsWith('h.0.')) for (let l = 0; l < 256; l++) add(name.replace('h.0.', `h.${l}.`), t.shape, t.data);
      else if (name === 'wpe.weight') add(name, [2048, t.shape[1]], new Float32Array(2048 * t.shape[1]));
      else add(name, t.shape, t.data);
    }
    const ckpt = join(dir, 'deep-gpt2');
    mkdirSync(ckpt);
    writeFileSync(join(ckpt, 'model.safetensors'), safetensorsFile(entries));
    writeFileSync(join(ckpt, 'config.json'), JSON.stringify({ ...loadFixture('gpt2_tiny').hf_config_json, n_layer: 256, n_positions: 2048 }));
    const ids = Array.from({ length: 2048 }, (_, i) => i % 64).join(',');
    const r = await run('inspect', '--weights', join(ckpt, 'model.safetensors'), '--ids', ids, '--format', 'json');
    assert.equal(r.code, 2, r.err);
    assert.equal(r.out, '');
    assert.match(r.err, /2048 tokens through 256 layers × 2 heads would print .* over the limit of 16,777,216; with this model inspect at most 181 tokens/);
    const text = await run('inspect', '--weights', join(ckpt, 'model.safetensors'), '--text', 'word '.repeat(400));
    assert.equal(text.code, 2);
    assert.match(text.err, /more than 181 tokens through 256 layers/);
    const fits = await run('inspect', '--weights', join(ckpt, 'model.safetensors'), '--ids', '1,2,3', '--format', 'json');
    assert.equal(fits.code, 0, fits.err);
    assert.deepEqual(JSON.parse(fits.out).attentions.shape, [256, 2, 3, 3]);
  });

  it('10. symbolic links inside a linted directory are followed, each file once, and a link loop ends', async () => {
    const root = join(dir, 'links');
    mkdirSync(join(root, 'real'), { recursive: true });
    writeFileSync(join(root, 'real', 'model.py'), BUGGY);
    mkdirSync(join(root, 'pkg'));
    symlinkSync(join(root, 'real', 'model.py'), join(root, 'pkg', 'linked.py'));
    symlinkSync(root, join(root, 'pkg', 'loop')); // a directory link back to the top
    symlinkSync(join(root, 'nowhere.py'), join(root, 'pkg', 'dangling.py'));
    const r = await run('lint', '--format', 'json', join(root, 'pkg'));
    const paths = (JSON.parse(r.out) as { path: string }[]).map((f) => f.path.split('/').slice(-2).join('/'));
    assert.deepEqual(paths, ['pkg/linked.py']);
    assert.match(r.err, /dangling\.py: symbolic link not followed \(no such file\)/);
    assert.equal(r.code, 2);
    const top = await run('lint', '--format', 'json', root);
    assert.equal((JSON.parse(top.out) as unknown[]).length, 1, 'the target and its link are one file');
  });
});
