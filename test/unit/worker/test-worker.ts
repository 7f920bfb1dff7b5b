// A worker used only by rpc-client.test.ts: exercises the channel without the engine or the linter.
import { parentPort } from 'node:worker_threads';
import { ENGINE_PROGRESS } from '../../../src/protocol/engine-progress';
import { msg } from '../../../src/protocol/message';
import { serve } from '../../../src/worker/server';

/** The test channel's protocol: request type → [payload, result]. */
export interface TestRequests {
  echo: [unknown, unknown];
  double: [{ data: Float32Array }, { data: Float32Array }];
  /** n steps with progress and a checkpoint each; answers n. */
  steps: [{ n: number }, number];
  /** One progress report made from a template (its parts cross beside its English text); answers 'done'. */
  progressParts: [{ file: string }, string];
  /** Answers after `ms` without checking for cancellation (a slow but healthy worker). */
  sleep: [{ ms: number }, string];
  /** A synchronous loop that never checks for cancellation: a hung worker. */
  spin: [Record<string, never>, never];
  /** An uncaught exception outside the handler: the worker dies. */
  crash: [Record<string, never>, never];
  exit: [{ code: number }, never];
  fail: [Record<string, never>, never];
}

if (parentPort) {
  serve<TestRequests>(parentPort, {
    async echo(payload) {
      return { result: payload };
    },
    async double({ data }) {
      const out = data.map((x) => 2 * x);
      return { result: { data: out }, transfer: [out.buffer] };
    },
    async steps({ n }, ctx) {
      for (let i = 0; i < n; i++) {
        ctx.progress(i / n, `step ${i}`);
        await ctx.checkpoint();
        await new Promise((r) => setTimeout(r, 5));
      }
      return { result: n };
    },
    async progressParts({ file }, ctx) {
      ctx.progress(0.5, msg(ENGINE_PROGRESS.reading, file));
      return { result: 'done' };
    },
    async sleep({ ms }) {
      await new Promise((r) => setTimeout(r, ms));
      return { result: 'slept' };
    },
    async spin() {
      for (;;) {
        /* spin */
      }
    },
    async crash() {
      setImmediate(() => {
        throw new Error('boom');
      });
      return new Promise(() => {});
    },
    async exit({ code }) {
      process.exit(code);
    },
    async fail() {
      const e = new Error('bad shapes');
      e.name = 'ShapeError';
      throw e;
    },
  });
}
