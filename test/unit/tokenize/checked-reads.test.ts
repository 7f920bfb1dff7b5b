import { strict as assert } from 'node:assert';
import { mergeSymbols } from '../../../src/tokenize/bpe';
import { itemAt } from '../../../src/tokenize/checked';
import { utf8SequenceLength } from '../../../src/tokenize/display';
import { alignOriginal, mapClusters, mapCodePoints, prependAligned, replaceAligned, type Aligned } from '../../../src/tokenize/hf/aligned';
import { toByteLevel } from '../../../src/tokenize/hf/pre-tokenizers';

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

  it('aligned text whose offset arrays are shorter than its text is refused, naming the unit without a range', () => {
    // "ab": unit 1 has no start or end (the arrays must be as long as the text)
    const short: Aligned = { text: 'ab', starts: Int32Array.of(0), ends: Int32Array.of(1) };
    const unit1 = /^RangeError: aligned text: unit 1 has no original range \(text of 2 units, 1 starts, 1 ends\)$/;
    assert.throws(() => mapCodePoints(short, (c) => c.toUpperCase()), unit1);
    assert.throws(() => replaceAligned(short, 'b', 'c'), unit1); // the replaced range [1, 2)
    assert.throws(() => prependAligned(short, ' '), unit1); // copied whole after the prefix
    assert.throws(() => mapClusters({ text: 'e\u0301', starts: Int32Array.of(0), ends: Int32Array.of(1) }, (c) => c.normalize('NFC')), unit1);
    // (ASCII text keeps its arrays as they are in ByteLevel; "aé" is mapped unit by unit)
    const shortAccent: Aligned = { text: 'a\u00e9', starts: Int32Array.of(0), ends: Int32Array.of(1) };
    assert.throws(() => toByteLevel(shortAccent), /^RangeError: ByteLevel input: unit 1 has no original range/);
    assert.throws(() => prependAligned({ text: 'a', starts: new Int32Array(0), ends: new Int32Array(0) }, ' '), /unit 0 has no original range/);
    // the same calls on well-formed text keep every unit's own range
    const ok = alignOriginal('xab', 1, 3);
    assert.deepEqual([...mapCodePoints(ok, (c) => c.toUpperCase()).starts], [1, 2]);
    assert.deepEqual([...replaceAligned(ok, 'b', 'cd').ends], [2, 3, 3]);
    const prefixed = prependAligned(ok, ' ');
    assert.deepEqual([prefixed.text, [...prefixed.starts], [...prefixed.ends]], [' ab', [1, 1, 2], [1, 2, 3]]);
  });
});
