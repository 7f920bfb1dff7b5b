// Messages between the extension host (and the CLI) and the engine worker. Request types and their
// payload/result shapes; the envelopes are in ./rpc.ts. Everything here is plain data: typed arrays
// cross as transferred buffers.
import type { AttentionTrace, TraceOptions } from '../engine/trace';
import type { Tensor } from '../engine/tensor';
import type { CallsDiagnosis, TraceIndex } from '../record';
import type { MessageParts } from './message';

/** workerData of the engine worker (dist/worker.js), read once at its start. */
export interface EngineWorkerData {
  /** The kernel preference (the attentionInspector.kernel setting). */
  kernel: 'auto' | 'wasm-simd' | 'ts';
  /** Kernel threads; default min(2, cores). Checked at run time by the worker. */
  threads?: number;
}

/** Where the model's weights come from. */
export type ModelSource =
  | { kind: 'seeded'; seed: number; heads: number; dModel: number }
  | {
      kind: 'file';
      /** Shown in messages and the status bar. */
      fileName: string;
      /** Read by the worker itself when the file is on the local disk (no copy through the host)... */
      path?: string;
      /** ...or the file's bytes, when the host had to read it (remote or virtual file systems). */
      bytes?: Uint8Array;
      /** A config.json found beside the weights (HF format), if any. */
      configJson?: string;
      /** A tokenizer.json found beside the weights (HF tokenizers format), if any. */
      tokenizerJson?: string;
      /** Seed of the embeddings a bare attention layer runs on (it has no embedding table of its own). */
      seed?: number;
      /** Heads of a bare attention layer when no config.json says (chosen by the user; the shapes cannot tell). */
      heads?: number;
    }
  | {
      /**
       * A model folder as downloaded (a HF snapshot: config.json, tokenizer.json and model.safetensors, its
       * shards with model.safetensors.index.json, or pytorch_model.bin), read by the worker from the local disk.
       */
      kind: 'folder';
      /** The folder's name, shown in messages and the status bar. */
      fileName: string;
      path: string;
      seed?: number;
    };

export type ModelFamily =
  'seeded' | 'gpt2' | 'bert' | 'attention-layer' | 'roberta' | 'xlm-roberta' | 'llama' | 'mistral' | 'qwen2' | 'qwen3' | 'gemma2' | 'gemma3' | 'phi3';

export interface ModelInfo {
  family: ModelFamily;
  /** One line for the status bar and the panel title, in English (the CLI prints it). */
  name: string;
  /** `name` as a template and arguments (src/models/model-text.ts), which the editor renders in its display language. */
  nameParts: MessageParts;
  /** A longer description (file, shapes, what was recognised), in English. */
  detail: string;
  /** `detail` as a template and arguments. */
  detailParts: MessageParts;
  nLayer: number;
  nHead: number;
  dModel: number;
  headDim: number;
  /** True when the number of heads is the default rule's guess (a bare attention layer without config.json). */
  headsAssumed?: boolean;
  /** True when the model masks the future itself (GPT-2). */
  causal: boolean;
  /** Which tokenizer turns text into ids: 'words', 'gpt2', 'tokenizer.json'. */
  tokenizer: string;
  vocabSize?: number;
  maxPositions?: number;
  /** For seeded weights: PyTorch code that draws the very same numbers. */
  pythonSnippet?: string;
  /**
   * Grouped-query attention: (nHead,) the key/value head each query head shares (query head h reads kv head
   * kvHeads[h]); absent when every head has its own keys and values.
   */
  kvHeads?: number[];
  /** Per layer: the sliding window (keys a query sees, itself included), or null for full attention. */
  layerWindows?: (number | null)[];
  /** The model rotates q and k by position (RoPE): the debugger offers the rotation as a switch. */
  rope?: boolean;
  /** The model's attention soft-cap (Gemma 2): the debugger offers it as a switch. */
  attnSoftcap?: number;
}

export interface TokenInfo {
  /** The source text of the token (verbatim, untrusted: never insert as HTML). */
  text: string;
  /** What to show (byte-level tokens made readable, e.g. "␣world" or "<0xE6>"). */
  display: string;
  /** UTF-16 offsets into the inspected text. Special tokens ([CLS]) have start == end. */
  start: number;
  end: number;
  id?: number;
  special?: boolean;
}

export interface RunRequest {
  text: string;
  /** Use these ids instead of tokenizing `text` (the CLI's --ids). */
  ids?: number[];
  /** 1 = real token, 0 = padding (BERT-style), one per token. */
  attentionMask?: number[];
  /** Add a causal mask (seeded and bare-layer models; GPT-2 is always causal). */
  causal?: boolean;
  /** Refuse (TooManyTokensError) past this many tokens. */
  maxTokens: number;
  /** Largest thumbnail side for the heads grid. */
  thumbnailSize?: number;
}

export interface RunResult {
  runId: number;
  model: ModelInfo;
  tokens: TokenInfo[];
  nLayer: number;
  nHead: number;
  /** Number of tokens (T). */
  seqLen: number;
  /** Whether the model masked the future (GPT-2, or a causal run of the seeded model or an attention layer). */
  causal: boolean;
  /** Per-head thumbnails for the grid: (nLayer, nHead, size, size), each cell the mean of the weights it covers. */
  thumbnails: { size: number; data: Float32Array };
  /** Mean row entropy (nats) per head: (nLayer, nHead). */
  headEntropy: Float32Array;
  /** Every weight, (nLayer, nHead, T, T), when it is small enough to send at once; else ask per head. */
  attentions?: Float32Array;
  /**
   * Grouped-query attention: (nHead,) the key/value head each query head shares (as model.kvHeads), so the
   * panel can show which heads read the same keys and values; absent when every head has its own.
   */
  kvHeads?: number[];
  /** Wall time of the forward pass in the worker. */
  elapsedMs: number;
  /**
   * The queries' tokens when they are not the keys (a recorded KV-cache step or cross-attention: T queries
   * against S = seqLen keys; weights are then (T, S) per head). Absent: the queries are `tokens`.
   */
  queryTokens?: TokenInfo[];
  /** A recorded call (src/record): the batch element shown, of how many, and the call shown as each layer. */
  recorded?: RecordedRunInfo;
}

export interface RecordedRunInfo {
  batch: number;
  batchSize: number;
  callIds: number[];
  /** [layer][debugger step] the user's source lines that computed the step (empty: none recorded). */
  stepSources?: RecordedSourceLine[][][];
}

/** A line of the user's code (absolute path, 1-based line and column). */
export interface RecordedSourceLine {
  path: string;
  line: number;
  column: number;
}

/**
 * One head's weights: query rows [rowStart, rowEnd) (default 0..T) over all T keys. With `downsample`, the
 * answer is at most downsample × downsample cells: each cell the mean of a block × block square of weights,
 * block = ceil(max(rows, T) / downsample) (the last row and column of cells cover what is left).
 */
export interface AttentionRequest {
  runId: number;
  layer: number;
  head: number;
  rowStart?: number;
  rowEnd?: number;
  downsample?: number;
}

export interface AttentionResult {
  /** (rows, cols) row-major, row = query: the weights, or their block means when block > 1. */
  data: Float32Array;
  /** Number of tokens (T) of the run. */
  seqLen: number;
  /** The query rows covered: [rowStart, rowEnd). */
  rowStart: number;
  rowEnd: number;
  rows: number;
  cols: number;
  /**
   * Side of the square each cell averages (1: the weights themselves). Cell (a, b) covers queries
   * rowStart + a·block … and keys b·block …, clipped at rowEnd and T.
   */
  block: number;
}

/** One head of the last run, step by step, with the debugger's switches. */
export interface TraceRequest {
  runId: number;
  layer: number;
  head: number;
  options: TraceOptions;
}

/**
 * A recorded hand-written call's own tensor at one debugger step beside the engine's reference for that step
 * (src/record/own-steps.ts): which captured tensor, its values for the head, and where the two differ.
 */
export interface OwnStep {
  /** The debugger step, 0..4 (scores, × scale, + mask, softmax, · v). */
  step: number;
  /** The captured tensor it is (scores, step_raw, step_scaled, probs, weights_used, out). */
  name: string;
  /** (rows, cols): the head's [T, S] (the output [T, dv]), or its block averages when `block` is set. */
  own: Tensor;
  block: { rows: number; cols: number } | null;
  /** Largest |own − reference| over the cells where both are finite and not masked. */
  maxAbsDiff: number;
  /** Cells that disagree (beyond the dtype's tolerance, or masked / NaN in one only), of `cells`. */
  differing: number;
  cells: number;
  /** The first disagreeing cell in row-major order (in blocks when `block` is set). */
  first: { row: number; col: number; own: number; reference: number } | null;
}

/** The debugger's trace of a recorded head, with the user's own tensors beside the reference steps. */
export type RecordedAttentionTrace = AttentionTrace & { own?: OwnStep[] };

/** Raised when the text has more tokens than `maxTokens`; `message` says how many. */
export const TOO_MANY_TOKENS = 'TooManyTokensError';
/** The name of the error a model throws when a token has no id in its vocabulary (or one out of range). */
export const NOT_IN_VOCABULARY = 'VocabularyError';
/** Raised when a run id is no longer held by the worker (replaced by a newer run, or a restarted worker). */
export const STALE_RUN = 'StaleRunError';

/** Request type → [payload, result]. */
/** A recorded trace folder (python/attention_recorder) and its validated index, for the engine worker to read. */
export interface RecordingFolderRequest {
  dir: string;
  trace: TraceIndex;
}

/**
 * Diagnoses the recorded calls from call `from` on, for about `budgetMs` of the worker's time (at least one call):
 * the host asks part after part, so that opening a call in the panel waits for one part at most.
 */
export interface RecordingDiagnoseRequest extends RecordingFolderRequest {
  from: number;
  budgetMs: number;
}

/** Opens a recorded call, with the other layers of its forward pass, as a panel run with id `runId`. */
export interface RecordingOpenRequest extends RecordingFolderRequest {
  callId: number;
  runId: number;
  /** The batch element shown. */
  batch: number;
}

export interface EngineRequests {
  configureModel: [ModelSource, ModelInfo];
  run: [RunRequest, RunResult];
  attention: [AttentionRequest, AttentionResult];
  trace: [TraceRequest, AttentionTrace];
  /** Runtime diagnostics of the next calls (calls from..to of the answer; the tensors are read in the worker). */
  recordingDiagnose: [RecordingDiagnoseRequest, CallsDiagnosis];
  recordingOpen: [RecordingOpenRequest, { run: RunResult; layer: number }];
  /** The panel's requests on the recorded run the worker holds (the last one opened). */
  recordedAttention: [AttentionRequest, AttentionResult];
  recordedTrace: [TraceRequest, RecordedAttentionTrace];
}
