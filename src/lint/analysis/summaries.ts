// Keys of function summaries: what a function returns depends on the abstract values it is called with, so
// its evaluation context is cached per (function, abstract arguments) and shared by every call site that
// passes the same abstract values. A key spells a value structurally (syntax nodes, scopes and classes by
// their ids, so values from different nodes stay apart), bounded in depth and length.
import type { AValue } from './values';

const MAX_DEPTH = 5;
const MAX_KEY_CHARS = 4_000;

const keyCache = new WeakMap<object, string>();

/** A structural key of an abstract value (equal keys: the same abstract value). */
export function valueKey(v: AValue | undefined): string {
  if (!v) return '-';
  const hit = keyCache.get(v);
  if (hit !== undefined) return hit;
  let k = keyOf(v, 0);
  if (k.length > MAX_KEY_CHARS) k = `${k.slice(0, MAX_KEY_CHARS)}#${hash(k)}`;
  keyCache.set(v, k);
  return k;
}

function keyOf(x: unknown, depth: number): string {
  if (x === null || x === undefined) return '';
  switch (typeof x) {
    case 'number':
    case 'boolean':
      return String(x);
    case 'string':
      return JSON.stringify(x);
    case 'object':
      break;
    default:
      return '?';
  }
  if (depth > MAX_DEPTH) return '…';
  if (Array.isArray(x)) return `[${x.map((e) => keyOf(e, depth + 1)).join(',')}]`;
  const o = x as Record<string, unknown>;
  // Syntax nodes, scopes and classes by identity (their ids are unique within one file's analysis).
  if (typeof o.type === 'string' && typeof o.id === 'number' && typeof o.start === 'number') return `n${o.id}`;
  if (typeof o.kind === 'string' && typeof o.id === 'number' && 'envAtEnd' in o) return `s${o.id}`;
  if ('methods' in o && 'attrDefs' in o && typeof o.node === 'object' && o.node) return `c${(o.node as { id: number }).id}`;
  const parts: string[] = [];
  for (const name of Object.keys(o).sort()) {
    const val = o[name];
    if (val === undefined) continue;
    if (name === 'ctx' && typeof val === 'object' && val) {
      parts.push(`ctx:${(val as { id: number }).id}`);
      continue;
    }
    parts.push(`${name}:${keyOf(val, depth + 1)}`);
  }
  return `{${parts.join(';')}}`;
}

function hash(s: string): string {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return (h >>> 0).toString(36);
}
