// A HuggingFace config.json, read defensively: only the few fields a family needs, each validated, and
// every problem reported with the field name and what was expected.

import { errorArg, msg, type MessageParts } from '../protocol/message';
import { MODEL_TEXT } from './model-text';
import { jsonText, MODEL_ERRORS, modelError } from './errors';

export type ConfigObject = Readonly<Record<string, unknown>>;

/** Parses config.json text; undefined stays undefined. Throws naming the file for bad JSON or a non-object. */
export function parseConfigJson(text: string | undefined, fileName = 'config.json'): ConfigObject | undefined {
  if (text === undefined) return undefined;
  if (typeof text !== 'string') throw modelError(MODEL_ERRORS.configNotText, fileName, typeof text);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw modelError(MODEL_ERRORS.configNotJson, fileName, errorArg(e));
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw modelError(MODEL_ERRORS.configNotObject, fileName, Array.isArray(value) ? msg(MODEL_ERRORS.anArray) : String(value));
  }
  return value as ConfigObject;
}

/** The first of `keys` present in the config (null counts as absent, as HF writes "n_inner": null). */
function pick(config: ConfigObject | undefined, keys: readonly string[]): { key: string; value: unknown } | undefined {
  if (!config) return undefined;
  for (const key of keys) {
    const value = config[key];
    if (value !== undefined && value !== null) return { key, value };
  }
  return undefined;
}

/** A positive integer setting, or undefined when none of `keys` is present. */
export function configPositiveInt(config: ConfigObject | undefined, keys: readonly string[], fileName = 'config.json'): number | undefined {
  const found = pick(config, keys);
  if (!found) return undefined;
  if (typeof found.value !== 'number' || !Number.isInteger(found.value) || found.value < 1) {
    throw modelError(MODEL_ERRORS.notPositiveInt, fileName, found.key, jsonText(found.value));
  }
  return found.value;
}

/** A finite non-negative number setting (e.g. a LayerNorm epsilon). */
export function configNonNegative(config: ConfigObject | undefined, keys: readonly string[], fileName = 'config.json'): number | undefined {
  const found = pick(config, keys);
  if (!found) return undefined;
  if (typeof found.value !== 'number' || !Number.isFinite(found.value) || found.value < 0) {
    throw modelError(MODEL_ERRORS.notNonNegative, fileName, found.key, jsonText(found.value));
  }
  return found.value;
}

export function configBoolean(config: ConfigObject | undefined, keys: readonly string[], fileName = 'config.json'): boolean | undefined {
  const found = pick(config, keys);
  if (!found) return undefined;
  if (typeof found.value !== 'boolean') throw modelError(MODEL_ERRORS.notBoolean, fileName, found.key, jsonText(found.value));
  return found.value;
}

export function configString(config: ConfigObject | undefined, keys: readonly string[], fileName = 'config.json'): string | undefined {
  const found = pick(config, keys);
  if (!found) return undefined;
  if (typeof found.value !== 'string') throw modelError(MODEL_ERRORS.notString, fileName, found.key, jsonText(found.value));
  return found.value;
}

/** Head width of every released GPT-2 and BERT size (gpt2 768/12 … gpt2-xl 1600/25, bert-base 768/12, bert-tiny 128/2). */
export const DEFAULT_HEAD_DIM = 64;

/**
 * The documented default number of heads when no config.json says it (the shapes cannot tell): width / 64
 * when 64 divides the width (GPT-2 small: 768 → 12, medium 1024 → 16, large 1280 → 20, xl 1600 → 25; BERT
 * base 768 → 12); otherwise the largest divisor of the width that is at most width / 64, so heads are about
 * 64 wide; a width below 64 gets one head.
 */
export function defaultHeadCount(width: number): number {
  if (width % DEFAULT_HEAD_DIM === 0) return width / DEFAULT_HEAD_DIM;
  for (let h = Math.floor(width / DEFAULT_HEAD_DIM); h > 1; h--) if (width % h === 0) return h;
  return 1;
}

export interface ResolvedHeads {
  nHead: number;
  /** Where the number came from, for ModelInfo.detail. */
  source: MessageParts;
  /** True when the default rule was used (no config value). */
  assumed: boolean;
}

/** The configName of a bare attention layer whose heads the user chose when loading it (no config.json). */
export const HEADS_CHOSEN_WHEN_LOADING = 'the number of heads chosen when loading';

/** n_head from config.json (`keys`), checked against the width; else the default rule, saying so. */
export function resolveHeads(config: ConfigObject | undefined, keys: readonly string[], width: number, fileName = 'config.json'): ResolvedHeads {
  const fromConfig = configPositiveInt(config, keys, fileName);
  if (fromConfig !== undefined) {
    if (width % fromConfig !== 0) {
      throw modelError(MODEL_ERRORS.headsDoNotDivide, fileName, fromConfig, width);
    }
    return {
      nHead: fromConfig,
      source: fileName === HEADS_CHOSEN_WHEN_LOADING ? msg(MODEL_TEXT.headsChosen) : msg(MODEL_TEXT.headsFrom, fileName),
      assumed: false,
    };
  }
  const nHead = defaultHeadCount(width);
  return {
    nHead,
    source: msg(width % DEFAULT_HEAD_DIM === 0 ? MODEL_TEXT.headsAssumedWidth : MODEL_TEXT.headsAssumedDivisor, width, DEFAULT_HEAD_DIM),
    assumed: true,
  };
}
