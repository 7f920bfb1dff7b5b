// The "Recorded Attention" view: the calls of the last recording (file:line, module path, shapes, kind), with
// runtime findings under the calls they came from. Clicking a call opens it in the panel.
import * as vscode from 'vscode';
import type { RuntimeFinding, TraceCall, TraceIndex } from '../../record';
import { localisedRuntime } from './runtime-l10n';

type Node = { kind: 'call'; call: TraceCall } | { kind: 'finding'; finding: RuntimeFinding } | { kind: 'info'; text: string };

export class RecordedCallsTree implements vscode.TreeDataProvider<Node> {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private trace: TraceIndex | undefined;
  private findings: RuntimeFinding[] = [];

  set(trace: TraceIndex | undefined, findings: RuntimeFinding[]): void {
    this.trace = trace;
    this.findings = findings;
    this.changed.fire(undefined);
  }

  getChildren(node?: Node): Node[] {
    if (!this.trace) return [];
    if (!node) {
      if (this.trace.calls.length === 0) return [{ kind: 'info', text: vscode.l10n.t('No attention calls were recorded.') }];
      return this.trace.calls.map((call) => ({ kind: 'call', call }));
    }
    if (node.kind === 'call') return this.findings.filter((f) => f.callId === node.call.id).map((finding) => ({ kind: 'finding', finding }));
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    if (node.kind === 'info') return new vscode.TreeItem(node.text);
    if (node.kind === 'finding') {
      const f = node.finding;
      const message = localisedRuntime(f.messageParts, f.message);
      const item = new vscode.TreeItem(`${f.code} ${message}`);
      item.iconPath = new vscode.ThemeIcon(f.severity === 'error' ? 'error' : 'warning');
      item.tooltip = message;
      item.command = { command: 'attentionInspector.goToRecordedSource', title: vscode.l10n.t('Go to Source'), arguments: [f.path, f.line] };
      return item;
    }
    const c = node.call;
    const frame = c.site.user ?? c.site.library;
    const where = frame ? `${frame.path.split(/[\\/]/).pop()}:${frame.line}` : `#${c.id}`;
    const has = this.findings.some((f) => f.callId === c.id);
    const item = new vscode.TreeItem(`#${c.id} ${where}`, has ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
    const shapes = Object.entries(c.shapes)
      .filter(([, s]) => s !== null)
      .slice(0, 3)
      .map(([k, s]) => `${k}[${(s as number[]).join(',')}]`)
      .join(' ');
    item.description = [c.kind, c.module, shapes, c.dtype].filter(Boolean).join('  ');
    item.tooltip = [
      `${c.kind} call #${c.id}`,
      frame ? `${frame.path}:${frame.line}` : '',
      c.site.library ? `library: ${c.site.library.path}:${c.site.library.line}` : '',
      c.module ? `module: ${c.module}` : '',
      c.test ? `test: ${c.test}` : '',
      `thread: ${c.thread}`,
    ]
      .filter(Boolean)
      .join('\n');
    item.iconPath = new vscode.ThemeIcon(has ? 'bug' : 'symbol-event');
    item.contextValue = 'recordedCall';
    item.command = { command: 'attentionInspector.openRecordedCall', title: vscode.l10n.t('Open in Panel'), arguments: [c.id] };
    return item;
  }
}
