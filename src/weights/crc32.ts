// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) as zip stores it, slicing-by-8 for speed:
// eight 256-entry tables let the loop consume 8 bytes per step.

let tables: Uint32Array[] | undefined;

function getTables(): Uint32Array[] {
  if (tables) return tables;
  const t = Array.from({ length: 8 }, () => new Uint32Array(256));
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[0][n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    for (let k = 1; k < 8; k++) t[k][n] = (t[0][t[k - 1][n] & 0xff] ^ (t[k - 1][n] >>> 8)) >>> 0;
  }
  tables = t;
  return t;
}

export function crc32(bytes: Uint8Array): number {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = getTables();
  let crc = 0xffffffff;
  let i = 0;
  const end8 = bytes.length - (bytes.length % 8);
  for (; i < end8; i += 8) {
    const lo = crc ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
    crc =
      t7[lo & 0xff] ^
      t6[(lo >>> 8) & 0xff] ^
      t5[(lo >>> 16) & 0xff] ^
      t4[lo >>> 24] ^
      t3[bytes[i + 4]] ^
      t2[bytes[i + 5]] ^
      t1[bytes[i + 6]] ^
      t0[bytes[i + 7]];
  }
  for (; i < bytes.length; i++) crc = t0[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
