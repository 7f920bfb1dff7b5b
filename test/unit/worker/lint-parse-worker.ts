// Worker thread for lint-direct-cursor.test.ts: parses the given sources with the direct cursor and with the
// public TreeCursor. A thread of its own loads web-tree-sitter afresh, so the parser is the first to start
// the runtime (in the test process another test may have started it, and then only the public cursor is
// available there: web-tree-sitter keeps the first runtime for the whole process).
import { parentPort, workerData } from 'node:worker_threads';
import { createPythonParser } from '../../../src/lint/parser';
import { parentsConsistent, shape } from './lint-tree-shape';

export interface ParseCompareRequest {
  grammar: { treeSitter: Uint8Array; python: Uint8Array };
  sources: { name: string; source: string }[];
}

export interface ParseCompareResult {
  cursors: [string, string];
  results: { name: string; full: boolean; direct: string; public: string; parentsOk: boolean }[];
}

async function main(): Promise<void> {
  const { grammar, sources } = workerData as ParseCompareRequest;
  const direct = await createPythonParser(grammar);
  const wrapped = await createPythonParser(grammar, { directCursor: false });
  const results: ParseCompareResult['results'] = [];
  for (const { name, source } of sources) {
    for (const full of [false, true]) {
      const a = direct.parse(source, { full });
      results.push({
        name,
        full,
        direct: JSON.stringify(shape(a)),
        public: JSON.stringify(shape(wrapped.parse(source, { full }))),
        parentsOk: parentsConsistent(a),
      });
    }
  }
  parentPort!.postMessage({ cursors: [direct.cursor, wrapped.cursor], results } satisfies ParseCompareResult);
}

void main();
