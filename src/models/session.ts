// An inspection session: the chosen model and its tokenizer, and the last run's results. It turns text
// into a RunResult (tokens, per-head thumbnails, all weights when small) and answers the panel's follow-up
// questions (one head's full weights, a step trace with the debugger's switches). Pure: the worker and
// the CLI wrap it; neither the session nor the models touch files.
import { entropyNats, traceAttention, type AttentionTrace, type TraceOptions } from '../engine';
import type { AttentionRequest, AttentionResult, ModelInfo, ModelSource, RunRequest, RunResult, TokenInfo } from '../protocol/engine';
import { STALE_RUN, TOO_MANY_TOKENS } from '../protocol/engine';
import { createTokenizer, type Tokenizer } from '../tokenize';
import { readTensors } from '../weights';
import { loadModel } from './index';
import { createSeededModel } from './seeded-model';
import type { AttentionModel, ForwardResult, TokenizerChoice } from './types';

/** How the session loads a checkpoint: bytes → model (src/models' family detection). */
export type ModelLoader = (bytes: Uint8Array, opts: { fileName: string; configJson?: string; tokenizerJson?: string; seed?: number }) => Promise<AttentionModel>;

/** The usual loader: any supported weight format, then family detection. */
export const loadCheckpoint: ModelLoader = async (bytes, opts) => loadModel(await readTensors(bytes, opts.fileName), opts);

export interface SessionContext {
  checkpoint?: () => Promise<void>;
  progress?: (fraction: number, message: string) => void;
}

/** Full weights are sent with the run when they fit in this many bytes; else the panel asks per head. */
export const INLINE_ATTENTION_BYTES = 16 * 1024 * 1024;
export const DEFAULT_THUMBNAIL_SIZE = 48;

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

  constructor(private readonly loadCheckpoint?: ModelLoader) {}

  get modelInfo(): ModelInfo | undefined {
    return this.model?.info;
  }

  async configure(source: ModelSource): Promise<ModelInfo> {
    let model: AttentionModel;
    if (source.kind === 'seeded') {
      model = createSeededModel(source);
    } else {
      if (!source.bytes) throw new Error(`${source.fileName}: no file contents reached the engine`);
      if (!this.loadCheckpoint) throw new Error('this session cannot load checkpoints');
      model = await this.loadCheckpoint(source.bytes, { fileName: source.fileName, configJson: source.configJson, tokenizerJson: source.tokenizerJson, seed: source.seed });
    }
    this.model = model;
    this.lastRun = undefined;
    if (!this.tokenizer || !sameTokenizer(this.tokenizer.choice, model.tokenizer)) this.tokenizer = undefined;
    return model.info;
  }

  async run(request: RunRequest, ctx: SessionContext = {}): Promise<RunResult> {
    const model = this.requireModel();
    const started = Date.now();
    const tokens = request.ids ? await this.tokensFromIds(request.ids) : await this.tokenize(request.text, request.maxTokens);
    if (tokens.length === 0) throw new Error('there is nothing to inspect: the text has no tokens');
    if (tokens.length > request.maxTokens) {
      const e = new Error(`the text has ${request.ids ? tokens.length : `more than ${request.maxTokens}`} tokens; the limit is ${request.maxTokens}`);
      e.name = TOO_MANY_TOKENS;
      throw e;
    }
    if (model.info.maxPositions !== undefined && tokens.length > model.info.maxPositions) {
      throw new Error(`${model.info.name} takes at most ${model.info.maxPositions} tokens; the text has ${tokens.length}`);
    }
    ctx.progress?.(0, `running ${model.info.name} on ${tokens.length} tokens`);
    const forward = await model.forward(tokens, {
      attentionMask: request.attentionMask,
      causal: request.causal,
      checkpoint: ctx.checkpoint,
      progress: ctx.progress,
    });
    const { nLayer, nHead } = model.info;
    const T = tokens.length;
    const runId = this.nextRunId++;
    this.lastRun = { runId, tokens, forward, nLayer, nHead, T };
    const thumbSize = Math.min(T, request.thumbnailSize ?? DEFAULT_THUMBNAIL_SIZE);
    const inline = nLayer * nHead * T * T * 4 <= INLINE_ATTENTION_BYTES;
    return {
      runId,
      model: model.info,
      tokens,
      nLayer,
      nHead,
      seqLen: T,
      thumbnails: { size: thumbSize, data: thumbnails(forward.attentions, nLayer * nHead, T, thumbSize) },
      headEntropy: meanRowEntropy(forward.attentions, nLayer * nHead, T),
      // A copy, so that transferring it does not detach the run the session keeps.
      attentions: inline ? forward.attentions.slice() : undefined,
      elapsedMs: Date.now() - started,
    };
  }

  /** One head's (T, T) weights of the last run. */
  attention({ runId, layer, head }: AttentionRequest): AttentionResult {
    const run = this.requireRun(runId);
    checkHead(run, layer, head);
    const { T } = run;
    const offset = (layer * run.nHead + head) * T * T;
    return { data: run.forward.attentions.slice(offset, offset + T * T), seqLen: T };
  }

  /** The step-by-step computation of one head of the last run, with the debugger's switches. */
  trace({ runId, layer, head, options }: { runId: number; layer: number; head: number; options: TraceOptions }): AttentionTrace {
    const run = this.requireRun(runId);
    checkHead(run, layer, head);
    const { q, k, v } = run.forward.headInputs(layer, head);
    return traceAttention(q, k, v, options);
  }

  private requireModel(): AttentionModel {
    if (!this.model) throw new Error('no model is configured yet');
    return this.model;
  }

  private requireRun(runId: number): HeldRun {
    if (!this.lastRun || this.lastRun.runId !== runId) {
      const e = new Error('these results are no longer held by the engine; inspect the text again');
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
        throw new Error(`token id ${id} is outside the vocabulary of ${model.info.name} (0..${(model.info.vocabSize ?? Infinity) - 1})`);
      }
    }
    let displays: string[] | undefined;
    if (model.tokenizer.kind !== 'words') {
      const tokenizer = await this.getTokenizer();
      try {
        displays = tokenizer.decodeForDisplay?.(ids);
      } catch {
        displays = undefined; // ids valid for the model but not for the tokenizer: show the numbers
      }
    }
    return ids.map((id, i) => {
      const display = displays?.[i] ?? `#${id}`;
      return { text: display, display, start: 0, end: 0, id };
    });
  }
}

function sameTokenizer(a: TokenizerChoice, b: TokenizerChoice): boolean {
  return a.kind === b.kind && (a.kind !== 'tokenizer-json' || a.json === (b as { json: string }).json);
}

function checkHead(run: HeldRun, layer: number, head: number): void {
  if (!Number.isInteger(layer) || layer < 0 || layer >= run.nLayer || !Number.isInteger(head) || head < 0 || head >= run.nHead) {
    throw new Error(`no layer ${layer}, head ${head}: the model has ${run.nLayer} layer(s) × ${run.nHead} head(s)`);
  }
}

/**
 * Area-averaged thumbnails: maps (count, T, T) weights to (count, size, size); thumbnail cell (a, b)
 * is the mean of the weights whose row falls in band a and column in band b. size == T copies.
 */
export function thumbnails(attn: Float32Array, count: number, T: number, size: number): Float32Array {
  const out = new Float32Array(count * size * size);
  const band = (i: number) => Math.min(size - 1, Math.floor((i * size) / T));
  const cells = new Float32Array(size * size);
  const bandCount = new Float32Array(size);
  for (let i = 0; i < T; i++) bandCount[band(i)]++;
  for (let a = 0; a < size; a++) for (let b = 0; b < size; b++) cells[a * size + b] = bandCount[a] * bandCount[b];
  for (let h = 0; h < count; h++) {
    const src = h * T * T;
    const dst = h * size * size;
    for (let i = 0; i < T; i++) {
      const rowBase = dst + band(i) * size;
      for (let j = 0; j < T; j++) out[rowBase + band(j)] += attn[src + i * T + j];
    }
    for (let c = 0; c < size * size; c++) out[dst + c] /= cells[c];
  }
  return out;
}

/** Mean over query rows of each head's row entropy in nats: (count,). NaN rows are skipped. */
export function meanRowEntropy(attn: Float32Array, count: number, T: number): Float32Array {
  const out = new Float32Array(count);
  for (let h = 0; h < count; h++) {
    let sum = 0;
    let n = 0;
    for (let i = 0; i < T; i++) {
      const start = (h * T + i) * T;
      const e = entropyNats(attn, start, start + T);
      if (Number.isFinite(e)) {
        sum += e;
        n++;
      }
    }
    out[h] = n ? sum / n : NaN;
  }
  return out;
}
