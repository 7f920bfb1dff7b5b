// The heatmaps' colour scales: OKLab conversions against published reference values, and the properties
// that make a scale readable in every theme (monotone distance from the background, enough contrast at the
// top, special colours that cannot be mistaken for scale colours).
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import {
  LUT_SIZE,
  type Rgb,
  type ThemeKind,
  contrastRatio,
  deltaE,
  finiteRange,
  interpolate,
  makePalette,
  oklabToRgb,
  parseColour,
  rampIndex,
  rampValue,
  rgbToOklab,
  scaleFor,
  toHex,
} from '../../../webview/colour-scale';

/** Backgrounds of well-known themes, with the theme family VS Code gives them. */
const THEMES: Array<{ name: string; kind: ThemeKind; bg: Rgb }> = [
  { name: 'Dark Modern', kind: 'dark', bg: [31, 31, 31] },
  { name: 'Dark+', kind: 'dark', bg: [30, 30, 30] },
  { name: 'Monokai', kind: 'dark', bg: [39, 40, 34] },
  { name: 'Solarized Dark', kind: 'dark', bg: [0, 43, 54] },
  { name: 'Light Modern', kind: 'light', bg: [255, 255, 255] },
  { name: 'Solarized Light', kind: 'light', bg: [253, 246, 227] },
  { name: 'Quiet Light', kind: 'light', bg: [245, 245, 245] },
  { name: 'Dark High Contrast', kind: 'high-contrast', bg: [0, 0, 0] },
  { name: 'Light High Contrast', kind: 'high-contrast-light', bg: [255, 255, 255] },
];

describe('webview colour scale', () => {
  describe('OKLab', () => {
    it('matches Björn Ottosson’s published values for white, black and the sRGB primaries', () => {
      // Reference values from https://bottosson.github.io/posts/oklab/ (table of sRGB → OKLab).
      const refs: Array<[Rgb, [number, number, number]]> = [
        [
          [255, 255, 255],
          [1, 0, 0],
        ],
        [
          [0, 0, 0],
          [0, 0, 0],
        ],
        [
          [255, 0, 0],
          [0.627955, 0.224863, 0.125846],
        ],
        [
          [0, 255, 0],
          [0.86644, -0.233888, 0.179498],
        ],
        [
          [0, 0, 255],
          [0.452014, -0.032457, -0.311528],
        ],
      ];
      for (const [rgb, lab] of refs) {
        const got = rgbToOklab(rgb);
        for (let i = 0; i < 3; i++) assert.ok(Math.abs(got[i] - lab[i]) < 2e-4, `${rgb} → ${got} vs ${lab}`);
      }
    });

    it('round-trips every sRGB colour within one unit', () => {
      fc.assert(
        fc.property(fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)), (c) => {
          const back = oklabToRgb(rgbToOklab(c));
          return back.every((v, i) => Math.abs(v - c[i]) <= 1);
        }),
        { numRuns: 500 },
      );
    });

    it('computes WCAG contrast (white on black is 21, a colour on itself 1)', () => {
      assert.ok(Math.abs(contrastRatio([255, 255, 255], [0, 0, 0]) - 21) < 1e-9);
      assert.equal(contrastRatio([120, 30, 200], [120, 30, 200]), 1);
    });
  });

  describe('palettes for real themes', () => {
    for (const { name, kind, bg } of THEMES) {
      it(`${name}: the sequential ramp starts at the background and moves away from it monotonically`, () => {
        const p = makePalette(kind, bg);
        const ramp = p.sequential.colours;
        assert.equal(ramp.length, LUT_SIZE);
        assert.ok(deltaE(ramp[0], bg) < 0.01, 'weight 0 is the background');
        let previous = 0;
        for (let i = 1; i < ramp.length; i++) {
          const d = deltaE(ramp[i], bg);
          assert.ok(d >= previous - 0.004, `${name}: ramp[${i}] ${toHex(ramp[i])} is closer to the background than ramp[${i - 1}]`);
          previous = Math.max(previous, d);
        }
        const top = contrastRatio(ramp[LUT_SIZE - 1], bg);
        assert.ok(top >= (kind.startsWith('high-contrast') ? 7 : 4.5), `${name}: the top colour has contrast ${top.toFixed(2)} against the background`);
        // A weight of 0.1 of the range is already visible (just-noticeable difference is about 0.02).
        assert.ok(deltaE(ramp[Math.round(0.1 * (LUT_SIZE - 1))], bg) > 0.04, `${name}: small weights are invisible`);
      });

      it(`${name}: the diverging ramp is the background at 0 and two distinct hues at the ends`, () => {
        const p = makePalette(kind, bg);
        const d = p.diverging.colours;
        assert.equal(d.length, LUT_SIZE);
        assert.ok(deltaE(d[rampIndex(0, { kind: 'diverging', hi: 1 })], bg) < 0.01, 'zero is the background');
        const mid = LUT_SIZE / 2;
        for (let i = 1; i < mid; i++) {
          assert.ok(deltaE(d[mid + i], bg) >= deltaE(d[mid + i - 1], bg) - 0.004, `positive side not monotone at ${i}`);
          assert.ok(deltaE(d[mid - 1 - i], bg) >= deltaE(d[mid - i], bg) - 0.004, `negative side not monotone at ${i}`);
        }
        assert.ok(deltaE(d[0], d[LUT_SIZE - 1]) > 0.2, 'negative and positive ends look alike');
      });

      it(`${name}: NaN and masked cells cannot be mistaken for scale colours`, () => {
        const p = makePalette(kind, bg);
        for (const c of [...p.sequential.colours, ...p.diverging.colours]) assert.ok(deltaE(c, p.nan) > 0.08, `NaN colour close to ${toHex(c)}`);
        assert.ok(deltaE(p.maskedStripe, bg) > 0.15, 'the mask stripes do not show on the background');
      });
    }
  });

  describe('values to colours', () => {
    it('maps the ends of a sequential range to the ends of the ramp and clamps outside', () => {
      const s = { kind: 'sequential' as const, lo: 0, hi: 0.5 };
      assert.equal(rampIndex(0, s), 0);
      assert.equal(rampIndex(0.5, s), LUT_SIZE - 1);
      assert.equal(rampIndex(7, s), LUT_SIZE - 1);
      assert.equal(rampIndex(-1, s), 0);
      assert.equal(rampIndex(0.25, s), Math.round((LUT_SIZE - 1) / 2));
    });

    it('rampValue inverts rampIndex at every index', () => {
      for (const s of [
        { kind: 'sequential' as const, lo: -2, hi: 3 },
        { kind: 'diverging' as const, hi: 4 },
      ]) {
        for (let i = 0; i < LUT_SIZE; i++) assert.equal(rampIndex(rampValue(i, s), s), i);
      }
    });

    it('chooses a sequential scale for weights and a diverging one for signed scores, ignoring non-finite cells', () => {
      assert.deepEqual(scaleFor([0, 0.2, 0.5, NaN]), { kind: 'sequential', lo: 0, hi: 0.5 });
      assert.deepEqual(scaleFor([0, 0.2, 0.5], { unit: true }), { kind: 'sequential', lo: 0, hi: 1 });
      assert.deepEqual(scaleFor([-3, 1, -Infinity, 2]), { kind: 'diverging', hi: 3 });
      assert.deepEqual(scaleFor([0, 0]), { kind: 'sequential', lo: 0, hi: 1 });
      assert.deepEqual(finiteRange([NaN, -Infinity]), { min: 0, max: 0, maxAbs: 0, finite: 0 });
    });
  });

  it('parses the colour forms VS Code’s variables use', () => {
    assert.deepEqual(parseColour('#1e1e1e'), [30, 30, 30]);
    assert.deepEqual(parseColour('#fff'), [255, 255, 255]);
    assert.deepEqual(parseColour('#26477899'), [38, 71, 120]);
    assert.deepEqual(parseColour(' rgb(10, 20, 30) '), [10, 20, 30]);
    assert.deepEqual(parseColour('rgba(10 20 30 / 50%)'), [10, 20, 30]);
    assert.equal(parseColour('var(--x)'), undefined);
    assert.equal(parseColour(''), undefined);
  });

  it('refuses to interpolate fewer than two stops', () => {
    assert.throws(() => interpolate([[0, 0, 0]], 4), /at least 2 stops/);
    assert.throws(
      () =>
        interpolate(
          [
            [0, 0, 0],
            [1, 1, 1],
          ],
          1,
        ),
      /n must be/,
    );
  });
});
