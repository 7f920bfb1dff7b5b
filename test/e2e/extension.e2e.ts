// The packaged extension in a real VS Code: it installs from the .vsix, activates on Python files, and
// contributes its commands to the command palette.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './support/paths';
import { useWorkbench } from './session';

const EXTENSION_ID = 'attention-inspector.attention-inspector';

/** The palette titles the product promises (README, docs, DESIGN's command ids). */
const COMMAND_TITLES = [
  'Attention Inspector: Inspect Selection',
  'Attention Inspector: Open Debugger',
  'Attention Inspector: Load Weights…',
  'Attention Inspector: Lint Workspace',
];

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  displayName: string;
  publisher: string;
  version: string;
  contributes: { commands: Array<{ command: string; title: string; category?: string }> };
};

/** package.json's user-facing strings are `%key%` references into package.nls.json (English). */
const nls = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8')) as Record<string, string>;
const localized = (s: string): string => s.replace(/^%(.+)%$/, (_m, key: string) => nls[key] ?? s);

describe('the packaged extension in VS Code (code-server)', function () {
  const session = useWorkbench({ folder: 'examples' });

  it('is installed from the .vsix', async function () {
    const installed = await session.workbench.installedExtensions();
    const { displayName, publisher, version } = manifest;
    assert.deepEqual(installed, [{ displayName, publisher, version }]);
  });

  it('stays inactive until a Python file is opened, then activates on onLanguage:python', async function () {
    const workbench = session.workbench;
    await workbench.openFile('hello.md');
    assert.equal(await workbench.activation(EXTENSION_ID), undefined, 'active before any Python file was opened');
    await workbench.openFile('attention_bug.py');
    const activation = await workbench.waitForActivation(EXTENSION_ID);
    assert.equal(activation.activationEvent, 'onLanguage:python');
    assert.deepEqual(await workbench.extensionHostErrors(EXTENSION_ID), []);
    await workbench.screenshot('extension-activated-on-python');
  });

  it('lists its four commands in the command palette', async function () {
    const listed = await session.workbench.commandTitles('Attention Inspector');
    const missing = COMMAND_TITLES.filter((title) => !listed.includes(title));
    assert.deepEqual(missing, [], `the palette lists ${JSON.stringify(listed)}`);
  });

  it('shows the titles package.json declares for the command ids docs/DESIGN.md fixes', function () {
    const declared = new Map(manifest.contributes.commands.map((c) => [c.command, `${c.category ? `${localized(c.category)}: ` : ''}${localized(c.title)}`]));
    const ids = ['inspectSelection', 'openDebugger', 'loadWeights', 'lintWorkspace'].map((name) => `attentionInspector.${name}`);
    assert.deepEqual(
      ids.map((id) => declared.get(id)),
      COMMAND_TITLES,
    );
  });
});
