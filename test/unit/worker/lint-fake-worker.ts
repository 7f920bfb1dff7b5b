// A stand-in lint worker for lint-worker.test.ts: speaks the lint protocol but fails on demand, to exercise
// the client's crash, exit and hang handling without the parser.
import { parentPort } from 'node:worker_threads';
import type { LintRequests } from '../../../src/protocol/lint';
import { serve } from '../../../src/worker/server';

serve<Pick<LintRequests, 'lintPython'>>(parentPort!, {
  async lintPython({ source }) {
    if (source === 'crash') {
      // Thrown outside the handler (an uncaught exception), before the next message is read.
      process.nextTick(() => {
        throw new Error('boom');
      });
      return new Promise(() => {});
    }
    if (source === 'exit') process.exit(3);
    if (source === 'hang') {
      for (;;) {
        /* a lint stuck in a loop */
      }
    }
    return { result: { result: [], internalErrors: source === 'internal' ? ['rule threw'] : [] } };
  },
});
