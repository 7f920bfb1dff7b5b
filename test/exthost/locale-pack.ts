// A display-language pack with no translations, for windows started with `--locale <id>`: VS Code (and
// code-server) honour a locale only when a language pack for it is installed, and fall back to English
// otherwise (vscode.env.language 'en', the extension's own bundle.l10n.<id>.json never read). This pack
// contributes the locale with an empty translation of VS Code's own strings, so the workbench stays English
// (its built-in defaults) while the extension host runs in that language and extensions load their l10n
// bundles for it. Built as a .vsix (a zip: extension/package.json and the translation file) for
// `code-server --install-extension`; `registerLocalePack` then writes the user data's languagepacks.json the
// way the server itself would once it has scanned its extensions, so that the first page already gets the
// language (the server resolves the locale from that file; it writes it only after start-up).
import { createHash } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';

export const LOCALE_PACK_PUBLISHER = 'attention-inspector-tests';

/** The pack's extension id for a locale (`attention-inspector-tests.locale-zh-cn`). */
export function localePackId(locale: string): string {
  return `${LOCALE_PACK_PUBLISHER}.locale-${locale}`;
}

/** Writes the pack for `locale` to `vsixPath`. */
export function writeLocalePack(locale: string, vsixPath: string): void {
  const name = `locale-${locale}`;
  const manifest = {
    name,
    displayName: `Display language ${locale} (test pack, no translations)`,
    publisher: LOCALE_PACK_PUBLISHER,
    version: '0.0.1',
    engines: { vscode: '*' },
    categories: ['Language Packs'],
    contributes: {
      localizations: [
        { languageId: locale, languageName: locale, localizedLanguageName: locale, translations: [{ id: 'vscode', path: './translations/main.i18n.json' }] },
      ],
    },
  };
  const vsixManifest = `<?xml version="1.0" encoding="utf-8"?>
<PackageManifest Version="2.0.0" xmlns="http://schemas.microsoft.com/developer/vsx-schema/2011">
  <Metadata>
    <Identity Language="en-US" Id="${name}" Version="0.0.1" Publisher="${LOCALE_PACK_PUBLISHER}" />
    <DisplayName>${manifest.displayName}</DisplayName>
    <Description xml:space="preserve">${manifest.displayName}</Description>
    <Categories>Language Packs</Categories>
    <Properties><Property Id="Microsoft.VisualStudio.Code.Engine" Value="*" /></Properties>
  </Metadata>
  <Installation><InstallationTarget Id="Microsoft.VisualStudio.Code" /></Installation>
  <Dependencies />
  <Assets><Asset Type="Microsoft.VisualStudio.Code.Manifest" Path="extension/package.json" Addressable="true" /></Assets>
</PackageManifest>
`;
  const contentTypes = `<?xml version="1.0" encoding="utf-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension=".json" ContentType="application/json" /><Default Extension=".vsixmanifest" ContentType="text/xml" /></Types>
`;
  const zip = zipSync({
    '[Content_Types].xml': strToU8(contentTypes),
    'extension.vsixmanifest': strToU8(vsixManifest),
    'extension/package.json': strToU8(JSON.stringify(manifest, null, 2)),
    'extension/translations/main.i18n.json': strToU8(JSON.stringify({ version: '1.0.0', contents: {} })),
  });
  writeFileSync(vsixPath, zip);
}

/**
 * Writes `<userDataDir>/languagepacks.json` for the installed pack (the server's own cache format: a hash of the
 * packs' ids and versions, the packs, the path of each translation file).
 */
export function registerLocalePack(locale: string, userDataDir: string, extensionsDir: string): void {
  const id = localePackId(locale);
  const folder = readdirSync(extensionsDir).find((name) => name.toLowerCase().startsWith(`${id.toLowerCase()}-`));
  if (!folder) throw new Error(`the language pack ${id} is not installed in ${extensionsDir}`);
  const version = folder.slice(id.length + 1);
  const packs = {
    [locale]: {
      hash: createHash('md5').update(id).update(version).digest('hex'),
      extensions: [{ extensionIdentifier: { id }, version }],
      translations: { vscode: join(extensionsDir, folder, 'translations', 'main.i18n.json') },
      label: locale,
    },
  };
  writeFileSync(join(userDataDir, 'languagepacks.json'), JSON.stringify(packs));
}
