// Tokenizer throughput: prints MB/s and tokens for the words, GPT-2 and tokenizer.json (BERT-style) tokenizers
// on ~5 MB of mixed English/Chinese/emoji text, plus GPT-2's vocabulary load time and a pathological 1 MB run of
// one character (a single regex piece); then 100 KB of English and 100 KB of Chinese through the tokenizers of
// today's checkpoints: Llama-3-style (Split regex + byte-level BPE, on GPT-2's 50k vocabulary), Unigram with
// Metaspace (a 50k-piece vocabulary made from GPT-2's), and the test fixtures' own tiny Llama, Mistral
// (SentencePiece BPE, byte fallback, the whole text one word) and XLM-R (Unigram) tokenizer.json files.
// Numbers only, no assertions (the machine is shared and noisy: `uptime`'s load is printed at the end).
// Run: npx tsx bench/tokenize.ts
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createTokenizer, tokenizerFromJson, type Tokenizer } from '../src/tokenize';
import { rebuildGpt2TokenizerJson } from '../test/unit/tokenize/gpt2-json';
import { bertWordPieceJson, CHINESE_PARAGRAPH, ENGLISH_PARAGRAPH, llama3StyleJson, repeatTo, unigramFromGpt2, type Gpt2Json } from './tokenize-inputs';

const LINE = 'The quick brown fox jumps over the lazy dog; "don\'t" panic. 我爱自然语言处理。注意力机制 👨‍👩‍👧 café 1234\n';
const TEXT = LINE.repeat(Math.ceil(5_000_000 / LINE.length));

function time(label: string, tok: Tokenizer, text: string): void {
  const t0 = performance.now();
  const n = tok.encode(text).length;
  const ms = performance.now() - t0;
  const mb = new TextEncoder().encode(text).length / 1e6;
  console.log(`${label.padEnd(50)} ${ms.toFixed(0).padStart(6)} ms  ${(mb / (ms / 1000)).toFixed(2).padStart(6)} MB/s  ${n} tokens`);
}

async function main(): Promise<void> {
  let t0 = performance.now();
  const gpt2 = await createTokenizer({ kind: 'gpt2' });
  console.log(`GPT-2 vocabulary load (first createTokenizer)     ${(performance.now() - t0).toFixed(0)} ms`);

  t0 = performance.now();
  const bert = await createTokenizer({ kind: 'tokenizer-json', json: bertWordPieceJson(LINE) });
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
  modernTokenizers(JSON.parse(gpt2Json) as Gpt2Json);
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} on ${os.cpus().length} CPUs`,
  );
}

function modernTokenizers(gpt2: Gpt2Json): void {
  const english = repeatTo(ENGLISH_PARAGRAPH, 100_000);
  const chinese = repeatTo(CHINESE_PARAGRAPH, 100_000);
  const build = (label: string, json: string | object): Tokenizer => {
    const t0 = performance.now();
    const tok = tokenizerFromJson(json, label);
    console.log(`tokenizer.json build (${label})`.padEnd(50) + `${(performance.now() - t0).toFixed(0).padStart(6)} ms`);
    return tok;
  };
  const fixture = (family: string) => readFileSync(join(__dirname, '../test/fixtures/modern', family, 'tokenizer.json'), 'utf8');
  const llama3 = build('Llama-3 style, GPT-2 vocabulary', llama3StyleJson(gpt2));
  const unigram = build('Unigram + Metaspace, 50k pieces', unigramFromGpt2(gpt2, [english, chinese]));
  const tokenizers: [string, Tokenizer][] = [
    ['Llama-3 style (50k BPE)', llama3],
    ['Unigram (50k pieces)', unigram],
    ['fixture llama (byte-level BPE)', build('fixture llama', fixture('llama'))],
    ['fixture mistral (SentencePiece BPE)', build('fixture mistral', fixture('mistral'))],
    ['fixture xlm_roberta (Unigram)', build('fixture xlm_roberta', fixture('xlm_roberta'))],
  ];
  // first call (cold: JIT, caches empty), then the best of three warm calls
  const coldAndWarm = (label: string, tok: Tokenizer, text: string) => {
    time(`${label} (first)`, tok, text);
    let best = Infinity;
    let n = 0;
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      n = tok.encode(text).length;
      best = Math.min(best, performance.now() - t0);
    }
    const mb = new TextEncoder().encode(text).length / 1e6;
    console.log(`${`${label} (best of 3)`.padEnd(50)} ${best.toFixed(0).padStart(6)} ms  ${(mb / (best / 1000)).toFixed(2).padStart(6)} MB/s  ${n} tokens`);
  };
  for (const [label, tok] of tokenizers) {
    coldAndWarm(`${label}, 100 KB English`, tok, english);
    coldAndWarm(`${label}, 100 KB Chinese`, tok, chinese);
  }
}

void main();
