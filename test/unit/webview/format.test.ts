// Formatting for labels and tooltips: numbers, special values, and untrusted token text made visible
// (control, zero-width and bidi characters shown as escapes) and cut by characters, not UTF-16 units.
import { strict as assert } from 'node:assert';
import { fmt, fmtShape, pct, rowList, tokenLabel, truncate, visibleToken } from '../../../webview/format';
import { headColours, lineSegments } from '../../../webview/lines-model';
import { deltaE } from '../../../webview/colour-scale';

describe('webview formatting', () => {
  it('formats numbers and special values', () => {
    assert.equal(fmt(0.123456), '0.1235');
    assert.equal(fmt(-2.5), '−2.5');
    assert.equal(fmt(1e-7), '1.00e−7');
    assert.equal(fmt(123456), '1.23e+5');
    assert.equal(fmt(0), '0');
    assert.equal(fmt(NaN), 'NaN');
    assert.equal(fmt(null), 'NaN');
    assert.equal(fmt(-Infinity), '−∞');
    assert.equal(fmt(Infinity), '+∞');
    assert.equal(fmtShape([9, 64]), '(9, 64)');
    assert.equal(pct(0.99), '99%');
    assert.equal(rowList([1, 2, 3]), '1, 2, 3');
    assert.equal(rowList(Array.from({ length: 12 }, (_, i) => i)), '0, 1, 2, 3, 4, 5, 6, 7, … (12)');
  });

  it('makes invisible and dangerous characters visible', () => {
    assert.equal(visibleToken(' world'), '␣world');
    assert.equal(visibleToken('a\nb\tc'), 'a↵b⇥c');
    assert.equal(visibleToken('\u0000\u001b'), '\\x00\\x1b');
    assert.equal(visibleToken('ab\u202ecd'), 'ab\\u202ecd', 'a right-to-left override cannot reorder the label');
    assert.equal(visibleToken('\u200b'), '\\u200b');
    assert.equal(visibleToken(''), '∅');
    assert.equal(visibleToken('<img src=x onerror=alert(1)>'), '<img␣src=x␣onerror=alert(1)>', 'text stays text (the views never parse it)');
  });

  it('cuts labels by characters, never inside a surrogate pair', () => {
    assert.equal(truncate('自然语言处理', 4), '自然语…');
    assert.equal(truncate('😀😀😀😀', 3), '😀😀…');
    assert.equal(truncate('short', 10), 'short');
    assert.equal(tokenLabel(' 我爱自然语言处理', 5), '␣我爱自…');
  });

  it('draws lines only for visible weights, for one query or one key when asked', () => {
    const w = Float32Array.from([0.9, 0.1, 0.01, NaN]);
    assert.deepEqual(lineSegments([{ head: 0, weights: w }], 2), [
      { query: 0, key: 0, opacity: Math.fround(0.9), head: 0 },
      { query: 0, key: 1, opacity: Math.fround(0.1), head: 0 },
    ]);
    assert.deepEqual(
      lineSegments([{ head: 0, weights: w }], 2, { focusKey: 1 }).map((s) => s.query),
      [0],
    );
    assert.deepEqual(lineSegments([{ head: 3, weights: w }], 2, { focusQuery: 1 }), []);
    assert.throws(() => lineSegments([{ head: 0, weights: w }], 3), /head 0 has 4 weights, expected 3²/);
  });

  it('gives overlaid heads distinguishable colours', () => {
    for (const dark of [true, false]) {
      const c = headColours(12, dark);
      for (let i = 0; i < c.length; i++) for (let j = i + 1; j < c.length; j++) assert.ok(deltaE(c[i], c[j]) > 0.05, `heads ${i} and ${j} look alike`);
    }
  });
});
