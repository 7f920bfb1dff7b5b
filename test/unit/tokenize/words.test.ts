import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { tokenizeWords, createTokenizer } from '../../../src/tokenize';
import { checkOffsets, hasLoneSurrogate, unicodeText } from './arbitraries';

const texts = (s: string) => tokenizeWords(s).map((t) => t.text);

describe('tokenizeWords', () => {
  it('splits the Chinese seed sentence into one token per ideograph plus the full stop', () => {
    // The brief's own example: 8 ideographs and 。
    assert.deepEqual(texts('我爱自然语言处理。'), ['我', '爱', '自', '然', '语', '言', '处', '理', '。']);
  });

  it('keeps apostrophes inside words and isolates every punctuation mark', () => {
    assert.deepEqual(texts("I don't know, l’homme's rock'n'roll... 'quoted'!"), [
      'I',
      "don't",
      'know',
      ',',
      "l’homme's",
      "rock'n'roll",
      '.',
      '.',
      '.',
      "'",
      'quoted',
      "'",
      '!',
    ]);
  });

  it('drops Unicode white space (including the ideographic space and NBSP)', () => {
    assert.deepEqual(texts(' a\u3000b\u00a0c\n\td\r\n'), ['a', 'b', 'c', 'd']);
  });

  it('keeps digits and Latin words apart from ideographs', () => {
    assert.deepEqual(texts('2024年GPT-2模型'), ['2024', '年', 'GPT', '-', '2', '模', '型']);
  });

  it('gives Hiragana/Katakana one token per character and Hangul one per syllable block', () => {
    assert.deepEqual(texts('ひらがなカタカナ'), ['ひ', 'ら', 'が', 'な', 'カ', 'タ', 'カ', 'ナ']);
    assert.deepEqual(texts('안녕'), ['안', '녕']);
    // a conjoining-jamo syllable (L V T) is one block
    assert.deepEqual(texts('\u1100\u1161\u11A8x'), ['\u1100\u1161\u11A8', 'x']);
  });

  it('keeps emoji sequences, flags and skin tones whole', () => {
    assert.deepEqual(texts('👨‍👩‍👧 🇫🇷🇩🇪 👍🏽! 🏴󠁧󠁢󠁳󠁣󠁴󠁿'), ['👨‍👩‍👧', '🇫🇷', '🇩🇪', '👍🏽', '!', '🏴󠁧󠁢󠁳󠁣󠁴󠁿']);
  });

  it('keeps combining marks with their base character', () => {
    assert.deepEqual(texts('e\u0301te\u0301 n\u0303\u0323!\u0301'), ['e\u0301te\u0301', 'n\u0303\u0323', '!\u0301']);
    // a mark with no base (after white space) is its own token, never lost
    assert.deepEqual(texts('a \u0301'), ['a', '\u0301']);
  });

  it('keeps an astral ideograph (a surrogate pair) whole', () => {
    assert.deepEqual(texts('𠀋𠀋'), ['𠀋', '𠀋']);
  });

  it('carries hostile text verbatim and only escapes it in display', () => {
    const html = '<img src=x onerror=alert(1)>';
    assert.equal(
      tokenizeWords(html)
        .map((t) => t.text)
        .join(''),
      html.replace(/ /g, ''),
    );
    const rtl = tokenizeWords('a\u202Eb\u0000');
    assert.deepEqual(
      rtl.map((t) => t.text),
      ['a', '\u202E', 'b', '\u0000'],
    );
    assert.deepEqual(
      rtl.map((t) => t.display),
      ['a', '<U+202E>', 'b', '<U+0000>'],
    );
  });

  it('keeps lone surrogates as their own tokens', () => {
    const s = '\uD800x\uDC00';
    const toks = tokenizeWords(s);
    assert.deepEqual(
      toks.map((t) => t.text),
      ['\uD800', 'x', '\uDC00'],
    );
    checkOffsets(s, toks);
  });

  it('honours maxTokens and rejects a bad one', () => {
    assert.deepEqual(
      tokenizeWords('a b c d', { maxTokens: 2 }).map((t) => t.text),
      ['a', 'b'],
    );
    assert.deepEqual(tokenizeWords('a b', { maxTokens: 0 }), []);
    assert.throws(() => tokenizeWords('a', { maxTokens: -1 }), /maxTokens must be a non-negative integer/);
    assert.throws(() => tokenizeWords(42 as unknown as string), /text must be a string/);
  });

  it('has ordered, non-overlapping offsets with text = input.slice(start, end), covering all non-space text', () => {
    fc.assert(
      fc.property(unicodeText(), (s) => {
        const toks = tokenizeWords(s);
        checkOffsets(s, toks);
        // everything not covered by a token is white space
        let uncovered = '';
        let prev = 0;
        for (const t of toks) {
          uncovered += s.slice(prev, t.start);
          prev = t.end;
        }
        uncovered += s.slice(prev);
        assert.match(uncovered, /^\p{White_Space}*$/u);
        for (const t of toks) {
          assert.ok(t.text.length > 0);
          assert.doesNotMatch(t.text, /\p{White_Space}/u, `token ${JSON.stringify(t.text)} contains white space`);
          if (/^\p{M}/u.test(t.text) && t.start > 0) {
            assert.match(s[t.start - 1], /\p{White_Space}/u, `a combining mark was split from its base at ${t.start}`);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on text with lone surrogates', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0xd7f0, max: 0xe010 }).map((c) => String.fromCharCode(c)), maxLength: 20 }), (s) => {
        const toks = tokenizeWords(s);
        if (!hasLoneSurrogate(s)) checkOffsets(s, toks);
        else assert.equal(toks.map((t) => t.text).join(''), s.replace(/\p{White_Space}/gu, ''));
      }),
    );
  });

  it('stays linear on pathological input (long word, long run of marks, of spaces, of punctuation)', () => {
    const n = 1_000_000;
    assert.equal(tokenizeWords('a'.repeat(n)).length, 1);
    assert.equal(tokenizeWords('a' + '\u0301'.repeat(n)).length, 1);
    assert.equal(tokenizeWords(' '.repeat(n) + 'x').length, 1);
    assert.equal(tokenizeWords("a'".repeat(n / 2)).length, 2); // a'a'a'…a then the final '
    assert.equal(tokenizeWords('!'.repeat(n), { maxTokens: 10 }).length, 10);
  });

  it('is what createTokenizer({kind: "words"}) returns', async () => {
    const t = await createTokenizer({ kind: 'words' });
    assert.equal(t.name, 'words');
    assert.deepEqual(t.encode('我爱'), tokenizeWords('我爱'));
  });
});
