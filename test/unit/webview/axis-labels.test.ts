// Column labels above a matrix: CJK and short tokens stand upright, only long Latin tokens are turned, in
// the panel's canvas (same rules) and in SVG exports, where the caption stays clear of the labels.
import { strict as assert } from 'node:assert';
import { estimateWidth, isUprightScript, labelOrientation, labelsExtent } from '../../../webview/axis-labels';
import { makePalette } from '../../../webview/colour-scale';
import { buildSvg, svgColumnLabelsExtent } from '../../../webview/exports';

const palette = makePalette('dark', [30, 30, 30]);

describe('column labels', () => {
  it('knows the scripts set upright in vertical text', () => {
    for (const s of ['我', '自然', '。', 'カタカナ', '한국어', '（', '处理…']) assert.ok(isUprightScript(s), s);
    for (const s of ['cat', '我a', '␣', '1', '']) assert.ok(!isUprightScript(s), s);
  });

  it('sets a label that fits its column horizontally, CJK stacked upright, and turns only long Latin labels', () => {
    const font = 12;
    assert.equal(labelOrientation('the', estimateWidth('the', font), 24, font), 'horizontal');
    assert.equal(labelOrientation('我', estimateWidth('我', font), 24, font), 'horizontal');
    assert.equal(labelOrientation('自然语言', estimateWidth('自然语言', font), 24, font), 'stacked');
    assert.equal(labelOrientation('because', estimateWidth('because', font), 24, font), 'rotated');
    assert.equal(labelOrientation('很长很长很长很长很长', estimateWidth('很长很长很长很长很长', font), 24, font), 'rotated', 'over 8 characters: turned');
    assert.equal(labelsExtent(['the', '自然'], [18, 24], 24, font), 2 * font * 1.1);
  });

  function labelTexts(svg: string) {
    const caption = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.-]+)" font-size="11"[^>]*>([^<]*)<\/text>/g)].map((m) => ({ y: Number(m[2]), text: m[3] }));
    const rotated = [...svg.matchAll(/<text transform="translate\(([\d.]+) ([\d.]+)\) rotate\(-90\)" font-size="([\d.]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
      text: m[4],
      top: Number(m[2]) - estimateWidth(m[4], Number(m[3])),
    }));
    const stacked = [...svg.matchAll(/<text font-size="([\d.]+)" text-anchor="middle"[^>]*data-upright="stacked">(.*?)<\/text>/g)].map((m) => {
      const spans = [...m[2].matchAll(/<tspan x="[\d.]+" y="([\d.-]+)">([^<]*)<\/tspan>/g)];
      return { text: spans.map((s) => s[2]).join(''), top: Math.min(...spans.map((s) => Number(s[1]))) - Number(m[1]) };
    });
    const horizontal = [...svg.matchAll(/<text x="[\d.]+" y="([\d.-]+)" font-size="([\d.]+)" text-anchor="middle"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
      text: m[3],
      top: Number(m[1]) - Number(m[2]),
    }));
    return { caption, rotated, stacked, horizontal };
  }

  it('an SVG export sets 我爱自然语言处理。 upright and draws its caption above the labels', () => {
    const tokens = ['我', '爱', '自然', '语言', '处理', '。', 'because', 'cat'];
    const cell = 24,
      T = tokens.length;
    const top = Math.ceil(svgColumnLabelsExtent(tokens, cell)) + 34;
    const svg = buildSvg({
      width: 400,
      height: top + T * cell + 20,
      palette,
      title: 'seeded',
      matrices: [
        {
          values: new Float32Array(T * T).fill(1 / T),
          rows: T,
          cols: T,
          scale: { kind: 'sequential', lo: 0, hi: 1 },
          x: 60,
          y: top,
          cell,
          rowLabels: tokens,
          colLabels: tokens,
          caption: 'layer 0, head 1',
        },
      ],
    });
    const l = labelTexts(svg);
    assert.deepEqual(
      l.rotated.map((x) => x.text),
      ['because'],
      'only the long Latin token is turned',
    );
    assert.deepEqual(
      l.stacked.map((x) => x.text),
      ['自然', '语言', '处理'],
    );
    assert.deepEqual(l.horizontal.map((x) => x.text).sort(), ['cat', '。', '我', '爱'].sort());
    const caption = l.caption.find((c) => c.text === 'layer 0, head 1');
    assert.ok(caption, 'the caption is drawn');
    const highest = Math.min(...[...l.rotated, ...l.stacked, ...l.horizontal].map((x) => x.top));
    assert.ok(caption.y < highest - 2, `caption baseline ${caption.y} is above the highest label top ${highest}`);
    assert.ok(caption.y - 11 >= 0, 'and inside the picture');
  });
});
