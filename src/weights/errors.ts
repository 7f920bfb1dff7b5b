// Errors thrown by the loaders. Every message starts with the file name, then says what is wrong,
// e.g. "model.safetensors: header length 9.2e18 is past the end of the file (1,024 bytes)".
// The problem is a message made of templates and arguments (src/protocol/message.ts, l10n comment `error`):
// the English text is the error's message (what the CLI prints); the editor shows it in the display language.
// Templates are declared next to the code that uses them; the phrases several loaders share are here.

import { defineTemplates, MessageError, msg, renderMessage, type MessageParts } from '../protocol/message';

export const WEIGHT_PHRASES = defineTemplates(
  {
    fileProblem: '{0}: {1}',
    member: '{0}: member {1}',
    tensor: 'tensor {0}',
    zipMember: 'zip member {0}',
    missingKey: 'nothing (the key is missing)',
    anArray: 'an array',
    anObject: 'an object',
    none: 'none',
  },
  'error',
);

export class WeightFileError extends MessageError {
  override readonly name = 'WeightFileError';
  /** The file, in English (for an .npz member: "weights.npz: member \"a.npy\""). */
  readonly fileName: string;
  /** What is wrong, in English, and as parts. */
  readonly problem: string;
  readonly problemParts: MessageParts;
  constructor(fileName: string | MessageParts, problem: MessageParts, options?: { cause?: unknown }) {
    super(msg(WEIGHT_PHRASES.fileProblem, fileName, problem), options);
    this.fileName = typeof fileName === 'string' ? fileName : renderMessage(fileName);
    this.problem = renderMessage(problem);
    this.problemParts = problem;
  }
}

/** Throws a WeightFileError for `fileName` (a name, or a member of an archive as parts). */
export function fail(fileName: string | MessageParts, problem: MessageParts): never {
  throw new WeightFileError(fileName, problem);
}

/**
 * A count for a message: "1,024" for ordinary sizes, "9.2e18" for absurd ones (what a hostile length
 * field usually holds), so the message stays readable.
 */
export function formatCount(n: number | bigint): string {
  const v = typeof n === 'bigint' ? Number(n) : n;
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1e12) return v.toExponential(1).replace('e+', 'e');
  return Math.round(v) === v ? v.toLocaleString('en-US') : String(v);
}

/** A short quoted rendering of an untrusted string (tensor names, pickle globals) for a message. */
export function quote(s: string, max = 80): string {
  const clipped = s.length > max ? `${s.slice(0, max)}…` : s;
  return JSON.stringify(clipped);
}

/** A shape for a message: "[2, 3]". */
export function shapeText(shape: readonly (number | string)[]): string {
  return `[${shape.join(', ')}]`;
}

/** `tensor "name"`, the subject of a per-tensor problem. */
export function tensorLabel(name: string): MessageParts {
  return msg(WEIGHT_PHRASES.tensor, quote(name));
}
