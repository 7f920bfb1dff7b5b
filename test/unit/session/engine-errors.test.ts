// Engine errors the editor translates (src/protocol/engine-errors.ts): what the session really throws is a
// MessageError whose parts are its template with the right arguments, and whose message (what the CLI and the
// logs show) is exactly those parts rendered in English. (Every error template's translations are checked in
// test/unit/l10n/error-templates.test.ts.) A model's name in an error or in the run's progress text is the
// model's own parts marked `model`, so that the editor renders it in the display language, as the rest.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InspectSession, loadCheckpoint } from '../../../src/models/session';
import { ENGINE_ERRORS, TOKEN_COUNT_LIMIT } from '../../../src/protocol/engine-errors';
import { ENGINE_PROGRESS } from '../../../src/protocol/engine-progress';
import { fillTemplate, messagePartsOf, renderMessage, type MessageParts, type TemplateDomain } from '../../../src/protocol/message';

const ROOT = join(__dirname, '..', '..', '..');
const TINY = join(ROOT, 'media', 'models', 'tiny-bilingual');
const zhBundle = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;

/** What the host does with parts in a zh-cn window: vscode.l10n.t under `<English>/<comment>`, the comment the caller's unless marked. */
function zhCn(parts: MessageParts, comment: TemplateDomain): string {
  return renderMessage(parts, (template, args, domain) => {
    const key = `${template}/${domain ?? comment}`;
    const translated = zhBundle[key];
    assert.ok(translated !== undefined, `no zh-cn entry ${JSON.stringify(key)}`);
    return fillTemplate(translated, args);
  });
}

async function tinySession(): Promise<InspectSession> {
  const session = new InspectSession(loadCheckpoint);
  await session.configure({
    kind: 'file',
    fileName: 'model.safetensors',
    bytes: new Uint8Array(readFileSync(join(TINY, 'model.safetensors'))),
    configJson: readFileSync(join(TINY, 'config.json'), 'utf8'),
    tokenizerJson: readFileSync(join(TINY, 'tokenizer.json'), 'utf8'),
  });
  return session;
}

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

  describe("the model's name in errors and progress, in the display language", () => {
    let session: InspectSession;
    let englishName: string;
    let chineseName: string;
    before(async () => {
      session = await tinySession();
      const info = session.modelInfo!;
      englishName = info.name;
      chineseName = zhCn(info.nameParts, 'model');
      assert.notEqual(chineseName, englishName, 'the name has words to translate (layers, heads)');
    });

    it('names the model in the position limit error as its parts, rendered in Chinese for a zh-cn user', async () => {
      const e = await rejection(session.run({ text: '', ids: Array.from({ length: 130 }, () => 7), maxTokens: 200 }));
      const parts = partsOf(e)!;
      assert.equal(parts.template, ENGINE_ERRORS.maxPositions);
      assert.equal((e as Error).message, `${englishName} takes at most 128 tokens; the text has 130`, 'English for the CLI and the logs');
      const zh = zhCn(parts, 'error');
      assert.ok(zh.includes(chineseName), zh);
      assert.ok(!zh.includes(englishName), zh);
    });

    it('names the model in the out-of-vocabulary error as its parts, rendered in Chinese for a zh-cn user', async () => {
      const e = await rejection(session.run({ text: '', ids: [5, 3072], maxTokens: 200 }));
      const parts = partsOf(e)!;
      assert.equal(parts.template, ENGINE_ERRORS.idOutsideVocabulary);
      assert.equal((e as Error).message, `token id 3072 is outside the vocabulary of ${englishName} (0..3071)`);
      const zh = zhCn(parts, 'error');
      assert.ok(zh.includes(chineseName) && zh.includes('3072') && zh.includes('3071'), zh);
      assert.ok(!zh.includes(englishName), zh);
    });

    it("reports the run's progress as parts, every one translated, the first naming the model in Chinese", async () => {
      const seen: MessageParts[] = [];
      await session.run({ text: 'the cat sat', maxTokens: 200 }, { progress: (_f, m) => seen.push(m) });
      assert.ok(seen.length >= 2, `${seen.length} progress messages`);
      const [first] = seen;
      assert.equal(first.template, ENGINE_PROGRESS.running);
      assert.match(renderMessage(first), new RegExp(`^running .+ on \\d+ tokens$`));
      assert.ok(renderMessage(first).includes(englishName));
      const zh = zhCn(first, 'progress');
      assert.ok(zh.includes(chineseName) && !zh.includes(englishName), zh);
      for (const m of seen) assert.doesNotThrow(() => zhCn(m, 'progress'), `a zh-cn entry for ${JSON.stringify(m)}`);
    });
  });
});
