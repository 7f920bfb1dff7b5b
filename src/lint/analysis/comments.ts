// Shapes stated in comments and docstrings: `x = ...  # (B, nh, T, hs)` and `q: (n_head * B, L, d_k)`.
// Authors write these to document layouts; the linter reads them as the rank (and axis names) of the value.
import { axisLabelOfName } from './names';
import type { AxisInfo } from './values';

// A size may carry a mark (`S*`, `S'`: a variant of S, such as the windowed part of a sequence).
// `?` is a size not known until run time, as TensorFlow 1 and Keras print a batch axis (`(?, maxlen, 1)`).
const DIM_ITEM = /^\s*(?:[A-Za-z_][\w.]*['*]?|\d+|\.\.\.|\?)(?:\s*[*/+\-]{1,2}\s*(?:[A-Za-z_][\w.]*|\d+))*\s*$/;

/** Parses the inside of a parenthesised shape: "B, nh, T, hs" → axis infos; undefined if it is not a shape. */
export function parseShapeItems(inner: string): AxisInfo[] | undefined {
  // "[B x M x E]": sizes separated by a spaced x instead of commas (no comma at all).
  const byX = !inner.includes(',') && /^\s*[A-Za-z_]\w*(?:\s+x\s+[A-Za-z_]\w*)+\s*$/.test(inner);
  const items = joinWordedSizes((byX ? inner.split(/\s+x\s+/) : inner.split(',')).map((s) => s.trim()));
  if (!items) return undefined;
  if (items.length > 0 && items[items.length - 1] === '') items.pop();
  if (items.length < 1 || items.length > 6) return undefined;
  if (!items.every((i) => DIM_ITEM.test(i))) return undefined;
  // A leading ellipsis ("..., n, d_k") states only the trailing axes: returned with a leading '...' marker.
  if (items.some((i, k) => i === '...' && k > 0)) return undefined;
  // A single item without a trailing comma is an ordinary parenthetical, not a shape.
  if (items.length === 1 && !/,\s*$/.test(inner)) return undefined;
  const axes = items.map((i): AxisInfo => {
    if (i === '...') return { sizeText: '...' };
    if (i === '?') return {};
    if (i === '1') return { size1: true };
    if (/^[A-Za-z_][\w.]*$/.test(i)) {
      const label = axisLabelOfName(i);
      return label ? { label, sizeText: i, stated: true } : { sizeText: i };
    }
    if (/\/\/?\s*(n_?heads?|num_heads|nh|h|heads)\b/i.test(i)) return { label: 'feat' as const, sizeText: i, stated: true };
    return { sizeText: i };
  });
  // A shape naming the batch or the heads twice (`(b, bs, s)`) does not say which axis is which: its rank stands,
  // those labels do not (a comment decides an axis only when it names the axes unambiguously).
  const twice = (['batch', 'head'] as const).filter((l) => axes.filter((a) => a.label === l).length > 1);
  if (twice.length === 0) return axes;
  return axes.map((a) => (a.label && (twice as readonly string[]).includes(a.label) ? { ...(a.sizeText !== undefined ? { sizeText: a.sizeText } : {}) } : a));
}

/**
 * Sizes written in words ("[batch size, src len, enc hid dim * 2]", the seq2seq tutorials' style) joined with
 * underscores. Accepted only when a joined size names a known axis (batch, sequence, heads, features), so an
 * ordinary parenthetical ("(see the paper, section 3)") is not read as a shape.
 */
function joinWordedSizes(items: string[]): string[] | undefined {
  const worded = /[A-Za-z_]\w*\s+[A-Za-z_]/;
  if (!items.some((i) => worded.test(i))) return items;
  let labelled = false;
  const out: string[] = [];
  for (const item of items) {
    if (!worded.test(item)) {
      out.push(item);
      continue;
    }
    const words = (item.split(/\s*[*/+\-]\s*/)[0] ?? '').trim().split(/\s+/);
    if (words.length > 4) return undefined;
    const joined = item.replace(/([A-Za-z_]\w*)\s+(?=[A-Za-z_])/g, '$1_');
    const head = (joined.split(/\s*[*/+\-]/)[0] ?? '').trim();
    if (axisLabelOfName(head)) labelled = true;
    out.push(joined);
  }
  return labelled ? out : undefined;
}

/** The shape a trailing comment states for the value on its line ("# (B, T, C)", "# ... -> (B, nh, T, hs)"). */
export function trailingCommentShape(comment: string): AxisInfo[] | undefined {
  const body = comment.replace(/^#\s*/, '');
  let target = body;
  // "(B, L, H) -> (B, L)", "=> (B, L)" and "→ (B, L)" all read input to output: the value is the last shape.
  const arrows = [...body.matchAll(/->|=>|\u2192/g)];
  const last = arrows[arrows.length - 1];
  const arrow = last ? last.index : -1;
  if (last) target = body.slice(last.index + last[0].length);
  const m = /^\s*(?:shape\s*[:=]?\s*)?[([]([^()[\]]*)[)\]]/.exec(target) ?? (arrow >= 0 ? /[([]([^()[\]]*)[)\]]/.exec(target) : null);
  if (!m) return undefined;
  // "# [B, K, 1] or [B, K, C]": shapes offered as alternatives (the value takes one or the other by a setting) state
  // neither, so no axis of them is known to have length 1.
  if (/^\s*(?:or\b|\|)\s*(?:shape\s*)?[([]/i.test(target.slice(m.index + m[0].length))) return undefined;
  // "# (bs, T, 1, S) * heads": the shape of each of `heads` tensors in a list the line builds, not of the value.
  if (/^\s*(?:\*|\u00d7|x)\s*(?:[A-Za-z_]\w*|\d+)\b(?!\s*[([])/.test(target.slice(m.index + m[0].length))) return undefined;
  return parseShapeItems(m[1] ?? ''); // a regex group of a match is there
}

/** `name: (a, b, c)` / `name (Tensor): [a, b, c]` / `name: shape (a, b)` statements in comments or docstrings. */
export function namedShapes(textBlock: string): Map<string, AxisInfo[]> {
  const out = new Map<string, AxisInfo[]>();
  const re = /\b([A-Za-z_]\w*)\s*(?:\([^()]*\))?\s*:\s*(?:[A-Za-z.]*\s+)?(?:of\s+)?(?:shape\s*)?[([]([^()[\]]*)[)\]]/g;
  for (let m = re.exec(textBlock); m; m = re.exec(textBlock)) {
    const [, name = '', shape = ''] = m;
    const axes = parseShapeItems(shape);
    if (axes && !out.has(name)) out.set(name, axes);
  }
  // `q, k, v: (B, H, T, d)`: one shape stated for several names.
  const listed = /\b((?:[A-Za-z_]\w*\s*,\s*)+[A-Za-z_]\w*)\s*:\s*(?:[A-Za-z.]*\s+)?(?:of\s+)?(?:shape\s*)?[([]([^()[\]]*)[)\]]/g;
  for (let m = listed.exec(textBlock); m; m = listed.exec(textBlock)) {
    const [, names = '', shape = ''] = m;
    const axes = parseShapeItems(shape);
    if (!axes) continue;
    for (const name of names.split(',').map((n) => n.trim())) if (!out.has(name)) out.set(name, axes);
  }
  // `name = [batch size, src len]` (the tutorials' comment style): only with a size that names a known axis, so
  // commented-out code (`# x = [1, 2]`) is not read as a shape.
  const assigned = /\b([A-Za-z_]\w*)\s*=\s*[([]([^()[\]]*)[)\]]/g;
  for (let m = assigned.exec(textBlock); m; m = assigned.exec(textBlock)) {
    const [, name = '', shape = ''] = m;
    const axes = parseShapeItems(shape);
    if (axes && axes.some((a) => a.label === 'batch' || a.label === 'seq') && !out.has(name)) out.set(name, axes);
  }
  // `# lstm_output [3, 10, 16]  h_t [10, 16]` (several names on one comment line, square brackets, no colon).
  const bracketed = /\b([A-Za-z_]\w*)[ \t]+\[([^()[\]]*,[^()[\]]*)\]/g;
  for (let m = bracketed.exec(textBlock); m; m = bracketed.exec(textBlock)) {
    const [, name = '', shape = ''] = m;
    const axes = parseShapeItems(shape);
    if (axes && !out.has(name)) out.set(name, axes);
  }
  return out;
}

/**
 * Where a parameter's description may start: at the start of a line (after indentation, `#`, a docstring's opening
 * quotes, a bullet, `:param` / `@param` and a type), or after a `;`, `,` or `.` that ends the entry before it
 * (`"""x: (B, S); mask: (B, S), True on padding."""`). Not after another word: `# Build additive mask: 0 for keep, -inf
 * for masked` describes the value the code builds, not the parameter `mask` (session 49).
 */
const PARAM_DOC_LEAD =
  '(?:(?:^|\\n)[ \\t]*(?:#+[ \\t]*)?(?:[rRuUbB]{0,2}(?:"""|\'\'\'|"|\'))?[ \\t]*(?:[-*+][ \\t]+)?(?:[:@]param[ \\t]+(?:[\\w.[\\], ]+?[ \\t]+)?)?|[;,.][ \\t]+)[`*]*';

/** The text a comment or docstring gives about one parameter: after `name:` up to `;`, a newline or the next `other:`. */
export function paramDoc(textBlock: string, name: string): string | undefined {
  if (!textBlock.includes(name)) return undefined; // the pattern below needs the name itself (most blocks are empty)
  const re = new RegExp(`${PARAM_DOC_LEAD}${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(?:\\([^()]*\\))?\\s*:([^;\\n]*)`, 'g');
  const m = re.exec(textBlock);
  if (!m) return undefined;
  // Stop at the next "word:" that starts another parameter's description.
  // A one-line docstring ends the description with its closing quotes (`"""x: (B, S); mask: (B, S), True on padding."""`).
  return m[1]?.split(/[,.]\s+[A-Za-z_]\w*\s*:/)[0]?.replace(/\s*("""|''')[\s\S]*$/, '');
}

/** Mask semantics a parameter's description states: dtype and what True/1 means. */
export function maskFromDoc(description: string): { dtype?: 'bool' | 'int' | 'float'; polarity?: 'keep' | 'ignore'; additive?: boolean } {
  const out: { dtype?: 'bool' | 'int' | 'float'; polarity?: 'keep' | 'ignore'; additive?: boolean } = {};
  // A float mask's values written as floats ("1.0 = may attend, 0.0 = padding") are the 1 and 0 of the statements
  // below; the 0 after the point of "1.0" is not a statement about 0 (it read "1.0 = keep" as "0 = keep").
  // An arrow to a shape describes what the code makes of the parameter ("(B, S) 1 = attend -> (B, 1, 1, S)
  // additive"), which the code itself shows: only the text before it describes the parameter ("True -> pad",
  // an arrow to a word, still states a meaning).
  const doc = (description.split(/(?:->|=>|\u2192)\s*[([]/)[0] ?? description).replace(/(?<![\w.])([01])\.0*(?![\w.])/g, '$1');
  if (/\bbool(ean)?\b/i.test(doc)) out.dtype = 'bool';
  else if (/\b(long|int(64|32)?)\b/i.test(doc)) out.dtype = 'int';
  else if (/\bfloat\b/i.test(doc)) out.dtype = 'float';
  const ignoreWords =
    "(pad|padding|padded|masked|mask(ed)?\\s*out|ignore[d]?|not\\s+allowed|do\\s+not\\s+attend|don't\\s+attend|invalid|blocked|excluded|hidden|future)";
  const keepWords = '(keep|kept|attend|attended|real|valid|token|tokens|visible|allowed|may\\s+attend|can\\s+attend|present)';
  // "True = pad", "1 for real tokens", also with a subject: "True where the key is padding", "1 if the token is valid".
  const sep = '\\s*(=|==|means|:|is|at|for|->|marks|where|when|if|on)?\\s*(the\\s+|a\\s+)?([a-z_]+\\s+(is|are)\\s+(the\\s+|a\\s+)?)?';
  // The first statement wins: "True at the real tokens (a padding mask would be True at the padding)" states the
  // meaning first and mentions the other convention after it.
  const first = (...res: RegExp[]): number => Math.min(...res.map((re) => re.exec(doc)?.index ?? Infinity));
  // A 1 or 0 inside a number ("1e9", "0.5", "-1") states nothing about a mask's entries.
  const one = '(?<![\\w.\\-])(True|1)(?![\\w.]\\w)';
  const zero = '(?<![\\w.\\-])(False|0)(?![\\w.]\\w)';
  // "True means the key is not padding", "1 for non-padded positions", "0 = not attended": a negated word states
  // the other meaning (before the plain forms, whose words would otherwise be read past the "not").
  const not = '(not|non-?)\\s*';
  const ignoreAt = first(
    new RegExp(`${one}${sep}${not}${keepWords}`, 'i'),
    new RegExp(`${zero}${sep}${not}${ignoreWords}`, 'i'),
    new RegExp(`${one}${sep}(?!not|non)${ignoreWords}`, 'i'),
    new RegExp(`${zero}${sep}(?!not|non)${keepWords}`, 'i'),
  );
  const keepAt = first(
    new RegExp(`${one}${sep}${not}${ignoreWords}`, 'i'),
    new RegExp(`${zero}${sep}${not}${keepWords}`, 'i'),
    new RegExp(`${one}${sep}(?!not|non)${keepWords}`, 'i'),
    new RegExp(`${zero}${sep}(?!not|non)${ignoreWords}`, 'i'),
  );
  // "additive mask (0 for valid, -inf for invalid)": the 0 is a bias value, not a False entry of a boolean mask. But
  // "additive" said after a True/1 statement ("1 for real tokens, 0 for padding, made additive below") describes what
  // the code makes of the mask: the first statement is still the meaning. Offered as another form the parameter may
  // take ("bool (True = masked out) or an additive float mask"), it leaves the meaning open, read as additive.
  const additiveAt = /additive|-\s*inf\b|large negative|-\s*1e\d|-\s*10{3,}\b|(?<![\w.])0\s*(=|for|at)\s*(keep|attend)/i.exec(doc)?.index ?? Infinity;
  const alternative = /\bor\s+(?:an?\s+)?(?:\w+\s+){0,2}(?:additive|-inf\b|large negative)/i.test(doc);
  // A description whose only statements are about 0 ("0 kept, -inf masked", "0 = valid, -1e9 = padding") names the
  // values of an additive mask: a 0/1 mask holds no -inf, and the 0 is the bias of the kept positions, wherever the
  // -inf is written. A True/1 statement ("1 for real tokens, 0 for padding, -inf after the conversion below") still
  // states a 0/1 mask's meaning first.
  // "positions with 0 are set to -inf", "entries equal to 0 are filled with -1e9": what the code does with the 0 (or
  // True/1) entries of a 0/1 mask, not the values of an additive one; as the first statement it states which entries
  // are hidden (0 set to -inf: a keep mask).
  const becomes =
    '\\s+(?:are|is|get|gets|will\\s+be)?\\s*(?:set|filled|replaced|turned|changed)\\s+(?:to|with|by|into)\\s+(?:-\\s*inf\\b|a\\s+large\\s+negative|-\\s*1e\\d|-\\s*10{3,}\\b)';
  const zeroHidden = first(new RegExp(`${zero}${becomes}`, 'i'));
  const oneHidden = first(new RegExp(`${one}${becomes}`, 'i'));
  const hiddenAt = Math.min(zeroHidden, oneHidden);
  if (hiddenAt !== Infinity && hiddenAt <= Math.min(ignoreAt, keepAt)) {
    out.polarity = zeroHidden < oneHidden ? 'keep' : 'ignore';
    return out;
  }
  const oneAt = first(new RegExp(`${one}${sep}(?:${not})?(?:${keepWords}|${ignoreWords})`, 'i'));
  const zeroOnly = additiveAt !== Infinity && oneAt === Infinity && /-\s*inf\b|large negative|-\s*1e\d|-\s*10{3,}\b/i.test(doc);
  if (additiveAt !== Infinity && (alternative || zeroOnly || additiveAt <= Math.min(ignoreAt, keepAt))) {
    out.additive = true;
    return out;
  }
  if (ignoreAt < keepAt) out.polarity = 'ignore';
  else if (keepAt < ignoreAt) out.polarity = 'keep';
  return out;
}
