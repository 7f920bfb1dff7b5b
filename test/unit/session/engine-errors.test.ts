// Engine errors the editor translates (src/protocol/engine-errors.ts): what the session really throws is
// recognised as its template with the right arguments, every template has a zh-cn translation with the same
// placeholders, and a message that is none of them is left alone.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InspectSession } from '../../../src/models/session';
import { ENGINE_ERRORS, engineErrorMessage, matchEngineError, TOKEN_COUNT_LIMIT } from '../../../src/protocol/engine-errors';

const root = join(__dirname, '..', '..', '..');
const bundle = (name: string) => JSON.parse(readFileSync(join(root, 'l10n', name), 'utf8')) as Record<string, string>;
const placeholders = (s: string) => [...new Set([...s.matchAll(/\{(\d+)\}/g)].map((m) => m[1]))].sort().join(',');

async function rejection(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the engine to refuse');
}

describe('engine errors as templates the host translates', () => {
  it('recognises what the session throws, with its arguments', async () => {
    const session = new InspectSession();
    assert.deepEqual(matchEngineError(await rejection(session.run({ text: 'a b', maxTokens: 8 }))), { template: ENGINE_ERRORS.noModel, args: [] });
    await session.configure({ kind: 'seeded', seed: 1, heads: 2, dModel: 16 });
    assert.deepEqual(matchEngineError(await rejection(session.run({ text: ' \n ', maxTokens: 8 }))), { template: ENGINE_ERRORS.noTokens, args: [] });
    assert.deepEqual(matchEngineError(await rejection(session.run({ text: 'word '.repeat(20), maxTokens: 8 }))), {
      template: ENGINE_ERRORS.tooManyTokens,
      args: ['20', '8'],
    });
    assert.deepEqual(matchEngineError(await rejection(session.run({ text: 'w '.repeat(TOKEN_COUNT_LIMIT + 5), maxTokens: 8 }))), {
      template: ENGINE_ERRORS.tooManyTokensAtLeast,
      args: [String(TOKEN_COUNT_LIMIT), '8'],
    });
    const run = await session.run({ text: 'a b c', maxTokens: 8 });
    assert.throws(
      () => session.attention({ runId: run.runId, layer: 3, head: 0 }),
      (e: Error) => {
        assert.deepEqual(matchEngineError(e.message), { template: ENGINE_ERRORS.noSuchHead, args: ['3', '0', '1', '2'] });
        return true;
      },
    );
    await session.run({ text: 'd e', maxTokens: 8 });
    assert.throws(
      () => session.attention({ runId: run.runId, layer: 0, head: 0 }),
      (e: Error) => matchEngineError(e.message)?.template === ENGINE_ERRORS.staleRun,
    );
  });

  it('fills and reads back every template, a repeated placeholder included', () => {
    for (const template of Object.values(ENGINE_ERRORS)) {
      const count = Math.max(0, ...[...template.matchAll(/\{(\d+)\}/g)].map((m) => Number(m[1]) + 1));
      const args = Array.from({ length: count }, (_, i) => `arg ${i}: x`);
      assert.deepEqual(matchEngineError(engineErrorMessage(template, ...args)), { template, args });
    }
    assert.equal(matchEngineError('model.safetensors: header length 99 is beyond the file'), undefined);
    assert.equal(matchEngineError(`${ENGINE_ERRORS.noModel} (and more)`), undefined);
  });

  it('has every template in the English and zh-cn bundles, with the same placeholders', () => {
    const en = bundle('bundle.l10n.json');
    const zh = bundle('bundle.l10n.zh-cn.json');
    for (const template of Object.values(ENGINE_ERRORS)) {
      assert.equal(en[template], template);
      assert.ok(zh[template], `no zh-cn translation of ${JSON.stringify(template)}`);
      assert.equal(placeholders(zh[template]), placeholders(template));
    }
  });
});
