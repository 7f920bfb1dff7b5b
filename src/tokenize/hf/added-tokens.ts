// tokenizer.json `added_tokens` (HF tokenizer/added_vocabulary.rs): tokens matched in the text before
// pre-tokenisation. Tokens with normalized=false are matched in the original text; the others in the normalised
// text, against their own normalised content. Matching is leftmost-longest; single_word requires word
// boundaries; lstrip/rstrip absorb neighbouring white space.

import { asArray, asId, asObject, asString, optBool } from './json';

export interface AddedToken {
  readonly id: number;
  readonly content: string;
  readonly singleWord: boolean;
  readonly lstrip: boolean;
  readonly rstrip: boolean;
  readonly normalized: boolean;
  readonly special: boolean;
}

export function parseAddedTokens(config: unknown, path = 'added_tokens'): AddedToken[] {
  if (config === undefined || config === null) return [];
  return asArray(config, path).map((entry, i) => {
    const where = `${path}[${i}]`;
    const t = asObject(entry, where);
    return {
      id: asId(t.id, `${where}.id`),
      content: asString(t.content, `${where}.content`),
      singleWord: optBool(t, 'single_word', where, false),
      lstrip: optBool(t, 'lstrip', where, false),
      rstrip: optBool(t, 'rstrip', where, false),
      normalized: optBool(t, 'normalized', where, !optBool(t, 'special', where, false)),
      special: optBool(t, 'special', where, false),
    };
  });
}

/** A piece of text between matches, or a matched added token; offsets are units of the searched string. */
export type Split = { readonly token?: AddedToken; readonly start: number; readonly end: number };

const WORD_CHAR = /[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]/u; // Rust regex \w
const WHITE_SPACE = /\p{White_Space}/u;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export class AddedTokenMatcher {
  private readonly re: RegExp | undefined;
  private readonly byPattern = new Map<string, AddedToken>();

  /** `patterns` pairs each token with the string to look for (its content, or its normalised content). */
  constructor(patterns: readonly (readonly [string, AddedToken])[]) {
    for (const [p, t] of patterns) if (p.length > 0 && !this.byPattern.has(p)) this.byPattern.set(p, t);
    const keys = [...this.byPattern.keys()].sort((a, b) => b.length - a.length); // longest first = leftmost-longest
    this.re = keys.length ? new RegExp(keys.map(escapeRegExp).join('|'), 'gu') : undefined;
  }

  get empty(): boolean {
    return this.re === undefined;
  }

  /** Splits `s` into text pieces and added-token matches covering all of it, in order. */
  split(s: string): Split[] {
    if (!this.re) return s.length ? [{ start: 0, end: s.length }] : [];
    const out: Split[] = [];
    const re = new RegExp(this.re);
    let done = 0; // everything before this is emitted
    let m: RegExpExecArray | null;
    while ((m = re.exec(s)) !== null) {
      const token = this.byPattern.get(m[0]);
      if (token === undefined) throw new Error(`added tokens: ${JSON.stringify(m[0])} matched but is not an added token`);
      let start = m.index;
      let stop = start + m[0].length;
      if (token.singleWord) {
        const wordBefore = start > 0 && WORD_CHAR.test(charBefore(s, start));
        const wordAfter = stop < s.length && WORD_CHAR.test(charAt(s, stop));
        if (wordBefore || wordAfter) {
          re.lastIndex = start + 1;
          continue;
        }
      }
      if (token.lstrip) while (start > done && WHITE_SPACE.test(s.charAt(start - 1))) start--;
      if (token.rstrip) while (stop < s.length && WHITE_SPACE.test(s.charAt(stop))) stop++;
      if (done < start) out.push({ start: done, end: start });
      out.push({ token, start, end: stop });
      done = stop;
      re.lastIndex = stop;
    }
    if (done < s.length) out.push({ start: done, end: s.length });
    return out;
  }
}

function charBefore(s: string, i: number): string {
  const lo = s.charCodeAt(i - 1);
  return lo >= 0xdc00 && lo <= 0xdfff && i >= 2 ? s.slice(i - 2, i) : s.charAt(i - 1);
}

function charAt(s: string, i: number): string {
  return String.fromCodePoint(s.codePointAt(i) ?? 0); // i < s.length (the caller checks): a code point is there
}
