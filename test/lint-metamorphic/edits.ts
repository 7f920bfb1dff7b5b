// Text edits with a line map: a rewrite is a list of non-overlapping edits on a file's text, and every line of the
// rewritten text keeps the set of original places (`path|line`) its code came from, so that a finding reported on
// the rewritten code can be compared with the findings of the original (test/lint-metamorphic/harness.ts).

/** An original place: `path|line` (line 1-based). */
export type Place = string;

export function place(path: string, line: number): Place {
  return `${path}|${line}`;
}

export interface Edit {
  start: number;
  end: number;
  text: string;
  /** The original places the inserted text stands for; default: the line of `start`. */
  anchor?: readonly Place[];
}

/** A rewritten (or new) file with, for each of its lines (index 0 = line 1), the original places its code came from. */
export interface MappedFile {
  path: string;
  text: string;
  lines: Array<ReadonlySet<Place>>;
}

/** The 1-based line of each offset's line start: `lineAt(offset)`. */
export function lineIndex(text: string): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 12;
}

/**
 * Applies `edits` (non-overlapping; throws otherwise) to `text` (the file `path`) and maps every output line to the
 * original places of its non-blank characters: unchanged characters keep their line, inserted text stands for its
 * edit's anchor.
 */
export function applyEdits(path: string, text: string, edits: readonly Edit[]): MappedFile {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].start < sorted[i - 1].end) throw new Error(`overlapping edits in ${path}`);
  }
  const lineAt = lineIndex(text);
  const out: string[] = [];
  const lines: Array<Set<Place>> = [new Set()];
  const emit = (s: string, places: (i: number) => readonly Place[] | null): void => {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c === 10) {
        lines.push(new Set());
        continue;
      }
      if (isSpace(c)) continue;
      const ps = places(i);
      if (ps) for (const p of ps) lines[lines.length - 1].add(p);
    }
    out.push(s);
  };
  let pos = 0;
  const copy = (from: number, to: number): void => {
    if (to <= from) return;
    let line = lineAt(from);
    let cached = [place(path, line)];
    emit(text.slice(from, to), (i) => {
      const l = lineAt(from + i);
      if (l !== line) {
        line = l;
        cached = [place(path, l)];
      }
      return cached;
    });
  };
  for (const e of sorted) {
    copy(pos, e.start);
    const anchor = e.anchor ?? [place(path, lineAt(e.start))];
    emit(e.text, () => anchor);
    pos = e.end;
  }
  copy(pos, text.length);
  return { path, text: out.join(''), lines };
}

/** A file left as it was: each line stands for itself. */
export function identity(path: string, text: string): MappedFile {
  return applyEdits(path, text, []);
}

/** A new file whose every line stands for `anchor[i]` (the line's own entry) or for nothing. */
export function newFile(path: string, lineTexts: ReadonlyArray<{ text: string; anchor: readonly Place[] }>): MappedFile {
  return {
    path,
    text: lineTexts.map((l) => `${l.text}\n`).join(''),
    lines: [...lineTexts.map((l) => new Set(l.text.trim() === '' ? [] : l.anchor)), new Set<Place>()],
  };
}
