// The API table is the one place that names the APIs the linter knows: the lookup records the evaluator reads
// and every keyword prefilter are built from it. Every API in the table passes every prefilter (they cannot
// drift apart), and removing an API from the table makes code that only it names stop being analysed.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGHT_HAVE_FINDINGS } from '../../../src/lint';
import { API_TABLE, lastName, type ApiRow } from '../../../src/lint/analysis/api-table';
import { MASK_FUNCTIONS, MASK_LAYERS, SDPA_FUNCTIONS, SOFTMAX_FUNCTIONS, SOFTMAX_LAYERS, SOFTMAX_METHOD } from '../../../src/lint/analysis/apis';
import { buildPrefilters, maskArgumentNames, PREFILTERS, type Prefilters } from '../../../src/lint/analysis/prefilters';
import { SITE_TEXT as BLOCK_TEXT } from '../../../src/lint/syntax/blocks';
import { RELEVANT } from '../../../src/lint/syntax/tree';
import { linter, ROOT } from './helpers';

/** A use of the row's API as code writes it. */
function useOf(row: ApiRow): string {
  const name = lastName(row);
  switch (row.form) {
    case 'operator':
      return `scores = q ${row.api} k`;
    case 'method':
      return `y = x.${name}(a, b)`;
    case 'layer':
      return `self.layer = nn.${name}(d)`;
    default:
      return `y = ${name}(a, b)`;
  }
}

const LEVELS = ['file', 'block', 'body', 'activeFunction', 'rootStatement'] as const;

function passesAll(p: Prefilters, text: string): string[] {
  return LEVELS.filter((l) => !p[l].test(text));
}

describe('the API table and the prefilters built from it', () => {
  it('every API in the table passes every prefilter, and so does every mask or causal argument it names', () => {
    for (const row of API_TABLE) assert.deepEqual(passesAll(PREFILTERS, useOf(row)), [], `${row.api}: ${useOf(row)}`);
    for (const name of maskArgumentNames(API_TABLE)) assert.deepEqual(passesAll(PREFILTERS, `f(x, ${name}=m)`), [], name);
    assert.ok(maskArgumentNames(API_TABLE).includes('key_padding_mask') && maskArgumentNames(API_TABLE).includes('is_causal'));
  });

  it("the linter's prefilters are the ones built from the table (none written by hand)", () => {
    assert.equal(MIGHT_HAVE_FINDINGS, PREFILTERS.file);
    assert.equal(BLOCK_TEXT, PREFILTERS.block);
    assert.equal(RELEVANT, PREFILTERS.body);
    // The evaluator keeps its two private: they must be the table's.
    const evaluator = readFileSync(join(ROOT, 'src', 'lint', 'analysis', 'evaluator.ts'), 'utf8');
    assert.match(evaluator, /^const SITE_TEXT = PREFILTERS\.activeFunction;$/m);
    assert.match(evaluator, /^const ROOT_TEXT = PREFILTERS\.rootStatement;$/m);
    assert.equal(buildPrefilters(API_TABLE).file.source, PREFILTERS.file.source, 'building is deterministic');
  });

  it('the matrix-product operator is seen in every form code writes it, and a decorator is not taken for it', () => {
    const uses = [
      'scores = q @ k.transpose(-2, -1)',
      'out = weights@v',
      'scores = (q @\n    k.T)',
      'scores = (\n    q\n    @ k.transpose(-2, -1)\n)',
      'y = f(x)[0] @ w',
    ];
    for (const text of uses) assert.deepEqual(passesAll(PREFILTERS, text), [], text);
    // A class whose only `@` is decorators has no product: no level takes it for one.
    const decorated =
      'class Config:\n    size = 4\n\n    @property\n    def width(self):\n        return self.size\n\n    @staticmethod\n    def make():\n        return Config()\n';
    assert.deepEqual(
      LEVELS.filter((l) => PREFILTERS[l].test(decorated)),
      [],
    );
  });

  it("the evaluator's records come from the rows: softmax axes, mask conventions, kernel parameters", () => {
    const rows = new Map(API_TABLE.map((r) => [r.api, r]));
    for (const [api, sm] of Object.entries({ ...SOFTMAX_FUNCTIONS, ...SOFTMAX_LAYERS }))
      assert.deepEqual({ ...rows.get(api)!.softmax, display: rows.get(api)!.display, framework: rows.get(api)!.framework }, sm, api);
    assert.deepEqual(SOFTMAX_METHOD, { display: 'Tensor.softmax', framework: 'torch', dimParam: 'dim', dimPos: 0, defaultDim: 'implicit' });
    // PyTorch: SDPA's bool attn_mask is True = attend; MultiheadAttention's masks are True = ignore; both add float masks.
    assert.deepEqual(MASK_FUNCTIONS['torch.nn.functional.scaled_dot_product_attention'].params, [
      { name: 'attn_mask', pos: 3, expects: 'keep', additive: true },
    ]);
    assert.deepEqual(
      MASK_LAYERS['torch.nn.MultiheadAttention'].params.map((p) => [p.name, p.expects, p.additive]),
      [
        ['key_padding_mask', 'ignore', true],
        ['attn_mask', 'ignore', true],
      ],
    );
    // Keras: every mask is True at a real position; Keras 3 adds query_mask, value_mask and key_mask by keyword.
    assert.deepEqual(MASK_LAYERS['keras.layers.MultiHeadAttention'].params, [
      { name: 'attention_mask', pos: 3, expects: 'keep', additive: false },
      { name: 'query_mask', expects: 'keep', additive: false },
      { name: 'value_mask', expects: 'keep', additive: false },
      { name: 'key_mask', expects: 'keep', additive: false },
    ]);
    assert.deepEqual(SDPA_FUNCTIONS['flash_attn.flash_attn_func'], {
      display: 'flash_attn_func',
      scaleParam: 'softmax_scale',
      scalePos: 4,
      framework: 'torch',
    });
    for (const row of API_TABLE)
      if (row.kind === 'kernel' || row.kind === 'layer')
        assert.equal(row.defaultScale, /^keras\.layers\.(?:Additive)?Attention$/.test(row.api) ? 'none' : 'inverse-sqrt-head-dim', `${row.api}: default scale`);
    assert.equal(new Set(API_TABLE.map((r) => r.api)).size, API_TABLE.length, 'one row per API');
  });

  for (const { name, code, drop, source } of [
    {
      name: 'flash_attn_func',
      code: 'ATT004',
      drop: (r: ApiRow) => lastName(r) === 'flash_attn_func',
      source: `from flash_attn import flash_attn_func


def attend(q, k, v):
    q = q * q.shape[-1] ** -0.5
    return flash_attn_func(q, k, v)
`,
    },
    {
      name: 'memory_efficient_attention',
      code: 'ATT004',
      drop: (r: ApiRow) => lastName(r) === 'memory_efficient_attention',
      source: `import xformers.ops as xops


def attend(q, k, v):
    q = q * q.shape[-1] ** -0.5
    return xops.memory_efficient_attention(q, k, v)
`,
    },
  ]) {
    it(`removing ${name} from the table makes code that only it names stop being analysed`, async () => {
      const findings = (await linter()).lintPython(source);
      assert.deepEqual(
        findings.map((f) => f.code),
        [code],
        'the case is a finding with the whole table',
      );
      assert.deepEqual(passesAll(PREFILTERS, source), []);
      const without = buildPrefilters(API_TABLE.filter((r) => !drop(r)));
      assert.ok(API_TABLE.some(drop));
      // The file is not parsed at all (the linter returns nothing before parsing), nor would its block be.
      assert.equal(without.file.test(source), false, without.file.source);
      assert.equal(without.block.test(source), false, without.block.source);
    });
  }
});
