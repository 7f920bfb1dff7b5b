// The colour legend: the ramp with its end values, and swatches for masked (-inf) and NaN cells.
import { LUT_SIZE, type ThemePalette, type ValueScale, rampValue, scaleFor, toHex } from './colour-scale';
import { h } from './dom';
import { fmt } from './format';
import { renderHeatmapPixels } from './heatmap-pixels';
import { t } from './l10n';

export class Legend {
  readonly el: HTMLElement;
  private readonly ramp = h('canvas', { class: 'legend-ramp', attrs: { width: 160, height: 10, 'aria-hidden': 'true' } });
  private readonly lo = h('span', { class: 'legend-value' });
  private readonly hi = h('span', { class: 'legend-value' });
  private readonly caption = h('span', { class: 'legend-caption' });
  private readonly masked = h('canvas', { class: 'legend-swatch', attrs: { width: 12, height: 12, 'aria-hidden': 'true' } });
  private readonly nan = h('span', { class: 'legend-swatch' });
  private readonly specials: HTMLElement;

  constructor() {
    this.specials = h('span', { class: 'legend-specials' }, this.masked, h('span', { text: t('masked (−∞)') }), this.nan, h('span', { text: t('NaN') }));
    this.el = h(
      'div',
      { class: 'legend', attrs: { role: 'group', 'aria-label': t('Colour scale') } },
      this.caption,
      this.lo,
      this.ramp,
      this.hi,
      this.specials,
    );
  }

  update(scale: ValueScale, palette: ThemePalette, caption: string, showSpecials: boolean): void {
    this.caption.textContent = caption;
    this.lo.textContent = fmt(rampValue(0, scale), 3);
    this.hi.textContent = fmt(rampValue(LUT_SIZE - 1, scale), 3);
    const ctx = this.ramp.getContext('2d');
    if (ctx) {
      const values = Float32Array.from({ length: 160 }, (_, i) => rampValue(Math.round((i / 159) * (LUT_SIZE - 1)), scale));
      const img = ctx.createImageData(160, 10);
      renderHeatmapPixels({ values, rows: 1, cols: 160, width: 160, height: 10, palette, scale, gapFrom: 0 }, img.data);
      ctx.putImageData(img, 0, 0);
    }
    const mctx = this.masked.getContext('2d');
    if (mctx) {
      const img = mctx.createImageData(12, 12);
      renderHeatmapPixels({ values: [-Infinity], rows: 1, cols: 1, width: 12, height: 12, palette, scale, gapFrom: 0 }, img.data);
      mctx.putImageData(img, 0, 0);
    }
    this.nan.style.backgroundColor = toHex(palette.nan);
    this.specials.hidden = !showSpecials;
    this.el.setAttribute('aria-label', t('Colour scale from {0} to {1}', this.lo.textContent, this.hi.textContent));
  }
}

/** The legend's caption for weights: with a stretched scale it says so, so a flat matrix is not read as peaked. */
export function weightCaption(unit: boolean, values: ArrayLike<number>): string {
  if (unit) return t('weight');
  const scale = scaleFor(values);
  return scale.kind === 'sequential' && scale.hi < 1
    ? t('weight (colours stretched: the strongest colour is the largest weight, {0}, not 1)', fmt(scale.hi, 3))
    : t('weight');
}
