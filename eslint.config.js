// Flat config: typescript-eslint's recommended rules over every TypeScript file, no import cycle anywhere
// (import-x/no-cycle, resolving .js specifiers to their .ts files), and the import directions of the layout
// (docs/architecture.md): src/ and indexer/ never import each other; indexContract/ and settings/ import neither;
// inside src/, http/ (the problem renderer and the middleware) imports neither the search gateway nor the limiter;
// bench/ does not import test/, and tools/ (shared by both) imports neither; inside indexer/, imports point down
// its layers only (indexerLayers); no function of the programs is over 80 lines, nor over 120 in bench/ and tools/;
// no test bounds a measured duration by a number of its own (tools/eslint/measuredTimeBounds.js).
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import measuredTimeBounds from './tools/eslint/measuredTimeBounds.js';

/** Imports from these folders are an error; `allowed`: files inside them that may still be imported. */
const forbid = (folders, why, allowed = []) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        {
          // (gitignore semantics: a file can be let back in only when its folder itself is not excluded)
          group: [
            ...folders.flatMap((folder) => [`**/${folder}/*`, `**/${folder}/*/**`]),
            ...allowed.map((path) => `!**/${path}`),
          ],
          message: why,
        },
      ],
    },
  ],
});

/** src/'s folders from gateway/ up, in layer order (export/, openapi/ and metrics/ stand side by side). */
const GATEWAY_AND_ABOVE = [
  'gateway',
  'queries',
  'liveState',
  'present',
  'export',
  'openapi',
  'metrics',
  'operations',
  'pages',
];

/**
 * One entry per layer of src/: its files may import neither the folders above them, nor the top-level modules
 * (config, logger, services, tracing, app, server: only the top-level modules import them), nor the indexer.
 */
const srcLayers = (layers) =>
  layers.map(([files, above]) => ({
    files,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                ...['indexer', ...above].flatMap((folder) => [`**/${folder}/*`, `**/${folder}/*/**`]),
                ...['config', 'logger', 'services', 'tracing', 'app', 'server'].map(
                  (name) => `../${name}.js`,
                ),
              ],
              message: `src/ imports point down only (matching/, wire/ < http/ < params/, rateLimit/, zeroResults/ < gateway/ < queries/ < liveState/ < present/ < export/, openapi/, metrics/ < operations/, pages/ < the top-level modules): ${files.join(', ')} may not import ${above.join('/, ')}/, a top-level module or the indexer`,
            },
          ],
        },
      ],
    },
  }));

/**
 * Functions stay short enough to read as their steps (docs/development.md, "Short functions"): blank lines and
 * comments are not counted, so a why-comment never pushes a function over. Tests are exempt.
 */
const maxFunctionLines = (files, max) => ({
  files,
  rules: { 'max-lines-per-function': ['error', { max, skipBlankLines: true, skipComments: true }] },
});

/** One entry per layer of indexer/: its files may not import the folders above them (nor the API). */
const indexerLayers = (layers) =>
  layers.map(([files, above, ignores = []]) => ({
    files,
    ignores,
    rules: forbid(
      ['src', ...above],
      `indexer/ imports point down only (shared modules < elasticsearch/ < sources/, changes/ < sync/ < reindex/ < commands/ < cli.ts): ${files.join(', ')} may not import ${above.join('/, ')}/ (nor the API)`,
    ),
  }));

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench/results/', 'data/', '.before/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
      },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The pages' scripts run in the browser.
    files: ['public/**/*.js'],
    languageOptions: {
      globals: {
        window: 'readonly',
        document: 'readonly',
        location: 'readonly',
        history: 'readonly',
        fetch: 'readonly',
        URLSearchParams: 'readonly',
      },
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: forbid(
      ['indexer'],
      'the API does not import the indexer: share through indexContract/ or settings/',
    ),
  },
  // Inside src/, imports point down only (docs/architecture.md): matching/, wire/ < http/ < params/, rateLimit/, zeroResults/ < gateway/ <
  // queries/ < liveState/ < present/ < export/, openapi/, metrics/ < operations/, pages/ < the top-level modules.
  ...srcLayers([
    [['src/matching/**/*.ts'], ['wire', 'http', 'params', 'rateLimit', 'zeroResults', ...GATEWAY_AND_ABOVE]],
    [['src/wire/**/*.ts'], ['matching', 'http', 'params', 'rateLimit', 'zeroResults', ...GATEWAY_AND_ABOVE]],
    [['src/http/**/*.ts'], ['params', 'rateLimit', 'zeroResults', ...GATEWAY_AND_ABOVE]],
    [['src/params/**/*.ts', 'src/rateLimit/**/*.ts', 'src/zeroResults/**/*.ts'], GATEWAY_AND_ABOVE],
    [['src/gateway/**/*.ts'], GATEWAY_AND_ABOVE.slice(1)],
    [['src/queries/**/*.ts'], GATEWAY_AND_ABOVE.slice(2)],
    [['src/liveState/**/*.ts'], GATEWAY_AND_ABOVE.slice(3)],
    [['src/present/**/*.ts'], GATEWAY_AND_ABOVE.slice(4)],
    [['src/export/**/*.ts', 'src/openapi/**/*.ts', 'src/metrics/**/*.ts'], GATEWAY_AND_ABOVE.slice(7)],
  ]),
  {
    files: ['indexer/**/*.ts'],
    rules: forbid(['src'], 'the indexer does not import the API: share through indexContract/ or settings/'),
  },
  // Inside indexer/, imports point down only (docs/architecture.md): the shared top-level modules (errors, exit
  // codes, log, option parsers, slug order) < elasticsearch/ < sources/, changes/ < sync/ < reindex/ <
  // commands/ < cli.ts. Each entry repeats `src`: a later entry's no-restricted-imports replaces an earlier one's.
  ...indexerLayers([
    [
      ['indexer/*.ts'],
      ['elasticsearch', 'sources', 'changes', 'sync', 'reindex', 'commands'],
      ['indexer/cli.ts'],
    ],
    [['indexer/elasticsearch/**/*.ts'], ['sources', 'changes', 'sync', 'reindex', 'commands']],
    [
      ['indexer/sources/**/*.ts', 'indexer/changes/**/*.ts', 'indexer/searchLog/**/*.ts'],
      ['sync', 'reindex', 'commands'],
    ],
    [['indexer/sync/**/*.ts'], ['reindex', 'commands']],
    [['indexer/reindex/**/*.ts'], ['commands']],
  ]),
  {
    files: ['indexContract/**/*.ts', 'settings/**/*.ts'],
    rules: forbid(['src', 'indexer'], 'the shared folders depend on neither program'),
  },
  maxFunctionLines(['src/**/*.ts', 'indexer/**/*.ts', 'indexContract/**/*.ts', 'settings/**/*.ts'], 80),
  maxFunctionLines(['bench/**/*.ts', 'tools/**/*.ts'], 120),
  {
    files: ['bench/**/*.ts'],
    rules: forbid(['test'], 'the benchmarks do not import the tests: share through tools/'),
  },
  {
    files: ['tools/**/*.ts'],
    rules: forbid(
      ['bench', 'test'],
      'tools/ serves the tests and the benchmarks, and imports neither: what both need lives in tools/',
    ),
  },
  {
    // Timings belong in bench/: a test's bound on a duration is a deadline of the project plus the named slack.
    files: ['test/**/*.ts'],
    plugins: { local: measuredTimeBounds },
    rules: { 'local/no-measured-time-bounds': 'error' },
  },
);
