import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const sqliteThroughPlatform = ['node:sqlite', 'sqlite'].map((name) => ({
  name,
  message: "Use openDatabase and the types of 'src/platform/sqlite.js'.",
}));

// The domain never imports the fast paths: the edge hands them in (docs/architecture.md, fast paths).
const fastPathsHandedIn = {
  group: ['**/fast/*', '**/fast/**'],
  message:
    'The domain does not import src/fast/: take the fast function as a parameter, handed in by the edge.',
};

// cli/ stands on top: it parses and prints; the wiring below it (src/compose/) never reaches back up.
const cliOnTop = {
  group: ['**/cli/*', '**/cli/**'],
  message: 'Only src/cli/ imports src/cli/: move what is needed below it (src/compose/, src/terminal/).',
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/data/', 'scratch/'] },
  { languageOptions: { globals: globals.node } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // node:sqlite is loaded quietly (its ExperimentalWarning) by src/platform, which also fills its gaps.
    ignores: ['src/platform/sqlite.ts', 'src/platform/nodeSqlite.js'],
    rules: {
      'no-restricted-imports': ['error', { paths: sqliteThroughPlatform }],
    },
  },
  {
    // Every folder below cli/ (the blocks after this one repeat the pattern: a later block's rule replaces it).
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**', 'src/**/*.test.ts', 'src/platform/sqlite.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: sqliteThroughPlatform, patterns: [cliOnTop] }],
    },
  },
  {
    // The domain folders outside the pure core (whose block below fences src/fast/ too).
    files: [
      'src/check/**/*.ts',
      'src/report/**/*.ts',
      'src/send/**/*.ts',
      'src/run/**/*.ts',
      'src/state/**/*.ts',
      'src/chargebacks/**/*.ts',
      'src/relay/**/*.ts',
      'src/sandbox/**/*.ts',
      'src/decisions/**/*.ts',
    ],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: sqliteThroughPlatform, patterns: [fastPathsHandedIn, cliOnTop] },
      ],
    },
  },
  {
    // The pure core; readers, state, formatters and the CLI are the edges.
    files: [
      'src/core/**/*.ts',
      'src/schema/**/*.ts',
      'src/validate/**/*.ts',
      'src/convert/**/*.ts',
      'src/mapping/**/*.ts',
      'src/flow/**/*.ts',
      'src/resources/**/*.ts',
      'src/report/report.ts',
      'src/send/retryPolicy.ts',
      'src/send/responseBody.ts',
      'src/send/tokenBucket.ts',
      'src/sandbox/decide.ts',
      'src/sandbox/faults.ts',
      'src/sandbox/sandboxStore.ts',
      'src/sandbox/judge.ts',
      'src/sandbox/protocolRules.ts',
      'src/sandbox/timelineSummary.ts',
      'src/sandbox/requestGate.ts',
    ],
    ignores: ['src/**/*.test.ts'],
    rules: {
      // The core stays pure: I/O belongs to the edges (cli, readers, formatters).
      'no-restricted-imports': [
        'error',
        {
          paths: [
            'fs',
            'node:fs',
            'node:fs/promises',
            'process',
            'node:process',
            'undici',
            'commander',
            'chalk',
            'better-sqlite3',
            ...sqliteThroughPlatform,
          ],
          patterns: [fastPathsHandedIn, cliOnTop],
        },
      ],
      'no-restricted-globals': ['error', 'process'],
    },
  },
  {
    // Prettier wraps code at 110 but leaves strings and comments whole: a line over 120 is one to split by hand.
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.js', 'scripts/**/*.{js,mjs,ts}'],
    rules: {
      'max-len': ['error', { code: 120, ignoreUrls: true, ignoreRegExpLiterals: true }],
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The bin is CommonJS so that any Node parses it (src/cli/collect.cjs): require is how it imports.
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
