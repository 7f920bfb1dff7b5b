// Which display language a suite needs, from its file name: `lint-l10n.zh-cn.exthost.ts` runs only in a window
// started with `--locale zh-cn` (the runner's EXTHOST_LOCALE); a suite without a locale only in the default
// (English) window. Shared by the test entry (index.ts) and the runner (scripts/test-exthost.ts).
export function suiteLocale(file: string): string | undefined {
  return /\.([a-z]{2}(?:-[a-z]{2})?)\.exthost(?:\.[jt]s)?$/.exec(file)?.[1];
}
