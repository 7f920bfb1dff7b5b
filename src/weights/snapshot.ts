// Checkpoints as they come from a download: a model folder (a HF snapshot) or one weight file, read into a
// TensorStore whose tensors stay in their stored precision (bf16, f16, f32) until a layer asks for them.
//
//   folder   model.safetensors.index.json (sharded: {"weight_map": {tensor: shard file}}), else
//            model.safetensors, else pytorch_model.bin.index.json, else pytorch_model.bin;
//            config.json and tokenizer.json beside them
//   file     safetensors (kept in stored precision) or any format readTensors reads (converted to float32)
//
// Memory: a safetensors store holds the files' bytes and nothing else; float32() converts one tensor when a
// layer needs it (a zero-copy view for aligned little-endian float32), so a forward holds the files plus one
// layer in float32, not the whole model twice. Pure: the caller supplies the file reads.
import type { Tensor } from '../engine/tensor';
import { bfloat16Into, HOST_LITTLE_ENDIAN, toFloat32, ITEM_SIZE, type SourceDType } from './dtype';
import { ENGINE_PROGRESS } from '../protocol/engine-progress';
import { defineTemplates, errorArg, MessageError, msg, type MessageParts } from '../protocol/message';
import { fail, shapeText, WeightFileError } from './errors';
import { readTensorsWithMetadata } from './index';
import {
  DEFAULT_LOADER_OPTIONS,
  JSON_SIZE_ERRORS,
  jsonTooLarge,
  MAX_CONFIG_JSON_BYTES,
  MAX_TOKENIZER_JSON_BYTES,
  resolveOptions,
  type LoaderOptions,
} from './options';
import { readSafetensorsHeader } from './safetensors';

const SNAPSHOT_ERRORS = defineTemplates(
  {
    rowsOutside: '{0}: rows {1}..{2} are outside a tensor of shape {3}',
    shardMissing: 'lists the shard {0}, which is not in the folder',
    alsoIn: "tensor '{0}' is also in {1}",
    notHeld: "maps tensor '{0}' to {1}, which does not hold it",
    heldElsewhere: "maps tensor '{0}' to {1}, but {2} holds it",
    noWeights: 'is a folder without model weights: expected one of {0}',
    indexNotJson: 'is not valid JSON ({0})',
    noWeightMap: 'has no "weight_map" object of tensor name → shard file',
    badShardName: "maps tensor '{0}' to {1}, which is not a file name in the folder",
    noTensors: 'lists no tensors',
  },
  'error',
);

/** One tensor of a checkpoint, not yet converted. */
export interface StoredTensor {
  readonly shape: readonly number[];
  /** Its dtype in the file. */
  readonly dtype: SourceDType;
  /** The file that holds it (for messages). */
  readonly file: string;
  /**
   * All values as float32: a view of the file's bytes when they are aligned little-endian float32, else a
   * conversion — into `into` when it is given and holds exactly that many values (a caller converting layer
   * after layer reuses one buffer instead of leaving garbage behind), else into a fresh array.
   */
  float32(into?: Float32Array): Float32Array;
  /** Rows [start, end) of the first dim as float32 ((end − start) · rest values), converted alone (into `into` as above). */
  rows(start: number, end: number, into?: Float32Array): Float32Array;
}

/** A checkpoint's tensors by name. */
export type TensorStore = ReadonlyMap<string, StoredTensor>;

class BytesTensor implements StoredTensor {
  constructor(
    readonly shape: readonly number[],
    readonly dtype: SourceDType,
    readonly file: string,
    /** Exactly the tensor's bytes, little-endian. */
    private readonly bytes: Uint8Array,
  ) {}

  float32(into?: Float32Array): Float32Array {
    return convert(this.bytes, this.dtype, into);
  }

  rows(start: number, end: number, into?: Float32Array): Float32Array {
    const rowElems = rowSize(this.shape);
    const size = ITEM_SIZE[this.dtype];
    checkRows(start, end, this.shape, this.file);
    return convert(this.bytes.subarray(start * rowElems * size, end * rowElems * size), this.dtype, into);
  }
}

/** Little-endian `bytes` of `dtype` as float32: bf16 straight into `into` (when it fits), anything else through toFloat32. */
function convert(bytes: Uint8Array, dtype: SourceDType, into?: Float32Array): Float32Array {
  const n = bytes.length / ITEM_SIZE[dtype];
  const fits = into?.length === n;
  if (dtype === 'bfloat16' && HOST_LITTLE_ENDIAN && bytes.byteOffset % 2 === 0) {
    const out = fits ? into : new Float32Array(n);
    bfloat16Into(new Uint16Array(bytes.buffer, bytes.byteOffset, n), out);
    return out;
  }
  const { data, isView } = toFloat32(bytes, dtype, n, true);
  if (isView || !fits) return data;
  into.set(data);
  return into;
}

class ConvertedTensor implements StoredTensor {
  constructor(
    private readonly tensor: Tensor,
    readonly dtype: SourceDType,
    readonly file: string,
  ) {}

  get shape(): readonly number[] {
    return this.tensor.shape;
  }

  float32(): Float32Array {
    return this.tensor.data;
  }

  rows(start: number, end: number, _into?: Float32Array): Float32Array {
    checkRows(start, end, this.shape, this.file);
    const n = rowSize(this.shape);
    return this.tensor.data.subarray(start * n, end * n);
  }
}

function rowSize(shape: readonly number[]): number {
  return shape.slice(1).reduce((a, b) => a * b, 1);
}

function checkRows(start: number, end: number, shape: readonly number[], file: string): void {
  const [rows] = shape;
  if (rows === undefined || !Number.isInteger(start) || !Number.isInteger(end) || start < 0 || end > rows || start > end) {
    throw new MessageError(msg(SNAPSHOT_ERRORS.rowsOutside, file, start, end, shapeText(shape)));
  }
}

/** A store over tensors already in float32 (any readTensors result). */
export function storeFromTensors(tensors: ReadonlyMap<string, Tensor>, file: string, dtypes?: ReadonlyMap<string, SourceDType>): TensorStore {
  const store = new Map<string, StoredTensor>();
  for (const [name, t] of tensors) store.set(name, new ConvertedTensor(t, dtypes?.get(name) ?? 'float32', file));
  return store;
}

/** A store over one safetensors file, every tensor in its stored precision (a view of `bytes`). */
export function storeFromSafetensors(bytes: Uint8Array, fileName: string, options?: LoaderOptions): Map<string, StoredTensor> {
  // Nothing is allocated per element here and the byte ranges must tile the file, so the element limit that
  // guards float32 conversion (2^29 by default) does not apply: a 1.2B-parameter model.safetensors is fine.
  const { entries, dataStart } = readSafetensorsHeader(bytes, fileName, resolveOptions({ maxTotalElements: Number.MAX_SAFE_INTEGER, ...options }));
  const store = new Map<string, StoredTensor>();
  for (const e of entries) store.set(e.name, new BytesTensor(e.shape, e.dtype, fileName, bytes.subarray(dataStart + e.begin, dataStart + e.end)));
  return store;
}

/** Every tensor converted to float32 (for the families that read a Map of tensors: GPT-2, BERT, a bare layer). */
export function materialiseStore(store: TensorStore): Map<string, Tensor> {
  const out = new Map<string, Tensor>();
  for (const [name, t] of store) out.set(name, { data: t.float32(), shape: [...t.shape] });
  return out;
}

/** What a checkpoint folder or file gives: the tensors and the JSON files found beside them. */
export interface CheckpointSnapshot {
  /** The folder or file name, for messages and the status bar. */
  label: string;
  store: TensorStore;
  /** The weight files read, relative to the folder. */
  weightFiles: string[];
  configJson?: string;
  tokenizerJson?: string;
}

/** Reads a file of the folder by its name relative to the folder; undefined when there is no such file. */
export type SnapshotReader = (name: string) => Promise<Uint8Array | undefined>;

export const SNAPSHOT_WEIGHT_FILES = ['model.safetensors.index.json', 'model.safetensors', 'pytorch_model.bin.index.json', 'pytorch_model.bin'] as const;

const utf8 = new TextDecoder('utf-8');

/**
 * Opens a model folder through `read`: the weights (sharded or not, safetensors or pytorch_model.bin) and
 * config.json / tokenizer.json. Throws naming the folder and the file for anything missing or malformed.
 */
export async function openSnapshot(
  read: SnapshotReader,
  label: string,
  options?: LoaderOptions & { progress?: (fraction: number, message: MessageParts) => void },
): Promise<CheckpointSnapshot> {
  const configBytes = await read('config.json');
  const tokenizerBytes = await read('tokenizer.json');
  // Sized before they are decoded: JSON.parse of a few hundred MB ends the process instead of throwing.
  const configJson = configBytes && utf8.decode(withinJsonLimit(configBytes, `${label}/config.json`, MAX_CONFIG_JSON_BYTES));
  const tokenizerJson = tokenizerBytes && utf8.decode(withinJsonLimit(tokenizerBytes, `${label}/tokenizer.json`, MAX_TOKENIZER_JSON_BYTES));
  for (const index of ['model.safetensors.index.json', 'pytorch_model.bin.index.json']) {
    const bytes = await read(index);
    if (!bytes) continue;
    const shards = shardFiles(bytes, `${label}/${index}`);
    const store = new Map<string, StoredTensor>();
    for (const [i, file] of shards.files.entries()) {
      options?.progress?.(i / shards.files.length, msg(ENGINE_PROGRESS.readingShard, file, i + 1, shards.files.length));
      const shard = await read(file);
      if (!shard) fail(`${label}/${index}`, msg(SNAPSHOT_ERRORS.shardMissing, file));
      const tensors = await shardStore(shard, file, options);
      for (const [name, t] of tensors) {
        const other = store.get(name);
        if (other) fail(`${label}/${file}`, msg(SNAPSHOT_ERRORS.alsoIn, name, other.file));
        store.set(name, t);
      }
    }
    for (const [name, file] of shards.weightMap) {
      const t = store.get(name);
      if (!t) fail(`${label}/${index}`, msg(SNAPSHOT_ERRORS.notHeld, name, file));
      if (t.file !== file) fail(`${label}/${index}`, msg(SNAPSHOT_ERRORS.heldElsewhere, name, file, t.file));
    }
    return { label, store, weightFiles: shards.files, configJson, tokenizerJson };
  }
  for (const file of ['model.safetensors', 'pytorch_model.bin']) {
    const bytes = await read(file);
    if (!bytes) continue;
    options?.progress?.(0, msg(ENGINE_PROGRESS.reading, file));
    return { label, store: await shardStore(bytes, file, options), weightFiles: [file], configJson, tokenizerJson };
  }
  throw new WeightFileError(label, msg(SNAPSHOT_ERRORS.noWeights, SNAPSHOT_WEIGHT_FILES.join(', ')));
}

/** One weight file as a store: safetensors kept in stored precision, anything else read and converted. */
export async function shardStore(bytes: Uint8Array, fileName: string, options?: LoaderOptions): Promise<Map<string, StoredTensor>> {
  if (fileName.endsWith('.safetensors')) return storeFromSafetensors(bytes, fileName, options);
  const loaded = await readTensorsWithMetadata(bytes, fileName, options);
  if (loaded.format === 'safetensors') return storeFromSafetensors(bytes, fileName, options);
  return storeFromTensors(loaded.tensors, fileName, loaded.sourceDtypes) as Map<string, StoredTensor>;
}

/** The snapshot of one weight file (config.json and tokenizer.json given by the caller when found beside it). */
export async function snapshotFromFile(
  bytes: Uint8Array,
  fileName: string,
  beside: { configJson?: string; tokenizerJson?: string } = {},
  options?: LoaderOptions,
): Promise<CheckpointSnapshot> {
  return {
    label: fileName,
    store: await shardStore(bytes, fileName, options),
    weightFiles: [fileName],
    configJson: beside.configJson,
    tokenizerJson: beside.tokenizerJson,
  };
}

/** `bytes` when they are at most `limit` long, else a WeightFileError naming the file (nothing is parsed). */
function withinJsonLimit(bytes: Uint8Array, file: string, limit: number): Uint8Array {
  if (bytes.length > limit) throw new WeightFileError(file, jsonTooLarge(msg(JSON_SIZE_ERRORS.theFile), bytes.length, limit));
  return bytes;
}

/** The shard files of an index (in order of first mention) and its weight map; throws naming the index for anything malformed. */
export function shardFiles(bytes: Uint8Array, indexName: string): { files: string[]; weightMap: Map<string, string> } {
  let value: unknown;
  withinJsonLimit(bytes, indexName, DEFAULT_LOADER_OPTIONS.maxJsonBytes);
  try {
    value = JSON.parse(utf8.decode(bytes));
  } catch (e) {
    fail(indexName, msg(SNAPSHOT_ERRORS.indexNotJson, errorArg(e)));
  }
  const map = (value as { weight_map?: unknown } | null)?.weight_map;
  if (typeof map !== 'object' || map === null || Array.isArray(map)) fail(indexName, msg(SNAPSHOT_ERRORS.noWeightMap));
  const weightMap = new Map<string, string>();
  const files: string[] = [];
  for (const [name, file] of Object.entries(map as Record<string, unknown>)) {
    if (typeof file !== 'string' || !/^[\w.-]+$/.test(file) || file.startsWith('.')) {
      fail(indexName, msg(SNAPSHOT_ERRORS.badShardName, name, JSON.stringify(file)));
    }
    weightMap.set(name, file);
    if (!files.includes(file)) files.push(file);
  }
  if (files.length === 0) fail(indexName, msg(SNAPSHOT_ERRORS.noTensors));
  return { files, weightMap };
}
