import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { createTokenizer, tokenizerFromJson, type Token, type Tokenizer } from '../../../src/tokenize';
import { BYTE_TO_CHAR } from '../../../src/tokenize/byte-level';
import { checkOffsets, unicodeText } from './arbitraries';
import { rebuildGpt2TokenizerJson } from './gpt2-json';

const ids = (tokens: readonly Token[]) => tokens.map((t) => t.id);
const show = (tokens: readonly Token[]) => tokens.map((t) => [t.display, t.start, t.end]);

/** Byte-level vocabulary: the 256 byte characters with id = byte value, then `extra` tokens. */
function byteLevelVocab(extra: readonly string[]): Record<string, number> {
  const vocab: Record<string, number> = {};
  BYTE_TO_CHAR.forEach((c, b) => (vocab[c] = b));
  extra.forEach((t, i) => (vocab[t] = 256 + i));
  return vocab;
}

// A GPT-2-style tokenizer.json: ByteLevel pre-tokenizer (no prefix space), BPE with seven merges, and
// <|endoftext|> as an added special token. Ġ is the byte character of the space (0x20 → U+0120).
const MERGES = ['Ġ t', 'h e', 'Ġt he', 'l l', 'he ll', 'hell o', 'e l', 'Ã ©'];
const MERGED = ['Ġt', 'he', 'Ġthe', 'll', 'hell', 'hello', 'el', 'Ã©'];
const BPE_JSON = {
  version: '1.0',
  added_tokens: [{ id: 264, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false, normalized: true, special: true }],
  normalizer: null,
  pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
  post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
  decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
  model: {
    type: 'BPE',
    dropout: null,
    unk_token: null,
    continuing_subword_prefix: '',
    end_of_word_suffix: '',
    fuse_unk: false,
    byte_fallback: false,
    ignore_merges: false,
    vocab: { ...byteLevelVocab(MERGED), '<|endoftext|>': 264 },
    merges: MERGES,
  },
};
const id = (t: string) => (BPE_JSON.model.vocab as Record<string, number>)[t];

// A BERT-style tokenizer.json: BertNormalizer, BertPreTokenizer, WordPiece, [CLS] $A [SEP].
const BERT_VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'un', '##aff', '##able', 'hello', 'world', '!', '我', '爱', 'cafe', '##s', 'a', '##b', 'i'];
const bertJson = (overrides: Record<string, unknown> = {}) => ({
  version: '1.0',
  added_tokens: [0, 1, 2, 3, 4].map((i) => ({
    id: i,
    content: BERT_VOCAB[i],
    single_word: false,
    lstrip: BERT_VOCAB[i] === '[MASK]',
    rstrip: false,
    normalized: false,
    special: true,
  })),
  normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
  pre_tokenizer: { type: 'BertPreTokenizer' },
  post_processor: {
    type: 'TemplateProcessing',
    single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
    pair: [],
    special_tokens: { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] } },
  },
  decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
  model: {
    type: 'WordPiece',
    unk_token: '[UNK]',
    continuing_subword_prefix: '##',
    max_input_chars_per_word: 10,
    vocab: Object.fromEntries(BERT_VOCAB.map((t, i) => [t, i])),
  },
  ...overrides,
});

describe('tokenizer.json: BPE with a ByteLevel pre-tokenizer (GPT-2 style)', () => {
  const bpe = tokenizerFromJson(JSON.stringify(BPE_JSON));

  it('applies merges by rank, not left to right', () => {
    // "the": pairs (t,h) has no merge, (h,e) is rank 1 → [t][he]; (t,he) has no merge.
    assert.deepEqual(ids(bpe.encode('the')), [id('t'), id('he')]);
    // "ell": (l,l) rank 3 beats (e,l) rank 6 although (e,l) is further left → [e][ll].
    assert.deepEqual(ids(bpe.encode('ell')), [id('e'), id('ll')]);
    // " the" → Ġ t h e: (Ġ,t) rank 0 → [Ġt][h][e]; (h,e) rank 1 → [Ġt][he]; (Ġt,he) rank 2 → [Ġthe].
    assert.deepEqual(ids(bpe.encode(' the')), [id('Ġthe')]);
    // " hello" → Ġ h e l l o: he (1), ll (3), hell (4), hello (5); (Ġ,hello) has no merge → [Ġ][hello].
    const t = bpe.encode(' hello');
    assert.deepEqual(ids(t), [id('Ġ'), id('hello')]);
    assert.deepEqual(show(t), [
      ['␣', 0, 1],
      ['hello', 1, 6],
    ]);
  });

  it('splits pieces with the GPT-2 regex and reads the added special token', () => {
    // pieces: "hi" | "<|endoftext|>" (added token) | "the" | " the"
    const t = bpe.encode('hi<|endoftext|>the the');
    assert.deepEqual(ids(t), [id('h'), id('i'), 264, id('t'), id('he'), id('Ġthe')]);
    assert.deepEqual(show(t), [
      ['h', 0, 1],
      ['i', 1, 2],
      ['<|endoftext|>', 2, 15],
      ['t', 15, 16],
      ['he', 16, 18],
      ['␣the', 18, 22],
    ]);
    assert.equal(t[2].special, true);
  });

  it('shows a multi-byte character as a character when one token holds it, else as byte escapes', () => {
    // é = C3 A9 → byte characters Ã ©; the merge "Ã ©" makes it one token.
    assert.deepEqual(show(bpe.encode('é')), [['é', 0, 1]]);
    // 我 = E6 88 91 has no merges: three byte tokens; the first owns the character.
    const t = bpe.encode('我');
    assert.deepEqual(ids(t), [0xe6, 0x88, 0x91]);
    assert.deepEqual(show(t), [
      ['<0xE6>', 0, 1],
      ['<0x88>', 1, 1],
      ['<0x91>', 1, 1],
    ]);
    assert.deepEqual([...bpe.tokenBytes!(id('Ã©'))], [0xc3, 0xa9]);
  });

  it('gives ordered, non-overlapping offsets whose bytes decode to the input', () => {
    fc.assert(
      fc.property(unicodeText({ exclude: ['<|endoftext|>'] }), (s) => {
        const t = bpe.encode(s);
        checkOffsets(s, t);
        assert.equal(t.map((x) => x.text).join(''), s);
        const bytes = Buffer.concat(t.map((x) => Buffer.from(bpe.tokenBytes!(x.id!))));
        assert.equal(new TextDecoder('utf-8', { fatal: true }).decode(bytes), s);
      }),
      { numRuns: 300 },
    );
  });

  it('adds a prefix space when add_prefix_space is true (the space aligns with the first character)', () => {
    const withPrefix = tokenizerFromJson({ ...BPE_JSON, pre_tokenizer: { type: 'ByteLevel', add_prefix_space: true } });
    const t = withPrefix.encode('the');
    assert.deepEqual(ids(t), [id('Ġthe')]);
    assert.deepEqual(show(t), [['␣the', 0, 3]]);
  });
});

describe('tokenizer.json: WordPiece with BertNormalizer (BERT style)', () => {
  const bert = tokenizerFromJson(bertJson());

  it('lowercases, isolates punctuation, adds [CLS]/[SEP] and maps offsets to the original text', () => {
    // "hello, world!" after lowercasing; "," is not in the vocabulary → [UNK].
    const t = bert.encode('Hello, WORLD!');
    assert.deepEqual(ids(t), [2, 8, 1, 9, 10, 3]);
    assert.deepEqual(
      t.map((x) => x.text),
      ['', 'Hello', ',', 'WORLD', '!', ''],
    );
    assert.deepEqual(show(t), [
      ['[CLS]', 0, 0],
      ['hello', 0, 5],
      ['[UNK]', 5, 6],
      ['world', 7, 12],
      ['!', 12, 13],
      ['[SEP]', 13, 13],
    ]);
    assert.equal(t[0].special && t[5].special, true);
  });

  it('splits greedily into the longest pieces with ## continuations (un ##aff ##able)', () => {
    const t = bert.encode('unaffable', { addSpecialTokens: false });
    assert.deepEqual(show(t), [
      ['un', 0, 2],
      ['##aff', 2, 5],
      ['##able', 5, 9],
    ]);
  });

  it('strips accents and keeps offsets on the original, precomposed or decomposed', () => {
    // "Cafés" → "cafes" → cafe ##s; "é" is one unit of the original
    assert.deepEqual(show(bert.encode('Cafés', { addSpecialTokens: false })), [
      ['cafe', 0, 4],
      ['##s', 4, 5],
    ]);
    // "Cafe\u0301s": the e and its combining accent (2 units) both belong to "cafe"
    const t = bert.encode('Cafe\u0301s', { addSpecialTokens: false });
    assert.deepEqual(show(t), [
      ['cafe', 0, 5],
      ['##s', 5, 6],
    ]);
    assert.equal(t[0].text, 'Cafe\u0301');
    // İ → NFD I + U+0307 → accent stripped → I → lowercased i
    assert.deepEqual(show(bert.encode('İ', { addSpecialTokens: false })), [['i', 0, 1]]);
  });

  it('puts every CJK ideograph in its own word', () => {
    // "我爱你" → " 我  爱  你 " → 我, 爱, 你 (你 is not in the vocabulary → [UNK])
    assert.deepEqual(show(bert.encode('我爱你', { addSpecialTokens: false })), [
      ['我', 0, 1],
      ['爱', 1, 2],
      ['[UNK]', 2, 3],
    ]);
  });

  it('removes control characters (clean_text) without shifting the offsets', () => {
    // "a\0b" → "ab" → a ##b; b is still at offset 2 of the original
    assert.deepEqual(show(bert.encode('a\u0000b', { addSpecialTokens: false })), [
      ['a', 0, 1],
      ['##b', 2, 3],
    ]);
  });

  it('gives [UNK] for a word longer than max_input_chars_per_word or with no matching pieces', () => {
    assert.deepEqual(show(bert.encode('abbbbbbbbbb', { addSpecialTokens: false })), [['[UNK]', 0, 11]]); // 11 > 10 chars
    assert.deepEqual(show(bert.encode('abbbbbbbbb', { addSpecialTokens: false })).length, 10); // a ##b ×9
    assert.deepEqual(show(bert.encode('xyz', { addSpecialTokens: false })), [['[UNK]', 0, 3]]);
  });

  it('matches added tokens in the raw text, with lstrip absorbing the space before [MASK]', () => {
    const t = bert.encode('hello [MASK]!');
    assert.deepEqual(ids(t), [2, 8, 4, 10, 3]);
    assert.deepEqual([t[2].start, t[2].end, t[2].text], [5, 12, ' [MASK]']);
    // a literal [SEP] typed in the text is the special token (not normalised, not split)
    assert.deepEqual(ids(bert.encode('a[SEP]a', { addSpecialTokens: false })), [15, 3, 15]);
  });

  it('truncates the text, not the specials, under maxTokens', () => {
    assert.deepEqual(ids(bert.encode('hello world ! hello', { maxTokens: 4 })), [2, 8, 9, 3]);
    assert.deepEqual(ids(bert.encode('hello world', { maxTokens: 1 })), [2]);
  });

  it('accepts BertProcessing and the string form of TemplateProcessing with the same result', () => {
    const expected = ids(bert.encode('hello world'));
    const viaBert = tokenizerFromJson(bertJson({ post_processor: { type: 'BertProcessing', sep: ['[SEP]', 3], cls: ['[CLS]', 2] } }));
    assert.deepEqual(ids(viaBert.encode('hello world')), expected);
    const viaString = tokenizerFromJson(
      bertJson({ post_processor: { type: 'TemplateProcessing', single: '[CLS]:0 $A:0 [SEP]:0', special_tokens: bertJson().post_processor.special_tokens } }),
    );
    assert.deepEqual(ids(viaString.encode('hello world')), expected);
  });

  it('keeps offsets ordered and within the input, and every piece is the normalised source text', () => {
    const strip = (s: string) =>
      s
        .normalize('NFD')
        .replace(/\p{Mn}/gu, '')
        .toLowerCase();
    fc.assert(
      fc.property(unicodeText(), (s) => {
        const t = bert.encode(s);
        checkOffsets(s, t);
        for (const x of t) {
          if (x.special) continue;
          if (x.id !== 1) assert.equal(strip(x.text).replace(/\p{C}/gu, ''), x.display.replace(/^##/, ''), JSON.stringify(x));
          else assert.ok(x.end > x.start, '[UNK] covers source text');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('is what createTokenizer({kind: "tokenizer-json"}) returns', async () => {
    const t = await createTokenizer({ kind: 'tokenizer-json', json: JSON.stringify(bertJson()), name: 'bert-tiny' });
    assert.equal(t.name, 'bert-tiny');
    assert.equal(t.vocabSize, BERT_VOCAB.length);
    assert.deepEqual(ids(t.encode('hello')), [2, 8, 3]);
    assert.deepEqual(t.decodeForDisplay!([2, 6]), ['[CLS]', '##aff']);
    assert.throws(() => t.decodeForDisplay!([99]), /token id 99 is not in this tokenizer's vocabulary/);
  });
});

describe('tokenizer.json: long texts are tokenised in chunks with exactly the same result', () => {
  // Cuts are made only where the pipeline breaks anyway (after white space for BERT, before " word" for
  // ByteLevel). A chunk target of 1-20 units puts a cut at nearly every such place; the result must equal the
  // uncut one (target larger than the text).
  const long = fc.array(unicodeText({ exclude: ['<|endoftext|>'] }), { maxLength: 6 }).map((a) => a.join(' '));
  const pairs: [string, object][] = [
    ['BERT style', bertJson()],
    ['GPT-2 style', BPE_JSON],
    ['GPT-2 style with a prefix space', { ...BPE_JSON, pre_tokenizer: { type: 'ByteLevel', add_prefix_space: true } }],
  ];
  for (const [what, json] of pairs) {
    it(what, () => {
      const whole = tokenizerFromJson(json, undefined, { chunkUnits: 1e9 });
      fc.assert(
        fc.property(long, fc.integer({ min: 1, max: 20 }), (s, chunkUnits) => {
          assert.deepEqual(tokenizerFromJson(json, undefined, { chunkUnits }).encode(s), whole.encode(s));
        }),
        { numRuns: 200 },
      );
    });
  }

  it('does not cut after white space the normalizer removes (counterexample ["👨‍👩‍👧\\u000bdon\'t", 1])', () => {
    // BertNormalizer's clean_text drops U+000B (a control) and the ZWJs, so the whole text is one word up to the
    // apostrophe; a cut after the vertical tab used to split it into two words.
    const whole = tokenizerFromJson(bertJson(), undefined, { chunkUnits: 1e9 });
    const cut = tokenizerFromJson(bertJson(), undefined, { chunkUnits: 1 });
    for (const s of ["👨‍👩‍👧\u000bdon't", 'a\u000cb', 'a\u0085b', 'a\u000b b', 'a \u000bb']) {
      assert.deepEqual(cut.encode(s), whole.encode(s), JSON.stringify(s));
    }
    assert.deepEqual(ids(whole.encode("👨‍👩‍👧\u000bdon't", { addSpecialTokens: false })), [1, 1, 1]); // [UNK] ' [UNK]
  });

  it('stops early under maxTokens on a long text', () => {
    const bert = tokenizerFromJson(bertJson());
    const t = bert.encode('hello world '.repeat(200_000), { maxTokens: 5 });
    assert.deepEqual(ids(t), [2, 8, 9, 8, 3]);
  });
});

describe('tokenizer.json: other BPE options', () => {
  const base = { type: 'BPE', vocab: { '<unk>': 0, a: 1, b: 2, ab: 3, '##b': 4, 'a##b': 5 }, merges: [['a', 'b']] };
  const make = (model: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    tokenizerFromJson({ model: { ...base, ...model }, pre_tokenizer: { type: 'WhitespaceSplit' }, ...extra });

  it('accepts merges as "a b" strings or [a, b] pairs', () => {
    assert.deepEqual(ids(make({}).encode('ab a')), [3, 1]);
    assert.deepEqual(ids(make({ merges: ['a b'] }).encode('ab a')), [3, 1]);
  });

  it('uses unk_token for unknown characters, fused when fuse_unk is set; drops them with no unk_token', () => {
    assert.deepEqual(ids(make({ unk_token: '<unk>' }).encode('xxab')), [0, 0, 3]);
    const fused = make({ unk_token: '<unk>', fuse_unk: true }).encode('xxab');
    assert.deepEqual(show(fused), [
      ['<unk>', 0, 2],
      ['ab', 2, 4],
    ]);
    assert.deepEqual(ids(make({}).encode('xab')), [3]);
  });

  it('falls back to <0xXX> byte tokens when byte_fallback is set', () => {
    const vocab = { ...base.vocab, '<0xC3>': 6, '<0xA9>': 7 };
    const t = make({ vocab, byte_fallback: true, unk_token: '<unk>' }).encode('éa');
    assert.deepEqual(ids(t), [6, 7, 1]);
    // the display merges the byte run back into the character; the continuation byte shows ⋯
    assert.deepEqual(show(t), [
      ['é', 0, 1],
      ['⋯', 1, 1],
      ['a', 1, 2],
    ]);
  });

  it('handles continuing_subword_prefix in merges (a + ##b → a##b with the prefix dropped from b) ', () => {
    // with prefix "##", the word "ab" starts as [a][##b]; the merge (a, ##b) gives "a" + "b" = "ab"
    const t = make({ continuing_subword_prefix: '##', merges: [['a', '##b']] }).encode('ab');
    assert.deepEqual(ids(t), [3]);
  });

  it('keeps a whole-word vocabulary entry when ignore_merges is set', () => {
    const vocab = { a: 0, b: 1, c: 2, bc: 3, abc: 4 };
    // merges can only build "bc": a + bc has no merge, so without ignore_merges "abc" → [a][bc]
    assert.deepEqual(ids(make({ vocab, merges: ['b c'] }).encode('abc')), [0, 3]);
    assert.deepEqual(ids(make({ vocab, merges: ['b c'], ignore_merges: true }).encode('abc')), [4]);
  });

  it('wraps with RobertaProcessing <s> … </s>', () => {
    const vocab = { '<s>': 0, '</s>': 1, a: 2 };
    const t = make({ vocab, merges: [] }, { post_processor: { type: 'RobertaProcessing', sep: ['</s>', 1], cls: ['<s>', 0], trim_offsets: true } });
    assert.deepEqual(ids(t.encode('a a')), [0, 2, 2, 1]);
  });

  it('applies a Sequence of normalizers in order (NFD, StripAccents, Lowercase)', () => {
    const t = tokenizerFromJson({
      normalizer: { type: 'Sequence', normalizers: [{ type: 'NFD' }, { type: 'StripAccents' }, { type: 'Lowercase' }] },
      pre_tokenizer: { type: 'Whitespace' },
      model: { type: 'WordLevel', vocab: { '[UNK]': 0, ecole: 1, '.': 2 }, unk_token: '[UNK]' },
    });
    assert.deepEqual(show(t.encode('École.')), [
      ['ecole', 0, 5],
      ['.', 5, 6],
    ]);
  });
});

describe('tokenizer.json: malformed input gives an Error naming the problem', () => {
  const cases: [string, unknown, RegExp][] = [
    ['not JSON', '{"model": ', /tokenizer\.json is not valid JSON/],
    ['an array', '[]', /tokenizer\.json must hold a JSON object, got an array/],
    ['no model', {}, /"model" section is missing/],
    ['vocab as array', { model: { type: 'WordPiece', vocab: ['a'] } }, /model\.vocab must be an object mapping tokens to ids, got an array/],
    ['negative id', { model: { type: 'WordLevel', vocab: { a: -1 } } }, /model\.vocab\["a"\] must be a non-negative integer id, got number -1/],
    ['merge of unknown token', { model: { type: 'BPE', vocab: { a: 0 }, merges: ['a x'] } }, /model\.merges\[0\] uses "x", which is not in model\.vocab/],
    ['merged token missing', { model: { type: 'BPE', vocab: { a: 0, b: 1 }, merges: ['a b'] } }, /model\.merges\[0\] uses "ab", which is not in model\.vocab/],
    ['bad merge string', { model: { type: 'BPE', vocab: { a: 0 }, merges: ['a b c'] } }, /model\.merges\[0\] must be a string "left right"/],
    ['merges not an array', { model: { type: 'BPE', vocab: {}, merges: 'a b' } }, /model\.merges must be an array/],
    ['unk not in vocab', { model: { type: 'WordPiece', vocab: { a: 0 }, unk_token: '[UNK]' } }, /model\.unk_token "\[UNK\]" is not in model\.vocab/],
    ['unsupported model', { model: { type: 'CharLevel', vocab: {} } }, /model\.type "CharLevel" is not supported/],
    ['Unigram piece not a pair', { model: { vocab: [['a', 0], 'b'] } }, /model\.vocab\[1\] must be a \[piece, score\] pair, got the string "b"/],
    ['Unigram score not a number', { model: { type: 'Unigram', vocab: [['a', 'x']] } }, /model\.vocab\[0\]\[1\] must be a finite number/],
    ['Unigram unk_id outside', { model: { type: 'Unigram', vocab: [['a', -1]], unk_id: 5 } }, /model\.unk_id 5 is outside model\.vocab \(1 pieces\)/],
    [
      'Split without pattern',
      { pre_tokenizer: { type: 'Split', behavior: 'Isolated' }, model: { type: 'WordLevel', vocab: {} } },
      /pre_tokenizer\.pattern must be an object, got undefined/,
    ],
    [
      'Split with a bad behavior',
      { pre_tokenizer: { type: 'Split', pattern: { String: ' ' }, behavior: 'Drop' }, model: { type: 'WordLevel', vocab: {} } },
      /pre_tokenizer\.behavior must be one of Removed, Isolated/,
    ],
    [
      'Split with a possessive regex',
      { pre_tokenizer: { type: 'Split', pattern: { Regex: 'a++' }, behavior: 'Isolated' }, model: { type: 'WordLevel', vocab: {} } },
      /pre_tokenizer\.pattern\.Regex: .*possessive quantifier/,
    ],
    [
      'Metaspace with a long replacement',
      { pre_tokenizer: { type: 'Metaspace', replacement: '__' }, model: { type: 'WordLevel', vocab: {} } },
      /pre_tokenizer\.replacement must be one character/,
    ],
    [
      'unsupported normalizer',
      { normalizer: { type: 'Precompiled' }, model: { type: 'WordLevel', vocab: {} } },
      /normalizer\.type "Precompiled" is not supported/,
    ],
    [
      'unsupported pre-tokenizer',
      { pre_tokenizer: { type: 'UnicodeScripts' }, model: { type: 'WordLevel', vocab: {} } },
      /pre_tokenizer\.type "UnicodeScripts" is not supported/,
    ],
    [
      'nested bad normalizer',
      { normalizer: { type: 'Sequence', normalizers: [{ type: 'NFC' }, 3] }, model: { type: 'WordLevel', vocab: {} } },
      /normalizer\.normalizers\[1\] must be an object, got number 3/,
    ],
    [
      'template without special',
      { post_processor: { type: 'TemplateProcessing', single: '[CLS] $A', special_tokens: {} }, model: { type: 'WordLevel', vocab: {} } },
      /names the special token "\[CLS\]", which is missing/,
    ],
    [
      'template without $A',
      { post_processor: { type: 'TemplateProcessing', single: [], special_tokens: {} }, model: { type: 'WordLevel', vocab: {} } },
      /must contain the sequence \(\$A\) exactly once/,
    ],
    ['added_tokens not an array', { added_tokens: {}, model: { type: 'WordLevel', vocab: {} } }, /added_tokens must be an array, got an object/],
    [
      'added token without content',
      { added_tokens: [{ id: 1 }], model: { type: 'WordLevel', vocab: {} } },
      /added_tokens\[0\]\.content must be a string, got undefined/,
    ],
    [
      'bool as string',
      { pre_tokenizer: { type: 'ByteLevel', add_prefix_space: 'yes' }, model: { type: 'WordLevel', vocab: {} } },
      /pre_tokenizer\.add_prefix_space must be true or false/,
    ],
  ];
  for (const [what, json, message] of cases) {
    it(what, () => assert.throws(() => tokenizerFromJson(json as object), message));
  }

  it('createTokenizer rejects a bad spec', async () => {
    await assert.rejects(createTokenizer({ kind: 'tokenizer-json', json: 42 as unknown as string }), /spec\.json must be the text or the parsed object/);
    await assert.rejects(createTokenizer({ kind: 'sentencepiece' } as never), /unknown kind "sentencepiece"/);
    await assert.rejects(createTokenizer(null as never), /spec must be an object/);
  });
});

describe('tokenizer.json: GPT-2 rebuilt from its vocabulary agrees with the GPT-2 tokenizer', function () {
  let fromJson: Tokenizer;
  let gpt2: Tokenizer;
  before(async () => {
    fromJson = tokenizerFromJson(await rebuildGpt2TokenizerJson());
    gpt2 = await createTokenizer({ kind: 'gpt2' });
  });

  it('on random text: same ids, offsets and display', () => {
    fc.assert(
      fc.property(unicodeText(), (s) => {
        assert.deepEqual(fromJson.encode(s), gpt2.encode(s));
      }),
      { numRuns: 300 },
    );
  });

  it('on the package test sentences', () => {
    for (const s of ['Hello world', '我爱自然语言处理。', "I'm here<|endoftext|>  and there\n\n", 'नमस्ते 🇮🇳']) {
      assert.deepEqual(fromJson.encode(s), gpt2.encode(s));
    }
  });
});
