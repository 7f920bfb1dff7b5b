import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { displayBytes, displayText } from '../../../src/tokenize';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('display helpers', () => {
  it('shows complete UTF-8 characters as themselves and every other byte as <0xXX>', () => {
    assert.equal(displayBytes(new TextEncoder().encode('我爱')), '我爱');
    assert.equal(displayBytes(bytes(0xe6, 0x88)), '<0xE6><0x88>'); // first two bytes of 我
    assert.equal(displayBytes(bytes(0x91, 0x41)), '<0x91>A'); // a stray continuation byte, then "A"
    assert.equal(displayBytes(bytes(0xc0, 0x80)), '<0xC0><0x80>'); // overlong NUL
    assert.equal(displayBytes(bytes(0xed, 0xa0, 0x80)), '<0xED><0xA0><0x80>'); // an encoded surrogate
    assert.equal(displayBytes(bytes(0xf4, 0x90, 0x80, 0x80)), '<0xF4><0x90><0x80><0x80>'); // above U+10FFFF
    assert.equal(displayBytes(bytes(0xef, 0xbf, 0xbd)), '\ufffd'); // a real U+FFFD in the text stays itself
    assert.equal(displayBytes(bytes(0xf0, 0x9f, 0x8c, 0x8d)), '🌍');
  });

  it('makes white space visible and escapes controls, direction overrides and lone surrogates', () => {
    assert.equal(displayText(' a\n\t\r'), '␣a↵⇥␍');
    assert.equal(displayText('\u0000\u202e\u2066\ufeff\u0085'), '<U+0000><U+202E><U+2066><U+FEFF><U+0085>');
    assert.equal(displayText('x\ud800y'), 'x<U+D800>y');
    assert.equal(displayText('👨‍👩‍👧 é <b>'), '👨‍👩‍👧␣é␣<b>'); // ZWJ and markup-looking text are kept as text
    assert.equal(displayBytes(bytes(0x20, 0x0a, 0x00)), '␣↵<U+0000>');
  });

  it('leaves ordinary text unchanged, whether given as a string or as its UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const plain = s.replace(/[\x00-\x20\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufeff]/g, '');
        assert.equal(displayText(plain), plain);
        assert.equal(displayBytes(new TextEncoder().encode(plain)), plain);
      }),
    );
  });
});
