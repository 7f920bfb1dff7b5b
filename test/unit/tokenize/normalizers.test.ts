import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { alignOriginal } from '../../../src/tokenize/hf/aligned';
import { buildNormalizer, isBertChineseChar } from '../../../src/tokenize/hf/normalizers';
import { unicodeText } from './arbitraries';

/**
 * HF BertNormalizer written out directly from tokenizers/src/normalizers/bert.rs, on whole strings: clean text
 * (drop NUL, U+FFFD and "other" characters except \t \n \r; white space → " "), space out CJK ideographs,
 * strip accents (NFD, drop Mn), lowercase each character.
 */
function bertReference(s: string, lowercase = true): string {
  let out = '';
  for (const c of s) {
    const cp = c.codePointAt(0)!;
    const ws = c === '\t' || c === '\n' || c === '\r' || /\p{White_Space}/u.test(c);
    const control = !(c === '\t' || c === '\n' || c === '\r') && /\p{C}/u.test(c);
    if (cp === 0 || cp === 0xfffd || control) continue;
    out += ws ? ' ' : c;
  }
  out = [...out].map((c) => (isBertChineseChar(c.codePointAt(0)!) ? ` ${c} ` : c)).join('');
  if (lowercase) out = out.normalize('NFD').replace(/\p{Mn}/gu, '');
  if (lowercase) out = [...out].map((c) => c.toLowerCase()).join('');
  return out;
}

describe('normalizers', () => {
  for (const lowercase of [true, false]) {
    it(`BertNormalizer (lowercase: ${lowercase}) gives the reference text, with every unit aligned inside the input`, () => {
      const bert = buildNormalizer({ type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase })!;
      const sample = fc.oneof(unicodeText(), fc.string({ unit: fc.constantFrom(...'AbÉe\u0301\t\n\r\u000b\u007f\u0000 \u3000我ßİΣ!'.split('')) }));
      fc.assert(
        fc.property(sample, (s) => {
          const a = bert(alignOriginal(s, 0, s.length));
          assert.equal(a.text, bertReference(s, lowercase));
          assert.equal(a.starts.length, a.text.length);
          for (let i = 0; i < a.text.length; i++) {
            assert.ok(a.starts[i] >= 0 && a.starts[i] < a.ends[i] && a.ends[i] <= s.length, `unit ${i} range`);
            if (i > 0) assert.ok(a.starts[i] >= a.starts[i - 1], 'alignment runs forward');
          }
        }),
        { numRuns: 500 },
      );
    });
  }
});
