// `attention-inspector inspect`: runs the engine on a text or on token ids and prints every layer's
// per-head attention, through the same InspectSession the extension's worker uses.
//
//   attention-inspector inspect (--text TEXT | --ids 1,2,3) [--attention-mask 1,1,0]
//     [--weights FILE [--config config.json] [--tokenizer tokenizer.json]] [--seed N --heads H --d-model D]
//     [--causal] [--format text|json]
//
// Text output: per layer and head, each query token's top-3 attended tokens with their weights and the row
// entropy. JSON output: {model, tokens, heads: [...the same summaries], attentions: {shape: [n_layer,
// n_head, T, T], data: [...]}} (row-major; floats as the shortest decimal that reads back as the same
// float32; non-finite values as the strings "NaN", "Infinity", "-Infinity"). Errors go to stderr with exit
// code 2.
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { entropyNats, initKernels } from '../engine';
import { InspectSession, loadCheckpoint, type ModelLoader } from '../models/session';
import { type CliIO, processIO } from './io';
import { TOO_MANY_TOKENS, type ModelInfo, type ModelSource, type RunResult, type TokenInfo } from '../protocol/engine';
import { DEFAULT_LOADER_OPTIONS, MAX_CONFIG_JSON_BYTES, MAX_TOKENIZER_JSON_BYTES } from '../weights/options';
import { type CheckpointSnapshot, openSnapshot } from '../weights/snapshot';
import { InputFileError, readRegularFile } from './files';
import { escapeControls, escapeLines } from './terminal';
import { readWholeFile } from '../worker/read-whole-file';

/** The largest input the CLI runs (all weights are printed: nLayer·nHead·T² numbers). */
export const MAX_TOKENS = 2048;

/**
 * The most attention weights one run may print (nLayer · nHead · T²): 16.8M, about 170 MB of JSON or,
 * as text, a top-3 line for each of nLayer · nHead · T rows. A run past it is refused before it computes,
 * with the number of tokens this model allows.
 */
export const MAX_PRINTED_WEIGHTS = 2 ** 24;

export const INSPECT_USAGE = `Usage: attention-inspector inspect (--text TEXT | --ids 1,2,3) [options]

Runs the attention engine and prints every layer's per-head attention weights.

Input (exactly one):
  --text TEXT               text to tokenize with the model's tokenizer
  --ids 1,2,3               token ids, comma-separated
  --attention-mask 1,1,0    1 = real token, 0 = padding (one per token); padded keys get weight 0

Model (default: the seeded single-layer model):
  --weights FILE|FOLDER     a checkpoint: Llama, Qwen2/3, Mistral, Gemma 2/3, Phi-3, GPT-2, BERT,
                            RoBERTa/XLM-R, or one attention layer (.safetensors, .pt/.bin, .npz, .npy,
                            .json), or a model folder as downloaded (config.json, tokenizer.json and
                            model.safetensors, sharded with model.safetensors.index.json, or pytorch_model.bin)
  --config FILE             its HF config.json (default: config.json beside FILE, if any)
  --tokenizer FILE          its HF tokenizer.json (default: tokenizer.json beside FILE, if any)
  --seed N                  generator seed of the seeded weights, or of a bare attention layer's
                            token embeddings (default 0)
  --heads H                 heads of the seeded model (default 4)
  --d-model D               width of the seeded model (default 64)
  --causal                  mask future tokens (seeded model and bare attention layers)

Output:
  --format text|json        text (default): each query's top-3 keys and the row entropy;
                            json: {model, tokens, heads, attentions: {shape, data}}
  -h, --help                this help

At most ${MAX_TOKENS} tokens, and at most ${MAX_PRINTED_WEIGHTS.toLocaleString('en-US')} weights printed (layers × heads × tokens²).
Only regular files are read; config.json over ${MAX_CONFIG_JSON_BYTES >> 20} MiB, tokenizer.json over ${MAX_TOKENIZER_JSON_BYTES >> 20} MiB and
JSON weights over ${DEFAULT_LOADER_OPTIONS.maxJsonBytes >> 20} MiB are refused before they are read.
Exit codes: 0 done, 2 bad usage, unreadable input or a model error.`;

const SEEDED_DEFAULTS = { seed: 0, heads: 4, dModel: 64 } as const;

/** Where inspect writes (the CLI's streams, or a capture in tests). */
export type InspectIO = CliIO;

/** A usage or input problem: reported on stderr with exit code 2. */
class UsageError extends Error {}

export interface InspectOptions {
  text?: string;
  ids?: number[];
  attentionMask?: number[];
  weights?: string;
  config?: string;
  tokenizer?: string;
  seed?: number;
  heads?: number;
  dModel?: number;
  causal: boolean;
  format: 'text' | 'json';
  help: boolean;
}

type FlagKind = 'string' | 'boolean';
const FLAGS: Record<string, FlagKind> = {
  '--text': 'string',
  '--ids': 'string',
  '--attention-mask': 'string',
  '--weights': 'string',
  '--config': 'string',
  '--tokenizer': 'string',
  '--seed': 'string',
  '--heads': 'string',
  '--d-model': 'string',
  '--causal': 'boolean',
  '--format': 'string',
  '--help': 'boolean',
  '-h': 'boolean',
};

function integerList(flag: string, value: string, allowed?: readonly number[]): number[] {
  const parts = value.split(',').map((s) => s.trim());
  if (value.trim() === '' || parts.some((p) => !/^\d+$/.test(p))) {
    throw new UsageError(`${flag} expects comma-separated ${allowed ? allowed.join('/') + ' values' : 'non-negative integers'}, got '${value}'`);
  }
  const out = parts.map(Number);
  if (out.some((n) => !Number.isSafeInteger(n) || (allowed && !allowed.includes(n)))) {
    throw new UsageError(`${flag} expects comma-separated ${allowed ? allowed.join('/') + ' values' : 'non-negative integers'}, got '${value}'`);
  }
  return out;
}

function nonNegativeInt(flag: string, value: string, min = 0): number {
  const n = /^\d+$/.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`${flag} expects ${min > 0 ? 'a positive' : 'a non-negative'} integer, got '${value}'`);
  return n;
}

/** Parses the arguments after `inspect`; throws UsageError naming the flag for anything wrong. */
export function parseInspectArgs(args: readonly string[]): InspectOptions {
  const values = new Map<string, string | true>();
  const rest = [...args]; // the arguments not read yet
  for (let arg = rest.shift(); arg !== undefined; arg = rest.shift()) {
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const kind = FLAGS[name];
    if (!kind) throw new UsageError(arg.startsWith('-') ? `unknown option '${name}'` : `unexpected argument '${arg}' (the text goes after --text)`);
    if (values.has(name)) throw new UsageError(`${name} is given more than once`);
    if (kind === 'boolean') {
      if (eq > 0) throw new UsageError(`${name} takes no value`);
      values.set(name, true);
    } else if (eq > 0) {
      values.set(name, arg.slice(eq + 1));
    } else {
      const value = rest.shift();
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      values.set(name, value);
    }
  }
  const str = (name: string) => values.get(name) as string | undefined;
  const format = str('--format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format expects text or json, got '${format}'`);
  const options: InspectOptions = { causal: values.has('--causal'), format, help: values.has('--help') || values.has('-h') };
  if (options.help) return options;
  const text = str('--text');
  const ids = str('--ids');
  if ((text === undefined) === (ids === undefined)) throw new UsageError('give exactly one of --text TEXT or --ids 1,2,3');
  if (text !== undefined) options.text = text;
  if (ids !== undefined) options.ids = integerList('--ids', ids);
  const mask = str('--attention-mask');
  if (mask !== undefined) options.attentionMask = integerList('--attention-mask', mask, [0, 1]);
  options.weights = str('--weights');
  options.config = str('--config');
  options.tokenizer = str('--tokenizer');
  if (!options.weights) {
    if (options.weights === '') throw new UsageError('--weights needs a file name');
    if (options.config !== undefined) throw new UsageError('--config goes with --weights (it describes a checkpoint)');
    if (options.tokenizer !== undefined) throw new UsageError('--tokenizer goes with --weights (it belongs to a checkpoint)');
  }
  const seed = str('--seed');
  if (seed !== undefined) {
    options.seed = nonNegativeInt('--seed', seed);
    if (options.seed > 0xffffffff) throw new UsageError(`--seed must be at most 4294967295, got ${seed}`);
  }
  const heads = str('--heads');
  const dModel = str('--d-model');
  if (options.weights && (heads !== undefined || dModel !== undefined)) {
    throw new UsageError(
      `${heads !== undefined ? '--heads' : '--d-model'} describes the seeded model; with --weights the checkpoint and its config.json decide`,
    );
  }
  if (heads !== undefined) options.heads = nonNegativeInt('--heads', heads, 1);
  if (dModel !== undefined) options.dModel = nonNegativeInt('--d-model', dModel, 1);
  return options;
}

/** Reads a regular file of at most `maxBytes` (checked before reading); a UsageError says why not. */
function readInput(flag: string, path: string, maxBytes: number, limitName: string): Uint8Array {
  try {
    return readRegularFile(path, maxBytes, limitName);
  } catch (e) {
    throw new UsageError(`cannot read ${flag} ${path}: ${e instanceof InputFileError ? e.message : String(e)}`);
  }
}

function readText(flag: string, path: string, maxBytes: number, limitName: string): string {
  return new TextDecoder('utf-8').decode(readInput(flag, path, maxBytes, limitName));
}

/** Largest weight file read: JSON weights are parsed whole, so they have the loader's JSON limit. */
function weightsLimit(path: string): [number, string] {
  return path.toLowerCase().endsWith('.json')
    ? [DEFAULT_LOADER_OPTIONS.maxJsonBytes, 'the limit for JSON weights']
    : [2 ** 31 - 1, 'the largest file read whole'];
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // reported when read as a file
  }
}

/** The size limit for a file of a model folder: JSON files are parsed whole. */
function folderFileLimit(name: string): [number, string] {
  if (name === 'config.json') return [MAX_CONFIG_JSON_BYTES, 'the limit for a config.json'];
  if (name === 'tokenizer.json') return [MAX_TOKENIZER_JSON_BYTES, 'the limit for a tokenizer.json'];
  return weightsLimit(name);
}

/** A model folder through node's fs (absent files are undefined); --config / --tokenizer override what it holds. */
async function folderSnapshot(folder: string, options: InspectOptions, found: string[]): Promise<CheckpointSnapshot> {
  const snapshot = await openSnapshot(async (name) => {
    const path = join(folder, name);
    if (!existsSync(path)) return undefined;
    if (name.endsWith('.json') && !name.includes('index')) found.push(path);
    return name.endsWith('.json') ? readInput('--weights', path, ...folderFileLimit(name)) : readWholeFile(path); // shards may pass 2 GiB
  }, basename(folder));
  if (options.config !== undefined) snapshot.configJson = readText('--config', options.config, MAX_CONFIG_JSON_BYTES, 'the limit for a config.json');
  if (options.tokenizer !== undefined)
    snapshot.tokenizerJson = readText('--tokenizer', options.tokenizer, MAX_TOKENIZER_JSON_BYTES, 'the limit for a tokenizer.json');
  return snapshot;
}

/** The model source for the options: the seeded model, or the checkpoint with config/tokenizer found beside it. */
function modelSource(options: InspectOptions): { source: ModelSource; found: string[] } {
  if (!options.weights) {
    return {
      source: {
        kind: 'seeded',
        seed: options.seed ?? SEEDED_DEFAULTS.seed,
        heads: options.heads ?? SEEDED_DEFAULTS.heads,
        dModel: options.dModel ?? SEEDED_DEFAULTS.dModel,
      },
      found: [],
    };
  }
  const found: string[] = [];
  if (isFolder(options.weights)) return { source: { kind: 'folder', fileName: basename(options.weights), path: options.weights }, found };
  const weights = options.weights;
  const bytes = readInput('--weights', weights, ...weightsLimit(weights));
  // Sized before reading: JSON.parse of a few hundred MB ends the process instead of throwing.
  const beside = (explicit: string | undefined, flag: string, name: string, maxBytes: number): string | undefined => {
    const limitName = `the limit for a ${name}`;
    if (explicit !== undefined) return readText(flag, explicit, maxBytes, limitName);
    const path = join(dirname(weights), name);
    if (!existsSync(path)) return undefined;
    found.push(path);
    return readText(`${name} beside the weights:`, path, maxBytes, limitName);
  };
  const configJson = beside(options.config, '--config', 'config.json', MAX_CONFIG_JSON_BYTES);
  const tokenizerJson = beside(options.tokenizer, '--tokenizer', 'tokenizer.json', MAX_TOKENIZER_JSON_BYTES);
  return { source: { kind: 'file', fileName: basename(options.weights), bytes, configJson, tokenizerJson }, found };
}

// ---------------------------------------------------------------------------------------------------
// Output

/** A float32 as the shortest decimal that reads back as the same float32 (JSON-safe; non-finite as strings). */
export function float32Json(x: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? '"NaN"' : x > 0 ? '"Infinity"' : '"-Infinity"';
  // Start at 6 digits: a float32 is within half an ulp (< 6e-8 relative) of any decimal that reads back as it,
  // far less than half the spacing of 6-digit decimals (≥ 5e-7 relative), so if a decimal of ≤ 6 digits
  // reads back, toPrecision(6) is that decimal padded with zeros, which Number() and JSON drop again.
  for (let p = 6; p <= 9; p++) {
    const n = Number(x.toPrecision(p));
    if (Math.fround(n) === x) return JSON.stringify(n);
  }
  return JSON.stringify(x);
}

/** Token text for a terminal: control, zero-width and direction-changing characters escaped, in quotes. */
export function terminalText(s: string): string {
  const escaped = s.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff"\\]/g, (c) => {
    switch (c) {
      case '\n':
        return '\\n';
      case '\t':
        return '\\t';
      case '\r':
        return '\\r';
      case '"':
        return '\\"';
      case '\\':
        return '\\\\';
      default:
        return `\\u{${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}}`;
    }
  });
  return `"${escaped}"`;
}

/** Columns a string takes in a terminal: East Asian wide and full-width characters take two. */
export function displayWidth(s: string): number {
  let w = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) ?? 0; // a string's iteration yields whole code points
    const wide =
      (c >= 0x1100 && c <= 0x115f) ||
      (c >= 0x2e80 && c <= 0xa4cf && c !== 0x303f) ||
      (c >= 0xac00 && c <= 0xd7a3) ||
      (c >= 0xf900 && c <= 0xfaff) ||
      (c >= 0xfe30 && c <= 0xfe4f) ||
      (c >= 0xff00 && c <= 0xff60) ||
      (c >= 0xffe0 && c <= 0xffe6) ||
      (c >= 0x1f300 && c <= 0x1f64f) ||
      (c >= 0x20000 && c <= 0x3fffd);
    w += wide ? 2 : 1;
  }
  return w;
}

/** s padded with spaces to `width` terminal columns. */
function padColumns(s: string, width: number): string {
  return s + ' '.repeat(Math.max(0, width - displayWidth(s)));
}

interface RowSummary {
  top: Array<{ key: number; weight: number }>;
  entropy: number;
}

/** Each row's top-k keys (by weight, ties to the earlier key; zero weights left out) and its entropy in nats. */
export function summarizeHead(weights: Float32Array, T: number, k = 3): { rows: RowSummary[]; meanEntropy: number } {
  const rows: RowSummary[] = [];
  let sum = 0;
  let n = 0;
  if (weights.length !== T * T) throw new Error(`summarizeHead: ${weights.length} weights for ${T} tokens (expected ${T} × ${T})`);
  for (let i = 0; i < T; i++) {
    const start = i * T;
    const top: Array<{ key: number; weight: number }> = []; // sorted by weight, descending; NaN ranks last
    weights.subarray(start, start + T).forEach((w, j) => {
      if (w === 0) return;
      // The first entry w goes before (the list is sorted, so every later one too); ties stay with the earlier key.
      const found = top.findIndex((t) => ranksAbove(w, t.weight));
      const at = found === -1 ? top.length : found;
      if (at < k) {
        top.splice(at, 0, { key: j, weight: w });
        if (top.length > k) top.pop();
      }
    });
    const entropy = entropyNats(weights, start, start + T);
    if (Number.isFinite(entropy)) {
      sum += entropy;
      n++;
    }
    rows.push({ top, entropy });
  }
  return { rows, meanEntropy: n ? sum / n : NaN };
}

/** True when weight a (of a later key) goes before b: strictly larger, or b is NaN and a is not. */
function ranksAbove(a: number, b: number): boolean {
  if (Number.isNaN(a)) return false;
  return Number.isNaN(b) || a > b;
}

/** The (T, T) weights of one head: from the run when they were sent inline, else asked of the session. */
function headWeights(session: InspectSession, run: RunResult, layer: number, head: number): Float32Array {
  const T = run.seqLen;
  if (run.attentions) return run.attentions.subarray((layer * run.nHead + head) * T * T, (layer * run.nHead + head + 1) * T * T);
  return session.attention({ runId: run.runId, layer, head }).data;
}

function numberText(x: number, digits: number): string {
  return Number.isFinite(x) ? x.toFixed(digits) : String(x);
}

function writeText(io: InspectIO, session: InspectSession, run: RunResult, found: string[]): void {
  const { model, tokens, nLayer, nHead, seqLen: T } = run;
  const labels = tokens.map((token, i) => `${String(i).padStart(String(T - 1).length)} ${terminalText(token.display)}`);
  const label = (i: number): string => labels[i] ?? String(i);
  const width = Math.min(28, Math.max(...labels.map(displayWidth)));
  const out: string[] = [];
  out.push(`model   ${escapeControls(model.name)}`);
  out.push(`        ${escapeControls(model.detail)}`);
  for (const path of found) out.push(`        (read ${escapeControls(path)})`);
  out.push(
    `tokens  ${T}: ${tokens.map((t, i) => `${i} ${terminalText(t.display)}${t.id !== undefined && t.display !== `#${t.id}` ? `#${t.id}` : ''}`).join('  ')}`,
  );
  out.push(
    `weights ${nLayer} layer${nLayer > 1 ? 's' : ''} × ${nHead} head${nHead > 1 ? 's' : ''} × ${T}×${T}; row = query token → its top 3 keys (weight), H = row entropy in nats (uniform over ${T} keys: ${Math.log(T).toFixed(3)})`,
  );
  io.stdout(out.join('\n') + '\n');
  for (let l = 0; l < nLayer; l++) {
    for (let h = 0; h < nHead; h++) {
      const { rows, meanEntropy } = summarizeHead(headWeights(session, run, l, h), T);
      const lines = [`\nlayer ${l} head ${h}   mean H ${numberText(meanEntropy, 3)}`];
      const cell = width + 6; // label, a space, the weight (5 characters)
      rows.forEach((row, i) => {
        const keys = row.top.map((t) => `${padColumns(label(t.key), width)} ${numberText(t.weight, 3)}`).join('   ');
        lines.push(`  ${padColumns(label(i), width)} → ${padColumns(keys, 3 * cell + 6)}   H ${numberText(row.entropy, 3)}`);
      });
      io.stdout(lines.join('\n') + '\n');
    }
  }
}

/** Writes the JSON document piece by piece (the weights of a large model do not fit one string). */
function writeJson(io: InspectIO, session: InspectSession, run: RunResult): void {
  const { model, tokens, nLayer, nHead, seqLen: T } = run;
  // The model as the CLI has always printed it: its English name and detail, not their parts (the editor's).
  const info: Partial<ModelInfo> = { ...model };
  delete info.nameParts;
  delete info.detailParts;
  io.stdout(`{"model":${JSON.stringify(info)},\n"tokens":${JSON.stringify(tokens satisfies TokenInfo[])},\n"heads":[`);
  for (let l = 0; l < nLayer; l++) {
    for (let h = 0; h < nHead; h++) {
      const { rows, meanEntropy } = summarizeHead(headWeights(session, run, l, h), T);
      const rowsJson = rows.map(
        (r) => `{"top":[${r.top.map((t) => `{"key":${t.key},"weight":${float32Json(t.weight)}}`).join(',')}],"entropy":${jsonNumber(r.entropy)}}`,
      );
      io.stdout(`${l + h > 0 ? ',\n' : '\n'}{"layer":${l},"head":${h},"meanEntropy":${jsonNumber(meanEntropy)},"rows":[${rowsJson.join(',')}]}`);
    }
  }
  io.stdout(`],\n"attentions":{"shape":[${nLayer},${nHead},${T},${T}],"data":[`);
  for (let l = 0; l < nLayer; l++) {
    for (let h = 0; h < nHead; h++) {
      const w = headWeights(session, run, l, h);
      const parts = Array.from(w, float32Json);
      io.stdout(`${l + h > 0 ? ',\n' : '\n'}${parts.join(',')}`);
    }
  }
  io.stdout(`]},\n"elapsedMs":${run.elapsedMs}}\n`);
}

function jsonNumber(x: number): string {
  return Number.isFinite(x) ? JSON.stringify(x) : float32Json(x);
}

/** Runs `inspect` with the arguments after the subcommand; resolves to the exit code. */
export async function inspectMain(args: readonly string[], io: InspectIO = processIO): Promise<number> {
  try {
    const options = parseInspectArgs(args);
    if (options.help) {
      io.stdout(INSPECT_USAGE + '\n');
      return 0;
    }
    const { source, found } = modelSource(options);
    await initKernels('auto');
    const seed = options.seed ?? SEEDED_DEFAULTS.seed;
    // The worker's loader, plus the seed for a bare attention layer's embeddings.
    const loader: ModelLoader = async (bytes, opts) => loadCheckpoint(bytes, { ...opts, seed });
    const session = new InspectSession(loader);
    const info =
      source.kind === 'folder' ? session.configureSnapshot(await folderSnapshot(source.path, options, found), seed) : await session.configure(source);
    if (options.causal && (info.family === 'bert' || info.family === 'roberta' || info.family === 'xlm-roberta')) {
      io.stderr(`attention-inspector inspect: note: --causal has no effect on ${info.family === 'bert' ? 'BERT' : 'RoBERTa'} (bidirectional attention)\n`);
    }
    // Output is nLayer · nHead · T² weights: refuse before computing what could not be printed.
    const maxTokens = Math.min(MAX_TOKENS, Math.floor(Math.sqrt(MAX_PRINTED_WEIGHTS / Math.max(1, info.nLayer * info.nHead))));
    const tooMuch = (tokens: string): UsageError =>
      new UsageError(
        `${tokens} tokens through ${info.nLayer} layers × ${info.nHead} heads would print ${info.nLayer} × ${info.nHead} × T² weights, ` +
          `over the limit of ${MAX_PRINTED_WEIGHTS.toLocaleString('en-US')}; with this model inspect at most ${maxTokens} tokens`,
      );
    if (options.ids && options.ids.length > maxTokens && maxTokens < MAX_TOKENS) throw tooMuch(String(options.ids.length));
    let run: RunResult;
    try {
      run = await session.run({
        text: options.text ?? '',
        ids: options.ids,
        attentionMask: options.attentionMask,
        causal: options.causal,
        maxTokens,
      });
    } catch (e) {
      if (e instanceof Error && e.name === TOO_MANY_TOKENS && maxTokens < MAX_TOKENS) throw tooMuch(`more than ${maxTokens}`);
      throw e;
    }
    if (options.format === 'json') writeJson(io, session, run);
    else writeText(io, session, run, found);
    return 0;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    io.stderr(`attention-inspector inspect: ${escapeLines(message)}\n`);
    if (e instanceof UsageError) io.stderr(`Run 'attention-inspector inspect --help' for the options.\n`);
    return 2;
  }
}
