// The analysis's phrases for messages: what a mask's entries mean and how it was built (MaskInfo.why), why an
// axis of the scores is the key axis (AttnInfo.keyAxisWhy), where another file's evidence is. Templates with
// `{0}` placeholders (see ../message.ts); the rules put them into their findings' messages.
import { defineTemplates } from '../message';

export const PHRASES = defineTemplates({
  // Masks: how they were built and what True / 1 means.
  flippedOf: '{0} of {1}',
  filledWhereTrue: '{0}: {1} fills the scores where it is True',
  combined: '{0} {1} {2}',
  addedMasks: '{0} + {1}',
  trueBeforeLengths: '{0} (True at positions before each length)',
  truePastLengths: '{0} (True at positions past each length)',
  builtFrom: '{0} (built from {1})',
  trueAtRealTokens: '{0} (True at real tokens)',
  trueAtPadding: '{0} (True at padding)',
  trueAtRealTokensPadZero: '{0} (True at real tokens, with padding id 0)',
  trueAtPaddingPadZero: '{0} (True at padding, with padding id 0)',
  sameAs: '{0} (same as {1})',
  tokenizerMask: "the tokenizer's attention_mask {0} (1 at real tokens, 0 at padding)",
  filledLargeNegative: '{0} filled with a large negative value',
  trueFutureSideOfDiagonal: '{0} (True on the future side of diagonal {1})',
  trueOnAndBeforeDiagonal: '{0} (True on and before diagonal {1})',
  additiveCausal: '{0} (0 on and below the diagonal, -inf above)',
  pytorchConvention: '{0} (PyTorch convention: True at padding)',
  tokenizerConvention: '{0} (tokenizer convention: 1 at real tokens, 0 at padding)',
  defaultsToOnes: '{0} defaults to all ones when not given, so 1 = keep',
  theMaskDefaultsToOnes: 'the mask defaults to all ones when not given, so 1 = keep',
  allOnesPassedAs: 'all ones passed as {0}, a mask that masks nothing, so 1 = keep',
  timesLargeNegative: '{0} times a large negative number',
  pairOfMask: '{0} spread over the query axis times itself spread over the key axis (a pair is kept only where both positions are, so True/1 = keep)',
  additiveReadAsZeroOne: '{0}, an additive mask read as a 0/1 mask (nonzero, so True/1, where it masks)',
  timesLargePositive: '{0} times a large positive number',
  onesZeroPadded: '{0} (ones zero-padded by {1}: 1 inside, 0 in the padding)',
  onesInsideLengths: "{0} on zeros (1 inside each example's lengths)",
  documentedAdditive: '{0} (documented as additive)',
  documentedKeep: '{0} (documented: {1}; True/1 = attend)',
  documentedIgnore: '{0} (documented: {1}; True/1 = masked out)',
  fromOtherFile: '{0}, from {1} in {2}',
  keepPolarity: 'True/1 = attend',
  ignorePolarity: 'True/1 = masked out',
  // The key axis of scores.
  keyAxisIs: 'the key axis is {0}',
  keysRightOperand: 'the keys {0} are the right operand, so the key axis is the last',
  keysLeftOperand: 'the keys {0} are the left operand, so the key axis is -2',
  einsumKeyIndex: "in '{0}' the key index '{1}' is output axis {2}",
  keysVaryInBroadcast: 'the keys {0} vary along axis {1} of the broadcast product',
  thenAfterLayoutChange: '{0}, then axis {1} after a layout change',
  scoresFormedInOtherFile: '{0} (the scores are formed in {1}, {2})',
  // Why a fully masked row can occur.
  hidesDiagonal: 'the mask also hides the diagonal, so the first query row has no visible key',
  padsQueryAxis: 'the padding mask varies along the query axis, so every padded query row is fully masked',
  causalWithPadding: 'it combines a causal mask with a padding mask, so with left padding the first query rows see only padding keys',
  // Where the file's precision comes from.
  fileRunsInHalf: 'this file runs in half precision',
  fileRunsInBfloat16: 'this file runs in bfloat16',
  importerRunsInHalf: 'it runs in half precision (imported by {0}, which sets it at {1})',
  importerRunsInBfloat16: 'it runs in bfloat16 (imported by {0}, which sets it at {1})',
  // Evidence in another file.
  scoresFormedIn: 'the scores are formed in {0} ({1})',
  maskBuiltIn: 'the mask is built in {0} ({1})',
  halfPrecisionSetInImporter: 'half precision is set here, in a file that imports this one',
  bfloat16SetInImporter: 'bfloat16 is set here, in a file that imports this one',
});
