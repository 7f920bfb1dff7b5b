// Pure helpers for what Inspect Selection and Load Weights ask of the user (no vscode import, unit-tested).

/**
 * A selection that is only token ids ("464, 3797, 3332", "[101 2023 102]"): the ids, else undefined. A
 * checkpoint whose tokenizer is missing or does not match can still be inspected on the ids themselves.
 */
export function idsFromText(text: string): number[] | undefined {
  const body = text
    .trim()
    .replace(/^\[(.*)\]$/s, '$1')
    .trim();
  if (!/^\d+(?:\s*[,\s]\s*\d+)*$/.test(body)) return undefined;
  const ids = body.split(/[\s,]+/).map(Number);
  return ids.every((id) => Number.isSafeInteger(id)) ? ids : undefined;
}

/** The head counts a projection of `width` dimensions can be split into (its divisors), each with its head size. */
export function headChoices(width: number): { heads: number; headDim: number }[] {
  const out: { heads: number; headDim: number }[] = [];
  if (!Number.isInteger(width) || width < 1) return out;
  for (let h = 1; h <= width; h++) if (width % h === 0) out.push({ heads: h, headDim: width / h });
  return out;
}

/** The part of an engine error before its hint (the hint may speak of the CLI: "…; pass --ids"). */
export function errorWithoutHint(message: string): string {
  const i = message.indexOf(';');
  return (i > 0 ? message.slice(0, i) : message).trim();
}
