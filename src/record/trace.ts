// The recorder's trace index (trace.json written by python/attention_recorder) and its validator.
// The file comes from a program the extension ran: it is untrusted input. parseTrace checks every field it
// uses (types, ranges, lengths, tensor file names), bounds every list, and throws a TraceError naming the file
// and the problem for anything malformed. Pure: the caller reads the file.
import { msg, renderMessage, type MessageParts } from '../protocol/message';
import { TRACE_FILE_ERRORS } from './messages';

export const TRACE_FORMAT = 'attention-inspector-trace';
export const TRACE_VERSION = 1;

/** Limits of what a trace may hold (a real recording stays far below them). */
export const TRACE_LIMITS = Object.freeze({
  maxJsonBytes: 64 * 1024 * 1024,
  maxCalls: 100_000,
  maxOpsPerCall: 64,
  maxTensorsPerCall: 32,
  maxRank: 8,
  maxDim: 2 ** 31 - 1,
  maxString: 4096,
  maxTraceback: 20_000,
  maxRecorderErrors: 100,
});

/**
 * A recorded trace or one of its files that cannot be used. `problem` is English; given as parts (a template
 * and arguments, src/record/messages.ts), the error carries `parts` and the editor shows it translated.
 */
export class TraceError extends Error {
  override readonly name = 'TraceError';
  readonly problem: string;
  readonly parts?: MessageParts;
  constructor(
    readonly fileName: string,
    problem: string | MessageParts,
  ) {
    const parts = typeof problem === 'string' ? undefined : msg(TRACE_FILE_ERRORS.fileProblem, fileName, problem);
    super(parts ? renderMessage(parts) : `${fileName}: ${String(problem)}`);
    this.problem = typeof problem === 'string' ? problem : renderMessage(problem);
    if (parts) this.parts = parts;
  }
}

export type CallKind = 'sdpa' | 'mha' | 'manual';
/** Axis roles of hand-written scores a @ b: "row" from a's free axis, "col" from b's. */
export type AxisRole = 'b' | 'row' | 'col';
/** A number as the recorder writes it: non-finite values are the strings "inf", "-inf", "nan". */
export type RecordedNumber = number | 'inf' | '-inf' | 'nan';

export interface TraceFrame {
  path: string;
  line: number;
  column: number | null;
  function: string;
}

export interface TensorEntry {
  shape: number[];
  dtype: string;
  /** File in the trace folder; absent when the tensor was not written (see omitted). */
  file: string | null;
  omitted: 'dtype' | 'size' | 'budget' | null;
  /** Present when the file holds block averages of the last two axes of a tensor of shape `of`. */
  summary: { blockRows: number; blockCols: number; of: number[] } | null;
}

export interface TraceOp {
  op: string;
  kind: string;
  path: string | null;
  line: number | null;
  column: number | null;
  value: RecordedNumber | null;
  dim: number | null;
  role: AxisRole | null;
  p: number | null;
  training: boolean | null;
  operandScale: number | null;
  error: string | null;
}

/** The tokenizer that produced a call's token ids (an HF transformers tokenizer the program called). */
export interface TraceTokenizer {
  /** Its name_or_path (a hub name or a folder). */
  name: string | null;
  className: string | null;
  vocabSize: number | null;
  /** Its tokenizer.json, written into the trace folder (fast tokenizers only). */
  file: string | null;
}

export interface TraceTokens {
  paddingIdx: number | null;
  numEmbeddings: number;
  module: string | null;
  tokenizer: TraceTokenizer | null;
  /** The key ids are the ids of a prefill and decoding steps concatenated (a KV cache). */
  fromCache: boolean;
}

export interface TraceCall {
  id: number;
  kind: CallKind;
  thread: string;
  pid: number | null;
  site: { user: TraceFrame | null; library: TraceFrame | null };
  module: string | null;
  moduleClass: string | null;
  test: string | null;
  dtype: string | null;
  shapes: Record<string, number[] | null>;
  params: Record<string, number | string | boolean | null>;
  tensors: Record<string, TensorEntry>;
  /** The keys' token ids (tensor token_ids [B, S]) and where they came from. */
  tokens: TraceTokens | null;
  /** The queries' token ids (tensor query_token_ids [B, T]) when T ≠ S (a KV-cache step, cross-attention). */
  queryTokens: TraceTokens | null;
  /** manual: the ops from the score matmul to the matmul with v, each with its source line. */
  ops: TraceOp[];
  /** manual: ops applied to the weights after the softmax (masking, dropout). */
  afterSoftmax: TraceOp[];
  softmax: { dim: number; role: AxisRole } | null;
  /** manual: the axis of the weights the matmul with v summed over (the key axis). */
  contracted: { role: AxisRole } | null;
  layout: { roles: AxisRole[]; perm: number[] } | null;
  /** manual: an op on the scores raised (e.g. a masked_fill value that overflows the dtype). */
  failed: boolean;
  /**
   * manual: the captured tensor holding the user's own scores at the debugger's first two steps, in the layout
   * [...batch, T, S]: "raw" q·kᵀ as the matmul gave it, "scaled" after the chain's last scale op (the raw scores
   * when the chain has none). Each is a name in `tensors` ("scores" when it was the softmax input itself), or
   * null when it was not kept (the byte budget).
   */
  stepTensors: { raw: string | null; scaled: string | null } | null;
}

export interface TraceProgram {
  kind: 'script' | 'pytest';
  target: string;
  argv: string[];
  exitCode: number;
  exception: { type: string; message: string; traceback: string } | null;
  python: string;
  torch: string;
  workspace: string[];
  durationMs: number | null;
}

export interface TraceLimits {
  maxCallsPerSite: number;
  maxBytes: number;
  skippedCalls: number;
  omittedTensors: number;
  summarisedTensors: number;
  bytesWritten: number;
}

export interface TraceIndex {
  format: typeof TRACE_FORMAT;
  version: number;
  program: TraceProgram;
  limits: TraceLimits;
  recorderErrors: string[];
  calls: TraceCall[];
}

const TENSOR_FILE = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}\.npy$/;
const TOKENIZER_FILE = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}\.json$/;
const DTYPES = new Set([
  'float32',
  'float64',
  'float16',
  'bfloat16',
  'bool',
  'uint8',
  'int8',
  'int16',
  'int32',
  'int64',
  'complex64',
  'complex128',
  'float8_e4m3fn',
  'float8_e5m2',
]);

/** Whether `path` is in one of the recorded program's workspace folders (the user's code, not a library's). */
export function inWorkspace(program: TraceProgram, path: string | null): boolean {
  if (!path) return false;
  return program.workspace.some((w) => path === w || path.startsWith(w.endsWith('/') || w.endsWith('\\') ? w : `${w}/`) || path.startsWith(`${w}\\`));
}

/** Parses and validates trace.json text. `fileName` prefixes every error message. */
export function parseTrace(text: string, fileName: string): TraceIndex {
  if (typeof text !== 'string') throw new TypeError('parseTrace: text must be a string');
  if (text.length > TRACE_LIMITS.maxJsonBytes) {
    throw new TraceError(
      fileName,
      `is ${text.length.toLocaleString('en-US')} characters, over the limit of ${TRACE_LIMITS.maxJsonBytes.toLocaleString('en-US')}`,
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new TraceError(fileName, `is not valid JSON (${(e as Error).message})`);
  }
  const v = new Validator(fileName);
  const root = v.object(doc, 'the document');
  if (root.format !== TRACE_FORMAT)
    throw new TraceError(fileName, `is not an attention trace (format ${JSON.stringify(String(root.format)).slice(0, 60)}, expected "${TRACE_FORMAT}")`);
  const version = v.int(root.version, 'version', 1, 1000);
  if (version !== TRACE_VERSION)
    throw new TraceError(
      fileName,
      `trace version ${version} is not supported (this extension reads version ${TRACE_VERSION}); update the extension or re-record`,
    );
  const program = v.program(root.program);
  const limits = v.limits(root.limits);
  const recorderErrors = v
    .array(root.recorderErrors ?? [], 'recorderErrors', TRACE_LIMITS.maxRecorderErrors)
    .map((e, i) => v.string(e, `recorderErrors[${i}]`));
  const rawCalls = v.array(root.calls, 'calls', TRACE_LIMITS.maxCalls);
  const calls = rawCalls.map((c, i) => v.call(c, i));
  return { format: TRACE_FORMAT, version, program, limits, recorderErrors, calls };
}

type Json = Record<string, unknown>;

class Validator {
  constructor(readonly fileName: string) {}

  fail(problem: string): never {
    throw new TraceError(this.fileName, problem);
  }

  object(x: unknown, what: string): Json {
    if (typeof x !== 'object' || x === null || Array.isArray(x)) this.fail(`${what} must be an object, got ${describe(x)}`);
    return x as Json;
  }

  array(x: unknown, what: string, max: number): unknown[] {
    if (!Array.isArray(x)) this.fail(`${what} must be an array, got ${describe(x)}`);
    if (x.length > max) this.fail(`${what} has ${x.length.toLocaleString('en-US')} entries, over the limit of ${max.toLocaleString('en-US')}`);
    return x;
  }

  string(x: unknown, what: string, max: number = TRACE_LIMITS.maxString): string {
    if (typeof x !== 'string') this.fail(`${what} must be a string, got ${describe(x)}`);
    if (x.length > max) this.fail(`${what} is ${x.length.toLocaleString('en-US')} characters long, over the limit of ${max.toLocaleString('en-US')}`);
    return x;
  }

  optString(x: unknown, what: string, max?: number): string | null {
    return x === undefined || x === null ? null : this.string(x, what, max);
  }

  int(x: unknown, what: string, min: number, max: number): number {
    if (typeof x !== 'number' || !Number.isInteger(x)) this.fail(`${what} must be an integer, got ${describe(x)}`);
    if (x < min || x > max) this.fail(`${what} is ${x}, outside ${min}..${max}`);
    return x;
  }

  optInt(x: unknown, what: string, min: number, max: number): number | null {
    return x === undefined || x === null ? null : this.int(x, what, min, max);
  }

  num(x: unknown, what: string): number {
    if (typeof x !== 'number' || !Number.isFinite(x)) this.fail(`${what} must be a finite number, got ${describe(x)}`);
    return x;
  }

  optNum(x: unknown, what: string): number | null {
    return x === undefined || x === null ? null : this.num(x, what);
  }

  recorded(x: unknown, what: string): RecordedNumber | null {
    if (x === undefined || x === null) return null;
    if (x === 'inf' || x === '-inf' || x === 'nan') return x;
    return this.num(x, what);
  }

  bool(x: unknown, what: string): boolean {
    if (typeof x !== 'boolean') this.fail(`${what} must be true or false, got ${describe(x)}`);
    return x;
  }

  optBool(x: unknown, what: string): boolean | null {
    return x === undefined || x === null ? null : this.bool(x, what);
  }

  shape(x: unknown, what: string): number[] {
    const dims = this.array(x, what, TRACE_LIMITS.maxRank);
    let n = 1;
    const shape = dims.map((d, i) => this.int(d, `${what}[${i}]`, 0, TRACE_LIMITS.maxDim));
    for (const d of shape) n *= d;
    if (n > 2 ** 40) this.fail(`${what} [${shape.join(', ')}] has ${n.toExponential(1)} elements, an absurd size`);
    return shape;
  }

  role(x: unknown, what: string): AxisRole {
    if (x !== 'b' && x !== 'row' && x !== 'col') this.fail(`${what} must be "b", "row" or "col", got ${describe(x)}`);
    return x;
  }

  frame(x: unknown, what: string): TraceFrame | null {
    if (x === undefined || x === null) return null;
    const f = this.object(x, what);
    return {
      path: this.string(f.path, `${what}.path`),
      line: this.int(f.line, `${what}.line`, 0, 10_000_000),
      column: this.optInt(f.column, `${what}.column`, 0, 1_000_000),
      function: this.string(f.function ?? '', `${what}.function`),
    };
  }

  program(x: unknown): TraceProgram {
    const p = this.object(x, 'program');
    const kind = p.kind;
    if (kind !== 'script' && kind !== 'pytest') this.fail(`program.kind must be "script" or "pytest", got ${describe(kind)}`);
    let exception: TraceProgram['exception'] = null;
    if (p.exception !== undefined && p.exception !== null) {
      const e = this.object(p.exception, 'program.exception');
      exception = {
        type: this.string(e.type, 'program.exception.type'),
        message: this.string(e.message, 'program.exception.message', TRACE_LIMITS.maxTraceback),
        traceback: this.string(e.traceback, 'program.exception.traceback', TRACE_LIMITS.maxTraceback),
      };
    }
    return {
      kind,
      target: this.string(p.target, 'program.target'),
      argv: this.array(p.argv ?? [], 'program.argv', 10_000).map((a, i) => this.string(a, `program.argv[${i}]`)),
      exitCode: this.int(p.exitCode, 'program.exitCode', -1_000_000, 1_000_000),
      exception,
      python: this.string(p.python ?? '', 'program.python', 100),
      torch: this.string(p.torch ?? '', 'program.torch', 100),
      workspace: this.array(p.workspace ?? [], 'program.workspace', 100).map((w, i) => this.string(w, `program.workspace[${i}]`)),
      durationMs: this.optInt(p.durationMs, 'program.durationMs', 0, Number.MAX_SAFE_INTEGER),
    };
  }

  limits(x: unknown): TraceLimits {
    const l = this.object(x ?? {}, 'limits');
    const count = (k: string) => this.optInt(l[k], `limits.${k}`, 0, Number.MAX_SAFE_INTEGER) ?? 0;
    return {
      maxCallsPerSite: count('maxCallsPerSite'),
      maxBytes: count('maxBytes'),
      skippedCalls: count('skippedCalls'),
      omittedTensors: count('omittedTensors'),
      summarisedTensors: count('summarisedTensors'),
      bytesWritten: count('bytesWritten'),
    };
  }

  tensor(x: unknown, what: string): TensorEntry {
    const t = this.object(x, what);
    const shape = this.shape(t.shape, `${what}.shape`);
    const dtype = this.string(t.dtype, `${what}.dtype`, 40);
    if (!DTYPES.has(dtype)) this.fail(`${what}.dtype ${JSON.stringify(dtype)} is not a torch dtype the recorder writes`);
    const file = this.optString(t.file, `${what}.file`, 300);
    if (file !== null && !TENSOR_FILE.test(file))
      this.fail(`${what}.file ${JSON.stringify(file.slice(0, 80))} is not a plain .npy file name in the trace folder`);
    const omitted = t.omitted ?? null;
    if (omitted !== null && omitted !== 'dtype' && omitted !== 'size' && omitted !== 'budget')
      this.fail(`${what}.omitted must be "dtype", "size" or "budget", got ${describe(omitted)}`);
    if (file === null && omitted === null) this.fail(`${what} has neither a file nor a reason it was omitted`);
    let summary: TensorEntry['summary'] = null;
    if (t.summary !== undefined && t.summary !== null) {
      const s = this.object(t.summary, `${what}.summary`);
      summary = {
        blockRows: this.int(s.blockRows, `${what}.summary.blockRows`, 1, TRACE_LIMITS.maxDim),
        blockCols: this.int(s.blockCols, `${what}.summary.blockCols`, 1, TRACE_LIMITS.maxDim),
        of: this.shape(s.of, `${what}.summary.of`),
      };
      if (summary.of.length !== shape.length || summary.of.length < 2)
        this.fail(`${what}.summary.of must have the rank of the summary (${shape.length}), got [${summary.of.join(', ')}]`);
    }
    return { shape, dtype, file, omitted, summary };
  }

  tokens(x: unknown, what: string, ids: TensorEntry | undefined): TraceTokens | null {
    if (x === undefined || x === null) return null;
    const t = this.object(x, what);
    if (!ids) this.fail(`${what} is set but there is no ${what.endsWith('queryTokens') ? 'query_token_ids' : 'token_ids'} tensor`);
    let tokenizer: TraceTokenizer | null = null;
    if (t.tokenizer !== undefined && t.tokenizer !== null) {
      const k = this.object(t.tokenizer, `${what}.tokenizer`);
      const file = this.optString(k.file, `${what}.tokenizer.file`, 300);
      if (file !== null && (!TOKENIZER_FILE.test(file) || file === 'trace.json'))
        this.fail(`${what}.tokenizer.file ${JSON.stringify(file.slice(0, 80))} is not a plain .json file name in the trace folder`);
      tokenizer = {
        name: this.optString(k.name, `${what}.tokenizer.name`),
        className: this.optString(k.className, `${what}.tokenizer.className`, 200),
        vocabSize: this.optInt(k.vocabSize, `${what}.tokenizer.vocabSize`, 0, TRACE_LIMITS.maxDim),
        file,
      };
    }
    return {
      paddingIdx: this.optInt(t.paddingIdx, `${what}.paddingIdx`, 0, TRACE_LIMITS.maxDim),
      numEmbeddings: this.int(t.numEmbeddings, `${what}.numEmbeddings`, 0, TRACE_LIMITS.maxDim),
      module: this.optString(t.module, `${what}.module`),
      tokenizer,
      fromCache: t.fromCache === true,
    };
  }

  op(x: unknown, what: string): TraceOp {
    const o = this.object(x, what);
    return {
      op: this.string(o.op, `${what}.op`, 100),
      kind: this.string(o.kind ?? 'other', `${what}.kind`, 40),
      path: this.optString(o.path, `${what}.path`),
      line: this.optInt(o.line, `${what}.line`, 0, 10_000_000),
      column: this.optInt(o.column, `${what}.column`, 0, 1_000_000),
      value: this.recorded(o.value, `${what}.value`),
      dim: this.optInt(o.dim, `${what}.dim`, 0, TRACE_LIMITS.maxRank),
      role: o.role === undefined || o.role === null ? null : this.role(o.role, `${what}.role`),
      p: this.optNum(o.p, `${what}.p`),
      training: this.optBool(o.training, `${what}.training`),
      operandScale: this.optNum(o.operandScale, `${what}.operandScale`),
      error: this.optString(o.error, `${what}.error`),
    };
  }

  call(x: unknown, index: number): TraceCall {
    const where = `calls[${index}]`;
    const c = this.object(x, where);
    const kind = c.kind;
    if (kind !== 'sdpa' && kind !== 'mha' && kind !== 'manual') this.fail(`${where}.kind must be "sdpa", "mha" or "manual", got ${describe(kind)}`);
    const site = this.object(c.site, `${where}.site`);
    const tensorsObj = this.object(c.tensors ?? {}, `${where}.tensors`);
    const names = Object.keys(tensorsObj);
    if (names.length > TRACE_LIMITS.maxTensorsPerCall)
      this.fail(`${where}.tensors has ${names.length} entries, over the limit of ${TRACE_LIMITS.maxTensorsPerCall}`);
    const tensors: Record<string, TensorEntry> = Object.create(null);
    for (const name of names) {
      if (!/^[a-z_]{1,40}$/.test(name)) this.fail(`${where}.tensors has an unexpected name ${JSON.stringify(name.slice(0, 40))}`);
      tensors[name] = this.tensor(tensorsObj[name], `${where}.tensors.${name}`);
    }
    const shapesObj = this.object(c.shapes ?? {}, `${where}.shapes`);
    const shapes: Record<string, number[] | null> = Object.create(null);
    for (const [name, s] of Object.entries(shapesObj).slice(0, TRACE_LIMITS.maxTensorsPerCall)) {
      shapes[this.string(name, `${where}.shapes key`, 40)] = s === null ? null : this.shape(s, `${where}.shapes.${name}`);
    }
    const paramsObj = this.object(c.params ?? {}, `${where}.params`);
    const params: Record<string, number | string | boolean | null> = Object.create(null);
    for (const [name, p] of Object.entries(paramsObj).slice(0, 64)) {
      if (p === null || typeof p === 'boolean') params[name] = p;
      else if (typeof p === 'number') params[name] = this.num(p, `${where}.params.${name}`);
      else params[name] = this.string(p, `${where}.params.${name}`, 100);
    }
    const tokens = this.tokens(c.tokens, `${where}.tokens`, tensors.token_ids);
    const queryTokens = this.tokens(c.queryTokens, `${where}.queryTokens`, tensors.query_token_ids);
    const ops = this.array(c.ops ?? [], `${where}.ops`, TRACE_LIMITS.maxOpsPerCall).map((o, i) => this.op(o, `${where}.ops[${i}]`));
    const afterSoftmax = this.array(c.afterSoftmax ?? [], `${where}.afterSoftmax`, TRACE_LIMITS.maxOpsPerCall).map((o, i) =>
      this.op(o, `${where}.afterSoftmax[${i}]`),
    );
    let softmax: TraceCall['softmax'] = null;
    if (c.softmax !== undefined && c.softmax !== null) {
      const s = this.object(c.softmax, `${where}.softmax`);
      softmax = { dim: this.int(s.dim, `${where}.softmax.dim`, 0, TRACE_LIMITS.maxRank), role: this.role(s.role, `${where}.softmax.role`) };
    }
    let contracted: TraceCall['contracted'] = null;
    if (c.contracted !== undefined && c.contracted !== null) {
      const s = this.object(c.contracted, `${where}.contracted`);
      contracted = { role: this.role(s.role, `${where}.contracted.role`) };
    }
    let layout: TraceCall['layout'] = null;
    if (c.layout !== undefined && c.layout !== null) {
      const l = this.object(c.layout, `${where}.layout`);
      const roles = this.array(l.roles, `${where}.layout.roles`, TRACE_LIMITS.maxRank).map((r, i) => this.role(r, `${where}.layout.roles[${i}]`));
      const perm = this.array(l.perm, `${where}.layout.perm`, TRACE_LIMITS.maxRank).map((d, i) =>
        this.int(d, `${where}.layout.perm[${i}]`, 0, roles.length - 1),
      );
      if (perm.length !== roles.length || new Set(perm).size !== perm.length)
        this.fail(`${where}.layout.perm [${perm.join(', ')}] is not a permutation of ${roles.length} axes`);
      if (roles.filter((r) => r === 'row').length !== 1 || roles.filter((r) => r === 'col').length !== 1)
        this.fail(`${where}.layout.roles must hold one "row" and one "col"`);
      layout = { roles, perm };
    }
    if (kind === 'manual' && !c.failed && (softmax === null || layout === null))
      this.fail(`${where} is a hand-written attention call without softmax and layout`);
    let stepTensors: TraceCall['stepTensors'] = null;
    if (c.stepTensors !== undefined && c.stepTensors !== null) {
      const st = this.object(c.stepTensors, `${where}.stepTensors`);
      const named = (x: unknown, what: string): string | null => {
        if (x === undefined || x === null) return null;
        const name = this.string(x, what, 40);
        if (!(name in tensors)) this.fail(`${what} names ${describe(name)}, which is not one of the call's tensors`);
        return name;
      };
      stepTensors = { raw: named(st.raw, `${where}.stepTensors.raw`), scaled: named(st.scaled, `${where}.stepTensors.scaled`) };
    }
    return {
      id: index,
      kind,
      thread: this.string(c.thread ?? '', `${where}.thread`, 200),
      pid: this.optInt(c.pid, `${where}.pid`, 0, 2 ** 31),
      site: { user: this.frame(site.user, `${where}.site.user`), library: this.frame(site.library, `${where}.site.library`) },
      module: this.optString(c.module, `${where}.module`),
      moduleClass: this.optString(c.moduleClass, `${where}.moduleClass`, 200),
      test: this.optString(c.test, `${where}.test`),
      dtype: this.optString(c.dtype, `${where}.dtype`, 40),
      shapes,
      params,
      tensors,
      tokens,
      queryTokens,
      ops,
      afterSoftmax,
      softmax,
      contracted,
      layout,
      failed: c.failed === true,
      stepTensors,
    };
  }
}

function describe(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'string') return JSON.stringify(x.length > 40 ? `${x.slice(0, 40)}…` : x);
  if (typeof x === 'object') return 'an object';
  return String(x);
}
