// Flat config: typescript-eslint's recommended rules over every TypeScript file, and the import directions of
// the layout (docs/architecture.md): src/ and indexer/ never import each other; indexContract/ and settings/
// import neither.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const forbid = (folders, why) => ({
  'no-restricted-imports': [
    'error',
    { patterns: [{ group: folders.flatMap((folder) => [`**/${folder}/**`, `**/${folder}`]), message: why }] },
  ],
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'bench/results/', 'data/'] },
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
    rules: {
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
  {
    files: ['indexer/**/*.ts'],
    rules: forbid(['src'], 'the indexer does not import the API: share through indexContract/ or settings/'),
  },
  {
    files: ['indexContract/**/*.ts', 'settings/**/*.ts'],
    rules: forbid(['src', 'indexer'], 'the shared folders depend on neither program'),
  },
);
