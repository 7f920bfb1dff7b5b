// SentencePiece-style tokenizer.json pieces (Unigram, Metaspace, ▁ and byte fallback, decoders), Llama-3-style
// Split + ByteLevel, and properties of the nine modern tokenizers on awkward text.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { tokenizerFromJson, type Token } from '../../../src/tokenize';
import { buildDecoder } from '../../../src/tokenize/hf/decoders';
import { checkOffsets, unicodeText } from './arbitraries';
import { LLAMA3_SPLIT, QWEN2_SPLIT } from './split-patterns';

const ROOT = join(__dirname, '../../fixtures/modern');
const FAMILIES = ['llama', 'qwen2', 'qwen3', 'mistral', 'gemma2', 'gemma3', 'phi3', 'roberta', 'xlm_roberta'];
const fixtureJson = (family: string) => JSON.parse(readFileSync(join(ROOT, family, 'tokenizer.json'), 'utf8')) as Record<string, unknown>;
const ids = (tokens: readonly Token[]) => tokens.map((t) => t.id);
const show = (tokens: readonly Token[]) => tokens.map((t) => [t.display, t.start, t.end]);

const unigram = (vocab: [string, number][], extra: Record<string, unknown> = {}) =>
  tokenizerFromJson({ model: { type: 'Unigram', unk_id: 0, vocab }, pre_tokenizer: { type: 'WhitespaceSplit' }, ...extra });

describe('tokenizer.json: Unigram (Viterbi)', () => {
  it("picks the segmentation with the highest total score (HF's doc example), fusing unknown characters", () => {
    const pieces: [string, number][] = [
      ['<unk>', 0],
      ['a', 0],
      ['b', 0],
      ['c', 0],
      ['d', 0],
      ['cd', 1],
      ['ab', 2],
      ['abc', 5],
      ['abcd', 10],
    ];
    const t = unigram(pieces);
    // HF: encode("abcdacdxx") == ["abcd", "a", "cd", "xx"]; "xx" is one fused <unk>
    const out = t.encode('abcdacdxx');
    assert.deepEqual(ids(out), [8, 1, 5, 0]);
    assert.deepEqual(
      out.map((x) => x.text),
      ['abcd', 'a', 'cd', 'xx'],
    );
  });

  it('prefers a split into likelier pieces over one rare long piece', () => {
    const t = unigram([
      ['<unk>', 0],
      ['a', -1],
      ['b', -1],
      ['ab', -1.5],
      ['abc', -5],
      ['c', -3],
    ]);
    assert.deepEqual(ids(t.encode('abc')), [3, 5]); // ab + c = -4.5 beats abc = -5 and a + b + c = -5
    assert.deepEqual(ids(t.encode('abc', { maxTokens: 1 })), [3]);
  });

  it('finds the same best path as a search over every substring, on a vocabulary large enough to grow the trie', () => {
    // reference: the same forward Viterbi, but candidate pieces are all substrings looked up in a Map
    const alphabet = ['a', 'b', 'c', 'ab', 'é', '我', '😀'];
    const vocabArb = fc.uniqueArray(
      fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 5 }).map((a) => a.join('')),
      { minLength: 3000, maxLength: 3000 },
    );
    const reference = (vocab: Map<string, [number, number]>, unkScore: number, word: string): number[] => {
      const n = word.length;
      const best: ({ score: number; from: number; id: number } | undefined)[] = [{ score: 0, from: -1, id: -1 }];
      for (let start = 0; start < n;) {
        const width = word.codePointAt(start)! > 0xffff ? 2 : 1;
        const base = best[start]!.score;
        let single = false;
        for (let end = start + 1; end <= n; end++) {
          const entry = vocab.get(word.slice(start, end));
          if (!entry) continue;
          if (!best[end] || base + entry[1] > best[end]!.score) best[end] = { score: base + entry[1], from: start, id: entry[0] };
          if (end - start === width) single = true;
        }
        if (!single && (!best[start + width] || base + unkScore > best[start + width]!.score))
          best[start + width] = { score: base + unkScore, from: start, id: 0 };
        start += width;
      }
      const ids: number[] = [];
      for (let end = n; end > 0; end = best[end]!.from) if (!(best[end]!.id === 0 && ids[ids.length - 1] === 0)) ids.push(best[end]!.id);
      return ids.reverse();
    };
    fc.assert(
      fc.property(
        vocabArb,
        fc.array(fc.double({ min: -20, max: -0.01, noNaN: true }), { minLength: 3000, maxLength: 3000 }),
        fc.array(fc.constantFrom(...alphabet, 'x'), { maxLength: 30 }),
        (pieces, scores, chars) => {
          const vocab: [string, number][] = [['<unk>', -100], ...pieces.map((p, i): [string, number] => [p, scores[i]])];
          const t = tokenizerFromJson({ model: { type: 'Unigram', unk_id: 0, vocab } });
          const byPiece = new Map(vocab.map(([p, sc], id): [string, [number, number]] => [p, [id, sc]]));
          const word = chars.join('');
          assert.deepEqual(ids(t.encode(word)), reference(byPiece, -110, word));
        },
      ),
      { numRuns: 15 },
    );
  });

  it('falls back to <0xNN> pieces for unknown characters when byte_fallback is set', () => {
    const t = tokenizerFromJson({
      model: {
        type: 'Unigram',
        unk_id: 0,
        byte_fallback: true,
        vocab: [
          ['<unk>', 0],
          ['a', -1],
          ['<0xC3>', -5],
          ['<0xA9>', -5],
        ],
      },
    });
    const out = t.encode('aé');
    assert.deepEqual(ids(out), [1, 2, 3]);
    assert.deepEqual(show(out), [
      ['a', 0, 1],
      ['é', 1, 2],
      ['⋯', 2, 2],
    ]);
    assert.equal(t.decode!(ids(out) as number[]), 'a <0xC3> <0xA9>'); // no decoder: HF joins the tokens with spaces
  });
});

describe('tokenizer.json: Metaspace pre-tokenizer', () => {
  const vocab: [string, number][] = [
    ['<unk>', 0],
    ['▁', -2],
    ['▁a', -1],
    ['▁b', -1],
    ['a', -3],
    ['b', -3],
    ['<s>', 0],
  ];
  const withMeta = (meta: Record<string, unknown>) =>
    tokenizerFromJson({
      added_tokens: [{ id: 6, content: '<s>', special: true, normalized: false }],
      pre_tokenizer: { type: 'Metaspace', replacement: '▁', ...meta },
      model: { type: 'Unigram', unk_id: 0, vocab },
      decoder: { type: 'Metaspace', replacement: '▁', ...meta },
    });

  it('replaces spaces by ▁, prepends one (always) and starts a word at each ▁; the prefix owns no source text', () => {
    const t = withMeta({ prepend_scheme: 'always', split: true });
    const out = t.encode('a  b');
    assert.deepEqual(show(out), [
      ['␣a', 0, 1],
      ['␣', 1, 2],
      ['␣b', 2, 4],
    ]);
    assert.deepEqual(show(t.encode('<s>a')), [
      ['<s>', 0, 3],
      ['␣a', 3, 4],
    ]); // every piece between added tokens
    assert.equal(t.decode!(ids(t.encode('a  b')) as number[]), 'a  b');
  });

  it("prepends only at the start of the text with prepend_scheme 'first', never with 'never'", () => {
    assert.deepEqual(ids(withMeta({ prepend_scheme: 'first' }).encode('<s>a')), [6, 4]);
    assert.deepEqual(ids(withMeta({ prepend_scheme: 'first' }).encode('a')), [2]);
    assert.deepEqual(ids(withMeta({ prepend_scheme: 'never' }).encode('a b')), [4, 3]);
    assert.equal(withMeta({ prepend_scheme: 'never' }).decode!([4, 3]), 'a b');
  });

  it('collapses runs of spaces with a Replace regex normalizer (XLM-R\'s " {2,}" → " "), keeping the offsets', () => {
    const t = tokenizerFromJson({
      normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' }] },
      pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
      model: { type: 'Unigram', unk_id: 0, vocab },
    });
    assert.deepEqual(show(t.encode('a   b')), [
      ['␣a', 0, 1],
      ['␣b', 1, 5],
    ]);
  });

  it('keeps the text one word without split', () => {
    // "▁a▁b" as one word: the best path is still ▁a + ▁b, but through one Viterbi search
    assert.deepEqual(ids(withMeta({ split: false }).encode('a b')), [2, 3]);
  });
});

describe('tokenizer.json: decoders', () => {
  const decode = (config: object, tokens: string[]) => buildDecoder(config)!(tokens).join('');

  it('ByteFallback: valid byte runs become text, invalid ones one U+FFFD per byte', () => {
    const seq = { type: 'Sequence', decoders: [{ type: 'ByteFallback' }, { type: 'Fuse' }] };
    assert.equal(decode(seq, ['a', '<0xE6>', '<0x88>', '<0x91>', 'b']), 'a我b');
    assert.equal(decode(seq, ['<0xE6>', '<0x88>', 'b']), '\ufffd\ufffdb');
  });

  it('Replace, Strip, WordPiece (with cleanup), BPEDecoder', () => {
    const sp = {
      type: 'Sequence',
      decoders: [{ type: 'Replace', pattern: { String: '▁' }, content: ' ' }, { type: 'Fuse' }, { type: 'Strip', content: ' ', start: 1, stop: 0 }],
    };
    assert.equal(decode(sp, ['▁Hello', '▁world']), 'Hello world');
    assert.equal(decode({ type: 'WordPiece', prefix: '##', cleanup: true }, ['un', '##aff', '##able', ',', 'do', "n't"]), "unaffable, don't"); // cleanup is per token, as in HF
    assert.equal(decode({ type: 'BPEDecoder', suffix: '</w>' }, ['hel', 'lo</w>', 'world</w>']), 'hello world');
  });

  it('an unsupported decoder lets the tokenizer load and makes decode throw, naming it', () => {
    const t = tokenizerFromJson({ model: { type: 'WordLevel', vocab: { a: 0 } }, decoder: { type: 'CTC' } });
    assert.deepEqual(ids(t.encode('a')), [0]);
    assert.throws(() => t.decode!([0]), /cannot decode: tokenizer\.json: decoder\.type "CTC" is not supported/);
    assert.throws(() => t.decode!([7]), /token id 7 is not in this tokenizer's vocabulary/);
  });
});

describe('tokenizer.json: display of SentencePiece-style tokens', () => {
  const mistral = tokenizerFromJson(fixtureJson('mistral'));

  it('shows ▁ as ␣ and byte-fallback runs as their character (then ⋯), with source ranges', () => {
    const out = mistral.encode('The cat 🙂');
    assert.deepEqual(show(out).slice(0, 2), [
      ['<s>', 0, 0],
      ['␣The␣', 0, 4],
    ]);
    const emoji = out.findIndex((t) => t.display === '🙂');
    assert.deepEqual(show(out.slice(emoji)), [
      ['🙂', 8, 10],
      ['⋯', 10, 10],
      ['⋯', 10, 10],
      ['⋯', 10, 10],
    ]);
    assert.deepEqual(mistral.decodeForDisplay!([244, 163, 157, 134, 296]), ['🙂', '⋯', '⋯', '⋯', '␣']);
    assert.deepEqual(mistral.decodeForDisplay!([244, 296]), ['<0xF0>', '␣']); // a lone lead byte stays a byte
  });

  it("shows the added tokens' content and the vocabulary string through idToToken", () => {
    assert.equal(mistral.idToToken!(1), '<s>');
    assert.equal(mistral.idToToken!(244), '<0xF0>');
    assert.equal(mistral.idToToken!(99999), undefined);
  });
});

describe('tokenizer.json: Llama-3 style (Split regex, then ByteLevel without its regex, <|begin_of_text|>)', () => {
  // The llama fixture's vocabulary and merges with the pre-tokenizer and post-processor of a Llama-3 checkpoint.
  const base = fixtureJson('llama');
  const bos = '<|endoftext|>';
  const styled = (regex: string, normalizer: object | null = null) => ({
    ...base,
    normalizer,
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: regex }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
      ],
    },
    post_processor: {
      type: 'Sequence',
      processors: [
        { type: 'ByteLevel', trim_offsets: false },
        {
          type: 'TemplateProcessing',
          single: [{ SpecialToken: { id: bos, type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
          special_tokens: { [bos]: { id: bos, ids: [0], tokens: [bos] } },
        },
      ],
    },
  });
  const llama3 = tokenizerFromJson(styled(LLAMA3_SPLIT));
  const gpt2Style = tokenizerFromJson(base);

  it('gives the same ids as the GPT-2 regex where both split alike, plus the BOS', () => {
    for (const s of ['The cat sat on the mat.', 'key_padding_mask=True', '小明把书放在了桌子上。']) {
      assert.deepEqual(ids(llama3.encode(s)), [0, ...ids(gpt2Style.encode(s))], s);
    }
  });

  it('gives the same tokens when a long text is cut in chunks before spaces (Llama-3, and Qwen2 with NFC)', () => {
    const text = fc.array(unicodeText({ exclude: ['<|endoftext|>', '<|pad|>'] }), { maxLength: 6 }).map((a) => a.join(' '));
    for (const json of [styled(LLAMA3_SPLIT), styled(QWEN2_SPLIT, { type: 'NFC' })]) {
      const whole = tokenizerFromJson(json, undefined, { chunkUnits: 1e9 });
      fc.assert(
        fc.property(text, fc.integer({ min: 1, max: 20 }), (s, chunkUnits) => {
          assert.deepEqual(tokenizerFromJson(json, undefined, { chunkUnits }).encode(s), whole.encode(s));
        }),
      );
    }
    // and stops early under maxTokens
    assert.equal(llama3.encode('The cat sat. '.repeat(400_000), { maxTokens: 5 }).length, 5);
  });

  it('splits numbers into groups of three digits (GPT-2 keeps the run)', () => {
    const t = llama3.encode('12345', { addSpecialTokens: false });
    assert.deepEqual(ids(t), ids(gpt2Style.encode('123')).concat(ids(gpt2Style.encode('45'))));
  });
});

describe('tokenizer.json: the nine modern tokenizers on awkward text', () => {
  const specials = ['<s>', '</s>', '<unk>', '<pad>', '<bos>', '<eos>', '<|endoftext|>', '<|pad|>'];
  const text = unicodeText({ exclude: specials });

  for (const family of FAMILIES) {
    const json = fixtureJson(family);
    const whole = tokenizerFromJson(json, family, { chunkUnits: 1e9 });

    it(`${family}: ordered non-overlapping offsets, the same tokens when cut in chunks`, () => {
      fc.assert(
        fc.property(
          fc.array(text, { maxLength: 5 }).map((a) => a.join(' ')),
          fc.integer({ min: 1, max: 20 }),
          (s, chunkUnits) => {
            const tokens = whole.encode(s);
            checkOffsets(s, tokens);
            assert.deepEqual(tokenizerFromJson(json, family, { chunkUnits }).encode(s), tokens);
          },
        ),
        { numRuns: 60 },
      );
    });

    if (family !== 'xlm_roberta') {
      // byte-level BPE and BPE with byte fallback lose nothing: decoding gives the text back (RoBERTa with the
      // prefix space its pre-tokenizer adds)
      it(`${family}: decode(encode(text)) is the text`, () => {
        fc.assert(
          fc.property(text, (s) => {
            const decoded = whole.decode!(ids(whole.encode(s)) as number[], { skipSpecialTokens: true });
            assert.equal(decoded, family === 'roberta' && s.length && !s.startsWith(' ') ? ` ${s}` : s);
          }),
          { numRuns: 60 },
        );
      });
    }
  }
});
