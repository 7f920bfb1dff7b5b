// Offsets ↔ editor positions. Offsets are UTF-16 code-unit indices into the source string (what
// web-tree-sitter reports for JavaScript strings and what editors count), so columns are UTF-16 columns
// on every line, including lines with non-ASCII text. Lines break at \n, \r\n and a lone \r, as in VS Code.

export interface Position {
  /** 1-based line. */
  line: number;
  /** 1-based column in UTF-16 code units. */
  column: number;
}

export class LineIndex {
  /** Offset of the first character of each line. */
  private readonly starts: number[];

  constructor(readonly source: string) {
    const starts = [0];
    for (let i = 0; i < source.length; i++) {
      const c = source.charCodeAt(i);
      if (c === 10 /* \n */) starts.push(i + 1);
      else if (c === 13 /* \r */) {
        if (source.charCodeAt(i + 1) === 10) i++;
        starts.push(i + 1);
      }
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** 1-based position of a UTF-16 offset (clamped into the source). */
  position(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.source.length));
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? Infinity) <= o)
        lo = mid; // 0 < mid < starts.length
      else hi = mid - 1;
    }
    return { line: lo + 1, column: o - (this.starts[lo] ?? 0) + 1 }; // starts[0] is 0
  }

  /** Offset of the start of a 1-based line (clamped). */
  lineStart(line: number): number {
    const i = Math.max(0, Math.min(line - 1, this.starts.length - 1));
    return this.starts[i] ?? 0; // i is clamped into the lines
  }

  /** Text of a 1-based line without its line break. */
  lineText(line: number): string {
    const start = this.lineStart(line);
    const next = this.starts[line] ?? this.source.length; // the next line's start, or the end of the source
    let end = next;
    while (end > start && (this.source.charCodeAt(end - 1) === 10 || this.source.charCodeAt(end - 1) === 13)) end--;
    return this.source.slice(start, end);
  }
}
