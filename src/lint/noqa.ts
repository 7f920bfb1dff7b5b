// `# noqa` and `# noqa: ATT001,ATT003` comments: a bare noqa silences every finding on its line, a coded one
// only the listed codes (codes of other tools, such as E501, do not silence ours).
import type { RuleCode } from './types';

export type NoqaMap = Map<number, 'all' | Set<string>>;

const NOQA = /^#\s*noqa\b(?::\s*([A-Za-z]+[0-9]+(?:[\s,]+[A-Za-z]+[0-9]+)*))?/i;

/** Reads one comment's text; returns undefined when it is not a noqa comment. */
export function parseNoqa(comment: string): 'all' | Set<string> | undefined {
  // `# type: ignore  # noqa: ATT001` — the noqa part may follow other comment text.
  const at = comment.search(/#\s*noqa\b/i);
  if (at < 0) return undefined;
  const m = NOQA.exec(comment.slice(at));
  if (!m) return undefined;
  if (!m[1]) return 'all';
  return new Set(
    m[1]
      .split(/[\s,]+/)
      .filter((c) => c.length > 0)
      .map((c) => c.toUpperCase()),
  );
}

export function suppressed(noqa: NoqaMap, line: number, code: RuleCode): boolean {
  const entry = noqa.get(line);
  if (!entry) return false;
  return entry === 'all' || entry.has(code);
}
