// Base64 to bytes without atob/Buffer (the engine runs in the extension host, a worker and the CLI).
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

/** Decodes standard base64 (with or without '=' padding). Throws on any other character. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  let len = text.length;
  while (len > 0 && text.charCodeAt(len - 1) === 61 /* = */) len--;
  if (len % 4 === 1) throw new Error(`decodeBase64: length ${text.length} is not valid base64`);
  const out = new Uint8Array(Math.floor((len * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < len; i++) {
    const code = text.charCodeAt(i);
    const v = code < 128 ? VALUE[code] : -1;
    if (v < 0) throw new Error(`decodeBase64: invalid character at ${i}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}
