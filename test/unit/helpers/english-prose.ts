// A check for translations: two English words in a row outside backticks and placeholders (prose left
// untranslated). Code in backticks is the user's or PyTorch's and stays as written.
export function englishProse(translated: string): string | undefined {
  const prose = translated.replace(/`[^`]*`/g, ' ').replace(/\{\d+\}/g, ' ');
  return /\b[A-Za-z][a-z]+(?:[ -][A-Za-z][a-z]+)+\b/.exec(prose)?.[0];
}
