// Errors thrown by the loaders. Every message starts with the file name, then says what is wrong,
// e.g. "model.safetensors: header length 9.2e18 is past the end of the file (1,024 bytes)".

export class WeightFileError extends Error {
  override readonly name = 'WeightFileError';
  constructor(
    readonly fileName: string,
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`${fileName}: ${problem}`, options);
  }
}

/** Throws a WeightFileError for `fileName`. */
export function fail(fileName: string, problem: string): never {
  throw new WeightFileError(fileName, problem);
}

/**
 * A count for a message: "1,024" for ordinary sizes, "9.2e18" for absurd ones (what a hostile length
 * field usually holds), so the message stays readable.
 */
export function formatCount(n: number | bigint): string {
  const v = typeof n === 'bigint' ? Number(n) : n;
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1e12) return v.toExponential(1).replace('e+', 'e');
  return Math.round(v) === v ? v.toLocaleString('en-US') : String(v);
}

/** A short quoted rendering of an untrusted string (tensor names, pickle globals) for a message. */
export function quote(s: string, max = 80): string {
  const clipped = s.length > max ? `${s.slice(0, max)}…` : s;
  return JSON.stringify(clipped);
}
