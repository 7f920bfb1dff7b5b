// A model's name and description as templates and arguments (src/models/model-text.ts): every ModelInfo the
// model families make (test/unit/models/model-infos.ts) carries parts whose templates are declared under the
// l10n comment `model`, with an argument for every placeholder, that render to exactly its English name and
// description (what the CLI prints); rendered through the zh-cn bundle as vscode.l10n.t would, they leave no
// placeholder and no English prose outside their arguments behind.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fillTemplate, registeredTemplates, renderMessage, type MessageParts } from '../../../src/protocol/message';
import { englishProse } from '../helpers/english-prose';
import { everyModelInfo, type NamedInfo } from './model-infos';

const ROOT = join(__dirname, '..', '..', '..');
const zh = JSON.parse(readFileSync(join(ROOT, 'l10n', 'bundle.l10n.zh-cn.json'), 'utf8')) as Record<string, string>;
const inChinese = (parts: MessageParts) =>
  renderMessage(parts, (t, args) => {
    const translated = zh[`${t}/model`];
    assert.ok(translated !== undefined, `no zh-cn entry for ${JSON.stringify(t)}`);
    return fillTemplate(translated, args);
  });

/** The Chinese text with each argument that is text (a file name, an activation) in backticks, for the prose check. */
const argumentsMarked = (m: MessageParts): string =>
  fillTemplate(
    zh[`${m.template}/model`] ?? m.template,
    m.args.map((a) => (typeof a === 'object' ? argumentsMarked(a) : typeof a === 'string' ? `\`${a}\`` : a)),
  );

function templatesIn(m: MessageParts, out: MessageParts[] = []): MessageParts[] {
  out.push(m);
  for (const a of m.args) if (typeof a === 'object') templatesIn(a, out);
  return out;
}

describe('model names and descriptions: parts, English and zh-cn', () => {
  let infos: NamedInfo[] = [];
  before(async () => {
    infos = await everyModelInfo();
  });

  it('covers every model family', () => {
    const families = new Set(infos.map(({ info }) => info.family));
    for (const f of ['seeded', 'gpt2', 'bert', 'roberta', 'xlm-roberta', 'attention-layer', 'llama', 'mistral', 'qwen2', 'qwen3', 'gemma2', 'gemma3', 'phi3']) {
      assert.ok(families.has(f as never), `no ${f} model among ${[...families].join(', ')}`);
    }
  });

  it('gives every ModelInfo parts that render to its English name and description', () => {
    for (const { what, info } of infos) {
      assert.equal(renderMessage(info.nameParts), info.name, `${what}: name`);
      assert.equal(renderMessage(info.detailParts), info.detail, `${what}: detail`);
    }
  });

  it('builds them from declared `model` templates with an argument for every placeholder', () => {
    const declared = new Set(registeredTemplates('model'));
    for (const { what, info } of infos) {
      for (const m of [...templatesIn(info.nameParts), ...templatesIn(info.detailParts)]) {
        assert.ok(declared.has(m.template), `${what}: ${JSON.stringify(m.template)} is not a declared model template`);
        const needed = Math.max(-1, ...[...m.template.matchAll(/\{(\d+)\}/g)].map((x) => Number(x[1]))) + 1;
        assert.ok(m.args.length >= needed, `${what}: ${JSON.stringify(m.template)} has ${m.args.length} arguments`);
      }
    }
  });

  it('renders them in Chinese with no placeholder or English prose left', () => {
    for (const { what, info } of infos) {
      for (const [field, parts] of [
        ['name', info.nameParts],
        ['detail', info.detailParts],
      ] as const) {
        const text = inChinese(parts);
        assert.match(text, /[\u4e00-\u9fff]/, `${what}: ${field} ${JSON.stringify(text)}`);
        assert.doesNotMatch(text, /\{\d+\}/, `${what}: ${field} ${JSON.stringify(text)}`);
        assert.equal(englishProse(argumentsMarked(parts)), undefined, `${what}: ${field} ${JSON.stringify(text)}`);
      }
    }
  });
});
