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
import { defineTemplates, msg, type MessageArg, type MessageParts } from '../protocol/message';
import { fail, formatCount, quote, shapeText, tensorLabel, WEIGHT_PHRASES, WeightFileError } from './errors';

const TORCH_ERRORS = defineTemplates(
  {
    noDataPkl: 'zip archive has no <dir>/data.pkl record, so it is not a torch.save checkpoint (members: {0})',
    manyDataPkl: 'zip archive has {0} data.pkl records; expected one',
    dataPklTooLarge: 'data.pkl is {0} bytes, over the limit of {1} (option maxHeaderBytes)',
    torchScript: "{0}. This is a TorchScript archive (torch.jit.save); save the model's state_dict() with torch.save instead",
    viewPastStorage: '{0}: view (offset {1}, shape {2}, strides {3}) reaches element {4} of a storage of {5}',
    byteorderTooLong: 'byteorder record is {0} bytes; expected "little" or "big"',
    byteorderSays: 'byteorder record says {0}; expected "little" or "big"',
    storageMissing: 'storage {0} is missing (no record {1})',
    storageSize: 'storage {0} should hold {1} {2} elements ({3} bytes) but its record has {4} bytes',
    storageAsFloat32: 'storage {0} ({1} elements as float32)',
    notNonNegativeInt: '{0} must be a non-negative integer, got {1} {2}',
    notIntTuple: '{0} must be a tuple of ints, got {1}',
    fnSize: '{0} size',
    fnStride: '{0} stride',
    fnStorageOffset: '{0} storage offset',
    storageSizeOf: 'storage {0} size',
    firstArgNotStorage: '{0}: first argument must be a storage, got {1}',
    lengthsDiffer: '{0}: size {1} and stride {2} have different lengths',
    globalNotAllowed: 'pickle asks for global {0}, which is not allowed in a state_dict',
    storageClassCalled: 'pickle calls {0}, which may only appear inside a storage persistent id',
    reduceNotFunction: 'pickle REDUCE calls {0}, which is not an allowed function',
    orderedDictArgs: 'collections.OrderedDict must be called with no arguments, got {0}',
    takes6or7: '{0} takes 6 or 7 arguments, got {1}',
    takes4: '{0} takes 4 arguments, got {1}',
    firstArgNotTensor: '{0}: first argument must be a tensor, got {1}',
    callNotAllowed: 'pickle calls {0}, which is not allowed in a state_dict',
    badPersistentId: "persistent id must be ('storage', type, key, location, numel), got {0}",
    badStorageType: 'persistent id names storage type {0}, which is not an allowed storage class',
    keyNotString: 'storage key must be a string, got {0}',
    locationNotString: 'storage location must be a string, got {0}',
    describedTwice: 'storage {0} is described twice with different types or sizes',
    buildNotAllowed: 'pickle BUILD on {0} is not allowed in a state_dict',
    tooManyValues: 'the pickled object holds more than {0} values to walk (option maxPickleStack)',
    sameName: 'two tensors flatten to the same name {0}',
    tooDeep: 'containers nest deeper than {0} levels around the tensors (option maxNestingDepth)',
    cycle: 'the pickled object contains itself (a cycle at {0})',
  },
  'error',
);
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
    return fail(fileName, msg(TORCH_ERRORS.noDataPkl, names || msg(WEIGHT_PHRASES.none)));
  }
  if (pickles.length > 1) fail(fileName, msg(TORCH_ERRORS.manyDataPkl, pickles.length));
  const prefix = dataPkl.name.slice(0, -'data.pkl'.length);
  const isTorchScript = archive.entries.some((e) => e.name.startsWith(`${prefix}code/`));

  const littleEndian = readByteOrder(archive, prefix, fileName);
  if (dataPkl.uncompressedSize > options.maxHeaderBytes) {
    fail(fileName, msg(TORCH_ERRORS.dataPklTooLarge, formatCount(dataPkl.uncompressedSize), formatCount(options.maxHeaderBytes)));
  }
  const pickle = archive.read(dataPkl);
  let root: PyValue;
  try {
    root = unpickle(pickle, fileName, stateDictHooks(fileName), { maxStack: options.maxPickleStack });
  } catch (e) {
    if (isTorchScript && e instanceof WeightFileError) {
      throw new WeightFileError(fileName, msg(TORCH_ERRORS.torchScript, e.problemParts), { cause: e });
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
    const what = tensorLabel(name);
    const numel = budget.take(name, ref.shape);
    let tensor = decodedRefs.get(ref);
    if (!tensor) {
      const end = viewEnd(ref.offset, ref.shape, ref.strides);
      if (end > ref.storage.numel) {
        fail(
          fileName,
          msg(
            TORCH_ERRORS.viewPastStorage,
            what,
            formatCount(ref.offset),
            shapeText(ref.shape),
            shapeText(ref.strides),
            formatCount(end),
            formatCount(ref.storage.numel),
          ),
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
  if (record.uncompressedSize > 16) fail(fileName, msg(TORCH_ERRORS.byteorderTooLong, formatCount(record.uncompressedSize)));
  const text = new TextDecoder().decode(archive.read(record)).trim();
  if (text !== 'little' && text !== 'big') fail(fileName, msg(TORCH_ERRORS.byteorderSays, quote(text)));
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
  if (!record) fail(fileName, msg(TORCH_ERRORS.storageMissing, quote(ref.key), quote(recordName)));
  const needed = ref.numel * ITEM_SIZE[ref.dtype];
  if (record.uncompressedSize !== needed) {
    fail(fileName, msg(TORCH_ERRORS.storageSize, quote(ref.key), formatCount(ref.numel), ref.dtype, formatCount(needed), formatCount(record.uncompressedSize)));
  }
  budget.charge(ref.numel * 4, msg(TORCH_ERRORS.storageAsFloat32, quote(ref.key), formatCount(ref.numel)));
  const { data } = toFloat32(archive.read(record), ref.dtype, ref.numel, littleEndian);
  cache.set(ref.key, data);
  return data;
}

/** The allow-list: what a state_dict pickle may ask for, and how each allowed thing is built as data. */
function stateDictHooks(fileName: string): PickleHooks {
  const storages = new Map<string, StorageRef>();
  const refuse = (problem: MessageParts): never => fail(fileName, problem);

  const intArg = (v: PyValue | undefined, what: MessageArg): number => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) refuse(msg(TORCH_ERRORS.notNonNegativeInt, what, typeName(v), String(v)));
    return v as number;
  };
  const intTuple = (v: PyValue | undefined, what: MessageArg): number[] => {
    if (!(v instanceof PyTuple)) refuse(msg(TORCH_ERRORS.notIntTuple, what, typeName(v)));
    return checkShape(fileName, what, (v as PyTuple).items);
  };

  const rebuildTensor = (args: readonly PyValue[], fn: string): TensorRef => {
    const [storage, offset, size, stride] = args;
    if (!(storage instanceof StorageRef)) refuse(msg(TORCH_ERRORS.firstArgNotStorage, fn, typeName(storage)));
    const shape = intTuple(size, msg(TORCH_ERRORS.fnSize, fn));
    const strides = intTuple(stride, msg(TORCH_ERRORS.fnStride, fn));
    if (strides.length !== shape.length) refuse(msg(TORCH_ERRORS.lengthsDiffer, fn, shapeText(shape), shapeText(strides)));
    return new TensorRef(storage as StorageRef, intArg(offset, msg(TORCH_ERRORS.fnStorageOffset, fn)), shape, strides);
  };

  return {
    findGlobal(module, name) {
      const qualified = `${module}.${name}`;
      if (module === 'collections' && name === 'OrderedDict') return new PyGlobal(module, name);
      if (module === 'torch._utils' && REBUILD_FUNCTIONS.has(name)) return new PyGlobal(module, name);
      const dtype = Object.hasOwn(STORAGE_DTYPES, name) ? STORAGE_DTYPES[name] : undefined;
      if (module === 'torch' && dtype !== undefined) return new StorageClass(qualified, dtype);
      return refuse(msg(TORCH_ERRORS.globalNotAllowed, qualified.length > 120 ? qualified.slice(0, 120) + '…' : qualified));
    },

    reduce(callable, args) {
      if (callable instanceof StorageClass) refuse(msg(TORCH_ERRORS.storageClassCalled, callable.qualifiedName));
      if (!(callable instanceof PyGlobal)) refuse(msg(TORCH_ERRORS.reduceNotFunction, typeName(callable)));
      const fn = (callable as PyGlobal).qualifiedName;
      const items = args.items;
      switch ((callable as PyGlobal).name) {
        case 'OrderedDict':
          if (items.length !== 0) refuse(msg(TORCH_ERRORS.orderedDictArgs, items.length));
          return new PyDict('collections.OrderedDict');
        case '_rebuild_tensor_v2': // (storage, storage_offset, size, stride, requires_grad, backward_hooks[, metadata])
          if (items.length !== 6 && items.length !== 7) refuse(msg(TORCH_ERRORS.takes6or7, fn, items.length));
          return rebuildTensor(items, fn);
        case '_rebuild_tensor': // (storage, storage_offset, size, stride)
          if (items.length !== 4) refuse(msg(TORCH_ERRORS.takes4, fn, items.length));
          return rebuildTensor(items, fn);
        case '_rebuild_parameter': // (data, requires_grad, backward_hooks)
        case '_rebuild_parameter_with_state': {
          // (data, requires_grad, backward_hooks, state)
          const [data] = items;
          if (!(data instanceof TensorRef)) return refuse(msg(TORCH_ERRORS.firstArgNotTensor, fn, typeName(data)));
          return data;
        }
        default:
          return refuse(msg(TORCH_ERRORS.callNotAllowed, fn));
      }
    },

    persistentLoad(pid) {
      if (!(pid instanceof PyTuple) || pid.items.length !== 5 || pid.items[0] !== 'storage') {
        return refuse(msg(TORCH_ERRORS.badPersistentId, typeName(pid)));
      }
      const [, type, key, location, numel] = pid.items;
      if (!(type instanceof StorageClass)) return refuse(msg(TORCH_ERRORS.badStorageType, typeName(type)));
      if (typeof key !== 'string') return refuse(msg(TORCH_ERRORS.keyNotString, typeName(key)));
      if (typeof location !== 'string') return refuse(msg(TORCH_ERRORS.locationNotString, typeName(location)));
      const n = intArg(numel, msg(TORCH_ERRORS.storageSizeOf, quote(key)));
      const known = storages.get(key);
      if (known) {
        if (known.dtype !== type.dtype || known.numel !== n) refuse(msg(TORCH_ERRORS.describedTwice, quote(key)));
        return known;
      }
      const ref = new StorageRef(key, type.dtype, n);
      storages.set(key, ref);
      return ref;
    },

    build(target, state) {
      if (!(target instanceof PyDict)) return refuse(msg(TORCH_ERRORS.buildNotAllowed, typeName(target)));
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
    if (++visits > maxVisits) fail(fileName, msg(TORCH_ERRORS.tooManyValues, formatCount(maxVisits)));
    if (v instanceof TensorRef) {
      const key = name === '' ? rootName : name;
      if (out.has(key)) fail(fileName, msg(TORCH_ERRORS.sameName, quote(key)));
      out.set(key, v);
      return;
    }
    const children: [string, PyValue][] = [];
    if (v instanceof PyDict) for (const [k, child] of v.entries) children.push([String(k), child]);
    else if (Array.isArray(v)) v.forEach((child, i) => children.push([String(i), child]));
    else if (v instanceof PyTuple) v.items.forEach((child, i) => children.push([String(i), child]));
    else return; // a number, string, None...: not a tensor, nothing to load
    if (depth >= maxDepth) fail(fileName, msg(TORCH_ERRORS.tooDeep, maxDepth));
    if (onPath.has(v)) fail(fileName, msg(TORCH_ERRORS.cycle, quote(name || '<root>')));
    onPath.add(v);
    for (const [k, child] of children) visit(child, name === '' ? k : `${name}.${k}`, depth + 1);
    onPath.delete(v);
  };
  visit(root, '', 0);
  return out;
}
