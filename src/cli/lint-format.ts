// Output formats of `attention-inspector lint`: text, JSON (the array docs/DESIGN.md fixes) and SARIF 2.1.0.
// Pure functions from findings to strings.
import { NOT_ANALYSED, RULES, renderRulePage, rulePageFileName, type RelatedLocation } from '../lint';
import type { FileFinding } from '../protocol/lint-pool';
import { escapeControls } from './terminal';

/** A related location as the CLI prints it: always with a path (the finding's own when the location has none). */
interface PrintedRelated {
  path: string;
  cell?: number;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  message: string;
}

function printedRelated(f: FileFinding): PrintedRelated[] {
  return (f.related ?? []).map((r: RelatedLocation) => {
    const path = r.path ?? f.path;
    // A location in the finding's own notebook keeps the finding's cell unless it names another one.
    const cell = r.cell ?? (r.path === undefined ? f.cell : undefined);
    return {
      path,
      ...(cell !== undefined ? { cell } : {}),
      line: r.line,
      column: r.column,
      ...(r.endLine !== undefined && r.endColumn !== undefined ? { endLine: r.endLine, endColumn: r.endColumn } : {}),
      message: r.message,
    };
  });
}

/** Where rule pages live, from package.json's repository URL (…/blob/main/docs/rules/). */
export function ruleDocsBase(repositoryUrl: string | undefined): string {
  const repo = (repositoryUrl ?? '').replace(/^git\+/, '').replace(/\.git$/, '');
  return repo ? `${repo}/blob/main/docs/rules/` : 'docs/rules/';
}

/** Text for a terminal: paths and messages with control characters escaped (file names are untrusted). */
export function formatText(findings: readonly FileFinding[], filesLinted: number): string {
  const place = (path: string, cell: number | undefined, line: number, column: number): string =>
    `${escapeControls(path)}${cell !== undefined ? `[cell ${cell}]` : ''}:${line}:${column}`;
  const lines: string[] = [];
  for (const f of findings) {
    lines.push(`${place(f.path, f.cell, f.line, f.column)}: ${f.code} ${escapeControls(f.message)}`);
    // The evidence, indented under the finding.
    for (const r of printedRelated(f)) lines.push(`    ${place(r.path, r.cell, r.line, r.column)}: ${escapeControls(r.message)}`);
  }
  const files = new Set(findings.map((f) => f.path)).size;
  if (findings.length === 0) lines.push(`All checks passed (${filesLinted} ${filesLinted === 1 ? 'file' : 'files'}).`);
  else
    lines.push(
      `Found ${findings.length} ${findings.length === 1 ? 'problem' : 'problems'} in ${files} ${files === 1 ? 'file' : 'files'} (${filesLinted} linted).`,
    );
  return lines.join('\n') + '\n';
}

/**
 * JSON: an array of {path, line, column, endLine, endColumn, code, severity, message} (+ cell for notebooks), and
 * `related: [{path, line, column, endLine, endColumn, message}]` (+ cell) when the finding names its evidence.
 */
export function formatJson(findings: readonly FileFinding[]): string {
  return (
    JSON.stringify(
      findings.map((f) => ({
        path: f.path,
        ...(f.cell !== undefined ? { cell: f.cell } : {}),
        line: f.line,
        column: f.column,
        endLine: f.endLine,
        endColumn: f.endColumn,
        code: f.code,
        severity: f.severity,
        message: f.message,
        ...(f.related && f.related.length > 0 ? { related: printedRelated(f) } : {}),
      })),
      null,
      2,
    ) + '\n'
  );
}

const SARIF_LEVEL = { error: 'error', warning: 'warning', info: 'note' } as const;

/** SARIF 2.1.0 with one run; columns are UTF-16 code units (SARIF's default columnKind). */
export function formatSarif(findings: readonly FileFinding[], version: string, docsBase: string): string {
  const rules: {
    id: string;
    name: string;
    shortDescription: { text: string };
    fullDescription: { text: string };
    help: { text: string; markdown: string };
    helpUri: string;
    defaultConfiguration: { level: string };
  }[] = RULES.map((r) => ({
    id: r.meta.code,
    name: r.meta.name,
    shortDescription: { text: r.meta.docs.summary },
    fullDescription: { text: r.meta.docs.whatItDoes },
    help: { text: r.meta.docs.whyIsThisBad, markdown: renderRulePage(r) },
    helpUri: docsBase + rulePageFileName(r),
    defaultConfiguration: { level: SARIF_LEVEL[r.meta.severity] },
  }));
  // ATT000 is no rule, but SARIF results need a descriptor to point at.
  rules.push({
    id: NOT_ANALYSED,
    name: 'not-analysed',
    shortDescription: { text: 'The file, or a part of it, could not be analysed: findings there may be missing.' },
    fullDescription: { text: 'The analysis failed, the file is over a size limit, or code nests deeper than Python accepts; nothing there was checked.' },
    help: {
      text: 'Check the message for the reason. The file is never reported as clean.',
      markdown: 'Check the message for the reason. The file is never reported as clean.',
    },
    helpUri: docsBase,
    defaultConfiguration: { level: 'error' },
  });
  const results = findings.map((f) => ({
    ruleId: f.code,
    ruleIndex: rules.findIndex((r) => r.id === f.code),
    level: SARIF_LEVEL[f.severity],
    message: { text: f.cell !== undefined ? `(cell ${f.cell}) ${f.message}` : f.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: encodeURI(f.path) },
          region: { startLine: f.line, startColumn: f.column, endLine: f.endLine, endColumn: f.endColumn },
        },
        ...(f.cell !== undefined ? { properties: { notebookCell: f.cell } } : {}),
      },
    ],
    // SARIF 2.1.0 §3.27.22: the evidence, each a location with an id unique within the result and a message.
    ...(f.related && f.related.length > 0
      ? {
          relatedLocations: printedRelated(f).map((r, i) => ({
            id: i + 1,
            physicalLocation: {
              artifactLocation: { uri: encodeURI(r.path) },
              region: { startLine: r.line, startColumn: r.column, ...(r.endLine !== undefined ? { endLine: r.endLine, endColumn: r.endColumn } : {}) },
            },
            message: { text: r.message },
            ...(r.cell !== undefined ? { properties: { notebookCell: r.cell } } : {}),
          })),
        }
      : {}),
  }));
  const sarif = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'attention-inspector', informationUri: docsBase, version, rules } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(sarif, null, 2) + '\n';
}
