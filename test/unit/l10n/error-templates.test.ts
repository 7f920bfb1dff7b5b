// The errors the user sees (weight loaders, model configs, tokenizers, the engine session, the worker's file
// reading), the recorder's runtime findings and the models' names and descriptions are templates and arguments
// (src/protocol/message.ts) declared under the l10n comments `error`, `runtime`, `model` and `progress` (the engine's progress text): every declared template (enumerated from the registry once the
// declaring modules are loaded, not grepped) has an English and a Simplified Chinese bundle entry
// `<English>/<comment>` with the same placeholders, the Chinese has no English left outside backticks, and the
// bundles keep no entry of those comments that no template uses any more.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registeredTemplates, type TemplateDomain } from '../../../src/protocol/message';
// The modules that declare the templates (importing them fills the registry).
import '../../../src/weights';
import '../../../src/weights/snapshot';
import '../../../src/models';
import '../../../src/models/session';
import '../../../src/tokenize';
import '../../../src/record';
import '../../../src/worker/handlers';
import { englishProse } from '../helpers/english-prose';

const root = join(__dirname, '..', '..', '..');
const bundle = (name: string) => JSON.parse(readFileSync(join(root, 'l10n', name), 'utf8')) as Record<string, string>;
const placeholders = (s: string) => [...new Set([...s.matchAll(/\{(\d+)\}/g)].map((m) => m[1]))].sort().join(',');

const DOMAINS: readonly TemplateDomain[] = ['error', 'runtime', 'model', 'progress'];

describe('error, runtime-finding and model-text templates: translations', () => {
  const en = bundle('bundle.l10n.json');
  const zh = bundle('bundle.l10n.zh-cn.json');

  it('declares the errors’ and the runtime findings’ templates in the registry', () => {
    assert.ok(registeredTemplates('error').length > 200, `only ${registeredTemplates('error').length} error templates registered`);
    assert.ok(registeredTemplates('runtime').length > 25, `only ${registeredTemplates('runtime').length} runtime templates registered`);
    assert.ok(registeredTemplates('model').length > 60, `only ${registeredTemplates('model').length} model templates registered`);
    assert.ok(registeredTemplates('progress').length >= 8, `only ${registeredTemplates('progress').length} progress templates registered`);
  });

  for (const domain of DOMAINS) {
    it(`has an English and a zh-cn entry for every ${domain} template, with the same placeholders`, () => {
      const templates = registeredTemplates(domain);
      const missing = templates.filter((t) => en[`${t}/${domain}`] !== t || !(`${t}/${domain}` in zh));
      assert.deepEqual(missing, [], `add these to l10n/bundle.l10n.json and l10n/bundle.l10n.zh-cn.json as "<English>/${domain}"`);
      for (const t of templates) {
        const translated = zh[`${t}/${domain}`];
        assert.equal(placeholders(translated), placeholders(t), `placeholders differ in the translation of ${JSON.stringify(t)}`);
      }
    });

    it(`leaves no English prose outside backticks in the zh-cn ${domain} translations`, () => {
      const untranslated = registeredTemplates(domain)
        .map((t) => ({ t, zh: zh[`${t}/${domain}`] ?? '' }))
        .filter(({ t, zh: translated }) => englishProse(translated) !== undefined || (/[a-z]{2,}/i.test(t.replace(/\{\d+\}/g, '')) && translated === t));
      assert.deepEqual(untranslated, []);
    });

    it(`keeps no ${domain} bundle entry that no template uses any more`, () => {
      const known = new Set(registeredTemplates(domain).map((t) => `${t}/${domain}`));
      assert.deepEqual(
        Object.keys(zh).filter((k) => k.endsWith(`/${domain}`) && !known.has(k)),
        [],
      );
    });
  }

  it('finds English prose in a translation that kept it', () => {
    assert.equal(englishProse('{0}：头部不是合法的 UTF-8'), undefined);
    assert.equal(englishProse('`torch.save(torch.load(path), path)` 重新保存'), undefined);
    assert.equal(englishProse('{0}：header is not valid'), 'header is not valid');
  });
});
