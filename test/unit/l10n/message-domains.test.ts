// Messages under another l10n comment than the message they are an argument of (src/protocol/message.ts,
// `inDomain`): a model's name (`model`) inside an engine error (`error`) or a progress text (`progress`). The
// translator is told the marked message's domain for it and for the messages nested in it, the enclosing one's
// (undefined) elsewhere; English rendering ignores the mark; the mark survives the channel check.
import { strict as assert } from 'node:assert';
import { inDomain, isMessageParts, MessageError, msg, renderMessage, type Template, type TemplateDomain } from '../../../src/protocol/message';

// Not declared with defineTemplates: the registry (and so the bundle checks) keeps the project's templates only.
const OUTER = { error: '{0} refused {1} ({2})' as Template };
const NAME = { name: 'model {0}' as Template, count: '{0} heads' as Template };

describe('message parts translated under their own l10n comment (inDomain)', () => {
  const name = inDomain(msg(NAME.name, msg(NAME.count, 4)), 'model');
  const parts = msg(OUTER.error, name, 7, msg(NAME.count, 2));

  it('tells the translator the marked domain for the marked message and its nested ones only', () => {
    const calls: [string, TemplateDomain | undefined][] = [];
    renderMessage(parts, (template, args, domain) => {
      calls.push([template, domain]);
      return `${template}:${args.join('|')}`;
    });
    assert.deepEqual(calls, [
      [NAME.count, 'model'],
      [NAME.name, 'model'],
      [NAME.count, undefined],
      [OUTER.error, undefined],
    ]);
  });

  it('renders English as before: the mark only steers translation', () => {
    assert.equal(renderMessage(parts), 'model 4 heads refused 7 (2 heads)');
    assert.equal(new MessageError(parts).message, 'model 4 heads refused 7 (2 heads)');
  });

  it('keeps marked parts valid for the channel, and refuses a domain that is no l10n comment', () => {
    assert.ok(isMessageParts(structuredClone(parts)));
    assert.ok(!isMessageParts({ template: 'x', args: [], domain: 'nonsense' }));
    assert.ok(!isMessageParts({ template: 'x {0}', args: [{ template: 'y', args: [], domain: 3 }] }));
  });
});
