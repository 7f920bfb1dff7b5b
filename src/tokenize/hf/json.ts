// Defensive readers for tokenizer.json values: every failure is an Error that names the JSON path and what was
// expected, e.g. "tokenizer.json: model.vocab must be an object mapping tokens to ids, got an array".

export type JsonObject = { readonly [key: string]: unknown };

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}

export function fail(path: string, expected: string, value: unknown): never {
  throw new Error(`tokenizer.json: ${path} must be ${expected}, got ${describe(value)}`);
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown, path: string): JsonObject {
  if (!isObject(value)) fail(path, 'an object', value);
  return value;
}

export function asArray(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(path, 'an array', value);
  return value;
}

export function asString(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, 'a string', value);
  return value;
}

export function optString(obj: JsonObject, key: string, path: string): string | undefined {
  const v = obj[key];
  return v === undefined || v === null ? undefined : asString(v, `${path}.${key}`);
}

export function optBool(obj: JsonObject, key: string, path: string, fallback: boolean): boolean {
  const v = obj[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') fail(`${path}.${key}`, 'true or false', v);
  return v;
}

export function asId(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0x7fffffff) {
    fail(path, 'a non-negative integer id', value);
  }
  return value;
}

export function optCount(obj: JsonObject, key: string, path: string, fallback: number): number {
  const v = obj[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(`${path}.${key}`, 'a non-negative integer', v);
  return v;
}

/** The `type` of a component, or the error naming the supported ones. */
export function componentType(obj: JsonObject, path: string, supported: readonly string[]): string {
  const t = obj.type;
  if (typeof t !== 'string') fail(`${path}.type`, `one of ${supported.join(', ')}`, t);
  if (!supported.includes(t)) {
    throw new Error(`tokenizer.json: ${path}.type ${JSON.stringify(t)} is not supported (supported: ${supported.join(', ')})`);
  }
  return t;
}

/** A vocabulary object {token: id}. */
export function asVocab(value: unknown, path: string): Map<string, number> {
  if (!isObject(value)) fail(path, 'an object mapping tokens to ids', value);
  const vocab = new Map<string, number>();
  for (const key of Object.keys(value)) vocab.set(key, asId(value[key], `${path}[${JSON.stringify(key)}]`));
  return vocab;
}
