// tokenizer.json post-processors (HF tokenizers/src/processors) for a single sequence: which special tokens go
// before and after it. Supported: TemplateProcessing, BertProcessing, RobertaProcessing, ByteLevel (adds
// nothing), Sequence.

import { asArray, asId, asObject, asString, componentType, fail, isObject, TOKENIZER_ERRORS, type JsonObject } from './json';
import { MessageError, msg } from '../../protocol/message';

export interface SpecialPiece {
  readonly id: number;
  readonly token: string;
}

export interface PostProcessor {
  readonly before: readonly SpecialPiece[];
  readonly after: readonly SpecialPiece[];
}

const NONE: PostProcessor = { before: [], after: [] };

/** ["[CLS]", 101] */
function pairSpec(value: unknown, path: string): SpecialPiece {
  const arr = asArray(value, path);
  if (arr.length !== 2) fail(path, msg(TOKENIZER_ERRORS.tokenIdPair), value);
  return { token: asString(arr[0], `${path}[0]`), id: asId(arr[1], `${path}[1]`) };
}

function template(cfg: JsonObject, path: string): PostProcessor {
  const specials = asObject(cfg.special_tokens ?? {}, `${path}.special_tokens`);
  const lookup = (name: string, where: string): SpecialPiece[] => {
    const spec = specials[name];
    if (!isObject(spec)) throw new MessageError(msg(TOKENIZER_ERRORS.specialMissing, where, JSON.stringify(name), path));
    const ids = asArray(spec.ids, `${path}.special_tokens[${JSON.stringify(name)}].ids`);
    const tokens = asArray(spec.tokens, `${path}.special_tokens[${JSON.stringify(name)}].tokens`);
    if (ids.length !== tokens.length) {
      throw new MessageError(msg(TOKENIZER_ERRORS.specialIds, path, JSON.stringify(name), ids.length, tokens.length));
    }
    return ids.map((id, i) => ({
      id: asId(id, `${path}.special_tokens[${JSON.stringify(name)}].ids[${i}]`),
      token: asString(tokens[i], `${path}.special_tokens[${JSON.stringify(name)}].tokens[${i}]`),
    }));
  };
  // `single` is a list of {SpecialToken: {id}} / {Sequence: {id: "A"}}, or the string form "[CLS] $A [SEP]".
  type Piece = { special: string } | { sequence: string };
  const where = `${path}.single`;
  let pieces: Piece[];
  if (typeof cfg.single === 'string') {
    pieces = cfg.single
      .split(/\s+/)
      .filter((p) => p.length > 0)
      .map((p) => {
        const name = p.replace(/:\d+$/, '');
        return name.startsWith('$') ? { sequence: name.slice(1) || 'A' } : { special: name };
      });
  } else {
    pieces = asArray(cfg.single, where).map((p, i) => {
      const o = asObject(p, `${where}[${i}]`);
      if (isObject(o.SpecialToken)) return { special: asString(o.SpecialToken.id, `${where}[${i}].SpecialToken.id`) };
      if (isObject(o.Sequence)) return { sequence: asString(o.Sequence.id, `${where}[${i}].Sequence.id`) };
      return fail(`${where}[${i}]`, msg(TOKENIZER_ERRORS.templatePiece), p);
    });
  }
  const seqIndex = pieces.findIndex((p) => 'sequence' in p);
  if (seqIndex < 0 || pieces.filter((p) => 'sequence' in p).length !== 1) {
    throw new MessageError(msg(TOKENIZER_ERRORS.sequenceOnce, where));
  }
  const seq = pieces[seqIndex] as { sequence: string };
  if (seq.sequence !== 'A' && seq.sequence !== '0') throw new MessageError(msg(TOKENIZER_ERRORS.sequenceA, where, String(JSON.stringify(seq.sequence))));
  const expand = (ps: Piece[]) => ps.flatMap((p, i) => lookup((p as { special: string }).special, `${where}[${i}]`));
  return { before: expand(pieces.slice(0, seqIndex)), after: expand(pieces.slice(seqIndex + 1)) };
}

const SUPPORTED = ['TemplateProcessing', 'BertProcessing', 'RobertaProcessing', 'ByteLevel', 'Sequence'];

export function buildPostProcessor(config: unknown, path = 'post_processor'): PostProcessor {
  if (config === null || config === undefined) return NONE;
  const cfg = asObject(config, path);
  switch (componentType(cfg, path, SUPPORTED)) {
    case 'TemplateProcessing':
      return template(cfg, path);
    case 'BertProcessing':
    case 'RobertaProcessing':
      return { before: [pairSpec(cfg.cls, `${path}.cls`)], after: [pairSpec(cfg.sep, `${path}.sep`)] };
    case 'ByteLevel':
      return NONE;
    default: {
      const parts = asArray(cfg.processors, `${path}.processors`).map((p, i) =>
        buildPostProcessor(asObject(p, `${path}.processors[${i}]`), `${path}.processors[${i}]`),
      );
      // Each processor wraps what the previous ones produced.
      return parts.reduce<PostProcessor>((acc, p) => ({ before: [...p.before, ...acc.before], after: [...acc.after, ...p.after] }), NONE);
    }
  }
}
