// Messages as parts: an English template with vscode.l10n's `{0}` placeholders plus its arguments, so that a
// host can translate each template (the editor: vscode.l10n.t with l10n/bundle.l10n.*.json) while the CLI and
// the logs print the English text. Arguments are code fragments, numbers and names, or messages themselves (a
// phrase that varies, "the key axis" / "the query axis", is its own template): never English phrases as strings.
//
// Every template is declared in a table with `defineTemplates` under an l10n comment (its bundle key is
// `<English>/<comment>`): the linter's under `lint`, the errors the user sees (loaders, model configs,
// tokenizers, the engine session) under `error`, the recorder's runtime findings under `runtime`, a model's name
// and description (src/models/model-text.ts) under `model`, the engine's progress text (src/protocol/engine-progress.ts)
// under `progress`. The
// declaration records it in a registry that tests enumerate (each must have a translation with the same
// placeholders); `msg` accepts only such templates. An error whose text is a message is a `MessageError`: it
// crosses the worker protocol as its parts (src/protocol/rpc.ts) and the host renders it in the display language.
// A message declared under another comment than the message it is an argument of (a model's name, `model`, in
// an engine error, `error`) says so with `inDomain`: it and its nested messages are translated under its own.

declare const templateBrand: unique symbol;

/** An English template declared with `defineTemplates`. */
export type Template = string & { readonly [templateBrand]: true };

/** A template and its arguments, plain data (it crosses worker boundaries as is). */
export interface MessageParts {
  readonly template: string;
  readonly args: readonly MessageArg[];
  /** The l10n comment this message and its nested ones are translated under, when not the enclosing message's. */
  readonly domain?: TemplateDomain;
}

export type MessageArg = string | number | MessageParts;

/** The l10n comments of the template tables: a template's bundle key is `<English>/<comment>`. */
export type TemplateDomain = 'lint' | 'error' | 'runtime' | 'model' | 'progress';

const DOMAINS: readonly TemplateDomain[] = ['lint', 'error', 'runtime', 'model', 'progress'];

const registry = new Map<TemplateDomain, Set<string>>();

/**
 * Declares a table of templates under an l10n comment (recorded for the translation tests) and returns it
 * typed as templates.
 */
export function defineTemplates<K extends string>(table: Record<K, string>, domain: TemplateDomain = 'lint'): Readonly<Record<K, Template>> {
  let set = registry.get(domain);
  if (!set) registry.set(domain, (set = new Set()));
  for (const t of Object.values<string>(table)) set.add(t);
  return table as Record<K, Template>;
}

/** Every template declared so far under `domain` (all of them once the declaring modules are loaded). */
export function registeredTemplates(domain: TemplateDomain = 'lint'): readonly string[] {
  return [...(registry.get(domain) ?? [])];
}

export function msg(template: Template, ...args: MessageArg[]): MessageParts {
  return { template, args };
}

/**
 * A message declared under another l10n comment than the message it will be an argument of, marked so (a
 * model's name, declared under `model`, in an engine error): the host translates it under `domain`.
 */
export function inDomain(parts: MessageParts, domain: TemplateDomain): MessageParts {
  return { ...parts, domain };
}

/**
 * Translates one template with its already rendered arguments (vscode.l10n.t in the editor); `domain` is the
 * comment a message marked with `inDomain` (or nested in one) is declared under, undefined for the caller's own.
 */
export type TranslateTemplate = (template: string, args: readonly (string | number)[], domain?: TemplateDomain) => string;

/** Fills `{n}` placeholders the way vscode.l10n.t does (an argument that is missing leaves its placeholder). */
export function fillTemplate(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

/**
 * The message as text: nested messages first, each template translated by `translate` (English by default),
 * told the domain of a message marked with `inDomain` and of the messages nested in it.
 */
export function renderMessage(m: MessageParts, translate: TranslateTemplate = fillTemplate, outer?: TemplateDomain): string {
  const domain = m.domain ?? outer;
  return translate(
    m.template,
    m.args.map((a) => (typeof a === 'object' ? renderMessage(a, translate, domain) : a)),
    domain,
  );
}

/** An error whose message is a template and arguments; `message` is its English rendering (logs, the CLI). */
export class MessageError extends Error {
  constructor(
    readonly parts: MessageParts,
    options?: { cause?: unknown },
  ) {
    super(renderMessage(parts), options);
  }
}

/** Whether `v` is message parts as plain data (what crosses a channel is checked before it is rendered). */
export function isMessageParts(v: unknown, depth = 0): v is MessageParts {
  if (depth > 16 || typeof v !== 'object' || v === null) return false;
  const { template, args, domain } = v as { template?: unknown; args?: unknown; domain?: unknown };
  return (
    typeof template === 'string' &&
    (domain === undefined || DOMAINS.includes(domain as TemplateDomain)) &&
    Array.isArray(args) &&
    args.every((a: unknown) => typeof a === 'string' || typeof a === 'number' || isMessageParts(a, depth + 1))
  );
}

/** The parts of an error made from a template (a MessageError, or one revived from a channel), if it is one. */
export function messagePartsOf(e: unknown): MessageParts | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const parts = (e as { parts?: unknown }).parts;
  return isMessageParts(parts) ? parts : undefined;
}

/** An error as a message argument: its parts when it was made from templates, else its (English) text. */
export function errorArg(e: unknown): MessageArg {
  return messagePartsOf(e) ?? (e instanceof Error ? e.message : String(e));
}
