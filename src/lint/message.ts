// Messages of the linter as parts: an English template with vscode.l10n's `{0}` placeholders plus its arguments,
// so that a host can translate each template (the editor: vscode.l10n.t with l10n/bundle.l10n.*.json) while the
// CLI prints the English text. Arguments are code fragments, numbers and names, or messages themselves (a phrase
// that varies, "the key axis" / "the query axis", is its own template): never English phrases as strings.
//
// Every template is declared in a table with `defineTemplates`, which records it in a registry that tests
// enumerate (each must have a translation with the same placeholders); `msg` accepts only such templates.

declare const templateBrand: unique symbol;

/** An English template declared with `defineTemplates`. */
export type Template = string & { readonly [templateBrand]: true };

/** A template and its arguments, plain data (it crosses worker boundaries as is). */
export interface MessageParts {
  readonly template: string;
  readonly args: readonly MessageArg[];
}

export type MessageArg = string | number | MessageParts;

const registry = new Set<string>();

/** Declares a table of templates (recorded for the translation tests) and returns it typed as templates. */
export function defineTemplates<K extends string>(table: Record<K, string>): Readonly<Record<K, Template>> {
  for (const t of Object.values<string>(table)) registry.add(t);
  return table as Record<K, Template>;
}

/** Every template declared so far (all of the linter's once its modules are loaded). */
export function registeredTemplates(): readonly string[] {
  return [...registry];
}

export function msg(template: Template, ...args: MessageArg[]): MessageParts {
  return { template, args };
}

/** Translates one template with its already rendered arguments (vscode.l10n.t in the editor). */
export type TranslateTemplate = (template: string, args: readonly (string | number)[]) => string;

/** Fills `{n}` placeholders the way vscode.l10n.t does (an argument that is missing leaves its placeholder). */
export function fillTemplate(template: string, args: readonly (string | number)[]): string {
  return template.replace(/\{(\d+)\}/g, (whole, i: string) => (Number(i) < args.length ? String(args[Number(i)]) : whole));
}

/** The message as text: nested messages first, each template translated by `translate` (English by default). */
export function renderMessage(m: MessageParts, translate: TranslateTemplate = fillTemplate): string {
  return translate(
    m.template,
    m.args.map((a) => (typeof a === 'object' ? renderMessage(a, translate) : a)),
  );
}
