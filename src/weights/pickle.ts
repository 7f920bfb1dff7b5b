// A restricted unpickler: it runs Python's pickle stack machine over an explicit allow-list of opcodes
// and builds plain data (numbers, strings, tuples, lists, dicts). It never executes anything: a GLOBAL
// is resolved through `hooks.findGlobal`, which refuses every name not on the caller's allow-list, and
// REDUCE / BUILD / persistent ids are handed to the caller's hooks, which only build data.
//
// Allowed opcodes: the binary opcodes of protocols 2-4 that build data (what torch.save writes with its
// default protocol 2, plus the protocol 3/4 string, framing and STACK_GLOBAL opcodes). Refused: the text
// (protocol 0) forms, INST/OBJ/NEWOBJ/NEWOBJ_EX (object construction), EXT1-4 (extension registry),
// PERSID (text persistent id), sets, and the protocol 5 out-of-band buffers.

import { defineTemplates, msg, type MessageParts } from '../protocol/message';
import { fail, formatCount, quote } from './errors';

const PICKLE_ERRORS = defineTemplates(
  {
    problem: 'pickle: {0} (opcode at byte {1})',
    endsEarly: 'data ends early: needs {0} more bytes, {1} left',
    endsEarlyOne: 'data ends early: needs 1 more byte',
    stackGrows: 'stack grows past {0} values (option maxPickleStack)',
    underflow: 'stack underflow',
    noMark: 'no MARK to pop to',
    memoGrows: 'memo grows past {0} entries (option maxPickleStack)',
    memoUnwritten: 'memo entry {0} is read before it is written',
    dictKey: 'dict key of type {0} is not supported',
    setItemOn: 'SETITEM(S) on {0}',
    oddSetItems: 'SETITEMS with an odd number of values',
    appendOn: 'APPEND(S) on {0}',
    lineEnds: 'data ends inside a text line',
    protocol: 'unknown pickle protocol {0}',
    stop: 'STOP with {0} values and {1} marks on the stack (expected exactly one value)',
    marks: 'more than {0} nested MARKs (option maxPickleStack)',
    long4: 'LONG4 of {0} bytes is not supported',
    binstring: 'BINSTRING with a negative length',
    stackGlobal: 'STACK_GLOBAL needs two strings',
    reduceArgs: 'REDUCE arguments must be a tuple, got {0}',
    notAllowed: 'opcode {0} (0x{1}) is not allowed in a state_dict',
    unknownOpcode: 'unknown opcode 0x{0}',
    noStop: 'data ends without a STOP opcode (truncated pickle)',
    intTooLong: 'integer of {0} bytes is too large',
    intTooLarge: 'integer {0} is too large',
  },
  'error',
);

export type DictKey = string | number | boolean | null;

export type PyValue = null | boolean | number | string | Uint8Array | PyValue[] | PyTuple | PyDict | PyGlobal | PyOpaque;

export class PyTuple {
  constructor(readonly items: readonly PyValue[]) {}
}

export class PyDict {
  readonly entries = new Map<DictKey, PyValue>();
  /** State given by BUILD (e.g. the `_metadata` attribute torch puts on a state_dict's OrderedDict). */
  attributes: PyValue = null;
  constructor(readonly className: string = 'dict') {}
}

/** A global the caller allowed, e.g. torch._utils._rebuild_tensor_v2. */
export class PyGlobal {
  constructor(
    readonly module: string,
    readonly name: string,
  ) {}
  get qualifiedName(): string {
    return `${this.module}.${this.name}`;
  }
}

/** A value the caller's hooks built (a storage or tensor reference); the unpickler only carries it. */
export abstract class PyOpaque {
  abstract readonly kind: string;
}

export interface PickleHooks {
  /** Returns the value for GLOBAL module.name, or throws (via `fail`) when it is not allowed. */
  findGlobal(module: string, name: string): PyValue;
  /** REDUCE: `callable(*args)`; only for allowed globals. */
  reduce(callable: PyValue, args: PyTuple): PyValue;
  /** BINPERSID. */
  persistentLoad(pid: PyValue): PyValue;
  /** BUILD: sets state on `target`, which must be something the caller allows to carry state. */
  build(target: PyValue, state: PyValue): void;
}

export interface PickleLimits {
  /** Most entries on the value stack, on the mark stack, and in the memo. */
  maxStack: number;
}

const OPCODE_NAMES: Readonly<Record<number, string>> = Object.freeze({
  0x28: 'MARK',
  0x2e: 'STOP',
  0x30: 'POP',
  0x31: 'POP_MARK',
  0x32: 'DUP',
  0x46: 'FLOAT',
  0x49: 'INT',
  0x4a: 'BININT',
  0x4b: 'BININT1',
  0x4c: 'LONG',
  0x4d: 'BININT2',
  0x4e: 'NONE',
  0x50: 'PERSID',
  0x51: 'BINPERSID',
  0x52: 'REDUCE',
  0x53: 'STRING',
  0x54: 'BINSTRING',
  0x55: 'SHORT_BINSTRING',
  0x56: 'UNICODE',
  0x58: 'BINUNICODE',
  0x61: 'APPEND',
  0x62: 'BUILD',
  0x63: 'GLOBAL',
  0x64: 'DICT',
  0x7d: 'EMPTY_DICT',
  0x65: 'APPENDS',
  0x67: 'GET',
  0x68: 'BINGET',
  0x69: 'INST',
  0x6a: 'LONG_BINGET',
  0x6c: 'LIST',
  0x5d: 'EMPTY_LIST',
  0x6f: 'OBJ',
  0x70: 'PUT',
  0x71: 'BINPUT',
  0x72: 'LONG_BINPUT',
  0x73: 'SETITEM',
  0x74: 'TUPLE',
  0x29: 'EMPTY_TUPLE',
  0x75: 'SETITEMS',
  0x47: 'BINFLOAT',
  0x80: 'PROTO',
  0x81: 'NEWOBJ',
  0x82: 'EXT1',
  0x83: 'EXT2',
  0x84: 'EXT4',
  0x85: 'TUPLE1',
  0x86: 'TUPLE2',
  0x87: 'TUPLE3',
  0x88: 'NEWTRUE',
  0x89: 'NEWFALSE',
  0x8a: 'LONG1',
  0x8b: 'LONG4',
  0x42: 'BINBYTES',
  0x43: 'SHORT_BINBYTES',
  0x8c: 'SHORT_BINUNICODE',
  0x8d: 'BINUNICODE8',
  0x8e: 'BINBYTES8',
  0x8f: 'EMPTY_SET',
  0x90: 'ADDITEMS',
  0x91: 'FROZENSET',
  0x92: 'NEWOBJ_EX',
  0x93: 'STACK_GLOBAL',
  0x94: 'MEMOIZE',
  0x95: 'FRAME',
  0x96: 'BYTEARRAY8',
  0x97: 'NEXT_BUFFER',
  0x98: 'READONLY_BUFFER',
});

/** Runs the pickle in `bytes` and returns the value STOP leaves on the stack. */
export function unpickle(bytes: Uint8Array, fileName: string, hooks: PickleHooks, limits: PickleLimits): PyValue {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf8 = new TextDecoder('utf-8');
  const latin1 = new TextDecoder('latin1');
  const stack: PyValue[] = [];
  const marks: number[] = [];
  const memo = new Map<number, PyValue>();
  let pos = 0;
  let opcodeAt = 0;

  const problem = (what: MessageParts): never => fail(fileName, msg(PICKLE_ERRORS.problem, what, formatCount(opcodeAt)));
  const need = (n: number | bigint): number => {
    if (BigInt(n) > BigInt(bytes.length - pos)) problem(msg(PICKLE_ERRORS.endsEarly, formatCount(n), formatCount(bytes.length - pos)));
    const start = pos;
    pos += Number(n);
    return start;
  };
  const push = (v: PyValue): void => {
    if (stack.length >= limits.maxStack) problem(msg(PICKLE_ERRORS.stackGrows, formatCount(limits.maxStack)));
    stack.push(v);
  };
  /** The value on top of the stack, above the last MARK. */
  const top = (): PyValue => {
    const mark = marks.at(-1);
    const value = stack.at(-1);
    if (value === undefined || (mark !== undefined && stack.length <= mark)) return problem(msg(PICKLE_ERRORS.underflow));
    return value;
  };
  const pop = (): PyValue => {
    const value = top();
    stack.pop();
    return value;
  };
  /** One byte of the data. */
  const byte = (): number => bytes[need(1)] ?? problem(msg(PICKLE_ERRORS.endsEarlyOne));
  const popMark = (): PyValue[] => {
    const m = marks.pop();
    if (m === undefined) problem(msg(PICKLE_ERRORS.noMark));
    return stack.splice(m as number);
  };
  const memoPut = (index: number): void => {
    if (!memo.has(index) && memo.size >= limits.maxStack) problem(msg(PICKLE_ERRORS.memoGrows, formatCount(limits.maxStack)));
    memo.set(index, top());
  };
  const memoGet = (index: number): void => {
    if (!memo.has(index)) problem(msg(PICKLE_ERRORS.memoUnwritten, index));
    push(memo.get(index) as PyValue);
  };
  const asKey = (k: PyValue): DictKey => {
    if (k === null || typeof k === 'string' || typeof k === 'number' || typeof k === 'boolean') return k;
    return problem(msg(PICKLE_ERRORS.dictKey, typeName(k)));
  };
  const setItems = (target: PyValue, items: readonly PyValue[]): void => {
    if (!(target instanceof PyDict)) problem(msg(PICKLE_ERRORS.setItemOn, typeName(target)));
    for (let i = 0; i < items.length; i += 2) {
      const key = items[i];
      const value = items[i + 1];
      if (key === undefined || value === undefined) return problem(msg(PICKLE_ERRORS.oddSetItems));
      (target as PyDict).entries.set(asKey(key), value);
    }
  };
  const appendItems = (target: PyValue, items: readonly PyValue[]): void => {
    if (!Array.isArray(target)) problem(msg(PICKLE_ERRORS.appendOn, typeName(target)));
    for (const v of items) (target as PyValue[]).push(v);
  };
  const readLine = (): string => {
    const end = bytes.indexOf(0x0a, pos);
    if (end < 0) problem(msg(PICKLE_ERRORS.lineEnds));
    const s = latin1.decode(bytes.subarray(pos, end));
    pos = end + 1;
    return s;
  };
  const global = (module: string, name: string): void => {
    push(hooks.findGlobal(module, name));
  };

  while (pos < bytes.length) {
    opcodeAt = pos;
    const op = byte();
    switch (op) {
      case 0x80: {
        // PROTO
        const p = byte();
        if (p > 5) problem(msg(PICKLE_ERRORS.protocol, p));
        break;
      }
      case 0x95: // FRAME: an 8-byte length; frames are only a read-ahead hint
        need(8);
        break;
      case 0x2e: {
        // STOP
        const [value] = stack;
        if (value === undefined || stack.length !== 1 || marks.length) return problem(msg(PICKLE_ERRORS.stop, stack.length, marks.length));
        return value;
      }
      case 0x28: // MARK
        if (marks.length >= limits.maxStack) problem(msg(PICKLE_ERRORS.marks, formatCount(limits.maxStack)));
        marks.push(stack.length);
        break;
      case 0x30: // POP
        pop();
        break;
      case 0x31: // POP_MARK
        popMark();
        break;
      case 0x32: // DUP
        push(top());
        break;
      case 0x4e:
        push(null);
        break; // NONE
      case 0x88:
        push(true);
        break; // NEWTRUE
      case 0x89:
        push(false);
        break; // NEWFALSE
      case 0x4a:
        push(view.getInt32(need(4), true));
        break; // BININT
      case 0x4b:
        push(byte());
        break; // BININT1
      case 0x4d:
        push(view.getUint16(need(2), true));
        break; // BININT2
      case 0x8a: {
        // LONG1
        const n = byte();
        push(littleEndianSignedInt(bytes.subarray(need(n), pos), problem));
        break;
      }
      case 0x8b: {
        // LONG4
        const n = view.getInt32(need(4), true);
        if (n < 0 || n > 8) problem(msg(PICKLE_ERRORS.long4, n));
        push(littleEndianSignedInt(bytes.subarray(need(n), pos), problem));
        break;
      }
      case 0x47:
        push(view.getFloat64(need(8), false));
        break; // BINFLOAT (big-endian)
      case 0x58: {
        // BINUNICODE
        const n = view.getUint32(need(4), true);
        push(utf8.decode(bytes.subarray(need(n), pos)));
        break;
      }
      case 0x8c: {
        // SHORT_BINUNICODE
        const n = byte();
        push(utf8.decode(bytes.subarray(need(n), pos)));
        break;
      }
      case 0x8d: {
        // BINUNICODE8
        const n = view.getBigUint64(need(8), true);
        push(utf8.decode(bytes.subarray(need(n), pos)));
        break;
      }
      case 0x54: {
        // BINSTRING (Python 2 str)
        const n = view.getInt32(need(4), true);
        if (n < 0) problem(msg(PICKLE_ERRORS.binstring));
        push(latin1.decode(bytes.subarray(need(n), pos)));
        break;
      }
      case 0x55: {
        // SHORT_BINSTRING
        const n = byte();
        push(latin1.decode(bytes.subarray(need(n), pos)));
        break;
      }
      case 0x42: {
        // BINBYTES
        const n = view.getUint32(need(4), true);
        push(bytes.subarray(need(n), pos));
        break;
      }
      case 0x43: {
        // SHORT_BINBYTES
        const n = byte();
        push(bytes.subarray(need(n), pos));
        break;
      }
      case 0x8e: {
        // BINBYTES8
        const n = view.getBigUint64(need(8), true);
        push(bytes.subarray(need(n), pos));
        break;
      }
      case 0x29:
        push(new PyTuple([]));
        break; // EMPTY_TUPLE
      case 0x85:
        push(new PyTuple([pop()]));
        break; // TUPLE1
      case 0x86: {
        // TUPLE2
        const b = pop();
        push(new PyTuple([pop(), b]));
        break;
      }
      case 0x87: {
        // TUPLE3
        const c = pop();
        const b = pop();
        push(new PyTuple([pop(), b, c]));
        break;
      }
      case 0x74:
        push(new PyTuple(popMark()));
        break; // TUPLE
      case 0x5d:
        push([]);
        break; // EMPTY_LIST
      case 0x6c:
        push(popMark());
        break; // LIST
      case 0x61: {
        // APPEND
        const v = pop();
        appendItems(top(), [v]);
        break;
      }
      case 0x65: {
        // APPENDS
        const items = popMark();
        appendItems(top(), items);
        break;
      }
      case 0x7d:
        push(new PyDict());
        break; // EMPTY_DICT
      case 0x64: {
        // DICT
        const d = new PyDict();
        setItems(d, popMark());
        push(d);
        break;
      }
      case 0x73: {
        // SETITEM
        const v = pop();
        const k = pop();
        setItems(top(), [k, v]);
        break;
      }
      case 0x75: {
        // SETITEMS
        const items = popMark();
        setItems(top(), items);
        break;
      }
      case 0x71:
        memoPut(byte());
        break; // BINPUT
      case 0x72:
        memoPut(view.getUint32(need(4), true));
        break; // LONG_BINPUT
      case 0x94:
        memoPut(memo.size);
        break; // MEMOIZE
      case 0x68:
        memoGet(byte());
        break; // BINGET
      case 0x6a:
        memoGet(view.getUint32(need(4), true));
        break; // LONG_BINGET
      case 0x63: {
        // GLOBAL "module\nname\n"
        const module = readLine();
        global(module, readLine());
        break;
      }
      case 0x93: {
        // STACK_GLOBAL
        const name = pop();
        const module = pop();
        if (typeof module !== 'string' || typeof name !== 'string') problem(msg(PICKLE_ERRORS.stackGlobal));
        global(module as string, name as string);
        break;
      }
      case 0x52: {
        // REDUCE
        const args = pop();
        const callable = pop();
        if (!(args instanceof PyTuple)) problem(msg(PICKLE_ERRORS.reduceArgs, typeName(args)));
        push(hooks.reduce(callable, args as PyTuple));
        break;
      }
      case 0x62: {
        // BUILD
        const state = pop();
        hooks.build(top(), state);
        break;
      }
      case 0x51:
        push(hooks.persistentLoad(pop()));
        break; // BINPERSID
      default: {
        const name = OPCODE_NAMES[op];
        if (name) problem(msg(PICKLE_ERRORS.notAllowed, name, hex(op)));
        problem(msg(PICKLE_ERRORS.unknownOpcode, hex(op)));
      }
    }
  }
  return problem(msg(PICKLE_ERRORS.noStop));
}

function hex(op: number): string {
  return op.toString(16).padStart(2, '0');
}

function littleEndianSignedInt(b: Uint8Array, problem: (what: MessageParts) => never): number {
  if (b.length === 0) return 0;
  if (b.length > 8) problem(msg(PICKLE_ERRORS.intTooLong, b.length));
  let v = 0n;
  for (const x of b.slice().reverse()) v = (v << 8n) | BigInt(x);
  const highest = b.at(-1) ?? 0;
  if (highest & 0x80) v -= 1n << BigInt(8 * b.length);
  const n = Number(v);
  if (!Number.isSafeInteger(n)) problem(msg(PICKLE_ERRORS.intTooLarge, String(v)));
  return n;
}

/** A short description of a value's Python type for messages. */
/** The Python type of a value read from a pickle; `undefined` is an argument the pickle did not give. */
export function typeName(v: PyValue | undefined): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'None';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'string') return 'str';
  if (v instanceof Uint8Array) return 'bytes';
  if (Array.isArray(v)) return 'list';
  if (v instanceof PyTuple) return 'tuple';
  if (v instanceof PyDict) return v.className;
  if (v instanceof PyGlobal) return `global ${quote(v.qualifiedName)}`;
  return v.kind;
}
