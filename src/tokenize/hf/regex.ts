// Regular expressions of tokenizer.json (Split pre-tokenizer, Replace normalizer and decoder) in JavaScript.
// HF compiles them with Oniguruma (Ruby syntax, UTF-8, Unicode classes). A pattern is translated to an
// equivalent JavaScript RegExp with the `u` flag where the two differ:
//   \s \S → White_Space (JavaScript's \s also has U+FEFF and lacks U+0085), \d → \p{Nd}, \w → L, M, Nd, Pc;
//   `.` → any character but \n; ^ and $ → line anchors (Ruby's meaning);
//   (?i:…) → each letter becomes the class of its case variants (Node 20 has no inline modifiers), e.g.
//   (?i:'s) → '[Ssſ] as Oniguruma's case folding has it;
//   \x{HHHH} → \u{HHHH}; an escaped punctuation character becomes itself.
// Constructs that cannot be translated exactly (possessive quantifiers, atomic groups, \h, \G, \X, other
// inline options) are refused with an Error naming them.
import { errorArg, MessageError, msg } from '../../protocol/message';
import { TOKENIZER_ERRORS } from './json';

/** The class body of Oniguruma's Unicode \w. */
const WORD_BODY = String.raw`\p{L}\p{M}\p{Nd}\p{Pc}`;
const SYNTAX = new Set('^$\\.*+?()[]{}|/-'.split(''));

const caseVariantsCache = new Map<string, string>();
/** Every code point JavaScript's /x/iu matches for one letter (its simple case folding class). */
function caseVariants(ch: string): string {
  let v = caseVariantsCache.get(ch);
  if (v !== undefined) return v;
  const re = new RegExp(`^\\u{${(ch.codePointAt(0) ?? 0).toString(16)}}$`, 'iu'); // ch is one code point
  v = '';
  for (let cp = 0; cp <= 0xffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const s = String.fromCharCode(cp);
    if (re.test(s)) v += s;
  }
  caseVariantsCache.set(ch, v);
  return v;
}

/** True if case-insensitive matching changes what `ch` matches (letters, and symbols such as Ⓐ). */
function hasCaseVariants(ch: string): boolean {
  if (!/^[^\x00-\x40\x5b-\x60\x7b-\x7f]$/u.test(ch)) return false;
  if (ch.toLowerCase() === ch && ch.toUpperCase() === ch) return false; // caseless (CJK, digits, most symbols)
  return caseVariants(ch).length > 1;
}

export class RegexTranslationError extends Error {}

const MAX_CASE_FOLDED = 64;

/** A Unicode property name as JavaScript spells it: `L`, `White_Space` as they are; a script (`Han`) as Script=Han. */
function jsPropertyName(name: string, refuse: (what: string) => never): string {
  for (const candidate of [name, `Script=${name}`]) {
    try {
      new RegExp(`\\p{${candidate}}`, 'u');
      return candidate;
    } catch {
      // try the next spelling
    }
  }
  return refuse(`the property \\p{${name}}`);
}

/** Translates an Oniguruma pattern from tokenizer.json to the source of a JavaScript RegExp with the `u` flag. */
export function translateOnigPattern(pattern: string): string {
  let out = '';
  let i = 0;
  let inClass = 0; // depth of [...] (Oniguruma allows nesting; we refuse it)
  const ignoreCaseDepth: number[] = []; // group depths at which a (?i: group opened
  let depth = 0;
  // typed on the name, so that TypeScript knows code after a call to it is not reached
  const refuse: (what: string) => never = (what) => {
    throw new RegexTranslationError(`the regular expression ${JSON.stringify(pattern)} uses ${what}, which has no exact JavaScript equivalent here`);
  };
  const ignoreCase = () => ignoreCaseDepth.length > 0;
  // Each distinct character under (?i:…) costs a scan of the BMP (a few ms): real patterns have a handful.
  const folded = new Set<string>();
  const hasVariants = (c: string): boolean => {
    if (!folded.has(c)) {
      folded.add(c);
      if (folded.size > MAX_CASE_FOLDED) refuse(`more than ${MAX_CASE_FOLDED} distinct characters inside (?i:…)`);
    }
    return hasCaseVariants(c);
  };
  while (i < pattern.length) {
    const c = pattern.charAt(i);
    if (c === '\\') {
      const e = pattern.charAt(i + 1);
      if (e === '') refuse('a trailing backslash');
      i += 2;
      switch (e) {
        case 's':
          out += String.raw`\p{White_Space}`;
          continue;
        case 'S':
          out += inClass ? refuse(String.raw`\S inside a character class`) : String.raw`\P{White_Space}`;
          continue;
        case 'd':
          out += String.raw`\p{Nd}`;
          continue;
        case 'D':
          out += inClass ? refuse(String.raw`\D inside a character class`) : String.raw`\P{Nd}`;
          continue;
        case 'w':
          out += inClass ? WORD_BODY : `[${WORD_BODY}]`;
          continue;
        case 'W':
          out += inClass ? refuse(String.raw`\W inside a character class`) : `[^${WORD_BODY}]`;
          continue;
        case 'p':
        case 'P': {
          const m = /^\{\^?[A-Za-z_ =]+\}/.exec(pattern.slice(i));
          if (!m) refuse(`\\${e} without a {Name}`);
          let name = m[0].slice(1, -1);
          let negated = e === 'P';
          if (name.startsWith('^')) {
            negated = !negated;
            name = name.slice(1);
          }
          out += `\\${negated ? 'P' : 'p'}{${jsPropertyName(name, refuse)}}`;
          i += m[0].length;
          continue;
        }
        case 'x': {
          const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(pattern.slice(i));
          const plain = /^[0-9A-Fa-f]{2}/.exec(pattern.slice(i));
          if (braced) {
            out += `\\u{${braced[1]}}`;
            i += braced[0].length;
          } else if (plain) {
            out += `\\x${plain[0]}`;
            i += 2;
          } else refuse(String.raw`\x without hex digits`);
          continue;
        }
        case 'u': {
          const m = /^[0-9A-Fa-f]{4}/.exec(pattern.slice(i));
          if (!m) refuse(String.raw`\u without four hex digits`);
          out += `\\u${m[0]}`;
          i += 4;
          continue;
        }
        case 'r':
        case 'n':
        case 't':
        case 'f':
        case 'v':
        case '0':
        case 'b':
        case 'B':
          if (e === 'b' && inClass) out += String.raw`\x08`;
          else out += `\\${e}`;
          continue;
        default:
          if (/[A-Za-z0-9]/.test(e)) refuse(`the escape \\${e}`);
          // an escaped punctuation character: keep the escape only where JavaScript's u mode allows it
          out += SYNTAX.has(e) ? `\\${e}` : e;
          continue;
      }
    }
    if (inClass) {
      if (c === '[') refuse('a nested character class');
      if (c === ']') inClass--;
      if (c === '&' && pattern[i + 1] === '&') refuse('class intersection (&&)');
      if (c === '-' && ignoreCase()) refuse('a class range inside (?i:…)');
      if (ignoreCase() && hasVariants(c)) out += caseVariants(c);
      else out += c;
      i++;
      continue;
    }
    switch (c) {
      case '[':
        inClass++;
        out += c;
        i++;
        if (pattern[i] === '^') {
          out += '^';
          i++;
        }
        if (pattern[i] === ']') {
          out += String.raw`\]`; // a leading ] is literal in Oniguruma
          i++;
        }
        continue;
      case '(': {
        if (pattern[i + 1] === '?') {
          const rest = pattern.slice(i + 2);
          if (rest.startsWith(':') || rest.startsWith('=') || rest.startsWith('!') || rest.startsWith('<=') || rest.startsWith('<!')) {
            depth++;
            out += '(';
            i++;
            continue;
          }
          if (rest.startsWith('i:')) {
            depth++;
            ignoreCaseDepth.push(depth);
            out += '(?:';
            i += 4;
            continue;
          }
          if (rest.startsWith('>')) refuse('an atomic group (?>…)');
          refuse(`the group ${JSON.stringify(pattern.slice(i, i + 4))}`);
        }
        depth++;
        out += '(';
        i++;
        continue;
      }
      case ')':
        if (ignoreCaseDepth[ignoreCaseDepth.length - 1] === depth) ignoreCaseDepth.pop();
        depth--;
        out += ')';
        i++;
        continue;
      case '.':
        out += String.raw`[^\n]`;
        i++;
        continue;
      case '^':
        out += String.raw`(?<![^\n])`;
        i++;
        continue;
      case '$':
        out += String.raw`(?![^\n])`;
        i++;
        continue;
      case '+':
      case '*':
      case '?':
        out += c;
        i++;
        if (pattern[i] === '+') refuse('a possessive quantifier');
        continue;
      case '{': {
        const m = /^\{(\d+)(,\d*)?\}/.exec(pattern.slice(i));
        if (m) {
          out += m[0];
          i += m[0].length;
          if (pattern[i] === '+') refuse('a quantifier followed by +');
        } else {
          out += '\\{'; // a literal brace
          i++;
        }
        continue;
      }
      default:
        if (ignoreCase() && hasVariants(c)) out += `[${caseVariants(c)}]`;
        else if (c === '/' || c === ']' || c === '}') out += `\\${c}`;
        else out += c;
        i++;
    }
  }
  if (inClass) refuse('an unclosed character class');
  return out;
}

/** Escapes a literal string for a RegExp (HF's `regex::escape` for String patterns). */
export function escapeLiteral(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/** Compiles a tokenizer.json pattern ({String} or {Regex}); errors name `path`. */
export function compilePattern(pattern: { String?: unknown; Regex?: unknown }, path: string): RegExp {
  if (typeof pattern.String === 'string') return new RegExp(escapeLiteral(pattern.String), 'gu');
  if (typeof pattern.Regex === 'string') {
    try {
      return new RegExp(translateOnigPattern(pattern.Regex), 'gu');
    } catch (e) {
      throw new MessageError(msg(TOKENIZER_ERRORS.regex, path, errorArg(e)));
    }
  }
  throw new MessageError(msg(TOKENIZER_ERRORS.pattern, path));
}

/**
 * Matches of `re` in `s` as Oniguruma's find_iter gives them (rust-onig FindMatches): leftmost-first, scanning
 * on from each match's end; an empty match right where the previous match ended is skipped.
 */
export function findMatches(re: RegExp, s: string): [number, number][] {
  const out: [number, number][] = [];
  const r = re.global ? re : new RegExp(re.source, re.flags + 'g'); // a global regex is reused: lastIndex is set below
  let at = 0;
  let lastEnd = -1;
  while (at <= s.length) {
    r.lastIndex = at;
    const m = r.exec(s);
    if (!m) break;
    const start = m.index;
    const end = start + m[0].length;
    if (start === end && end === lastEnd) {
      if (at >= s.length) break;
      const cp = s.codePointAt(at) ?? 0; // at < s.length: a code point is there
      at += cp > 0xffff ? 2 : 1;
      continue;
    }
    out.push([start, end]);
    lastEnd = end;
    at = end;
  }
  return out;
}
