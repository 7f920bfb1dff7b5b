// The linter's messages use the one template mechanism of the codebase (src/protocol/message.ts): templates
// declared with `defineTemplates` (the linter's under the l10n comment `lint`), messages made with `msg`.
export * from '../protocol/message';
