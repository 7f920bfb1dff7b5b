// Splits Python source into top-level blocks (a statement that starts at column 0, with the comments and blank
// lines after it) without parsing it. The parser parses each block on its own (and only the blocks that can
// matter), which keeps large files and whole repositories cheap and lets an edited file reuse the blocks that
// did not change.
//
// The scan tracks what can make a column-0 line not start a statement: an open string (triple-quoted strings
// span lines), an open bracket, a backslash continuation. Merging two statements into one block is always
// safe (a larger region parses the same); splitting inside a statement is not, so whenever the scan is unsure
// it merges. Half-typed code (an unclosed bracket) is cut at the next column-0 `def`/`class`/decorator so that
// one broken statement does not swallow the rest of the file.
import { PREFILTERS } from '../analysis/prefilters';

export type BlockKind = 'def' | 'class' | 'statement';

export interface SourceBlock {
  /** UTF-16 offsets into the source: [start, end). Consecutive blocks tile the source. */
  readonly start: number;
  readonly end: number;
  readonly kind: BlockKind;
  /** For def/class blocks: the defined name (decorators included in the block). */
  readonly name?: string;
  /** Brackets nest deeper than MAX_BRACKET_DEPTH somewhere in the block: it is not parsed. */
  readonly tooDeep?: boolean;
}

/**
 * A block whose brackets nest deeper than this is not parsed at all: tree-sitter's memory grows with the
 * nesting (about 750 bytes a level: 8 MB of '(' took it past 3 GB). CPython refuses more than 200 ("too many
 * nested parentheses"); up to this depth the block is parsed and only its part past MAX_TREE_DEPTH is cut.
 */
export const MAX_BRACKET_DEPTH = 10_000;

const LF = 10;
const CR = 13;
const HASH = 35;
const DQUOTE = 34;
const SQUOTE = 39;
const BACKSLASH = 92;

const DEF_LINE = /^(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)/;
const CLASS_LINE = /^class[ \t]+([A-Za-z_]\w*)/;
/** Lines that always start a new statement at column 0, even after an unclosed bracket. */
const HARD_START = /^(?:@|(?:async[ \t]+)?def[ \t]|class[ \t])/;

/**
 * Top-level blocks of `source`, in order, covering all of it. Each block starts at a statement that begins
 * at column 0 (the first block at offset 0); decorators and the definition they decorate are one block.
 */
export function splitTopLevel(source: string): SourceBlock[] {
  const starts: number[] = [];
  /** Where brackets first nest past MAX_BRACKET_DEPTH (once per crossing). */
  const deep: number[] = [];
  const n = source.length;
  let depth = 0;
  /** Length of the open string's closing quote (1 or 3), 0 outside strings; quoteChar is its character. */
  let quote = 0;
  let quoteChar = 0;
  let i = 0;
  let lineStart = true;
  let continued = false;
  while (i < n) {
    if (lineStart) {
      lineStart = false;
      // A one-line string cannot cross a line break (half-typed code): it ended with the line.
      if (quote === 1) quote = 0;
      const c = source.charCodeAt(i);
      const blank = c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 35; /* space, tab, \n, \r, \f, # */
      if (!blank && quote === 0 && !continued) {
        if (depth === 0) starts.push(i);
        else if (HARD_START.test(source.slice(i, i + 12))) {
          // Half-typed code before this line (an unclosed bracket): start over here.
          depth = 0;
          starts.push(i);
        }
      }
      continued = false;
    }
    const ch = source.charCodeAt(i);
    if (quote !== 0) {
      if (ch === BACKSLASH) {
        // An escaped character (an escaped line break continues the string on the next line).
        i += source.charCodeAt(i + 1) === CR && source.charCodeAt(i + 2) === LF ? 3 : 2;
        continue;
      }
      if (ch === LF || ch === CR) {
        i += ch === CR && source.charCodeAt(i + 1) === LF ? 2 : 1;
        lineStart = true;
        continue;
      }
      if (ch === quoteChar && (quote === 1 || (source.charCodeAt(i + 1) === ch && source.charCodeAt(i + 2) === ch))) {
        i += quote;
        quote = 0;
        continue;
      }
      i++;
      continue;
    }
    switch (ch) {
      case HASH:
        // Comment to the end of the line.
        while (i < n && source.charCodeAt(i) !== LF && source.charCodeAt(i) !== CR) i++;
        continue;
      case DQUOTE:
      case SQUOTE:
        quoteChar = ch;
        quote = source.charCodeAt(i + 1) === ch && source.charCodeAt(i + 2) === ch ? 3 : 1;
        i += quote;
        continue;
      case 40: // (
      case 91: // [
      case 123: // {
        depth++;
        if (depth === MAX_BRACKET_DEPTH + 1) deep.push(i);
        break;
      case 41: // )
      case 93: // ]
      case 125: // }
        if (depth > 0) depth--;
        break;
      case BACKSLASH: {
        // Line continuation: the next line belongs to this statement.
        const next = source.charCodeAt(i + 1);
        if (next === LF || next === CR) {
          i += next === CR && source.charCodeAt(i + 2) === LF ? 3 : 2;
          lineStart = true;
          continued = true;
          continue;
        }
        break;
      }
      case LF:
      case CR:
        i += ch === CR && source.charCodeAt(i + 1) === LF ? 2 : 1;
        lineStart = true;
        continue;
      default:
        break;
    }
    i++;
  }
  const blocks = toBlocks(source, starts);
  if (deep.length === 0) return blocks;
  let d = 0;
  return blocks.map((b) => {
    while ((deep[d] ?? Infinity) < b.start) d++; // past the end: no deep position left
    const next = deep[d];
    return next !== undefined && next < b.end ? { ...b, tooDeep: true } : b;
  });
}

function toBlocks(source: string, starts: number[]): SourceBlock[] {
  // Decorators belong to the definition that follows them.
  const merged: number[] = [];
  let decorating = false;
  for (const s of starts) {
    const isDecorator = source.charCodeAt(s) === 64; /* @ */
    // Decorators and the definition after them stay in the block the first decorator opened.
    if (!decorating) merged.push(s);
    decorating = isDecorator;
  }
  if (merged.length === 0 || merged[0] !== 0) merged.unshift(0);
  const out: SourceBlock[] = [];
  for (const [k, start] of merged.entries()) {
    const end = merged[k + 1] ?? source.length;
    if (end <= start) continue;
    out.push({ start, end, ...classify(source, start, end) });
  }
  return out;
}

/** What a block defines: skips leading comments, blank lines and decorators (with their arguments). */
function classify(source: string, start: number, end: number): { kind: BlockKind; name?: string } {
  let i = start;
  for (;;) {
    // Skip blank and comment lines.
    while (i < end && /[ \t\r\n\f]/.test(source.charAt(i))) i++;
    if (i < end && source[i] === '#') {
      while (i < end && source[i] !== '\n') i++;
      continue;
    }
    if (i < end && source[i] === '@') {
      // A decorator line (its arguments may span lines: skip to the matching bracket depth 0 newline).
      let depth = 0;
      while (i < end) {
        const c = source[i];
        if (c === '(' || c === '[' || c === '{') depth++;
        else if (c === ')' || c === ']' || c === '}') depth--;
        else if (c === '\n' && depth <= 0) break;
        i++;
      }
      continue;
    }
    break;
  }
  const head = source.slice(i, Math.min(end, i + 200));
  const d = DEF_LINE.exec(head);
  if (d) return { kind: 'def', name: d[1] };
  const c = CLASS_LINE.exec(head);
  if (c) return { kind: 'class', name: c[1] };
  return { kind: 'statement' };
}

/**
 * Text without which a block holds no site any rule reads: a softmax, a product of q and k, a fill, an
 * attention API or layer, a mask handed to one, a causal flag (built from the API table).
 */
export const SITE_TEXT = PREFILTERS.block;

const IMPORT_LINE = /^[ \t]*(?:import|from)[ \t]/m;
const SHORT_STATEMENT_LINES = 40;
const IDENTIFIER = /[A-Za-z_]\w*/g;

/**
 * Which blocks to parse: definitions that hold a site, the definitions those refer to by name (classes
 * they build or derive from, helpers they call, transitively) and the definitions that call a site-holding
 * function (a helper is judged in each caller's context); imports and short statements always (they bind
 * the names everything else reads). `helpers`, when given, is set true for the functions kept only because a
 * kept block calls or names them (or they call a site-holding function): their bodies are copied whole, since
 * what they return is read at their call sites whatever their text.
 */
export function selectBlocks(source: string, blocks: readonly SourceBlock[], helpers?: boolean[]): boolean[] {
  const texts = blocks.map((b) => source.slice(b.start, b.end));
  const keep = texts.map((t, i) =>
    blocks[i]?.kind === 'statement' ? IMPORT_LINE.test(t) || lineCount(t) <= SHORT_STATEMENT_LINES || SITE_TEXT.test(t) : SITE_TEXT.test(t),
  );
  const byName = new Map<string, number[]>();
  blocks.forEach((b, i) => {
    if (!b.name) return;
    const l = byName.get(b.name);
    if (l) l.push(i);
    else byName.set(b.name, [i]);
  });
  if (byName.size === 0) return keep;
  // Callers of site-holding functions, and code that builds a site-holding class (it then calls the instance), to
  // three levels (a model that builds an encoder that builds the attention layer, and the code that calls the model).
  let callees = blocks.filter((b, i) => keep[i] && (b.kind === 'def' || b.kind === 'class') && b.name).map((b) => b.name!);
  for (let round = 0; round < 3 && callees.length > 0; round++) {
    // ... or maps one with jax.vmap (`jax.vmap(attend, in_axes=(0, None))(q, mask)`: calling the result calls it).
    const names = callees.slice(0, 300).join('|');
    const callRe = new RegExp(`\\b(?:${names})\\s*\\(|\\bvmap\\s*\\(\\s*(?:(?:functools\\.)?partial\\s*\\(\\s*)?(?:${names})\\b`);
    // ... or names one as a value to call it through another name (`attn_fn = chunked_attention if flag else attention`).
    const valueRe = new RegExp(`(?:[^=!<>]=|\\belse)[ \\t]*(?:${callees.slice(0, 300).join('|')})[ \\t]*(?:\\bif\\b|#|\\r?\\n|$)`, 'm');
    // A subclass of a site-holding class runs its methods (`class CausalAttention(Attention)`): built, it is called.
    const subclassRe = new RegExp(`^\\s*class\\s+\\w+\\s*\\([^)]*\\b(?:${callees.slice(0, 300).join('|')})\\b`);
    const added: string[] = [];
    blocks.forEach((b, i) => {
      if (
        !keep[i] &&
        b.kind !== 'statement' &&
        (callRe.test(texts[i] ?? '') || valueRe.test(texts[i] ?? '') || (b.kind === 'class' && subclassRe.test(texts[i] ?? '')))
      ) {
        keep[i] = true;
        if (helpers && b.kind === 'def') helpers[i] = true;
        if (b.name) added.push(b.name);
      }
    });
    callees = added;
  }
  // Definitions referred to by kept blocks, to a fixed point (no scanning once every definition is kept).
  let unkeptDefinitions = 0;
  blocks.forEach((b, i) => {
    if (b.name && !keep[i]) unkeptDefinitions++;
  });
  const scanned = new Set<number>();
  const work = keep.map((k, i) => (k ? i : -1)).filter((i) => i >= 0);
  while (work.length > 0 && unkeptDefinitions > 0) {
    const i = work.pop()!;
    if (scanned.has(i)) continue;
    scanned.add(i);
    IDENTIFIER.lastIndex = 0;
    const seen = new Set<string>();
    const text = texts[i] ?? ''; // i indexes blocks, as texts does
    for (let m = IDENTIFIER.exec(text); m; m = IDENTIFIER.exec(text)) {
      const name = m[0];
      if (seen.has(name)) continue;
      seen.add(name);
      for (const j of byName.get(name) ?? []) {
        if (!keep[j]) {
          keep[j] = true;
          if (helpers && blocks[j]?.kind === 'def') helpers[j] = true;
          unkeptDefinitions--;
          work.push(j);
        }
      }
    }
  }
  if (helpers) copyBaseClasses(blocks, texts, keep, byName, helpers);
  return keep;
}

/** `class Name(Base, Mixin, metaclass=M):` at a block's start: the bases' text. */
const CLASS_HEADER = /^\s*class\s+\w+\s*\(([^)]*)\)/;

/**
 * The base classes of kept classes, and theirs, are copied whole (as helpers): a class with nothing to analyse
 * would otherwise be copied as an opaque node without its name or bases, and a method a subclass inherits through
 * it (`BertModel(PreTrainedModel)`, `PreTrainedModel(nn.Module, ModuleUtilsMixin)`) could not be found.
 */
function copyBaseClasses(
  blocks: readonly SourceBlock[],
  texts: readonly string[],
  keep: boolean[],
  byName: ReadonlyMap<string, number[]>,
  helpers: boolean[],
): void {
  const work = keep.map((k, i) => (k && blocks[i]?.kind === 'class' ? i : -1)).filter((i) => i >= 0);
  const done = new Set<number>();
  while (work.length > 0) {
    const i = work.pop()!;
    if (done.has(i)) continue;
    done.add(i);
    const bases = CLASS_HEADER.exec(texts[i] ?? '')?.[1];
    if (!bases) continue;
    IDENTIFIER.lastIndex = 0;
    for (let m = IDENTIFIER.exec(bases); m; m = IDENTIFIER.exec(bases)) {
      for (const j of byName.get(m[0]) ?? []) {
        if (blocks[j]?.kind !== 'class' || helpers[j]) continue;
        keep[j] = true;
        helpers[j] = true;
        work.push(j);
      }
    }
  }
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = 0; i < text.length && n <= SHORT_STATEMENT_LINES + 1; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}
