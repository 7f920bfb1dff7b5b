// Export builders: CSV that a spreadsheet or pandas reads back exactly (and that cannot smuggle a formula),
// JSON with every weight, and SVG in which token text stays text.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { makePalette } from '../../../webview/colour-scale';
import {
  buildSvg,
  csvField,
  jsonNumber,
  jsonSafe,
  longCsv,
  matrixCsv,
  modelSlug,
  numberText,
  safeFileName,
  tensorJson,
  toJson,
  xmlText,
} from '../../../webview/exports';

/** A small RFC 4180 reader, written for this test (independent of the writer). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [],
    field = '',
    quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

const HOSTILE = '<img src=x onerror="alert(1)">';
const palette = makePalette('light', [255, 255, 255]);

describe('webview exports', () => {
  it('writes numbers that read back to the same float32, and spells out the non-finite ones', () => {
    fc.assert(
      fc.property(fc.float({ noNaN: true, noDefaultInfinity: true }), (x) => {
        const f = Math.fround(x);
        return Math.fround(Number(numberText(f))) === f;
      }),
    );
    assert.deepEqual([NaN, Infinity, -Infinity].map(numberText), ['nan', 'inf', '-inf']);
    assert.deepEqual(
      [NaN, Infinity, -Infinity, 0.5].map((x) => jsonNumber(x)),
      ['NaN', 'Infinity', '-Infinity', 0.5],
    );
  });

  it('quotes CSV fields that need it and defuses spreadsheet formulas in token text', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField(' world'), '" world"');
    assert.equal(csvField('line\nbreak'), '"line\nbreak"');
    assert.equal(csvField('=HYPERLINK("http://x")'), `"'=HYPERLINK(""http://x"")"`);
    assert.equal(csvField('+1'), "'+1");
    assert.equal(csvField('@SUM(A1)'), "'@SUM(A1)");
    assert.equal(csvField('-1', { text: false }), '-1');
  });

  it('writes a matrix CSV that parses back to its labels and values', () => {
    const labels = ['0:The', '1: cat', '2:"q"', `3:${HOSTILE}`];
    const values = Float32Array.from([0.1, 0.2, 0.3, 0.4, 1, 0, -Infinity, NaN, 0.25, 0.25, 0.25, 0.25, 1e-9, 0.5, 0.5, 0]);
    const text = matrixCsv({ rows: 4, cols: 4, values, rowLabels: labels, colLabels: labels, corner: 'query\\key' });
    const rows = parseCsv(text);
    assert.equal(rows.length, 5);
    assert.deepEqual(rows[0], ['query\\key', ...labels]);
    for (let i = 0; i < 4; i++) {
      assert.equal(rows[i + 1][0], labels[i]);
      for (let j = 0; j < 4; j++) {
        const cell = rows[i + 1][j + 1];
        const v = values[i * 4 + j];
        if (Number.isNaN(v)) assert.equal(cell, 'nan');
        else if (v === -Infinity) assert.equal(cell, '-inf');
        else assert.equal(Math.fround(Number(cell)), v);
      }
    }
    assert.throws(() => matrixCsv({ rows: 2, cols: 2, values: [1], rowLabels: ['a', 'b'], colLabels: ['a', 'b'], corner: '' }), /1 values do not make a 2×2/);
    assert.throws(() => matrixCsv({ rows: 1, cols: 1, values: [1], rowLabels: [], colLabels: ['a'], corner: '' }), /expected 1 row labels/);
  });

  it('writes every head in long form, one row per weight', () => {
    const tokens = ['a', '=b'];
    const w = Float32Array.from({ length: 2 * 3 * 4 }, (_, i) => i / 100);
    const rows = parseCsv(longCsv(w, 2, 3, tokens));
    assert.equal(rows.length, 1 + 24);
    assert.deepEqual(rows[0], ['layer', 'head', 'query', 'query_token', 'key', 'key_token', 'weight']);
    assert.deepEqual(rows[24], ['1', '2', '1', "'=b", '1', "'=b", '0.23']);
    assert.equal(parseCsv(longCsv(w.subarray(0, 4), 1, 1, tokens, 7))[1][0], '7');
    assert.throws(() => longCsv(w, 2, 2, tokens), /do not make \(2, 2, 2, 2\)/);
  });

  it('writes tensors as {shape, data} and keeps non-finite numbers as strings', () => {
    const t = tensorJson([1, -Infinity, NaN, 0.5], [2, 2]);
    assert.deepEqual(t, { shape: [2, 2], data: [1, '-Infinity', 'NaN', 0.5] });
    assert.throws(() => tensorJson([1, 2, 3], [2, 2]), /3 values do not fill shape \(2, 2\)/);
    const round = JSON.parse(toJson({ stats: { entropy: [NaN, 1], x: new Float32Array([Infinity]) } }));
    assert.deepEqual(round, { stats: { entropy: ['NaN', 1], x: ['Infinity'] } });
    assert.deepEqual(jsonSafe('text'), 'text');
  });

  it('escapes token text in SVG: a hostile token stays text', () => {
    assert.equal(xmlText(HOSTILE), '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    assert.equal(xmlText('a\u0000b\u0007c\ud800'), 'a\ufffdb\ufffdc\ufffd');
    const svg = buildSvg({
      width: 200,
      height: 200,
      palette,
      title: HOSTILE,
      matrices: [
        {
          values: [0.5, -Infinity, NaN, 1],
          rows: 2,
          cols: 2,
          scale: { kind: 'sequential', lo: 0, hi: 1 },
          x: 60,
          y: 60,
          cell: 20,
          rowLabels: [HOSTILE, 'b'],
          colLabels: ['a', HOSTILE],
          caption: HOSTILE,
        },
      ],
      texts: [{ x: 1, y: 1, text: HOSTILE, anchor: 'start' }],
      lines: [{ x1: 0, y1: 0, x2: 1, y2: 1, opacity: 0.5, colour: [1, 2, 3] }],
      legend: { scale: { kind: 'sequential', lo: 0, hi: 1 }, label: 'weight' },
    });
    const tags = new Set([...svg.matchAll(/<\/?([A-Za-z?][\w:-]*)/g)].map((m) => m[1]));
    assert.deepEqual([...tags].sort(), ['?xml', 'defs', 'g', 'line', 'linearGradient', 'pattern', 'rect', 'stop', 'svg', 'text', 'title'].sort());
    assert.ok(!svg.includes('<img'));
    assert.ok(svg.includes('fill="url(#masked)"'), 'the -inf cell uses the stripe pattern');
    assert.ok(svg.includes(`fill="#${palette.nan.map((c) => c.toString(16).padStart(2, '0')).join('')}"`), 'the NaN cell has the NaN colour');
  });

  it('merges runs of equal colour into one rectangle', () => {
    const svg = buildSvg({
      width: 100,
      height: 100,
      palette,
      title: 't',
      matrices: [{ values: new Float32Array(16).fill(0.5), rows: 4, cols: 4, scale: { kind: 'sequential', lo: 0, hi: 1 }, x: 0, y: 0, cell: 10 }],
    });
    assert.equal((svg.match(/<rect x=/g) ?? []).length, 4, 'one rectangle per row');
  });

  it('makes file names safe', () => {
    assert.equal(safeFileName('Seeded (seed 0, 4 heads)'), 'Seeded-seed-0-4-heads');
    assert.equal(safeFileName('../../etc/passwd'), 'etc-passwd');
    assert.equal(safeFileName('a:b*c?"<>|'), 'a-b-c');
    assert.equal(safeFileName('...'), 'attention');
    assert.equal(safeFileName('注意力 权重'), '注意力-权重');
    assert.equal(modelSlug({ family: 'seeded', name: 'Seeded (seed 0, 4 heads, d_model 64)' }), 'seeded');
    assert.equal(modelSlug({ family: 'gpt2', name: 'GPT-2 gpt2_tiny.safetensors (2 layers × 1 head, d_model 16)' }), 'GPT-2-gpt2_tiny.safetensors');
  });
});
