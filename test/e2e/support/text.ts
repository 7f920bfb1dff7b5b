// Positions in the text of an example file, worked out from the text (never written into a test by hand).
import assert from 'node:assert/strict';

/** 1-based line and column of `needle` on the first line of `text` that contains `lineHint`. */
export function positionOf(text: string, lineHint: string, needle: string): { line: number; column: number } {
  const lines = text.split('\n');
  const index = lines.findIndex((l) => l.includes(lineHint));
  assert.ok(index >= 0, `no line contains ${JSON.stringify(lineHint)}`);
  const column = lines[index].indexOf(needle);
  assert.ok(column >= 0, `line ${index + 1} has no ${JSON.stringify(needle)}`);
  return { line: index + 1, column: column + 1 };
}
