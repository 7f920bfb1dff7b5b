// PyTorch checkpoints as torch.save writes them since 1.6: a zip archive whose records all live under one
// directory `<prefix>/`: `data.pkl` (the pickled object, protocol 2), `data/<key>` (one raw storage per
// key), `byteorder` ("little" or "big"; absent in old files, meaning little) and version records.
//
// data.pkl is read by the restricted unpickler in ./pickle with an allow-list a state_dict needs:
//   globals   collections.OrderedDict, torch._utils._rebuild_tensor_v2 / _rebuild_tensor /
//             _rebuild_parameter / _rebuild_parameter_with_state, and the typed storage classes
//             torch.{Float,Half,BFloat16,Double,Long,Int,Short,Char,Byte,Bool}Storage (only inside a
//             persistent id);
//   persistent ids ('storage', <storage class>, key, location, numel);
//   BUILD     only on dicts (torch stores a state_dict's `_metadata` that way; it is kept, not used).
// Anything else, e.g. os.system, builtins.eval, a model class, is refused with an Error naming the global.
//
// The legacy format (before PyTorch 1.6: a bare pickle stream, or a tar archive) is refused with a message
// that says how to re-save the file.
//
// Nested containers are flattened with dotted names: {'model': {'w': t}} gives "model.w"; list items use
// their index. Non-tensor leaves (step counters, strings, hyper-parameters) are skipped.

import type { Tensor } from '../engine/tensor';
import { checkShape, ElementBudget } from './budget';
import { ITEM_SIZE, toFloat32, type SourceDType } from './dtype';
import { fail, formatCount, quote, WeightFileError } from './errors';
import { baseNameWithoutExtension } from './npy';
import type { ResolvedLoaderOptions } from './options';
import { PyDict, PyGlobal, PyOpaque, PyTuple, typeName, unpickle, type PickleHooks, type PyValue } from './pickle';
import type { DecodedFile } from './result';
import { isCOrderContiguous, materializeStrided, viewEnd } from './strided';
import { ZipArchive } from './zip';

const STORAGE_DTYPES: Readonly<Record<string, SourceDType>> = Object.freeze({
  FloatStorage: 'float32',
  HalfStorage: 'float16',
  BFloat16Storage: 'bfloat16',
  DoubleStorage: 'float64',
  LongStorage: 'int64',
  IntStorage: 'int32',
  ShortStorage: 'int16',
  CharStorage: 'int8',
  ByteStorage: 'uint8',
  BoolStorage: 'bool',
});

const REBUILD_FUNCTIONS = new Set(['_rebuild_tensor_v2', '_rebuild_tensor', '_rebuild_parameter', '_rebuild_parameter_with_state']);

class StorageRef extends PyOpaque {
  readonly kind = 'storage';
  constructor(
    readonly key: string,
    readonly dtype: SourceDType,
    readonly numel: number,
  ) {
    super();
  }
}

class TensorRef extends PyOpaque {
  readonly kind = 'tensor';
  constructor(
    readonly storage: StorageRef,
    readonly offset: number,
    readonly shape: number[],
    readonly strides: number[],
  ) {
    super();
  }
}

class StorageClass extends PyOpaque {
  readonly kind = 'storage class';
  constructor(
    readonly qualifiedName: string,
    readonly dtype: SourceDType,
  ) {
    super();
  }
}

export function readTorchZip(bytes: Uint8Array, fileName: string, options: ResolvedLoaderOptions): DecodedFile {
  const budget = new ElementBudget(fileName, options, bytes.length);
  const archive = new ZipArchive(bytes, fileName, options, budget, { allowUnrecordedCrcs: true });
  const pickles = archive.entries.filter((e) => /^[^/]+\/data\.pkl$/.test(e.name));
  const [dataPkl] = pickles;
  if (dataPkl === undefined) {
    const names = archive.entries
      .slice(0, 5)
      .map((e) => quote(e.name, 40))
      .join(', ');
    return fail(fileName, `zip archive has no <dir>/data.pkl record, so it is not a torch.save checkpoint (members: ${names || 'none'})`);
  }
  if (pickles.length > 1) fail(fileName, `zip archive has ${pickles.length} data.pkl records; expected one`);
  const prefix = dataPkl.name.slice(0, -'data.pkl'.length);
  const isTorchScript = archive.entries.some((e) => e.name.startsWith(`${prefix}code/`));

  const littleEndian = readByteOrder(archive, prefix, fileName);
  if (dataPkl.uncompressedSize > options.maxHeaderBytes) {
    fail(
      fileName,
      `data.pkl is ${formatCount(dataPkl.uncompressedSize)} bytes, over the limit of ${formatCount(options.maxHeaderBytes)} (option maxHeaderBytes)`,
    );
  }
  const pickle = archive.read(dataPkl);
  let root: PyValue;
  try {
    root = unpickle(pickle, fileName, stateDictHooks(fileName), { maxStack: options.maxPickleStack });
  } catch (e) {
    if (isTorchScript && e instanceof WeightFileError) {
      throw new WeightFileError(
        fileName,
        `${e.problem}. This is a TorchScript archive (torch.jit.save); save the model's state_dict() with torch.save instead`,
        { cause: e },
      );
    }
    throw e;
  }

  const rootName = baseNameWithoutExtension(fileName, extensionOf(fileName));
  const found = flattenTensors(root, fileName, rootName, options.maxNestingDepth, options.maxPickleStack);
  const storages = new Map<string, Float32Array>();
  const decodedRefs = new Map<TensorRef, Tensor>();
  const tensors = new Map<string, Tensor>();
  const sourceDtypes = new Map<string, SourceDType>();
  for (const [name, ref] of found) {
    const what = `tensor ${quote(name)}`;
    const numel = budget.take(name, ref.shape);
    let tensor = decodedRefs.get(ref);
    if (!tensor) {
      const end = viewEnd(ref.offset, ref.shape, ref.strides);
      if (end > ref.storage.numel) {
        fail(
          fileName,
          `${what}: view (offset ${formatCount(ref.offset)}, shape [${ref.shape.join(', ')}], strides [${ref.strides.join(', ')}]) reaches element ${formatCount(end)} of a storage of ${formatCount(ref.storage.numel)}`,
        );
      }
      const storage = numel === 0 ? new Float32Array(0) : loadStorage(archive, prefix, ref.storage, littleEndian, storages, fileName, budget);
      const data =
        numel === 0
          ? new Float32Array(0)
          : isCOrderContiguous(ref.shape, ref.strides)
            ? storage.subarray(ref.offset, ref.offset + numel) // a view: shares the storage (and, if F32, the file)
            : materializeStrided(storage, ref.offset, ref.shape, ref.strides);
      tensor = { data, shape: ref.shape };
      decodedRefs.set(ref, tensor);
    }
    tensors.set(name, tensor);
    sourceDtypes.set(name, ref.storage.dtype);
  }
  return { format: 'torch', tensors, sourceDtypes, metadata: {} };
}

function extensionOf(fileName: string): string {
  const m = /\.[^./\\]+$/.exec(fileName);
  return m ? m[0].toLowerCase() : '';
}

function readByteOrder(archive: ZipArchive, prefix: string, fileName: string): boolean {
  const record = archive.get(`${prefix}byteorder`);
  if (!record) return true;
  if (record.uncompressedSize > 16) fail(fileName, `byteorder record is ${formatCount(record.uncompressedSize)} bytes; expected "little" or "big"`);
  const text = new TextDecoder().decode(archive.read(record)).trim();
  if (text !== 'little' && text !== 'big') fail(fileName, `byteorder record says ${quote(text)}; expected "little" or "big"`);
  return text === 'little';
}

function loadStorage(
  archive: ZipArchive,
  prefix: string,
  ref: StorageRef,
  littleEndian: boolean,
  cache: Map<string, Float32Array>,
  fileName: string,
  budget: ElementBudget,
): Float32Array {
  const cached = cache.get(ref.key);
  if (cached) return cached;
  const recordName = `${prefix}data/${ref.key}`;
  const record = archive.get(recordName);
  if (!record) fail(fileName, `storage ${quote(ref.key)} is missing (no record ${quote(recordName)})`);
  const needed = ref.numel * ITEM_SIZE[ref.dtype];
  if (record.uncompressedSize !== needed) {
    fail(
      fileName,
      `storage ${quote(ref.key)} should hold ${formatCount(ref.numel)} ${ref.dtype} elements (${formatCount(needed)} bytes) but its record has ${formatCount(record.uncompressedSize)} bytes`,
    );
  }
  budget.charge(ref.numel * 4, `storage ${quote(ref.key)} (${formatCount(ref.numel)} elements as float32)`);
  const { data } = toFloat32(archive.read(record), ref.dtype, ref.numel, littleEndian);
  cache.set(ref.key, data);
  return data;
}

/** The allow-list: what a state_dict pickle may ask for, and how each allowed thing is built as data. */
function stateDictHooks(fileName: string): PickleHooks {
  const storages = new Map<string, StorageRef>();
  const refuse = (what: string): never => fail(fileName, what);

  const intArg = (v: PyValue | undefined, what: string): number => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) refuse(`${what} must be a non-negative integer, got ${typeName(v)} ${String(v)}`);
    return v as number;
  };
  const intTuple = (v: PyValue | undefined, what: string): number[] => {
    if (!(v instanceof PyTuple)) refuse(`${what} must be a tuple of ints, got ${typeName(v)}`);
    return checkShape(fileName, what, (v as PyTuple).items);
  };

  const rebuildTensor = (args: readonly PyValue[], fn: string): TensorRef => {
    const [storage, offset, size, stride] = args;
    if (!(storage instanceof StorageRef)) refuse(`${fn}: first argument must be a storage, got ${typeName(storage)}`);
    const shape = intTuple(size, `${fn} size`);
    const strides = intTuple(stride, `${fn} stride`);
    if (strides.length !== shape.length) refuse(`${fn}: size [${shape.join(', ')}] and stride [${strides.join(', ')}] have different lengths`);
    return new TensorRef(storage as StorageRef, intArg(offset, `${fn} storage offset`), shape, strides);
  };

  return {
    findGlobal(module, name) {
      const qualified = `${module}.${name}`;
      if (module === 'collections' && name === 'OrderedDict') return new PyGlobal(module, name);
      if (module === 'torch._utils' && REBUILD_FUNCTIONS.has(name)) return new PyGlobal(module, name);
      const dtype = Object.hasOwn(STORAGE_DTYPES, name) ? STORAGE_DTYPES[name] : undefined;
      if (module === 'torch' && dtype !== undefined) return new StorageClass(qualified, dtype);
      return refuse(`pickle asks for global ${qualified.length > 120 ? qualified.slice(0, 120) + '…' : qualified}, which is not allowed in a state_dict`);
    },

    reduce(callable, args) {
      if (callable instanceof StorageClass) refuse(`pickle calls ${callable.qualifiedName}, which may only appear inside a storage persistent id`);
      if (!(callable instanceof PyGlobal)) refuse(`pickle REDUCE calls ${typeName(callable)}, which is not an allowed function`);
      const fn = (callable as PyGlobal).qualifiedName;
      const items = args.items;
      switch ((callable as PyGlobal).name) {
        case 'OrderedDict':
          if (items.length !== 0) refuse(`collections.OrderedDict must be called with no arguments, got ${items.length}`);
          return new PyDict('collections.OrderedDict');
        case '_rebuild_tensor_v2': // (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
          if (items.length !== 6 && items.length !== 7) refuse(`${fn} takes 6 or 7 arguments, got ${items.length}`);
          return rebuildTensor(items, fn);
        case '_rebuild_tensor': // (storage, storage_offset, size, stride)
          if (items.length !== 4) refuse(`${fn} takes 4 arguments, got ${items.length}`);
          return rebuildTensor(items, fn);
        case '_rebuild_parameter': // (data, requires_grad, backward_hooks)
        case '_rebuild_parameter_with_state': {
          // (data, requires_grad, backward_hooks, state)
          const [data] = items;
          if (!(data instanceof TensorRef)) return refuse(`${fn}: first argument must be a tensor, got ${typeName(data)}`);
          return data;
        }
        default:
          return refuse(`pickle calls ${fn}, which is not allowed in a state_dict`);
      }
    },

    persistentLoad(pid) {
      if (!(pid instanceof PyTuple) || pid.items.length !== 5 || pid.items[0] !== 'storage') {
        return refuse(`persistent id must be ('storage', type, key, location, numel), got ${typeName(pid)}`);
      }
      const [, type, key, location, numel] = pid.items;
      if (!(type instanceof StorageClass)) return refuse(`persistent id names storage type ${typeName(type)}, which is not an allowed storage class`);
      if (typeof key !== 'string') return refuse(`storage key must be a string, got ${typeName(key)}`);
      if (typeof location !== 'string') return refuse(`storage location must be a string, got ${typeName(location)}`);
      const n = intArg(numel, `storage ${quote(key)} size`);
      const known = storages.get(key);
      if (known) {
        if (known.dtype !== type.dtype || known.numel !== n) refuse(`storage ${quote(key)} is described twice with different types or sizes`);
        return known;
      }
      const ref = new StorageRef(key, type.dtype, n);
      storages.set(key, ref);
      return ref;
    },

    build(target, state) {
      if (!(target instanceof PyDict)) return refuse(`pickle BUILD on ${typeName(target)} is not allowed in a state_dict`);
      target.attributes = state;
    },
  };
}

/** Walks dicts, lists and tuples from `root` and returns every tensor with its dotted name (a bare tensor gets `rootName`). */
function flattenTensors(root: PyValue, fileName: string, rootName: string, maxDepth: number, maxVisits: number): Map<string, TensorRef> {
  const out = new Map<string, TensorRef>();
  const onPath = new Set<object>();
  let visits = 0;
  const visit = (v: PyValue, name: string, depth: number): void => {
    // Shared sub-objects are walked once per path; the count stops a small pickle whose memo builds an
    // exponentially large tree ([x, x] of [y, y] of ...) from making this walk effectively endless.
    if (++visits > maxVisits) fail(fileName, `the pickled object holds more than ${formatCount(maxVisits)} values to walk (option maxPickleStack)`);
    if (v instanceof TensorRef) {
      const key = name === '' ? rootName : name;
      if (out.has(key)) fail(fileName, `two tensors flatten to the same name ${quote(key)}`);
      out.set(key, v);
      return;
    }
    const children: [string, PyValue][] = [];
    if (v instanceof PyDict) for (const [k, child] of v.entries) children.push([String(k), child]);
    else if (Array.isArray(v)) v.forEach((child, i) => children.push([String(i), child]));
    else if (v instanceof PyTuple) v.items.forEach((child, i) => children.push([String(i), child]));
    else return; // a number, string, None...: not a tensor, nothing to load
    if (depth >= maxDepth) fail(fileName, `containers nest deeper than ${maxDepth} levels around the tensors (option maxNestingDepth)`);
    if (onPath.has(v)) fail(fileName, `the pickled object contains itself (a cycle at ${quote(name || '<root>')})`);
    onPath.add(v);
    for (const [k, child] of children) visit(child, name === '' ? k : `${name}.${k}`, depth + 1);
    onPath.delete(v);
  };
  visit(root, '', 0);
  return out;
}
