// Rebuilds GPT-2's tokenizer.json (ByteLevel + BPE with merges) from gpt-tokenizer's rank table, to test the
// tokenizer.json implementation against the GPT-2 tokenizer on the real 50257-token vocabulary.
//
// GPT-2's token ids after the 256 single bytes are in merge order, so the merge that creates token r is the pair
// that BPE-encoding r's bytes with only the tokens below r leaves. A token that does not come apart into exactly
// two parts would mean that this assumption is wrong: the function then throws.
import { mergeSymbols } from '../../../src/tokenize/bpe';
import { BYTE_TO_CHAR } from '../../../src/tokenize/byte-level';

export async function rebuildGpt2TokenizerJson(): Promise<object> {
  const { default: ranks } = await import('gpt-tokenizer/bpeRanks/r50k_base');
  const enc = new TextEncoder();
  const strOf = ranks.map((e) => Array.from(typeof e === 'string' ? enc.encode(e) : Uint8Array.from(e), (x) => BYTE_TO_CHAR[x]).join(''));
  const rankOf = new Map(strOf.map((s, r) => [s, r]));
  const merges: [string, string][] = [];
  for (let r = 256; r < ranks.length; r++) {
    const chars = [...strOf[r]];
    const lookup = (a: number, b: number) => {
      const m = rankOf.get(strOf[a] + strOf[b]);
      return m !== undefined && m < r ? { rank: m, newId: m } : undefined;
    };
    const parts = mergeSymbols({ ids: chars.map((c) => rankOf.get(c)!), lens: chars.map(() => 1) }, lookup).ids;
    if (parts.length !== 2) throw new Error(`token ${r} ${JSON.stringify(strOf[r])} splits into ${parts.length} parts`);
    merges.push([strOf[parts[0]], strOf[parts[1]]]);
  }
  return {
    added_tokens: [{ id: 50256, content: '<|endoftext|>', single_word: false, lstrip: false, rstrip: false, normalized: true, special: true }],
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: false, use_regex: true },
    decoder: { type: 'ByteLevel' },
    model: { type: 'BPE', vocab: { ...Object.fromEntries(strOf.map((s, r) => [s, r])), '<|endoftext|>': 50256 }, merges },
  };
}
