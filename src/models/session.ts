// An inspection session: the chosen model and its tokenizer, and the last run's results. It turns text
// into a RunResult (tokens, per-head thumbnails, all weights when small) and answers the panel's follow-up
// questions (one head's weights — all rows, some rows, or block-averaged —, a step trace with the
// debugger's switches). Pure: the worker and the CLI wrap it; neither the session nor the models touch files.
//
// Long runs: the model keeps q, k, v per layer instead of every weight (see ./types.ts); thumbnails,
// entropies and the panel's views are computed from blocks of query rows, never a whole (T, T) head at once
// unless it is asked for.
import { MAX_TRACE_CELLS, traceAttention, type AttentionTrace, type MaskChoice, type Tensor, type TraceOptions } from '../engine';
import type { AttentionRequest, AttentionResult, ModelInfo, ModelSource, RunRequest, RunResult, TokenInfo } from '../protocol/engine';
import { STALE_RUN, TOO_MANY_TOKENS } from '../protocol/engine';
import { ENGINE_ERRORS, TOKEN_COUNT_LIMIT } from '../protocol/engine-errors';
import { ENGINE_PROGRESS } from '../protocol/engine-progress';
import { MessageError, msg, type MessageParts } from '../protocol/message';
import { createTokenizer, type Tokenizer } from '../tokenize';
import { type CheckpointSnapshot, snapshotFromFile } from '../weights/snapshot';
import { loadModelFromStore } from './index';
import { modelNameArg } from './model-text';
import { checkRowRange } from './forward-result';
import { BlockAverager, blockFor, blockRows, RowEntropyAccumulator, STREAM_BLOCK_BYTES, streamHeadSummaries, ThumbnailAccumulator } from './head-stream';
import { createSeededModel } from './seeded-model';
import type { AttentionModel, ForwardResult, HeadInputs, TokenizerChoice } from './types';

/** How the session loads a checkpoint: bytes → model (src/models' family detection). */
export type ModelLoader = (
  bytes: Uint8Array,
  opts: { fileName: string; configJson?: string; tokenizerJson?: string; seed?: number; heads?: number },
) => Promise<AttentionModel>;

/**
 * The usual loader: any supported weight format, then family detection. safetensors stay in their stored
 * precision (bf16, f16) and the RoPE decoders convert a layer at a time (src/weights/snapshot.ts).
 */
export const loadCheckpoint: ModelLoader = async (bytes, opts) => loadModelFromStore((await snapshotFromFile(bytes, opts.fileName)).store, opts);

/** The model of a checkpoint folder (or file) snapshot: its weights, config.json and tokenizer.json. */
export function loadSnapshot(snapshot: CheckpointSnapshot, seed?: number): AttentionModel {
  return loadModelFromStore(snapshot.store, { fileName: snapshot.label, configJson: snapshot.configJson, tokenizerJson: snapshot.tokenizerJson, seed });
}

export interface SessionContext {
  checkpoint?: () => Promise<void>;
  progress?: (fraction: number, message: MessageParts) => void;
}

/** Full weights are sent with the run when they fit in this many bytes; else the panel asks per head. */
export const INLINE_ATTENTION_BYTES = 16 * 1024 * 1024;
export const DEFAULT_THUMBNAIL_SIZE = 48;
/** Most weights one `attention` answer holds (2^26 float32 = 256 MiB): ask for rows or a downsampled view beyond. */
export const MAX_ATTENTION_RESULT_WEIGHTS = 2 ** 26;
/** Largest side a downsampled view may ask for. */
export const MAX_DOWNSAMPLE_SIDE = 4096;

export interface SessionOptions {
  /** Passed to every forward: the most bytes of weights a run keeps (see ForwardOptions.materialiseBytes). */
  materialiseBytes?: number;
  /** Bytes of weights per streamed block of rows (thumbnails, entropies, views); default STREAM_BLOCK_BYTES. */
  streamBlockBytes?: number;
}

interface HeldRun {
  runId: number;
  tokens: TokenInfo[];
  forward: ForwardResult;
  nLayer: number;
  nHead: number;
  T: number;
}

export class InspectSession {
  private model: AttentionModel | undefined;
  private tokenizer: { choice: TokenizerChoice; tokenizer: Tokenizer } | undefined;
  private lastRun: HeldRun | undefined;
  private nextRunId = 1;

  constructor(
    private readonly loadCheckpoint?: ModelLoader,
    private readonly options: SessionOptions = {},
  ) {}

  get modelInfo(): ModelInfo | undefined {
    return this.model?.info;
  }

  async configure(source: ModelSource): Promise<ModelInfo> {
    let model: AttentionModel;
    if (source.kind === 'seeded') {
      model = createSeededModel(source);
    } else if (source.kind === 'folder') {
      throw new Error(`${source.fileName}: a model folder is opened by the worker (openSnapshot), then given to configureSnapshot`);
    } else {
      if (!source.bytes) throw new Error(`${source.fileName}: no file contents reached the engine`);
      if (!this.loadCheckpoint) throw new Error('this session cannot load checkpoints');
      model = await this.loadCheckpoint(source.bytes, {
        fileName: source.fileName,
        configJson: source.configJson,
        tokenizerJson: source.tokenizerJson,
        seed: source.seed,
        heads: source.heads,
      });
    }
    return this.useModel(model);
  }

  /** Uses the model of a checkpoint folder (or file) snapshot. */
  configureSnapshot(snapshot: CheckpointSnapshot, seed?: number): ModelInfo {
    return this.useModel(loadSnapshot(snapshot, seed));
  }

  private useModel(model: AttentionModel): ModelInfo {
    this.model = model;
    this.lastRun = undefined;
    if (!this.tokenizer || !sameTokenizer(this.tokenizer.choice, model.tokenizer)) this.tokenizer = undefined;
    return model.info;
  }

  async run(request: RunRequest, ctx: SessionContext = {}): Promise<RunResult> {
    const model = this.requireModel();
    const started = Date.now();
    const tokens = request.ids ? await this.tokensFromIds(request.ids) : await this.tokenize(request.text, request.maxTokens);
    if (tokens.length === 0) throw new MessageError(msg(ENGINE_ERRORS.noTokens));
    if (tokens.length > request.maxTokens) {
      // How long the text is (on up to TOKEN_COUNT_LIMIT tokens), for the question whether to run it anyway.
      const count = request.ids ? tokens.length : (await this.tokenize(request.text, TOKEN_COUNT_LIMIT)).length;
      const e = new MessageError(
        count > TOKEN_COUNT_LIMIT
          ? msg(ENGINE_ERRORS.tooManyTokensAtLeast, TOKEN_COUNT_LIMIT, request.maxTokens)
          : msg(ENGINE_ERRORS.tooManyTokens, count, request.maxTokens),
      );
      e.name = TOO_MANY_TOKENS;
      throw e;
    }
    if (model.info.maxPositions !== undefined && tokens.length > model.info.maxPositions) {
      throw new MessageError(msg(ENGINE_ERRORS.maxPositions, modelNameArg(model.info), model.info.maxPositions, tokens.length));
    }
    ctx.progress?.(0, msg(ENGINE_PROGRESS.running, modelNameArg(model.info), tokens.length));
    const { nLayer, nHead } = model.info;
    const T = tokens.length;
    // The forward's own progress fills the first half of a long run; the streamed summaries the rest.
    const forwardShare = 0.5;
    const forward = await model.forward(tokens, {
      attentionMask: request.attentionMask,
      causal: request.causal,
      checkpoint: ctx.checkpoint,
      progress: ctx.progress && ((f, m) => ctx.progress!(f * forwardShare, m)),
      materialiseBytes: this.options.materialiseBytes,
    });
    const runId = this.nextRunId++;
    this.lastRun = { runId, tokens, forward, nLayer, nHead, T };
    const thumbSize = Math.min(T, request.thumbnailSize ?? DEFAULT_THUMBNAIL_SIZE);
    const count = nLayer * nHead;
    const summaries = forward.attentions
      ? { thumbnails: thumbnails(forward.attentions, count, T, thumbSize), headEntropy: meanRowEntropy(forward.attentions, count, T) }
      : await streamHeadSummaries((l, h, r0, r1, out) => forward.headAttentionRows(l, h, r0, r1, out), nLayer, nHead, T, thumbSize, {
          blockBytes: this.options.streamBlockBytes,
          checkpoint: ctx.checkpoint,
          progress: ctx.progress && ((f, m) => ctx.progress!(forwardShare + f * (1 - forwardShare), m)),
        });
    const inline = forward.attentions !== undefined && count * T * T * 4 <= INLINE_ATTENTION_BYTES;
    return {
      runId,
      model: model.info,
      tokens,
      nLayer,
      nHead,
      seqLen: T,
      causal: forward.causal,
      thumbnails: { size: thumbSize, data: summaries.thumbnails },
      headEntropy: summaries.headEntropy,
      // A copy, so that transferring it does not detach the run the session keeps.
      attentions: inline ? forward.attentions!.slice() : undefined,
      ...(model.info.kvHeads ? { kvHeads: [...model.info.kvHeads] } : {}),
      elapsedMs: Date.now() - started,
    };
  }

  /**
   * One head's weights of the last run: query rows [rowStart, rowEnd) (default all) over every key, or
   * with `downsample` their block means in at most downsample × downsample cells. Synchronous (the CLI);
   * the worker uses attentionCancellable.
   */
  attention(request: AttentionRequest): AttentionResult {
    const view = this.attentionView(request);
    for (let step = view.next(); ; step = view.next()) if (step.done) return step.value;
  }

  /** The same as attention(), checking for cancellation between blocks of rows. */
  async attentionCancellable(request: AttentionRequest, ctx: SessionContext = {}): Promise<AttentionResult> {
    const view = this.attentionView(request);
    for (let step = view.next(); ; step = view.next()) {
      if (step.done) return step.value;
      await ctx.checkpoint?.();
    }
  }

  /** Computes a view block by block, yielding between blocks. */
  private *attentionView({ runId, layer, head, rowStart, rowEnd, downsample }: AttentionRequest): Generator<void, AttentionResult> {
    const run = this.requireRun(runId);
    checkHead(run, layer, head);
    const { T, forward } = run;
    const r0 = rowStart ?? 0;
    const r1 = rowEnd ?? T;
    checkRowRange(r0, r1, T, `layer ${layer} head ${head}`);
    if (downsample !== undefined && (!Number.isInteger(downsample) || downsample < 1 || downsample > MAX_DOWNSAMPLE_SIDE)) {
      throw new Error(`downsample must be an integer in 1..${MAX_DOWNSAMPLE_SIDE} (the largest side of the view), got ${downsample}`);
    }
    const R = r1 - r0;
    const block = downsample === undefined ? 1 : blockFor(R, T, downsample);
    if (block === 1 && R * T > MAX_ATTENTION_RESULT_WEIGHTS) {
      throw new Error(
        `layer ${layer} head ${head}: rows ${r0}..${r1} hold ${R} × ${T} = ${R * T} weights, more than the ${MAX_ATTENTION_RESULT_WEIGHTS} one answer may hold; ask for fewer rows or a downsampled view`,
      );
    }
    const head0 = (layer * run.nHead + head) * T * T;
    // Rows a..b: a view of the materialised weights, or computed into `out`.
    const rowsOf = (a: number, b: number, out: Float32Array): Float32Array =>
      forward.attentions ? forward.attentions.subarray(head0 + a * T, head0 + b * T) : forward.headAttentionRows(layer, head, a, b, out);
    const step = blockRows(T, this.options.streamBlockBytes ?? STREAM_BLOCK_BYTES);
    const meta = { seqLen: T, rowStart: r0, rowEnd: r1, block };
    if (block === 1) {
      // Fresh memory (never a view of the run's weights), so that transferring it does not detach what the session keeps.
      const data = new Float32Array(R * T);
      for (let a = r0; a < r1; a += step) {
        const b = Math.min(r1, a + step);
        const target = data.subarray((a - r0) * T, (b - r0) * T);
        const rows = rowsOf(a, b, target);
        if (rows.buffer !== target.buffer || rows.byteOffset !== target.byteOffset) target.set(rows);
        if (b < r1) yield;
      }
      return { data, rows: R, cols: T, ...meta };
    }
    const averager = new BlockAverager(r0, r1, T, block);
    // Blocks of whole cell rows, computed into one reused buffer.
    const rowsPerStep = Math.max(block, Math.floor(step / block) * block);
    const scratch = new Float32Array(Math.min(rowsPerStep, R) * T);
    for (let a = r0; a < r1; a += rowsPerStep) {
      const b = Math.min(r1, a + rowsPerStep);
      averager.add(rowsOf(a, b, scratch), a, b - a);
      if (b < r1) yield;
    }
    return { data: averager.result(), rows: averager.rows, cols: averager.cols, ...meta };
  }

  /** The step-by-step computation of one head of the last run, with the debugger's switches. */
  trace({ runId, layer, head, options }: { runId: number; layer: number; head: number; options: TraceOptions }): AttentionTrace {
    const run = this.requireRun(runId);
    checkHead(run, layer, head);
    if (run.T * run.T > MAX_TRACE_CELLS) {
      const most = Math.floor(Math.sqrt(MAX_TRACE_CELLS));
      throw new MessageError(msg(ENGINE_ERRORS.traceTooLong, most, run.T));
    }
    const inputs = run.forward.headInputs(layer, head);
    const { q, k, v, traceOptions } = modelTraceInputs(inputs, options, run.T);
    return traceAttention(q, k, v, traceOptions);
  }

  private requireModel(): AttentionModel {
    if (!this.model) throw new MessageError(msg(ENGINE_ERRORS.noModel));
    return this.model;
  }

  private requireRun(runId: number): HeldRun {
    if (!this.lastRun || this.lastRun.runId !== runId) {
      const e = new MessageError(msg(ENGINE_ERRORS.staleRun));
      e.name = STALE_RUN;
      throw e;
    }
    return this.lastRun;
  }

  private async getTokenizer(): Promise<Tokenizer> {
    const choice = this.requireModel().tokenizer;
    if (!this.tokenizer || !sameTokenizer(this.tokenizer.choice, choice)) {
      const spec = choice.kind === 'tokenizer-json' ? { kind: 'tokenizer-json' as const, json: choice.json } : choice;
      this.tokenizer = { choice, tokenizer: await createTokenizer(spec) };
    }
    return this.tokenizer.tokenizer;
  }

  private async tokenize(text: string, maxTokens: number): Promise<TokenInfo[]> {
    const tokenizer = await this.getTokenizer();
    // One past the limit is enough to know the text is too long, without tokenizing all of a huge selection.
    return tokenizer.encode(text, { maxTokens: maxTokens + 1 }).map((t) => ({
      text: t.text,
      display: t.display,
      start: t.start,
      end: t.end,
      ...(t.id !== undefined ? { id: t.id } : {}),
      ...(t.special ? { special: true } : {}),
    }));
  }

  private async tokensFromIds(ids: number[]): Promise<TokenInfo[]> {
    const model = this.requireModel();
    for (const id of ids) {
      if (!Number.isInteger(id) || id < 0 || (model.info.vocabSize !== undefined && id >= model.info.vocabSize)) {
        throw new MessageError(msg(ENGINE_ERRORS.idOutsideVocabulary, id, modelNameArg(model.info), (model.info.vocabSize ?? Infinity) - 1));
      }
    }
    let displays: string[] | undefined;
    if (model.tokenizer.kind !== 'words') {
      try {
        displays = (await this.getTokenizer()).decodeForDisplay?.(ids);
      } catch {
        // ids valid for the model but not for the tokenizer, or a tokenizer.json this build cannot read
        // (ids need no tokenizer): show the numbers
        displays = undefined;
      }
    }
    return ids.map((id, i) => {
      const display = displays?.[i] ?? `#${id}`;
      return { text: display, display, start: 0, end: 0, id };
    });
  }
}

/**
 * The trace of one head with the model's own steps filled in where the request leaves them to the model:
 *   rope     RoPE models: the trace gets q and k before the rotation and rotates them itself (a step with a
 *            switch: {apply: false} shows the scores without positions); invFreq comes from the model
 *   scale    {kind: 'model'} (or no choice, when the model's scale is not 1/√d_k) → the model's real scale
 *   softcap  the model's attention soft-cap unless the request says null (off) or gives its own
 *   mask     no mask choice → the model's: causal, its sliding window, its padded keys
 */
export function modelTraceInputs(inputs: HeadInputs, options: TraceOptions, T: number): { q: Tensor; k: Tensor; v: Tensor; traceOptions: TraceOptions } {
  const o: TraceOptions = { ...options };
  let { q, k } = inputs;
  if (!inputs.unrotated || !inputs.ropeInvFreq) {
    // Nothing to rotate: "off" is what happens anyway; "on" cannot be honoured.
    if (options.rope?.apply) throw new Error('this model has no rotary position embeddings (RoPE) to switch on');
    delete o.rope;
  }
  if (inputs.unrotated && inputs.ropeInvFreq) {
    q = inputs.unrotated.q;
    k = inputs.unrotated.k;
    o.rope = { apply: options.rope?.apply ?? true, invFreq: inputs.ropeInvFreq };
  }
  const dk = inputs.q.shape[1];
  if (dk === undefined) throw new Error(`model trace: the query tensor has shape [${inputs.q.shape.join(', ')}], expected [T, d_k]`);
  if (options.scale?.kind === 'model' || (options.scale === undefined && Math.abs(inputs.scale - 1 / Math.sqrt(dk)) > 1e-12))
    o.scale = { kind: 'model', value: inputs.scale };
  if (options.softcap === undefined && inputs.softcap !== undefined) o.softcap = inputs.softcap;
  if (options.mask === undefined) {
    const m = inputs.mask;
    const masks: MaskChoice[] = [];
    if (m.causal || m.window !== undefined) masks.push({ kind: 'causal', align: 'top-left' });
    if (m.window !== undefined) masks.push({ kind: 'sliding-window', size: m.window });
    if (m.keyPadding) {
      masks.push({ kind: 'explicit', mask: { data: m.keyPadding.slice(), shape: [1, T], dtype: 'bool' }, trueMeans: 'attend' });
      if (o.paddedKeys === undefined) o.paddedKeys = [...m.keyPadding.keys()].filter((j) => m.keyPadding![j] === 0);
    }
    if (masks.length > 0) o.mask = masks;
  }
  return { q, k, v: inputs.v, traceOptions: o };
}

function sameTokenizer(a: TokenizerChoice, b: TokenizerChoice): boolean {
  return a.kind === b.kind && (a.kind !== 'tokenizer-json' || a.json === (b as { json: string }).json);
}

function checkHead(run: HeldRun, layer: number, head: number): void {
  if (!Number.isInteger(layer) || layer < 0 || layer >= run.nLayer || !Number.isInteger(head) || head < 0 || head >= run.nHead) {
    throw new MessageError(msg(ENGINE_ERRORS.noSuchHead, layer, head, run.nLayer, run.nHead));
  }
}

/**
 * Area-averaged thumbnails: maps (count, T, T) weights to (count, size, size); thumbnail cell (a, b)
 * is the mean of the weights whose row falls in band a and column in band b. size == T copies.
 */
export function thumbnails(attn: Float32Array, count: number, T: number, size: number): Float32Array {
  const out = new Float32Array(count * size * size);
  for (let h = 0; h < count; h++) {
    const acc = new ThumbnailAccumulator(T, size);
    acc.add(attn, 0, T, h * T * T);
    acc.writeTo(out, h * size * size);
  }
  return out;
}

/** Mean over query rows of each head's row entropy in nats: (count,). NaN rows are skipped. */
export function meanRowEntropy(attn: Float32Array, count: number, T: number): Float32Array {
  const out = new Float32Array(count);
  for (let h = 0; h < count; h++) {
    const acc = new RowEntropyAccumulator(T);
    acc.add(attn, T, h * T * T);
    out[h] = acc.mean;
  }
  return out;
}
