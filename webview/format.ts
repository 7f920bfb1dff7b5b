// Number and token formatting for labels, tooltips and tables. Pure. Token text is untrusted: these
// functions only return strings, which the views put into textContent or canvas fillText, never HTML.

/** A number for display: up to 4 significant digits, exponents for tiny/huge values, −∞/+∞/NaN spelled out. */
export function fmt(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '+∞';
  if (x === -Infinity) return '−∞';
  if (x === 0) return '0';
  const a = Math.abs(x);
  const s = a >= 1e5 || a < 1e-4 ? x.toExponential(Math.max(0, digits - 2)) : String(+x.toPrecision(digits));
  return s.replace('-', '−');
}

/** A shape as PyTorch prints it: (9, 9). */
export function fmtShape(shape: readonly number[]): string {
  return `(${shape.join(', ')})`;
}

/** Control and invisible characters made visible; whitespace-only tokens stay recognisable. */
export function visibleToken(display: string): string {
  let out = '';
  for (const ch of display) {
    const c = ch.codePointAt(0)!;
    if (ch === ' ') out += '␣';
    else if (ch === '\n') out += '↵';
    else if (ch === '\t') out += '⇥';
    else if (ch === '\r') out += '␍';
    else if (c < 0x20 || (c >= 0x7f && c < 0xa0)) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c === 0x200b || c === 0x200c || c === 0x200d || c === 0xfeff || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) {
      out += `\\u${c.toString(16).padStart(4, '0')}`; // zero-width and bidi controls
    } else out += ch;
  }
  return out === '' ? '∅' : out;
}

/** Cuts a label to at most `max` characters (code points), with an ellipsis. */
export function truncate(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : chars.slice(0, Math.max(1, max - 1)).join('') + '…';
}

/** The label of a token on an axis: its visible text, cut to `max` characters. */
export function tokenLabel(display: string, max = 16): string {
  return truncate(visibleToken(display), max);
}

/** Short list of row indices: "0, 1, 2, 3, 4, …" with the total when cut. */
export function rowList(rows: readonly number[], max = 8): string {
  if (rows.length <= max) return rows.join(', ');
  return `${rows.slice(0, max).join(', ')}, … (${rows.length})`;
}

/** Percent with one decimal: 99.5%. */
export function pct(x: number): string {
  return `${Math.round(x * 1000) / 10}%`;
}
