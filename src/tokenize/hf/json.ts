// Defensive readers for tokenizer.json values: every failure is an Error that names the JSON path and what was
// expected, e.g. "tokenizer.json: model.vocab must be an object mapping tokens to ids, got an array".

import { defineTemplates, MessageError, msg, type MessageArg, type MessageParts } from '../../protocol/message';

export type JsonObject = { readonly [key: string]: unknown };

/** The errors a tokenizer.json can give, as templates and arguments (src/protocol/message.ts, comment `error`). */
export const TOKENIZER_ERRORS = defineTemplates(
  {
    mustBe: 'tokenizer.json: {0} must be {1}, got {2}',
    typeUnsupported: 'tokenizer.json: {0}.type {1} is not supported (supported: {2})',
    notJson: 'tokenizer.json is not valid JSON: {0}',
    notObject: 'tokenizer.json must hold a JSON object, got {0}',
    noModel: 'tokenizer.json: the "model" section is missing',
    unkNotInVocab: 'tokenizer.json: {0}.unk_token {1} is not in {0}.vocab',
    mergeNotInVocab: 'tokenizer.json: {0} uses {1}, which is not in {2}.vocab',
    unkIdOutside: 'tokenizer.json: {0}.unk_id {1} is outside {0}.vocab ({2} pieces)',
    specialMissing: 'tokenizer.json: {0} names the special token {1}, which is missing from {2}.special_tokens',
    specialIds: 'tokenizer.json: {0}.special_tokens[{1}] has {2} ids but {3} tokens',
    sequenceOnce: 'tokenizer.json: {0} must contain the sequence ($A) exactly once',
    sequenceA: 'tokenizer.json: {0} must use sequence A, not {1}',
    prefixSpace: 'tokenizer.json: {0}.add_prefix_space false does not match prepend_scheme {1}',
    regex: 'tokenizer.json: {0}.Regex: {1}',
    pattern: 'tokenizer.json: {0} must be {"String": ...} or {"Regex": ...}',
    // What a value must be
    anObject: 'an object',
    anArray: 'an array',
    aString: 'a string',
    trueOrFalse: 'true or false',
    anId: 'a non-negative integer id',
    aCount: 'a non-negative integer',
    oneOf: 'one of {0}',
    aVocab: 'an object mapping tokens to ids',
    mergeWithSpace: 'a string "left right" with exactly one space, or a [left, right] pair',
    merge: 'a string "left right" or a [left, right] pair',
    tokenIdPair: 'a [token, id] pair',
    templatePiece: 'an object with a SpecialToken or a Sequence entry',
    oneCharacter: 'one character',
    pieceScorePair: 'a [piece, score] pair',
    logProbability: 'a finite number (the log probability)',
    // What a value was
    theString: 'the string {0}',
  },
  'error',
);

export function describe(value: unknown): MessageArg {
  if (value === null) return 'null';
  if (Array.isArray(value)) return msg(TOKENIZER_ERRORS.anArray);
  if (typeof value === 'string') return msg(TOKENIZER_ERRORS.theString, JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value));
  if (typeof value === 'object') return msg(TOKENIZER_ERRORS.anObject);
  return `${typeof value} ${String(value)}`;
}

export function fail(path: string, expected: MessageParts, value: unknown): never {
  throw new MessageError(msg(TOKENIZER_ERRORS.mustBe, path, expected, describe(value)));
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asObject(value: unknown, path: string): JsonObject {
  if (!isObject(value)) fail(path, msg(TOKENIZER_ERRORS.anObject), value);
  return value;
}

export function asArray(value: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(value)) fail(path, msg(TOKENIZER_ERRORS.anArray), value);
  return value;
}

export function asString(value: unknown, path: string): string {
  if (typeof value !== 'string') fail(path, msg(TOKENIZER_ERRORS.aString), value);
  return value;
}

export function optString(obj: JsonObject, key: string, path: string): string | undefined {
  const v = obj[key];
  return v === undefined || v === null ? undefined : asString(v, `${path}.${key}`);
}

export function optBool(obj: JsonObject, key: string, path: string, fallback: boolean): boolean {
  const v = obj[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') fail(`${path}.${key}`, msg(TOKENIZER_ERRORS.trueOrFalse), v);
  return v;
}

export function asId(value: unknown, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0x7fffffff) {
    fail(path, msg(TOKENIZER_ERRORS.anId), value);
  }
  return value;
}

export function optCount(obj: JsonObject, key: string, path: string, fallback: number): number {
  const v = obj[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) fail(`${path}.${key}`, msg(TOKENIZER_ERRORS.aCount), v);
  return v;
}

/** The `type` of a component, or the error naming the supported ones. */
export function componentType(obj: JsonObject, path: string, supported: readonly string[]): string {
  const t = obj.type;
  if (typeof t !== 'string') fail(`${path}.type`, msg(TOKENIZER_ERRORS.oneOf, supported.join(', ')), t);
  if (!supported.includes(t)) {
    throw new MessageError(msg(TOKENIZER_ERRORS.typeUnsupported, path, JSON.stringify(t), supported.join(', ')));
  }
  return t;
}

/** A vocabulary object {token: id}. */
export function asVocab(value: unknown, path: string): Map<string, number> {
  if (!isObject(value)) fail(path, msg(TOKENIZER_ERRORS.aVocab), value);
  const vocab = new Map<string, number>();
  for (const key of Object.keys(value)) vocab.set(key, asId(value[key], `${path}[${JSON.stringify(key)}]`));
  return vocab;
}
