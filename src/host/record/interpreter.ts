// Which Python runs a recording: the Python extension's active environment for the file's folder when that
// extension is installed, else the setting attentionInspector.python, else python3. We talk to the Python
// extension's public API (what the npm package @vscode/python-extension wraps) without adding that package.
import { execFile } from 'node:child_process';
import * as vscode from 'vscode';

export interface Interpreter {
  path: string;
  /** Where the choice came from, for messages. */
  from: string;
}

interface PythonEnvironmentsApi {
  getActiveEnvironmentPath(resource?: vscode.Uri): { path: string };
  resolveEnvironment(env: { path: string }): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
}

export async function resolveInterpreter(resource: vscode.Uri | undefined): Promise<Interpreter> {
  const ext = vscode.extensions.getExtension<{ environments?: PythonEnvironmentsApi }>('ms-python.python');
  if (ext) {
    try {
      const api = ext.isActive ? ext.exports : await ext.activate();
      const envs = api?.environments;
      if (envs) {
        const active = envs.getActiveEnvironmentPath(resource);
        const resolved = await envs.resolveEnvironment(active);
        const exe = resolved?.executable?.uri?.fsPath;
        if (exe) return { path: exe, from: vscode.l10n.t('the Python extension’s active environment') };
      }
    } catch {
      // fall through to the setting
    }
  }
  const setting = vscode.workspace.getConfiguration('attentionInspector', resource).get<string>('python', '').trim();
  if (setting) return { path: setting, from: vscode.l10n.t('the setting attentionInspector.python') };
  return { path: process.platform === 'win32' ? 'python' : 'python3', from: vscode.l10n.t('the default') };
}

/** torch.__version__ of an interpreter, or an Error saying why it cannot import torch. */
export function torchVersion(python: string): Promise<string | Error> {
  return new Promise((resolve) => {
    execFile(python, ['-c', 'import torch; print(torch.__version__)'], { timeout: 120_000 }, (err, stdout, stderr) => {
      if (err) resolve(new Error((stderr || err.message).trim().split('\n').pop() ?? err.message));
      else resolve(stdout.trim());
    });
  });
}

/** Asks for an interpreter file and stores it in the workspace's attentionInspector.python. */
export async function pickInterpreter(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: vscode.l10n.t('Use this Python'),
    title: vscode.l10n.t('Python interpreter with PyTorch'),
  });
  const path = picked?.[0]?.fsPath;
  if (!path) return undefined;
  await vscode.workspace.getConfiguration('attentionInspector').update('python', path, vscode.ConfigurationTarget.Workspace);
  return path;
}
