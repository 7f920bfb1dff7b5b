// The panel's CSP nonce (issue 13, item 12): 128 bits from crypto.getRandomValues, never Math.random.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeNonce } from '../../src/host/panel/nonce';

describe('panel: Content-Security-Policy nonce', () => {
  it('is 16 random bytes, base64url: 22 characters a CSP nonce accepts', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const n = makeNonce();
      assert.match(n, /^[A-Za-z0-9_-]{22}$/);
      seen.add(n);
    }
    assert.equal(seen.size, 1000);
  });

  it('takes its bytes from the generator it is given (the platform’s crypto.getRandomValues by default)', () => {
    assert.equal(
      makeNonce((b) => b.fill(0)),
      'AAAAAAAAAAAAAAAAAAAAAA',
    );
    assert.equal(
      makeNonce((b) => b.fill(255)),
      '_____________________w',
    );
    const source =
      readFileSync(join(__dirname, '..', '..', 'src', 'host', 'panel', 'nonce.ts'), 'utf8') +
      readFileSync(join(__dirname, '..', '..', 'src', 'host', 'panel', 'panel.ts'), 'utf8');
    assert.ok(!/Math\.random/.test(source), 'the panel must not draw its nonce from Math.random');
    assert.match(source, /getRandomValues/);
  });
});
