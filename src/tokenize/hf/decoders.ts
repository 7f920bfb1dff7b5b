// tokenizer.json decoders (HF tokenizers/src/decoders): vocabulary strings back to text, as HF's `decode` gives it.
// Each decoder maps a list of token strings to a list of strings (`decode_chain`); the result is their
// concatenation. Supported: ByteLevel, Metaspace, WordPiece, BPEDecoder, Replace, ByteFallback, Fuse, Strip,
// Sequence. An unsupported decoder does not stop the tokenizer from loading (encoding does not need it): decoding
// then throws an Error naming it.

import { CHAR_TO_BYTE } from '../byte-level';
import { asArray, asObject, asString, componentType, optBool, optCount, type JsonObject } from './json';
import { compilePattern, findMatches } from './regex';

export type Decoder = (tokens: string[]) => string[];

const SUPPORTED = ['ByteLevel', 'Metaspace', 'WordPiece', 'BPEDecoder', 'Replace', 'ByteFallback', 'Fuse', 'Strip', 'Sequence'];

const utf8Lossy = new TextDecoder('utf-8'); // invalid sequences → U+FFFD per maximal subpart, as from_utf8_lossy

/** ByteLevel: every token's characters back to bytes (a token with a character outside the table: its UTF-8). */
const byteLevel: Decoder = (tokens) => {
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (const t of tokens) {
    const mapped: number[] = [];
    let ok = true;
    for (const ch of t) {
      const b = CHAR_TO_BYTE.get(ch);
      if (b === undefined) {
        ok = false;
        break;
      }
      mapped.push(b);
    }
    if (ok) for (const b of mapped) bytes.push(b);
    else for (const b of encoder.encode(t)) bytes.push(b);
  }
  return [utf8Lossy.decode(Uint8Array.from(bytes))];
};

/** ByteFallback: runs of <0xNN> tokens become their UTF-8 text, or one U+FFFD per byte if not valid UTF-8. */
const byteFallback: Decoder = (tokens) => {
  const out: string[] = [];
  let pending: number[] = [];
  const strict = new TextDecoder('utf-8', { fatal: true });
  const flush = () => {
    if (!pending.length) return;
    try {
      out.push(strict.decode(Uint8Array.from(pending)));
    } catch {
      for (let k = 0; k < pending.length; k++) out.push('\ufffd');
    }
    pending = [];
  };
  for (const t of tokens) {
    const hex = /^<0x([0-9A-Fa-f]{2})>$/.exec(t)?.[1];
    if (hex !== undefined) pending.push(parseInt(hex, 16));
    else {
      flush();
      out.push(t);
    }
  }
  flush();
  return out;
};

function metaspace(cfg: JsonObject, path: string): Decoder {
  const replacement = asString(cfg.replacement ?? '\u2581', `${path}.replacement`);
  const never = cfg.prepend_scheme === 'never' || cfg.add_prefix_space === false;
  return (tokens) =>
    tokens.map((t, i) => {
      let s = '';
      for (const ch of t) s += ch === replacement ? (i === 0 && !never ? '' : ' ') : ch;
      return s;
    });
}

/** WordPiece's cleanup (decoders/wordpiece.rs `cleanup`). */
function cleanup(s: string): string {
  return s
    .replaceAll(' .', '.')
    .replaceAll(' ?', '?')
    .replaceAll(' !', '!')
    .replaceAll(' ,', ',')
    .replaceAll(" ' ", "'")
    .replaceAll(" n't", "n't")
    .replaceAll(" 'm", "'m")
    .replaceAll(' do not', " don't")
    .replaceAll(" 's", "'s")
    .replaceAll(" 've", "'ve")
    .replaceAll(" 're", "'re");
}

function wordPiece(cfg: JsonObject, path: string): Decoder {
  const prefix = asString(cfg.prefix ?? '##', `${path}.prefix`);
  const clean = optBool(cfg, 'cleanup', path, true);
  return (tokens) =>
    tokens.map((t, i) => {
      let s = t;
      if (i !== 0) s = s.startsWith(prefix) ? s.slice(prefix.length) : ` ${s}`;
      return clean ? cleanup(s) : s;
    });
}

function replace(cfg: JsonObject, path: string): Decoder {
  const re = compilePattern(asObject(cfg.pattern, `${path}.pattern`), `${path}.pattern`);
  const content = asString(cfg.content, `${path}.content`);
  return (tokens) =>
    tokens.map((t) => {
      let s = '';
      let prev = 0;
      for (const [start, end] of findMatches(re, t)) {
        s += t.slice(prev, start) + content;
        prev = end;
      }
      return s + t.slice(prev);
    });
}

function strip(cfg: JsonObject, path: string): Decoder {
  const content = asString(cfg.content, `${path}.content`);
  const start = optCount(cfg, 'start', path, 0);
  const stop = optCount(cfg, 'stop', path, 0);
  return (tokens) =>
    tokens.map((t) => {
      const chars = [...t];
      let from = 0;
      for (let i = 0; i < Math.min(start, chars.length) && chars[i] === content; i++) from = i + 1;
      let to = chars.length;
      for (let i = 0; i < stop && chars.length - i - 1 >= 0 && chars[chars.length - i - 1] === content; i++) to = chars.length - i - 1;
      return chars.slice(from, Math.max(from, to)).join('');
    });
}

/** Builds the decoder; an unsupported one gives a decoder that throws (the tokenizer still encodes). */
export function buildDecoder(config: unknown, path = 'decoder'): Decoder | undefined {
  if (config === null || config === undefined) return undefined;
  let cfg: JsonObject;
  let type: string;
  try {
    cfg = asObject(config, path);
    type = componentType(cfg, path, SUPPORTED);
  } catch (e) {
    const message = (e as Error).message;
    return () => {
      throw new Error(`cannot decode: ${message}`);
    };
  }
  switch (type) {
    case 'ByteLevel':
      return byteLevel;
    case 'Metaspace':
      return metaspace(cfg, path);
    case 'WordPiece':
      return wordPiece(cfg, path);
    case 'BPEDecoder': {
      const suffix = asString(cfg.suffix ?? '</w>', `${path}.suffix`);
      return (tokens) => tokens.map((t, i) => t.split(suffix).join(i === tokens.length - 1 ? '' : ' '));
    }
    case 'Replace':
      return replace(cfg, path);
    case 'ByteFallback':
      return byteFallback;
    case 'Fuse':
      return (tokens) => [tokens.join('')];
    case 'Strip':
      return strip(cfg, path);
    default: {
      const parts = asArray(cfg.decoders, `${path}.decoders`).map((d, i) => buildDecoder(d, `${path}.decoders[${i}]`));
      return (tokens) => parts.reduce((acc, d) => (d ? d(acc) : acc), tokens);
    }
  }
}
