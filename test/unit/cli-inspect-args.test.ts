// `attention-inspector inspect` in-process: flag parsing, output helpers, and runs through inspectMain
// with captured output (the built CLI is exercised in cli-inspect.test.ts).
import { strict as assert } from 'node:assert';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { displayWidth, float32Json, inspectMain, parseInspectArgs, summarizeHead, terminalText } from '../../src/cli/inspect';
import { FIXTURE_DIR, assertClose, loadFixture, toFloat } from './helpers/fixtures';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await inspectMain(args, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

describe('inspect: flags', () => {
  it('parses every option, in both --flag value and --flag=value forms', () => {
    const o = parseInspectArgs([
      '--ids',
      '1, 2,3',
      '--attention-mask=1,1,0',
      '--weights',
      'm.safetensors',
      '--config',
      'c.json',
      '--tokenizer=t.json',
      '--seed',
      '7',
      '--causal',
      '--format',
      'json',
    ]);
    assert.deepEqual(o, {
      causal: true,
      format: 'json',
      help: false,
      ids: [1, 2, 3],
      attentionMask: [1, 1, 0],
      weights: 'm.safetensors',
      config: 'c.json',
      tokenizer: 't.json',
      seed: 7,
    });
    assert.deepEqual(parseInspectArgs(['--text', '--not a flag', '--heads', '2', '--d-model', '8']), {
      causal: false,
      format: 'text',
      help: false,
      text: '--not a flag',
      weights: undefined,
      config: undefined,
      tokenizer: undefined,
      heads: 2,
      dModel: 8,
    });
    assert.equal(parseInspectArgs(['-h']).help, true);
  });

  const bad: Array<[string[], RegExp]> = [
    [[], /give exactly one of --text TEXT or --ids/],
    [['--text', 'a', '--ids', '1'], /give exactly one of --text TEXT or --ids/],
    [['--ids', '1,x'], /--ids expects comma-separated non-negative integers, got '1,x'/],
    [['--ids', '-1'], /--ids expects comma-separated non-negative integers/],
    [['--ids', ''], /--ids expects/],
    [['--text', 'a', '--attention-mask', '1,2'], /--attention-mask expects comma-separated 0\/1 values, got '1,2'/],
    [['--text', 'a', '--config', 'c.json'], /--config goes with --weights/],
    [['--text', 'a', '--tokenizer', 't.json'], /--tokenizer goes with --weights/],
    [['--text', 'a', '--weights', 'm.pt', '--heads', '2'], /--heads describes the seeded model; with --weights the checkpoint and its config\.json decide/],
    [['--text', 'a', '--heads', '0'], /--heads expects a positive integer, got '0'/],
    [['--text', 'a', '--d-model', '1.5'], /--d-model expects a positive integer, got '1\.5'/],
    [['--text', 'a', '--seed', '4294967296'], /--seed must be at most 4294967295/],
    [['--text', 'a', '--format', 'xml'], /--format expects text or json, got 'xml'/],
    [['--text', 'a', '--text', 'b'], /--text is given more than once/],
    [['--text'], /--text needs a value/],
    [['--text', 'a', '--frobnicate'], /unknown option '--frobnicate'/],
    [['--text', 'a', 'stray'], /unexpected argument 'stray'/],
    [['--text', 'a', '--causal=yes'], /--causal takes no value/],
  ];
  for (const [args, message] of bad) {
    it(`rejects ${JSON.stringify(args)}`, () => assert.throws(() => parseInspectArgs(args), message));
  }
});

describe('inspect: output helpers', () => {
  it('float32Json gives the shortest decimal that reads back as the same float32', () => {
    assert.equal(float32Json(Math.fround(0.1)), '0.1');
    assert.equal(float32Json(1), '1');
    assert.equal(float32Json(0), '0');
    assert.equal(float32Json(Math.fround(1 / 3)), '0.33333334');
    assert.equal(float32Json(NaN), '"NaN"');
    assert.equal(float32Json(-Infinity), '"-Infinity"');
    const bits = new Uint32Array(1);
    const f = new Float32Array(bits.buffer);
    let state = 12345;
    for (let i = 0; i < 20000; i++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      bits[0] = state;
      const x = f[0];
      if (!Number.isFinite(x)) continue;
      const text = float32Json(x);
      assert.equal(Math.fround(JSON.parse(text)), x, `${text} reads back as ${x}`);
      const significant = text.replace(/^-|e.*$|\./g, '').replace(/^0+|0+$/g, '');
      assert.ok(significant.length <= 9, `${text} has at most 9 significant digits`);
    }
  });

  it('terminalText escapes control, zero-width and direction characters', () => {
    assert.equal(terminalText('cat'), '"cat"');
    assert.equal(terminalText('a\nb\t"c"\\'), '"a\\nb\\t\\"c\\"\\\\"');
    assert.equal(terminalText('\u001b[31mred'), '"\\u{001B}[31mred"');
    assert.equal(terminalText('\u202eevil'), '"\\u{202E}evil"');
    assert.equal(terminalText('猫 ␣world'), '"猫 ␣world"');
  });

  it('displayWidth counts wide characters as two columns', () => {
    assert.equal(displayWidth('cat'), 3);
    assert.equal(displayWidth('"猫が"'), 6);
    assert.equal(displayWidth('ｃａｔ'), 6); // full-width Latin
    assert.equal(displayWidth('한국'), 4);
  });

  it('summarizeHead: top 3 keys by weight (ties to the earlier key, zeros left out) and row entropies', () => {
    const w = Float32Array.from([1, 0, 0, 0.25, 0.25, 0.5, 0.1, 0.2, 0.7]);
    const { rows, meanEntropy } = summarizeHead(w, 3);
    assert.deepEqual(rows[0].top, [{ key: 0, weight: 1 }]);
    assert.deepEqual(
      rows[1].top.map((t) => t.key),
      [2, 0, 1],
    );
    assert.deepEqual(
      rows[2].top.map((t) => t.key),
      [2, 1, 0],
    );
    const h = (ps: number[]) => -ps.reduce((s, p) => s + (p > 0 ? p * Math.log(p) : 0), 0);
    const expected = [h([1]), h([0.25, 0.25, 0.5]), h([0.1, 0.2, 0.7].map(Math.fround))];
    assertClose(
      rows.map((r) => r.entropy),
      expected,
      { atol: 1e-6 },
    );
    assertClose(meanEntropy, (expected[0] + expected[1] + expected[2]) / 3, { atol: 1e-6 });
  });

  it('summarizeHead agrees with a full sort on random rows with ties, zeros and NaN', () => {
    const T = 9;
    let state = 99;
    const next = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (let trial = 0; trial < 200; trial++) {
      const w = Float32Array.from({ length: T * T }, () => {
        const u = next();
        return u < 0.2 ? 0 : u < 0.3 ? 0.25 : u < 0.32 ? NaN : u;
      });
      const { rows } = summarizeHead(w, T);
      for (let i = 0; i < T; i++) {
        const keys = Array.from({ length: T }, (_, j) => j).filter((j) => w[i * T + j] !== 0);
        const rank = (j: number) => (Number.isNaN(w[i * T + j]) ? -Infinity : w[i * T + j]);
        keys.sort((a, b) => rank(b) - rank(a) || a - b);
        assert.deepEqual(
          rows[i].top.map((t) => t.key),
          keys.slice(0, 3),
          `trial ${trial} row ${i}`,
        );
      }
    }
  });
});

describe('inspect: runs (in process)', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'ai-inspect-'));
    copyFileSync(join(FIXTURE_DIR, 'gpt2_tiny.safetensors'), join(dir, 'gpt2_tiny.safetensors'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify(loadFixture('gpt2_tiny').hf_config_json));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gpt2_tiny with config.json found beside it: JSON attentions equal HF’s', async () => {
    const fx = loadFixture('gpt2_tiny');
    const { code, stdout, stderr } = await run(['--ids', fx.input_ids.join(','), '--weights', join(dir, 'gpt2_tiny.safetensors'), '--format', 'json']);
    assert.equal(stderr, '');
    assert.equal(code, 0);
    const doc = JSON.parse(stdout);
    assert.deepEqual(doc.attentions.shape, [2, 2, 10, 10]);
    assertClose(doc.attentions.data, toFloat(fx.expected.attentions).data, { label: 'attentions' });
    assert.equal(doc.model.family, 'gpt2');
    assert.equal(doc.heads.length, 4);
    assert.equal(doc.tokens.length, 10);
    assert.deepEqual(
      doc.tokens.map((t: { id: number }) => t.id),
      fx.input_ids,
    );
  });

  it('text format: a header, then per head each query’s top keys and entropy', async () => {
    const { code, stdout } = await run(['--text', 'the cat saw the dog', '--seed', '3', '--heads', '2', '--d-model', '8', '--causal']);
    assert.equal(code, 0);
    assert.match(stdout, /^model {3}Seeded \(seed 3, 2 heads, d_model 8\)/);
    assert.match(stdout, /tokens {2}5: 0 "the" {2}1 "cat" {2}2 "saw" {2}3 "the" {2}4 "dog"/);
    assert.match(stdout, /\nlayer 0 head 1 {3}mean H \d\.\d{3}\n/);
    // Causal: the first query attends only to itself.
    assert.match(stdout, /\n {2}0 "the" → 0 "the" 1\.000 +H 0\.000\n/);
  });

  it('bad input: exit 2 and a message on stderr, nothing on stdout', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--ids', '3,64', '--weights', join(dir, 'gpt2_tiny.safetensors')], /token id 64 is outside the vocabulary/],
      [['--text', 'hi', '--weights', join(dir, 'missing.safetensors')], /cannot read --weights .*missing\.safetensors: no such file/],
      [['--text', 'hi', '--weights', dir], /: is a folder without model weights: expected one of model\.safetensors\.index\.json/],
      [['--text', 'hi', '--weights', join(dir, 'config.json')], /config\.json/],
      [['--ids', '1,2', '--attention-mask', '1'], /attention mask has 1 entries but there are 2 tokens/],
      [['--text', '   '], /nothing to inspect/],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await run(args);
      assert.equal(code, 2, args.join(' '));
      assert.equal(stdout, '');
      assert.match(stderr, /^attention-inspector inspect: /);
      assert.match(stderr, message);
    }
  });
});
