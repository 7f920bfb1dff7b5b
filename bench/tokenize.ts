// Tokenizer throughput: prints MB/s and tokens for the words, GPT-2 and tokenizer.json (BERT-style) tokenizers
// on ~5 MB of mixed English/Chinese/emoji text, plus GPT-2's vocabulary load time and a pathological 1 MB run of
// one character (a single regex piece). Numbers only, no assertions (the machine is shared and noisy).
// Run: npx tsx bench/tokenize.ts
import { createTokenizer, tokenizerFromJson, type Tokenizer } from '../src/tokenize';
import { rebuildGpt2TokenizerJson } from '../test/unit/tokenize/gpt2-json';

const LINE = 'The quick brown fox jumps over the lazy dog; "don\'t" panic. 我爱自然语言处理。注意力机制 👨‍👩‍👧 café 1234\n';
const TEXT = LINE.repeat(Math.ceil(5_000_000 / LINE.length));

function time(label: string, tok: Tokenizer, text: string): void {
  const t0 = performance.now();
  const n = tok.encode(text).length;
  const ms = performance.now() - t0;
  const mb = new TextEncoder().encode(text).length / 1e6;
  console.log(`${label.padEnd(44)} ${ms.toFixed(0).padStart(6)} ms  ${(mb / (ms / 1000)).toFixed(2).padStart(6)} MB/s  ${n} tokens`);
}

async function main(): Promise<void> {
  let t0 = performance.now();
  const gpt2 = await createTokenizer({ kind: 'gpt2' });
  console.log(`GPT-2 vocabulary load (first createTokenizer)     ${(performance.now() - t0).toFixed(0)} ms`);

  const vocab: Record<string, number> = { '[UNK]': 0, '[CLS]': 1, '[SEP]': 2 };
  for (const w of LINE.toLowerCase().split(/[\s\p{P}]+/u)) if (w && !(w in vocab)) vocab[w] = Object.keys(vocab).length;
  t0 = performance.now();
  const bert = await createTokenizer({
    kind: 'tokenizer-json',
    json: {
      normalizer: { type: 'BertNormalizer', lowercase: true },
      pre_tokenizer: { type: 'BertPreTokenizer' },
      post_processor: { type: 'BertProcessing', cls: ['[CLS]', 1], sep: ['[SEP]', 2] },
      model: { type: 'WordPiece', unk_token: '[UNK]', vocab },
    },
  });
  console.log(`tokenizer.json build (tiny WordPiece)             ${(performance.now() - t0).toFixed(0)} ms`);

  const gpt2Json = JSON.stringify(await rebuildGpt2TokenizerJson());
  t0 = performance.now();
  const gpt2FromJson = tokenizerFromJson(gpt2Json);
  console.log(`tokenizer.json build (GPT-2, ${(gpt2Json.length / 1e6).toFixed(1)} MB of JSON)       ${(performance.now() - t0).toFixed(0)} ms`);

  const words = await createTokenizer({ kind: 'words' });
  time('words, 5 MB mixed text', words, TEXT);
  time('gpt2, 5 MB mixed text', gpt2, TEXT);
  time('tokenizer.json WordPiece, 5 MB mixed text', bert, TEXT);
  time('tokenizer.json GPT-2 (BPE), 5 MB mixed text', gpt2FromJson, TEXT);
  time('gpt2, 1 MB of "=" (one regex piece)', gpt2, '='.repeat(1_000_000));
  time('gpt2, 5 MB, maxTokens 512', { name: 'capped', encode: (s) => gpt2.encode(s, { maxTokens: 512 }) }, TEXT);
}

void main();
