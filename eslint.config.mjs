// `npm run lint:code`: typescript-eslint's strict, type-aware rules, and the architecture as import boundaries
// (ARCHITECTURE.md): pure code (engine, models, weights, tokenize, lint, protocol) imports no vscode, no node
// built-in and no host, worker, CLI or webview code, and uses no DOM or node globals; src/engine imports only
// src/engine; only src/host (and src/extension.ts) imports vscode; only src/worker and src/cli touch
// worker_threads; the webview imports nothing from src/host, vscode or node.
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const NODE_BUILTINS = [...builtinModules.filter((m) => !m.startsWith('_')), ...builtinModules.map((m) => `node:${m}`)];
const PURE = ['src/engine/**/*.ts', 'src/models/**/*.ts', 'src/weights/**/*.ts', 'src/tokenize/**/*.ts', 'src/lint/**/*.ts', 'src/protocol/**/*.ts'];

const noNode = { paths: NODE_BUILTINS.map((name) => ({ name, message: 'pure code imports no node built-in (ARCHITECTURE.md)' })) };
const notFromHostSide = {
  group: ['**/host', '**/host/**', '**/worker', '**/worker/**', '**/cli', '**/cli/**', '**/webview', '**/webview/**', '**/extension'],
  message: 'pure code imports no host, worker, CLI or webview code (ARCHITECTURE.md)',
};
const noVscode = { name: 'vscode', message: "only src/host and src/extension.ts import 'vscode' (ARCHITECTURE.md)" };
const noWorkerThreads = ['worker_threads', 'node:worker_threads'].map((name) => ({
  name,
  message: 'only src/worker and src/cli touch worker_threads (ARCHITECTURE.md)',
}));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.cache/**',
      'media/**',
      'src/engine/kernels/generated/**',
      'test/fixtures/**',
      'test/lint-corpus/cases/**',
      'test/lint-holdout/cases/**',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Rules of the strict preset that would force mass churn today, in files other engineers are editing in
      // parallel (five branches): each is off with the reason, to be turned on file by file later.
      //   Non-null assertions on indices the code has just checked (typed-array kernels, tree walks): hundreds.
      //   On for src/protocol, src/weights, src/cli and src/worker (below).
      '@typescript-eslint/no-non-null-assertion': 'off',
      //   Numbers in template strings are the norm in every message this project prints.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: true }],
      //   Flags defensive checks on values typed as non-null that come from another thread, a file or the
      //   webview (hostile input is checked at run time on purpose); hundreds of hits across src/.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      //   Handlers and visitors are async or return values by contract even when one of them does not await.
      '@typescript-eslint/require-await': 'off',
      //   `a ?? (b = c)`-style and `void` shorthand in arrow bodies, used throughout the lint analysis.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      //   `x || y` on strings and numbers where empty means "absent" (0 and '' are meant to fall through): style only.
      '@typescript-eslint/prefer-nullish-coalescing': 'off',
      //   Deliberate `x !== undefined && x.y` checks spelled out in the lint analysis and the kernels: style only.
      '@typescript-eslint/prefer-optional-chain': 'off',
      //   Dynamic property deletion in caches and option objects.
      '@typescript-eslint/no-dynamic-delete': 'off',
      //   Classes with only static members (rule tables) and namespaces of constants.
      '@typescript-eslint/no-extraneous-class': 'off',
      //   Numbers and unknowns turned into strings in error messages (`${e}`) after an explicit check.
      '@typescript-eslint/no-base-to-string': 'off',
      //   `void param;` marks a parameter unused on purpose (the fix would leave a bare expression statement).
      '@typescript-eslint/no-meaningless-void-operator': 'off',
      //   `x === true` / `a[i] !== false` on values typed boolean that may be undefined at run time (an index past
      //   the end, a field missing from a file or a message): the comparison is the check.
      '@typescript-eslint/no-unnecessary-boolean-literal-compare': 'off',
      //   `String(x)` on values typed as strings that arrive from the webview or a file: a defensive conversion.
      '@typescript-eslint/no-unnecessary-type-conversion': 'off',
      //   `new Array(n)` / `new Map()` without type arguments (typed by the variable they are assigned to): 11
      //   one-line fixes in tokenize, lint, cli and engine files being edited today. Turn on after the merge.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      //   Spreading a string into code points is what the tokenizers and the webview mean (not graphemes).
      '@typescript-eslint/no-misused-spread': 'off',
      //   Tree visitors return `boolean | void` (false = do not descend): an established callback shape.
      '@typescript-eslint/no-invalid-void-type': 'off',
      //   Interfaces declare callbacks in method syntax; the values passed are plain functions (no `this`).
      '@typescript-eslint/unbound-method': 'off',
      //   vscode.Disposable is duck-typed by VS Code itself: `{ dispose() }` objects are the documented form.
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'off',
      //   `.catch((e) => ...)` callbacks that only print the error (benches, e2e, host commands).
      '@typescript-eslint/use-unknown-in-catch-callback-variable': 'off',
      //   A named, documented options type that adds nothing yet (CreateLinterOptions extends EngineHooks).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      //   `'…' + n` in the debugger's warning texts: string + number is fine.
      '@typescript-eslint/restrict-plus-operands': ['error', { allowNumberAndString: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The strict rules the folders below comply with today (turned off above for the rest of the code): no `!`
    // (an index or a lookup is checked, with an error naming the input), `??` and `?.` where they say the same.
    // Not here: src/lint, src/host, src/engine, src/models and src/record (other branches edit them this session),
    // and webview (18 `!` on DOM lookups and canvas state).
    files: ['src/protocol/**/*.ts', 'src/weights/**/*.ts', 'src/cli/**/*.ts', 'src/worker/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/prefer-nullish-coalescing': 'error',
      '@typescript-eslint/prefer-optional-chain': 'error',
    },
  },
  {
    // src/tokenize: no `!` either (a code point or an index read is checked, or a RangeError names what was read
    // past its end); `x || undefined` on flags stays (false is meant to become absent).
    files: ['src/tokenize/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  {
    // src/record: no `!` either (shape reads are destructured and checked; its typed-array loops are in row-loops.ts).
    files: ['src/record/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  {
    // Off above for the whole code base, and with no hit in these folders: kept that way.
    files: ['src/protocol/**/*.ts', 'src/weights/**/*.ts', 'src/tokenize/**/*.ts', 'src/cli/**/*.ts', 'src/worker/**/*.ts', 'webview/**/*.ts'],
    rules: {
      '@typescript-eslint/no-dynamic-delete': 'error',
      '@typescript-eslint/no-extraneous-class': 'error',
      '@typescript-eslint/no-meaningless-void-operator': 'error',
      '@typescript-eslint/no-unsafe-class-instance-assignment': 'error',
      '@typescript-eslint/use-unknown-in-catch-callback-variable': 'error',
    },
  },
  {
    // web-tree-sitter is a CommonJS module with `export =`: `import X = require(...)` is its typed import.
    files: ['src/lint/parser.ts'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Pure code: no vscode, no node, no host-side code, no DOM or node globals.
    files: PURE,
    rules: {
      'no-restricted-imports': ['error', { paths: [noVscode, ...noNode.paths], patterns: [notFromHostSide] }],
      'no-restricted-globals': [
        'error',
        ...['document', 'window', 'navigator', 'process', 'Buffer', '__dirname', '__filename', 'require'].map((name) => ({
          name,
          message: 'pure code uses no DOM or node globals (ARCHITECTURE.md)',
        })),
      ],
    },
  },
  {
    // src/engine is the core of the core: it imports only itself (it runs unchanged in the worker, the CLI and a browser).
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode, ...noNode.paths],
          patterns: [
            notFromHostSide,
            { regex: '^(?!\\.)', message: 'src/engine imports only relative modules inside src/engine' },
            {
              regex: '^(?:\\.\\./)+(?:models|weights|tokenize|lint|protocol|host|worker|cli|extension|webview|test|bench|scripts)(?:/|$)',
              message: 'src/engine imports nothing outside src/engine',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/worker/**/*.ts', 'src/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
  {
    // Neither vscode nor worker_threads in the host (the host starts workers only through src/worker).
    files: ['src/host/**/*.ts', 'src/extension.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: noWorkerThreads }] },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode, ...NODE_BUILTINS.map((name) => ({ name, message: 'the webview runs in the browser: no node built-ins' }))],
          patterns: [
            {
              group: ['**/src/host', '**/src/host/**', '**/src/worker/**', '**/src/cli/**'],
              message:
                'the webview imports nothing from src/host, src/worker or src/cli (it runs in the browser; it talks to the host through src/protocol/webview.ts)',
            },
          ],
        },
      ],
    },
  },
  {
    // Tests, benches and scripts: the same strict rules, with what test code legitimately does.
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-empty-function': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unnecessary-type-parameters': 'off',
      '@typescript-eslint/restrict-plus-operands': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // the bundling test evaluates the esbuild bundle it just built
      '@typescript-eslint/no-implied-eval': 'off',
    },
  },
);
