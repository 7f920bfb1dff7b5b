import { strict as assert } from 'node:assert';
import { mergeSymbols } from '../../../src/tokenize/bpe';
import { itemAt } from '../../../src/tokenize/checked';
import { utf8SequenceLength } from '../../../src/tokenize/display';

// The tokenizers' index reads under noUncheckedIndexedAccess: what a read past the end does.
describe('tokenizer index reads', () => {
  it('itemAt returns the item in range and names the list and the range past it', () => {
    assert.equal(itemAt([4, 5, 6], 2, 'ids'), 6);
    assert.equal(itemAt(Int32Array.of(0), 0, 'ids'), 0);
    assert.throws(() => itemAt([4, 5, 6], 3, 'merged symbols'), /^RangeError: merged symbols: index 3 is outside 0\.\.2$/);
    assert.throws(() => itemAt(new Uint8Array(0), 0, 'token bytes'), /token bytes: index 0 is outside 0\.\.-1/);
  });

  it('mergeSymbols refuses symbols whose ids and lengths differ in number (instead of NaN offsets)', () => {
    const lookup = (a: number, b: number) => (a === 1 && b === 2 ? { rank: 0, newId: 3 } : undefined);
    assert.deepEqual(mergeSymbols({ ids: [1, 2, 1], lens: [1, 2, 1] }, lookup), { ids: [3, 1], lens: [3, 1] });
    assert.throws(() => mergeSymbols({ ids: [1, 2], lens: [1] }, lookup), /BPE merge: 2 symbol ids but 1 lengths/);
    assert.throws(() => mergeSymbols({ ids: [1], lens: [] }, lookup), /BPE merge: 1 symbol ids but 0 lengths/);
  });

  it('a UTF-8 sequence that starts or runs past the end of the bytes is not a character', () => {
    assert.equal(utf8SequenceLength(Uint8Array.of(0xe6, 0x88, 0x91), 0), 3);
    assert.equal(utf8SequenceLength(Uint8Array.of(0xe6, 0x88), 0), 0);
    assert.equal(utf8SequenceLength(Uint8Array.of(0x41), 1), 0);
  });
});
