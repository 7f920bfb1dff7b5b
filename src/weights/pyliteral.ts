// A parser for the small subset of Python literals a .npy header uses:
//   {'descr': '<f4', 'fortran_order': False, 'shape': (48, 16), }
// dicts, tuples, lists, strings (without escapes), ints (an old 'L' suffix where allowed), True/False/None.
// Nothing is evaluated.
import { defineTemplates, MessageError, msg, type MessageParts } from '../protocol/message';

export type PyLiteral = string | number | boolean | null | PyLiteral[] | PyTupleLiteral | Map<PyLiteral, PyLiteral>;

export class PyTupleLiteral {
  constructor(readonly items: PyLiteral[]) {}
}

const MAX_DEPTH = 16;

const PY_ERRORS = defineTemplates(
  {
    at: '{0} at character {1} ({2})',
    expectedCommaOr: "expected ',' or '{0}'",
    escapes: 'string escapes are not supported',
    unterminated: 'unterminated string',
    tooDeep: 'nesting deeper than {0}',
    expectedColon: "expected ':'",
    unexpected: 'unexpected text',
    intTooLarge: 'integer {0} is too large',
    trailing: 'unexpected text after the literal',
  },
  'error',
);

/** Parses `text`; throws a plain Error with the position of the first problem. */
export function parsePyLiteral(text: string, options: { longSuffix?: boolean } = {}): PyLiteral {
  const longSuffix = options.longSuffix ?? true;
  let pos = 0;

  const error = (what: MessageParts): never => {
    throw new MessageError(msg(PY_ERRORS.at, what, pos, JSON.stringify(text.slice(pos, pos + 12))));
  };
  const skipSpace = (): void => {
    while (pos < text.length && /\s/.test(text.charAt(pos))) pos++;
  };

  const parseSequence = (close: string, depth: number): PyLiteral[] => {
    const items: PyLiteral[] = [];
    for (;;) {
      skipSpace();
      if (text[pos] === close) {
        pos++;
        return items;
      }
      items.push(parseValue(depth + 1));
      skipSpace();
      if (text[pos] === ',') pos++;
      else if (text[pos] !== close) error(msg(PY_ERRORS.expectedCommaOr, close));
    }
  };

  const parseString = (): string => {
    const q = text[pos++];
    let out = '';
    while (pos < text.length && text[pos] !== q) {
      if (text[pos] === '\\') {
        // Python gives escapes meanings this parser does not reproduce ('\4' is a control character), and
        // a header written by NumPy never holds one.
        error(msg(PY_ERRORS.escapes));
      } else {
        out += text[pos++];
      }
    }
    if (pos >= text.length) error(msg(PY_ERRORS.unterminated));
    pos++;
    return out;
  };

  const parseValue = (depth: number): PyLiteral => {
    if (depth > MAX_DEPTH) error(msg(PY_ERRORS.tooDeep, MAX_DEPTH));
    skipSpace();
    const c = text[pos];
    if (c === '{') {
      pos++;
      const map = new Map<PyLiteral, PyLiteral>();
      for (;;) {
        skipSpace();
        if (text[pos] === '}') {
          pos++;
          return map;
        }
        const key = parseValue(depth + 1);
        skipSpace();
        if (text[pos] !== ':') error(msg(PY_ERRORS.expectedColon));
        pos++;
        map.set(key, parseValue(depth + 1));
        skipSpace();
        if (text[pos] === ',') pos++;
        else if (text[pos] !== '}') error(msg(PY_ERRORS.expectedCommaOr, '}'));
      }
    }
    if (c === '(') {
      pos++;
      return new PyTupleLiteral(parseSequence(')', depth));
    }
    if (c === '[') {
      pos++;
      return parseSequence(']', depth);
    }
    if (c === "'" || c === '"') return parseString();
    const word = (longSuffix ? /^(?:[-+]?\d+L?|True|False|None)\b/ : /^(?:[-+]?\d+|True|False|None)\b/).exec(text.slice(pos, pos + 32));
    if (!word) return error(msg(PY_ERRORS.unexpected));
    pos += word[0].length;
    if (word[0] === 'True') return true;
    if (word[0] === 'False') return false;
    if (word[0] === 'None') return null;
    const digits = word[0].endsWith('L') ? word[0].slice(0, -1) : word[0];
    const n = Number(digits);
    if (!Number.isSafeInteger(n)) error(msg(PY_ERRORS.intTooLarge, digits.slice(0, 24)));
    return n;
  };

  const value = parseValue(0);
  skipSpace();
  if (pos !== text.length) error(msg(PY_ERRORS.trailing));
  return value;
}
