// `npm run lint:unseen`: lints the unseen set (test/lint-unseen, see its README) with today's linter and prints
// the aggregates only: the regression batches (`group: 'regression'` in unseen.ts) together, then the unseen batches
// (the measure) each alone, with the first two together after the second, the first three after the third, ..., and the
// whole unseen group after its last batch (overall precision, recall and F1; per-rule precision and recall; counts by
// class). It never prints which cases were missed: a batch stays unseen only as long as nobody tuning the rules reads
// its misses. A batch marked `alone` (a session's new batches, decided before they existed) is printed on its own, after
// the combined lines, until it joins the measure or goes to the regression group.
import { createLinter } from '../../src/lint';
import { readGrammarWasm } from '../lint-corpus/load';
import { CaseWorkspace, formatUnseenBatchesReport, loadUnseenBatches, runUnseenBatches } from './unseen';

async function main(): Promise<void> {
  // Each case is a workspace of its own (a folder case's files follow each other's imports).
  const workspace = new CaseWorkspace();
  const linter = await createLinter(readGrammarWasm(), { workspace });
  console.log(formatUnseenBatchesReport(runUnseenBatches(linter, loadUnseenBatches(), workspace)));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(2);
});
