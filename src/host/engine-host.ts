// The host's handle on the engine worker: one lazily started worker, the model it should hold, and
// typed requests. When the worker had to be replaced, the model is configured again before the next
// request, so callers never see a worker that lost its state.
import * as vscode from 'vscode';
import type { EngineRequests, EngineWorkerData, ModelInfo, ModelSource } from '../protocol/engine';
import { EngineClient, type RequestOptions } from '../worker/client';

export class EngineHost implements vscode.Disposable {
  private client: EngineClient | undefined;
  private source: ModelSource;
  /** The model the current worker holds, and for which worker generation. */
  private configured: { generation: number; source: ModelSource; info: ModelInfo } | undefined;
  private readonly modelChanged = new vscode.EventEmitter<ModelInfo | undefined>();
  /** Fires when the model changes (loaded, reset to seeded) or is lost. */
  readonly onDidChangeModel = this.modelChanged.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    initialSource: ModelSource,
    private kernel: EngineWorkerData['kernel'],
  ) {
    this.source = initialSource;
  }

  get modelSource(): ModelSource {
    return this.source;
  }

  get modelInfo(): ModelInfo | undefined {
    return this.configured?.info;
  }

  /** Chooses the model for the next requests; it is loaded on the next `ensureModel`. */
  setModelSource(source: ModelSource): void {
    this.source = source;
    this.configured = undefined;
    this.modelChanged.fire(undefined);
  }

  /** A new kernel preference needs a fresh worker. */
  setKernel(kernel: EngineWorkerData['kernel']): void {
    if (kernel === this.kernel) return;
    this.kernel = kernel;
    this.client?.dispose();
    this.client = undefined;
    this.configured = undefined;
  }

  /** Makes sure the worker holds the chosen model; returns its description. */
  async ensureModel(opts: RequestOptions = {}): Promise<ModelInfo> {
    const client = this.getClient();
    if (this.configured && this.configured.generation === client.generation && this.configured.source === this.source && client.running) {
      return this.configured.info;
    }
    const source = this.source;
    // File bytes are transferred, so send a copy: the source may be configured again after a restart.
    const payload: ModelSource = source.kind === 'file' && source.bytes ? { ...source, bytes: new Uint8Array(source.bytes) } : source;
    const transfer = payload.kind === 'file' && payload.bytes ? [payload.bytes.buffer as ArrayBuffer] : [];
    const info = await client.request('configureModel', payload, { ...opts, transfer, timeoutMs: 600_000 });
    this.configured = { generation: client.generation, source, info };
    this.modelChanged.fire(info);
    return info;
  }

  async request<K extends keyof EngineRequests>(type: K, payload: EngineRequests[K][0], opts: RequestOptions = {}): Promise<EngineRequests[K][1]> {
    await this.ensureModel(opts);
    return this.getClient().request(type, payload, opts);
  }

  dispose(): void {
    this.client?.dispose();
    this.client = undefined;
    this.modelChanged.dispose();
  }

  private getClient(): EngineClient {
    if (!this.client) {
      const workerData: EngineWorkerData = { kernel: this.kernel };
      this.client = new EngineClient({
        workerPath: vscode.Uri.joinPath(this.extensionUri, 'dist', 'worker.js').fsPath,
        workerData,
        onRestart: (reason) => {
          this.configured = undefined;
          void vscode.window.showWarningMessage(vscode.l10n.t('Attention Inspector: {0}. The model will be loaded again on the next request.', reason));
        },
      });
    }
    return this.client;
  }
}
