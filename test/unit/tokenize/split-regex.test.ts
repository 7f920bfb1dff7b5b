// The Split pre-tokenizer and the Oniguruma → JavaScript regex translation (src/tokenize/hf/regex.ts), on the
// split patterns of Llama-3 and Qwen2 tokenizer.json files and HF's own Split test table.
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { alignOriginal } from '../../../src/tokenize/hf/aligned';
import { buildPreTokenizer } from '../../../src/tokenize/hf/pre-tokenizers';
import { findMatches, translateOnigPattern } from '../../../src/tokenize/hf/regex';
import { unicodeText } from './arbitraries';
import { LLAMA3_SPLIT, QWEN2_SPLIT } from './split-patterns';

/** Words (with original offsets) a pre-tokenizer config gives for `text`. */
function words(config: object, text: string): [string, number, number][] {
  const pre = buildPreTokenizer(config);
  return pre.preTokenize(alignOriginal(text, 0, text.length)).map((w) => [w.text, w.starts[0], w.ends[w.text.length - 1]]);
}

const split = (pattern: string) => ({ type: 'Split', pattern: { Regex: pattern }, behavior: 'Isolated', invert: false });
const pieces = (pattern: string, text: string) => words(split(pattern), text).map((w) => w[0]);

describe('tokenizer.json Split pre-tokenizer', () => {
  it("follows HF's table of the five delimiter behaviors (regex \\w+|[^\\w\\s]+ inverted)", () => {
    const table: [string, [string, number, number][]][] = [
      [
        'Removed',
        [
          ['How', 0, 3],
          ['are', 4, 7],
          ['you', 8, 11],
          ['doing', 12, 17],
          ['?', 17, 18],
        ],
      ],
      [
        'Isolated',
        [
          ['How', 0, 3],
          [' ', 3, 4],
          ['are', 4, 7],
          [' ', 7, 8],
          ['you', 8, 11],
          [' ', 11, 12],
          ['doing', 12, 17],
          ['?', 17, 18],
        ],
      ],
      [
        'MergedWithPrevious',
        [
          ['How ', 0, 4],
          ['are ', 4, 8],
          ['you ', 8, 12],
          ['doing', 12, 17],
          ['?', 17, 18],
        ],
      ],
      [
        'MergedWithNext',
        [
          ['How', 0, 3],
          [' are', 3, 7],
          [' you', 7, 11],
          [' doing', 11, 17],
          ['?', 17, 18],
        ],
      ],
      [
        'Contiguous',
        [
          ['How', 0, 3],
          [' ', 3, 4],
          ['are', 4, 7],
          [' ', 7, 8],
          ['you', 8, 11],
          [' ', 11, 12],
          ['doing?', 12, 18],
        ],
      ],
    ];
    for (const [behavior, expected] of table) {
      const config = { type: 'Split', pattern: { Regex: String.raw`\w+|[^\w\s]+` }, behavior, invert: true };
      assert.deepEqual(words(config, 'How are you doing?'), expected, behavior);
    }
  });

  it('splits on a String pattern literally (regex characters are not special) and inverts', () => {
    assert.deepEqual(words({ type: 'Split', pattern: { String: '.' }, behavior: 'Removed', invert: false }, 'a.b..c'), [
      ['a', 0, 1],
      ['b', 2, 3],
      ['c', 5, 6],
    ]);
    const inverted = { type: 'Split', pattern: { String: 'Hello' }, behavior: 'Removed', invert: true };
    assert.deepEqual(words(inverted, 'Hello Hello'), [
      ['Hello', 0, 5],
      ['Hello', 6, 11],
    ]);
  });

  it("splits Llama-3's way: contractions case-insensitively, digits in threes, spaces before words", () => {
    assert.deepEqual(pieces(LLAMA3_SPLIT, "HE'SAID I'm 12345 ok"), ['HE', "'S", 'AID', ' I', "'m", ' ', '123', '45', ' ok']);
    assert.deepEqual(pieces(QWEN2_SPLIT, '12345'), ['1', '2', '3', '4', '5']);
    // \s+(?!\S) leaves the last space for the word; newlines group with the white space before them
    assert.deepEqual(pieces(LLAMA3_SPLIT, '  hello\n\n  x!!\n\ny'), [' ', ' hello', '\n\n', ' ', ' x', '!!\n\n', 'y']);
  });

  it("uses Oniguruma's case folding in (?i:…): 's matches the long s ſ", () => {
    assert.deepEqual(pieces(LLAMA3_SPLIT, "x'ſt"), ['x', "'ſ", 't']);
    assert.equal(translateOnigPattern("(?i:'s)"), "(?:'[Ssſ])");
  });

  it('uses Unicode White_Space for \\s as Oniguruma does (U+FEFF is not space, U+0085 is)', () => {
    // JavaScript's own \s would put U+FEFF with the spaces and leave U+0085 out
    assert.deepEqual(pieces(LLAMA3_SPLIT, 'a \uFEFFb'), ['a', ' \uFEFF', 'b']);
    assert.deepEqual(pieces(LLAMA3_SPLIT, 'a\u0085\u0085b'), ['a', '\u0085', '\u0085b']);
  });

  it('covers the text: the pieces of the Llama-3 and Qwen2 patterns join back to the input', () => {
    fc.assert(
      fc.property(unicodeText(), (s) => {
        for (const p of [LLAMA3_SPLIT, QWEN2_SPLIT]) assert.equal(pieces(p, s).join(''), s);
      }),
    );
  });

  it("translates other real patterns: GPT-4o's (case classes, optional contractions), escaped class punctuation, scripts", () => {
    const o200k = String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`;
    assert.deepEqual(pieces(o200k, "HelloWorld it'S 2024//\n"), ['Hello', 'World', " it'S", ' ', '202', '4', '//\n']);
    assert.deepEqual(pieces(String.raw`[!\"#\-\[\\\]]+`, 'a"#-[\\]b'), ['a', '"#-[\\]', 'b']);
    assert.deepEqual(pieces(String.raw`\p{Han}+`, 'ab汉字c'), ['ab', '汉字', 'c']);
    assert.throws(() => translateOnigPattern(String.raw`\p{NoSuchProperty}`), /the property \\p\{NoSuchProperty\}/);
  });

  it('refuses what it cannot translate exactly, naming it', () => {
    assert.throws(() => translateOnigPattern('a*+'), /possessive quantifier/);
    assert.throws(() => translateOnigPattern('(?>ab)'), /atomic group/);
    assert.throws(() => translateOnigPattern(String.raw`\h+`), /the escape \\h/);
    assert.throws(() => translateOnigPattern('(?m:a)'), /the group/);
    assert.throws(() => translateOnigPattern('[a[b]]'), /nested character class/);
    const manyLetters = Array.from({ length: 70 }, (_, i) => String.fromCharCode(0x4e00 + i)).join('|');
    assert.throws(() => translateOnigPattern(`(?i:${manyLetters})`), /more than 64 distinct characters inside \(\?i:…\)/);
  });

  it("finds matches as Oniguruma's find_iter: no empty match right after a match", () => {
    assert.deepEqual(findMatches(/a*/gu, 'baab'), [
      [0, 0],
      [1, 3],
      [4, 4],
    ]);
    assert.deepEqual(findMatches(new RegExp(translateOnigPattern('x?'), 'gu'), '😀x'), [
      [0, 0],
      [2, 3],
    ]);
  });
});
