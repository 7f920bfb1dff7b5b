// The Content-Security-Policy nonce of each render of the panel: 128 bits from the platform's
// cryptographically secure generator (crypto.getRandomValues), base64url-encoded (CSP accepts base64).
// (A non-cryptographic generator is no secret: its state can be recovered from its outputs.)
import { webcrypto } from 'node:crypto';

export function makeNonce(random: (bytes: Uint8Array) => Uint8Array = (b) => webcrypto.getRandomValues(b)): string {
  const bytes = random(new Uint8Array(16));
  return Buffer.from(bytes).toString('base64url');
}
