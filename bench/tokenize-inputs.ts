// The tokenizer benches' inputs: the paragraphs repeated to 100 KB and the tokenizer.json files built from GPT-2's
// vocabulary (Llama-3 style, Unigram with Metaspace) or from the text itself (a tiny BERT WordPiece), shared by
// bench/tokenize.ts and bench/tokenize-ab.ts.
import { byteLevelTokenBytes } from '../src/tokenize/byte-level';
import { LLAMA3_SPLIT } from '../test/unit/tokenize/split-patterns';

export type Gpt2Json = { model: { vocab: Record<string, number>; merges: unknown[] } } & Record<string, unknown>;

export const ENGLISH_PARAGRAPH =
  'Attention lets every position of a sequence look at every other position. The queries are compared with the keys, ' +
  "the scores are scaled by the square root of the head size, and a softmax over the keys turns them into weights. Don't " +
  'forget the mask: padding must never receive weight, and a causal model must not see the future (1,024 tokens at most).\n';
export const CHINESE_PARAGRAPH =
  '注意力机制让序列中的每个位置都能看到其他所有位置。查询与键进行比较，得分除以头维度的平方根，再对键做归一化指数函数，' +
  '得到权重。别忘了掩码：填充位置不能得到权重，因果模型也不能看到未来的词元（最多一千零二十四个）。\n';

/** `paragraph` repeated to about `bytes` UTF-8 bytes. */
export function repeatTo(paragraph: string, bytes: number): string {
  return paragraph.repeat(Math.ceil(bytes / new TextEncoder().encode(paragraph).length));
}

/** A Unigram tokenizer.json with Metaspace and NFKC (XLM-R's shape) whose pieces are GPT-2's tokens as text
 * (Ġ → ▁), scored by rank, plus every character of the bench texts: a realistic vocabulary size. */
export function unigramFromGpt2(gpt2: Gpt2Json, texts: string[]): object {
  const pieces: [string, number][] = [
    ['<s>', 0],
    ['<pad>', 0],
    ['</s>', 0],
    ['<unk>', 0],
  ];
  const seen = new Set<string>(pieces.map((p) => p[0]));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const add = (piece: string, score: number) => {
    if (!seen.has(piece)) {
      seen.add(piece);
      pieces.push([piece, score]);
    }
  };
  for (const [tok, rank] of Object.entries(gpt2.model.vocab)) {
    const bytes = byteLevelTokenBytes(tok);
    if (!bytes) continue;
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      continue; // not whole characters
    }
    add(text.replace(/ /g, '\u2581'), -Math.log(rank + 2));
  }
  for (const t of texts) for (const ch of t) add(ch, -12);
  return {
    added_tokens: ['<s>', '<pad>', '</s>', '<unk>'].map((content, id) => ({ id, content, special: true, normalized: false })),
    normalizer: { type: 'NFKC' },
    pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
    post_processor: { type: 'RobertaProcessing', cls: ['<s>', 0], sep: ['</s>', 2] },
    decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 3, vocab: pieces },
  };
}

/** A BERT-style tokenizer.json (BertNormalizer, BertPreTokenizer, WordPiece) whose vocabulary is the words of `line`. */
export function bertWordPieceJson(line: string): object {
  const vocab: Record<string, number> = { '[UNK]': 0, '[CLS]': 1, '[SEP]': 2 };
  for (const w of line.toLowerCase().split(/[\s\p{P}]+/u)) if (w && !(w in vocab)) vocab[w] = Object.keys(vocab).length;
  return {
    normalizer: { type: 'BertNormalizer', lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: { type: 'BertProcessing', cls: ['[CLS]', 1], sep: ['[SEP]', 2] },
    model: { type: 'WordPiece', unk_token: '[UNK]', vocab },
  };
}

/** GPT-2's tokenizer.json with Llama-3's pre-tokenizer (its Split regex, then ByteLevel without a regex). */
export function llama3StyleJson(gpt2: Gpt2Json): object {
  return {
    ...gpt2,
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: LLAMA3_SPLIT }, behavior: 'Isolated', invert: false },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
      ],
    },
  };
}
