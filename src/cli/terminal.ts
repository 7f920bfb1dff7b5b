// Text for a terminal. File names, messages and tokens come from files the user did not necessarily write:
// a name holding ESC [2J clears the screen, one holding a newline forges an output line, and bidirectional
// overrides reorder what is shown (Trojan Source). Every such character is printed as an escape instead.

/** C0 and C1 controls, DEL, zero-width and direction-changing characters, line/paragraph separators, BOM. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** `s` with every control or invisible formatting character written as \n, \t, \r or \u{XXXX}. */
export function escapeControls(s: string): string {
  return s.replace(UNSAFE, (c) =>
    c === '\n' ? '\\n' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : `\\u{${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}}`,
  );
}

/** Escapes each line of a multi-line text, keeping its line breaks. */
export function escapeLines(text: string): string {
  return text.split('\n').map(escapeControls).join('\n');
}
