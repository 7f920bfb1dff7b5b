// Typed access to the attentionInspector.* settings (declared in package.json).
import * as vscode from 'vscode';

export interface InspectorSettings {
  seed: number;
  heads: number;
  dModel: number;
  causal: boolean;
  maxTokens: number;
  kernel: 'auto' | 'wasm-simd' | 'ts';
}

export function readSettings(): InspectorSettings {
  const c = vscode.workspace.getConfiguration('attentionInspector');
  return {
    seed: c.get<number>('seed', 0),
    heads: c.get<number>('heads', 4),
    dModel: c.get<number>('dModel', 64),
    causal: c.get<boolean>('causal', false),
    maxTokens: c.get<number>('maxTokens', 512),
    kernel: c.get<'auto' | 'wasm-simd' | 'ts'>('kernel', 'auto'),
  };
}
