// Engine errors the editor translates (src/protocol/engine-errors.ts): what the session really throws is a
// MessageError whose parts are its template with the right arguments, and whose message (what the CLI and the
// logs show) is exactly those parts rendered in English. (Every error template's translations are checked in
// test/unit/session/error-templates.test.ts.)
import { strict as assert } from 'node:assert';
import { InspectSession } from '../../../src/models/session';
import { ENGINE_ERRORS, TOKEN_COUNT_LIMIT } from '../../../src/protocol/engine-errors';
import { messagePartsOf, renderMessage, type MessageParts } from '../../../src/protocol/message';

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the engine to refuse');
}

/** The parts of an error, checked to render to its message. */
function partsOf(e: unknown): MessageParts | undefined {
  const parts = messagePartsOf(e);
  if (parts) assert.equal(renderMessage(parts), (e as Error).message);
  return parts;
}

describe('engine errors as templates the host translates', () => {
  it('throws what the session refuses as a template with its arguments', async () => {
    const session = new InspectSession();
    assert.deepEqual(partsOf(await rejection(session.run({ text: 'a b', maxTokens: 8 }))), { template: ENGINE_ERRORS.noModel, args: [] });
    await session.configure({ kind: 'seeded', seed: 1, heads: 2, dModel: 16 });
    assert.deepEqual(partsOf(await rejection(session.run({ text: ' \n ', maxTokens: 8 }))), { template: ENGINE_ERRORS.noTokens, args: [] });
    const tooMany = await rejection(session.run({ text: 'word '.repeat(20), maxTokens: 8 }));
    assert.deepEqual(partsOf(tooMany), { template: ENGINE_ERRORS.tooManyTokens, args: [20, 8] });
    assert.equal((tooMany as Error).message, 'the text has 20 tokens; the limit is 8');
    assert.deepEqual(partsOf(await rejection(session.run({ text: 'w '.repeat(TOKEN_COUNT_LIMIT + 5), maxTokens: 8 }))), {
      template: ENGINE_ERRORS.tooManyTokensAtLeast,
      args: [TOKEN_COUNT_LIMIT, 8],
    });
    const run = await session.run({ text: 'a b c', maxTokens: 8 });
    assert.throws(
      () => session.attention({ runId: run.runId, layer: 3, head: 0 }),
      (e: Error) => {
        assert.deepEqual(partsOf(e), { template: ENGINE_ERRORS.noSuchHead, args: [3, 0, 1, 2] });
        assert.equal(e.message, 'no layer 3, head 0: the model has 1 layer(s) × 2 head(s)');
        return true;
      },
    );
    await session.run({ text: 'd e', maxTokens: 8 });
    assert.throws(
      () => session.attention({ runId: run.runId, layer: 0, head: 0 }),
      (e: Error) => partsOf(e)?.template === ENGINE_ERRORS.staleRun && e.name === 'StaleRunError',
    );
  });
});
