// Export builders: the current view's weights as CSV and JSON, and its picture as SVG. The webview builds
// the content; the host asks where to save it. Pure. Token text is untrusted: CSV cells are quoted and
// guarded against spreadsheet formulas, SVG text is XML-escaped.
import { type Rgb, type ThemePalette, type ValueScale, rampIndex, rampValue, toHex, LUT_SIZE } from './colour-scale';
import { STACK_LINE, estimateWidth, labelOrientation, labelsExtent } from './axis-labels';
import { fmt } from './format';
import { itemAt } from './checked';

// ----- CSV --------------------------------------------------------------------------------------------

/** The shortest decimal that reads back to the same float32 (0.23, not 0.230000004). */
export function float32Decimal(v: number): number {
  const f = Math.fround(v);
  for (let p = 1; p < 9; p++) {
    const d = +f.toPrecision(p);
    if (Math.fround(d) === f) return d;
  }
  return +f.toPrecision(9);
}

/** A number as CSV text: the shortest float32 round trip; -inf, inf, nan spelled as NumPy/pandas read them. */
export function numberText(v: number): string {
  if (v !== v) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  return String(float32Decimal(v));
}

/**
 * One CSV field (RFC 4180). Text that a spreadsheet would run as a formula (= + - @ tab CR at the start)
 * gets a leading apostrophe; numbers are written as they are.
 */
export function csvField(s: string, opts: { text?: boolean } = { text: true }): string {
  let v = s;
  if (opts.text !== false && /^[=+\-@\t\r]/.test(v)) v = `'${v}`;
  return /[",\r\n]|^\s|\s$/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

export interface MatrixExport {
  rows: number;
  cols: number;
  values: ArrayLike<number>;
  rowLabels: readonly string[];
  colLabels: readonly string[];
  /** The top-left header cell, e.g. "query \ key". */
  corner: string;
}

function checkMatrix(m: MatrixExport, fn: string): void {
  if (m.values.length !== m.rows * m.cols) throw new Error(`${fn}: ${m.values.length} values do not make a ${m.rows}×${m.cols} matrix`);
  if (m.rowLabels.length !== m.rows || m.colLabels.length !== m.cols) {
    throw new Error(`${fn}: expected ${m.rows} row labels and ${m.cols} column labels, got ${m.rowLabels.length} and ${m.colLabels.length}`);
  }
}

/** A matrix as CSV: a header row of column labels, then one row per matrix row led by its label. */
export function matrixCsv(m: MatrixExport): string {
  checkMatrix(m, 'matrixCsv');
  const lines: string[] = [[csvField(m.corner), ...m.colLabels.map((l) => csvField(l))].join(',')];
  for (let i = 0; i < m.rows; i++) {
    const cells = [csvField(itemAt(m.rowLabels, i, 'row labels'))];
    for (let j = 0; j < m.cols; j++) cells.push(numberText(itemAt(m.values, i * m.cols + j, 'matrix values')));
    lines.push(cells.join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

/** Every head's weights in long form: layer,head,query,query_token,key,key_token,weight (layers numbered from firstLayer). */
export function longCsv(
  attentions: ArrayLike<number>,
  nLayer: number,
  nHead: number,
  tokens: readonly string[],
  firstLayer = 0,
  queries: readonly string[] = tokens,
): string {
  const S = tokens.length;
  const T = queries.length;
  if (attentions.length !== nLayer * nHead * T * S) throw new Error(`longCsv: ${attentions.length} values do not make (${nLayer}, ${nHead}, ${T}, ${S})`);
  const quoted = tokens.map((s) => csvField(s));
  const quotedQueries = queries === tokens ? quoted : queries.map((s) => csvField(s));
  const out: string[] = ['layer,head,query,query_token,key,key_token,weight'];
  let k = 0;
  for (let l = 0; l < nLayer; l++) {
    for (let h = 0; h < nHead; h++) {
      for (let i = 0; i < T; i++) {
        const query = itemAt(quotedQueries, i, 'query tokens');
        for (let j = 0; j < S; j++)
          out.push(`${firstLayer + l},${h},${i},${query},${j},${itemAt(quoted, j, 'key tokens')},${numberText(itemAt(attentions, k++, 'weights'))}`);
      }
    }
  }
  return out.join('\r\n') + '\r\n';
}

// ----- JSON -------------------------------------------------------------------------------------------

/**
 * JSON has no NaN or infinities: they are written as the strings "NaN", "Infinity", "-Infinity". Tensor
 * values are float32 and written as their shortest float32 decimal; other numbers as they are.
 */
export function jsonNumber(v: number, float32 = true): number | string {
  if (v !== v) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  return float32 ? float32Decimal(v) : v;
}

/** A tensor as {shape, data} (row-major), the CLI's JSON layout. */
export function tensorJson(values: ArrayLike<number>, shape: readonly number[]): { shape: number[]; data: (number | string)[] } {
  const n = shape.reduce((a, b) => a * b, 1);
  if (values.length !== n) throw new Error(`tensorJson: ${values.length} values do not fill shape (${shape.join(', ')})`);
  return { shape: [...shape], data: Array.from(values, (v) => jsonNumber(v)) };
}

/** Replaces non-finite numbers anywhere in plain data by their JSON strings (for stats objects). */
export function jsonSafe(v: unknown): unknown {
  if (typeof v === 'number') return jsonNumber(v, false);
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v instanceof Float32Array) return Array.from(v, (x) => jsonNumber(x));
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>, (x) => jsonNumber(x, false));
  if (typeof v === 'object' && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = jsonSafe(x);
    return out;
  }
  return v;
}

export function toJson(value: unknown): string {
  return JSON.stringify(jsonSafe(value), null, 1) + '\n';
}

// ----- SVG --------------------------------------------------------------------------------------------

/** Text for XML content and attributes: escaped, and characters XML 1.0 forbids replaced by U+FFFD. */
export function xmlText(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    const allowed = c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);
    if (!allowed) out += '\ufffd';
    else if (ch === '&') out += '&amp;';
    else if (ch === '<') out += '&lt;';
    else if (ch === '>') out += '&gt;';
    else if (ch === '"') out += '&quot;';
    else if (ch === "'") out += '&apos;';
    else out += ch;
  }
  return out;
}

export interface SvgMatrix {
  values: ArrayLike<number>;
  rows: number;
  cols: number;
  scale: ValueScale;
  /** Top-left corner and cell size in SVG units. */
  x: number;
  y: number;
  cell: number;
  rowLabels?: readonly string[];
  colLabels?: readonly string[];
  /** A caption above the matrix (e.g. "Layer 0, head 3"). */
  caption?: string;
}

export interface SvgDocument {
  width: number;
  height: number;
  palette: ThemePalette;
  title: string;
  matrices: SvgMatrix[];
  /** Line segments (the lines view): from (x1,y1) to (x2,y2) with an opacity. */
  lines?: { x1: number; y1: number; x2: number; y2: number; opacity: number; colour: Rgb }[];
  /** Free text (the lines view's token labels). */
  texts?: { x: number; y: number; text: string; anchor: 'start' | 'end'; bold?: boolean }[];
  /** A colour legend for this scale, drawn at the bottom right. */
  legend?: { scale: ValueScale; label: string };
}

function cellColour(v: number, scale: ValueScale, palette: ThemePalette): string {
  if (v !== v) return toHex(palette.nan);
  if (v === Infinity) return toHex(palette.posInf);
  if (v === -Infinity) return 'url(#masked)';
  const ramp = scale.kind === 'sequential' ? palette.sequential.colours : palette.diverging.colours;
  return toHex(itemAt(ramp, rampIndex(v, scale), 'colour ramp'));
}

/** Label font size of a matrix with cells `cell` units wide. */
export function svgLabelFont(cell: number): number {
  return Math.max(6, Math.min(12, cell * 0.8));
}

/** The height the column labels take above a matrix in an SVG export (0 without labels). */
export function svgColumnLabelsExtent(labels: readonly string[] | undefined, cell: number): number {
  if (!labels?.length) return 0;
  const font = svgLabelFont(cell);
  return labelsExtent(
    labels,
    labels.map((l) => estimateWidth(l, font)),
    cell,
    font,
  );
}

/** The widest row label of an SVG export (0 without labels). */
export function svgRowLabelsWidth(labels: readonly string[] | undefined, cell: number): number {
  const font = svgLabelFont(cell);
  return (labels ?? []).reduce((most, l) => Math.max(most, estimateWidth(l, font)), 0);
}

function matrixSvg(m: SvgMatrix, palette: ThemePalette, fg: string): string {
  if (m.values.length !== m.rows * m.cols) throw new Error(`matrixSvg: ${m.values.length} values do not make a ${m.rows}×${m.cols} matrix`);
  const parts: string[] = [];
  const c = m.cell;
  // The caption stands above the column labels, never over them.
  const captionY = m.colLabels?.length ? m.y - svgColumnLabelsExtent(m.colLabels, c) - 10 : m.y - 4;
  if (m.caption) parts.push(`<text x="${m.x}" y="${r2(captionY)}" font-size="11" fill="${fg}">${xmlText(m.caption)}</text>`);
  parts.push(`<g shape-rendering="crispEdges">`);
  for (let i = 0; i < m.rows; i++) {
    // Runs of equal colour along a row become one rectangle.
    let j = 0;
    while (j < m.cols) {
      const at = (col: number): string => cellColour(itemAt(m.values, i * m.cols + col, 'matrix values'), m.scale, palette);
      const colour = at(j);
      let k = j + 1;
      while (k < m.cols && at(k) === colour) k++;
      parts.push(`<rect x="${r2(m.x + j * c)}" y="${r2(m.y + i * c)}" width="${r2((k - j) * c)}" height="${r2(c)}" fill="${colour}"/>`);
      j = k;
    }
  }
  parts.push('</g>');
  const font = svgLabelFont(c);
  if (m.rowLabels) {
    m.rowLabels.forEach((l, i) =>
      parts.push(
        `<text x="${r2(m.x - 4)}" y="${r2(m.y + (i + 0.5) * c)}" font-size="${r2(font)}" text-anchor="end" dominant-baseline="middle" fill="${fg}">${xmlText(l)}</text>`,
      ),
    );
  }
  if (m.colLabels) {
    m.colLabels.forEach((l, j) => {
      const x = r2(m.x + (j + 0.5) * c),
        y = r2(m.y - 4);
      const orientation = labelOrientation(l, estimateWidth(l, font), c, font);
      if (orientation === 'rotated') {
        parts.push(`<text transform="translate(${x} ${y}) rotate(-90)" font-size="${r2(font)}" dominant-baseline="middle" fill="${fg}">${xmlText(l)}</text>`);
      } else if (orientation === 'horizontal') {
        parts.push(`<text x="${x}" y="${r2(m.y - 5)}" font-size="${r2(font)}" text-anchor="middle" fill="${fg}">${xmlText(l)}</text>`);
      } else {
        // CJK set upright, one character per line, the last just above the matrix.
        const chars = [...l];
        const spans = chars.map((ch, k) => `<tspan x="${x}" y="${r2(m.y - 5 - (chars.length - 1 - k) * font * STACK_LINE)}">${xmlText(ch)}</tspan>`).join('');
        parts.push(`<text font-size="${r2(font)}" text-anchor="middle" fill="${fg}" data-upright="stacked">${spans}</text>`);
      }
    });
  }
  return parts.join('\n');
}

const r2 = (v: number): number => Math.round(v * 100) / 100;

function legendSvg(scale: ValueScale, label: string, palette: ThemePalette, x: number, y: number, fg: string): string {
  const ramp = scale.kind === 'sequential' ? palette.sequential.colours : palette.diverging.colours;
  const stops: string[] = [];
  for (let i = 0; i < LUT_SIZE; i += 15) stops.push(`<stop offset="${r2(i / (LUT_SIZE - 1))}" stop-color="${toHex(itemAt(ramp, i, 'colour ramp'))}"/>`);
  stops.push(`<stop offset="1" stop-color="${toHex(itemAt(ramp, LUT_SIZE - 1, 'colour ramp'))}"/>`);
  return [
    `<defs><linearGradient id="legend-ramp">${stops.join('')}</linearGradient></defs>`,
    `<text x="${x}" y="${y - 4}" font-size="11" fill="${fg}">${xmlText(label)}</text>`,
    `<rect x="${x}" y="${y}" width="160" height="10" fill="url(#legend-ramp)"/>`,
    `<text x="${x}" y="${y + 22}" font-size="10" fill="${fg}">${xmlText(fmt(rampValue(0, scale)))}</text>`,
    `<text x="${x + 160}" y="${y + 22}" font-size="10" text-anchor="end" fill="${fg}">${xmlText(fmt(rampValue(LUT_SIZE - 1, scale)))}</text>`,
  ].join('\n');
}

/** A standalone SVG document (background, title, matrices, lines, texts, legend). */
export function buildSvg(doc: SvgDocument): string {
  const { palette } = doc;
  const bg = toHex(palette.background);
  const fg = toHex(palette.foreground);
  const stripe = toHex(palette.maskedStripe);
  const legendH = doc.legend ? 40 : 0;
  const height = doc.height + legendH;
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<svg xmlns="http://www.w3.org/2000/svg" width="${r2(doc.width)}" height="${r2(height)}" viewBox="0 0 ${r2(doc.width)} ${r2(height)}" font-family="sans-serif">`,
    `<title>${xmlText(doc.title)}</title>`,
    `<defs><pattern id="masked" width="4" height="4" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="4" height="4" fill="${bg}"/><rect width="2" height="4" fill="${stripe}"/></pattern></defs>`,
    `<rect width="100%" height="100%" fill="${bg}"/>`,
  ];
  for (const m of doc.matrices) parts.push(matrixSvg(m, palette, fg));
  if (doc.lines?.length) {
    parts.push('<g stroke-linecap="round">');
    for (const l of doc.lines) {
      parts.push(
        `<line x1="${r2(l.x1)}" y1="${r2(l.y1)}" x2="${r2(l.x2)}" y2="${r2(l.y2)}" stroke="${toHex(l.colour)}" stroke-width="1.5" stroke-opacity="${r2(Math.max(0, Math.min(1, l.opacity)))}"/>`,
      );
    }
    parts.push('</g>');
  }
  for (const tx of doc.texts ?? []) {
    parts.push(
      `<text x="${r2(tx.x)}" y="${r2(tx.y)}" font-size="12" text-anchor="${tx.anchor}" dominant-baseline="middle"${tx.bold ? ' font-weight="bold"' : ''} fill="${fg}">${xmlText(tx.text)}</text>`,
    );
  }
  if (doc.legend) parts.push(legendSvg(doc.legend.scale, doc.legend.label, palette, Math.max(8, doc.width - 176), doc.height + 14, fg));
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

/** A file name of letters, digits, '.', '_' and '-' only (anything else becomes '-'). */
export function safeFileName(s: string): string {
  const cleaned = s
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '');
  return (cleaned || 'attention').slice(0, 120);
}

/** A short name for a model in export file names: "seeded", or the model's name before its details. */
export function modelSlug(model: { family: string; name: string }): string {
  const [name = model.name] = model.name.split(' (');
  return model.family === 'seeded' ? 'seeded' : safeFileName(name);
}
