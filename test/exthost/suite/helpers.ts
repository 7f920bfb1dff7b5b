// What the extension-host suites share: the workspace the runner prepared (a copy of examples/), the CLI's
// findings on it (the runner's oracle, EXTHOST_EXPECTED_FILE), waiting on diagnostics, settings, and fresh
// copies of example files so that each suite edits its own documents and the suites run in any order.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { ruleByCode } from '../../../src/lint/rules';
import type { RuleCode } from '../../../src/lint/types';

export const EXTENSION_ID = 'attention-inspector.attention-inspector';
export const SOURCE = 'attention-inspector';

/** The one folder the window has open: the runner's copy of examples/. */
export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test window has no folder open (the runner opens a copy of examples/)');
  return folder.uri;
}

export function workspaceFile(relativePath: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), ...relativePath.split('/'));
}

export async function readWorkspaceFile(relativePath: string): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceFile(relativePath)));
}

/**
 * Writes a copy of a workspace file under a new relative path (the folder is created) and returns it. The
 * suites edit copies only, so the example files stay as the CLI saw them.
 */
export async function copyWorkspaceFile(from: string, to: string): Promise<vscode.Uri> {
  const target = workspaceFile(to);
  await vscode.workspace.fs.writeFile(target, await vscode.workspace.fs.readFile(workspaceFile(from)));
  return target;
}

export async function openInEditor(uri: vscode.Uri): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(uri);
  return vscode.window.showTextDocument(document);
}

/** A finding as `attention-inspector lint --format json` printed it (1-based, end exclusive). */
export interface CliFinding {
  path: string;
  cell?: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  code: string;
  severity: string;
  message: string;
  /** The evidence (path relative to the workspace root; cell for another notebook cell). */
  related?: { path: string; cell?: number; line: number; column: number; endLine?: number; endColumn?: number; message: string }[];
}

/** The CLI's findings on the workspace, by relative path, as the runner recorded them before the window opened. */
export function cliFindings(): Map<string, CliFinding[]> {
  const file = process.env.EXTHOST_EXPECTED_FILE;
  assert.ok(file, 'EXTHOST_EXPECTED_FILE is not set: run these suites with `npm run test:exthost`');
  const byPath = new Map<string, CliFinding[]>();
  for (const f of JSON.parse(readFileSync(file, 'utf8')) as CliFinding[]) {
    const path = f.path.replace(/^\.\//, '');
    byPath.set(path, [...(byPath.get(path) ?? []), f]);
  }
  return byPath;
}

/** The extension's diagnostics on a file. */
export function ours(uri: vscode.Uri): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => d.source === SOURCE);
}

/** Every file that has at least one of the extension's diagnostics. */
export function allOurs(): Array<[vscode.Uri, vscode.Diagnostic[]]> {
  return vscode.languages
    .getDiagnostics()
    .map(([uri, list]) => [uri, list.filter((d) => d.source === SOURCE)] as [vscode.Uri, vscode.Diagnostic[]])
    .filter(([, list]) => list.length > 0);
}

export function codeOf(d: vscode.Diagnostic): string {
  return typeof d.code === 'object' ? String(d.code.value) : String(d.code);
}

export function describeDiagnostics(list: readonly vscode.Diagnostic[]): string {
  return JSON.stringify(
    list.map(
      (d) =>
        `${codeOf(d)} ${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1} ${vscode.DiagnosticSeverity[d.severity]}`,
    ),
  );
}

/** How long a wait may take before the test fails (the machines are small and shared). */
const WAIT_MS = Number(process.env.EXTHOST_WAIT_MS ?? 30_000);

/**
 * Polls `probe` until it returns something other than undefined; fails after WAIT_MS with `description`
 * and what `explain` says about the current state. This bounds a wait; it asserts nothing about speed.
 */
export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, description: string, explain: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${WAIT_MS} ms for ${description}; now: ${explain()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Waits until the extension's diagnostics on `uri` satisfy `accept`, and returns them. */
export function waitForDiagnostics(uri: vscode.Uri, accept: (list: vscode.Diagnostic[]) => boolean, description: string): Promise<vscode.Diagnostic[]> {
  return waitFor(
    () => {
      const list = ours(uri);
      return accept(list) ? list : undefined;
    },
    `${description} on ${vscode.workspace.asRelativePath(uri)}`,
    () => describeDiagnostics(ours(uri)),
  );
}

export const hasCodes =
  (...codes: string[]) =>
  (list: vscode.Diagnostic[]) =>
    codes.every((c) => list.some((d) => codeOf(d) === c));
export const lacksCode = (code: string) => (list: vscode.Diagnostic[]) => !list.some((d) => codeOf(d) === code);

/** The range of the `occurrence`-th `needle` on the first line containing `lineHint`, from the text itself. */
export function rangeOf(text: string, lineHint: string, needle: string): vscode.Range {
  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes(lineHint));
  assert.ok(line >= 0, `no line contains ${JSON.stringify(lineHint)}`);
  const character = lines[line].indexOf(needle);
  assert.ok(character >= 0, `line ${line + 1} has no ${JSON.stringify(needle)}`);
  return new vscode.Range(line, character, line, character + needle.length);
}

/** The editor severity a rule's default severity maps to. */
export function defaultSeverity(code: RuleCode): vscode.DiagnosticSeverity {
  const s = ruleByCode(code).meta.severity;
  return s === 'error' ? vscode.DiagnosticSeverity.Error : s === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information;
}

const LINT_SETTINGS = ['enable', 'select', 'ignore', 'severity'] as const;

/** Changes one `attentionInspector.lint.*` user setting (undefined removes it). */
export async function setLintSetting(key: (typeof LINT_SETTINGS)[number], value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('attentionInspector.lint').update(key, value, vscode.ConfigurationTarget.Global);
}

/** Removes every `attentionInspector.lint.*` user setting (each suite starts and ends with the defaults). */
export async function resetLintSettings(): Promise<void> {
  for (const key of LINT_SETTINGS) {
    if (vscode.workspace.getConfiguration('attentionInspector.lint').inspect(key)?.globalValue !== undefined) await setLintSetting(key, undefined);
  }
}

/** Reverts and closes every editor (edits made by a suite are never saved). */
export async function closeAllEditors(): Promise<void> {
  for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Activates the extension (as opening a Python file does) and returns it. */
export async function activeExtension(): Promise<vscode.Extension<unknown>> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded in this window`);
  await extension.activate();
  return extension;
}
