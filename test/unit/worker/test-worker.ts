// A worker used only by client.test.ts: exercises the channel without the engine.
import { parentPort } from 'node:worker_threads';
import { serve } from '../../../src/worker/server';

serve(parentPort!, {
  async echo(payload) {
    return { result: payload };
  },
  async double(payload) {
    const { data } = payload as { data: Float32Array };
    const out = data.map((x) => 2 * x);
    return { result: { data: out }, transfer: [out.buffer as ArrayBuffer] };
  },
  async steps(payload, ctx) {
    const { n } = payload as { n: number };
    for (let i = 0; i < n; i++) {
      ctx.progress(i / n, `step ${i}`);
      await ctx.checkpoint();
      await new Promise((r) => setTimeout(r, 5));
    }
    return { result: n };
  },
  async spin() {
    // A synchronous loop that never checks for cancellation: a hung engine.
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
  async fail() {
    const e = new Error('bad shapes');
    e.name = 'ShapeError';
    throw e;
  },
});
