// `npm run lint:unseen`: lints the unseen set (test/lint-unseen, see its README) with today's linter and prints
// the aggregates only: the regression batches (1, 2 and the exposed 13-15, 17, 18, 20-22, 24-29, 31-33) together, then the unseen
// batches (3 to 12, 16, 19, 23, 30) each alone, with batches 3 + 4 after batch 4, 3 + 4 + 5 after batch 5, ..., and the whole
// unseen group after its last batch (overall
// precision, recall and F1; per-rule precision and recall; counts by class). It never prints which cases were
// missed: a batch stays unseen only as long as nobody tuning the rules reads its misses.
// A batch marked `alone` (today batches 35 and 36, gathered in parallel in session 39, and batch 37, gathered after them;
// batch 30 was, in session 37, and batches 32 and 33 in session 38) is printed on its own, after the combined lines, until
// it joins the measure or goes to the regression group.
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
