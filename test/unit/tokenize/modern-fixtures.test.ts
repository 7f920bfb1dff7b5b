// The tokenizers of today's checkpoint families against what HF transformers 5.12.1 / tokenizers 0.23.1 gave for
// the same tokenizer.json (test/fixtures/modern/<family>/expected.json): ids, tokens and decoded text of every
// probe, and the ids of the two model texts, exactly.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenizerFromJson, type Tokenizer } from '../../../src/tokenize';
import { checkOffsets } from './arbitraries';

const ROOT = join(__dirname, '../../fixtures/modern');
export const MODERN_FAMILIES = ['llama', 'qwen2', 'qwen3', 'mistral', 'gemma2', 'gemma3', 'phi3', 'roberta', 'xlm_roberta'] as const;

interface Probe {
  text: string;
  ids: number[];
  tokens: string[];
  decoded: string;
}

interface Expected {
  texts: string[];
  input_ids: number[][];
  attention_mask: number[][];
  tokens: string[][];
  tokenizer_probes: Probe[];
}

export function loadModernTokenizer(family: string): Tokenizer {
  return tokenizerFromJson(readFileSync(join(ROOT, family, 'tokenizer.json'), 'utf8'), family);
}

function loadExpected(family: string): Expected {
  return JSON.parse(readFileSync(join(ROOT, family, 'expected.json'), 'utf8')) as Expected;
}

for (const family of MODERN_FAMILIES) {
  describe(`tokenizer.json of ${family} agrees with HF tokenizers`, () => {
    const expected = loadExpected(family);
    const tok = loadModernTokenizer(family);

    for (const probe of expected.tokenizer_probes) {
      it(`probe ${JSON.stringify(probe.text)}: ids, tokens, decoded text and offsets`, () => {
        const tokens = tok.encode(probe.text);
        const ids = tokens.map((t) => t.id);
        assert.deepEqual(ids, probe.ids);
        assert.deepEqual(
          probe.ids.map((id) => tok.idToToken!(id)),
          probe.tokens,
        );
        assert.equal(tok.decode!(probe.ids, { skipSpecialTokens: true }), probe.decoded);
        checkOffsets(probe.text, tokens);
      });
    }

    expected.texts.forEach((text, b) => {
      it(`text ${b} (${JSON.stringify(text.slice(0, 20))}…): input_ids and tokens without the padding`, () => {
        const n = expected.attention_mask[b].reduce((s, m) => s + m, 0);
        const tokens = tok.encode(text);
        assert.deepEqual(
          tokens.map((t) => t.id),
          expected.input_ids[b].slice(0, n),
        );
        assert.deepEqual(
          tokens.map((t) => tok.idToToken!(t.id!)),
          expected.tokens[b].slice(0, n),
        );
        checkOffsets(text, tokens);
      });
    });
  });
}
