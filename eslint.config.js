// `npm run lint`: typescript-eslint's recommended rules (from the syntax alone, without type information, to
// stay fast), the floors and the engine door of docs/architecture/layout.md, and no import cycles. Layout is
// Prettier's (`prettier --check`), so eslint-config-prettier comes last and turns off the rules that would
// fight it.
//
// typescript-eslint reads code through TypeScript's JavaScript API, which TypeScript 7 does not ship: the
// package named `typescript` is TypeScript 6's API (@typescript/typescript6), and the compiler that checks
// and builds the code (`tsc`, bin/build-dist.js) is TypeScript 7, installed as @typescript/native-7.
// test/lint/toolchain.test.ts holds both in place.
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier/flat';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/**
 * The floors, from the top (0) down: a file imports from its own floor or a floor below it, never from one
 * above. Tests (test/) and benchmarks (bench/) may import anything. This list is the one the lint enforces;
 * docs/architecture/layout.md says what lives on each floor and must name the same folders.
 */
const floors = [
  { name: 'entry points', files: ['src/cli/**', 'src/server.ts', 'examples/**', 'bin/**'] },
  { name: 'wiring', files: ['src/index.ts', 'src/service.ts', 'src/service-context.ts'] },
  { name: 'the HTTP edge', files: ['src/edge/**'] },
  { name: 'faces', files: ['interactions/**', 'src/account-page/**', 'src/portal/**', 'src/fedcm/**'] },
  { name: "the engine's configuration", files: ['src/provider/**'] },
  { name: 'page kit and outbound', files: ['src/pages/**', 'src/mail/**', 'src/metrics/**'] },
  {
    name: 'domain',
    files: [
      'src/accounts/**',
      'src/clients/**',
      'src/consents/**',
      'src/grants/**',
      'src/users/**',
      'src/keys/**',
      'src/phone/**',
      'src/passkeys/**',
    ],
  },
  { name: 'leaves', files: ['src/i18n/**', 'src/config/**', 'src/policy/**', 'src/log/**', 'src/http/**', 'adapters/**'] },
];

/** The door into oidc-provider's internals: engine.ts, and the files behind it. */
const door = { entry: 'src/provider/engine.ts', behind: 'src/provider/engine/**' };

/** A pattern the import-x rule reads as a glob (it takes a plain path for a folder, and no mix of the two). */
const glob = (pattern) => (/[*?{}()[\]!]/.test(pattern) ? pattern : pattern.replace(/([^/]+)$/, '@($1)'));

const floorZones = floors.flatMap((floor, level) =>
  floors.slice(0, level).map((above, aboveLevel) => ({
    target: floor.files,
    from: above.files.map(glob),
    message:
      `Floor ${level} (${floor.name}) imports from floor ${aboveLevel} (${above.name}), above it: imports go down ` +
      'the floors, never up (docs/architecture/layout.md).',
  })),
);

// Every file of the floors but the door itself, and the benchmarks: tests alone may open engine/ directly.
const outsideTheDoor = [
  ...floors.flatMap((floor) => floor.files).filter((pattern) => pattern !== 'src/provider/**'),
  'src/provider/!(engine).ts',
  'src/provider/!(engine)/**',
  'bench/**',
];
const doorZone = {
  target: outsideTheDoor,
  from: [door.behind],
  message: `The engine's internals are reached through ${door.entry} only: import what you need from there (re-export it there if it is missing).`,
};

const sourceFiles = ['{src,adapters,interactions,examples,bin}/**/*.{ts,js,mjs}'];

/** Every source file sits on exactly one floor, so that a new folder cannot escape the floors' rule. */
const floorsPlugin = {
  meta: { name: 'floors' },
  rules: {
    'on-one-floor': {
      meta: {
        type: 'problem',
        docs: { description: 'Every source file sits on exactly one floor (docs/architecture/layout.md).' },
        schema: [],
        messages: {
          none: 'This file is on no floor: name its folder on one of the floors in eslint.config.js (and in docs/architecture/layout.md).',
          many: 'This file is on more than one floor ({{floors}}): the floors in eslint.config.js overlap.',
        },
      },
      create(context) {
        const file = path.relative(root, context.physicalFilename);
        const on = floors.filter((floor) => floor.files.some((pattern) => path.matchesGlob(file, pattern)));
        if (on.length === 1) return {};
        return {
          Program(node) {
            if (on.length === 0) context.report({ node, messageId: 'none' });
            else context.report({ node, messageId: 'many', data: { floors: on.map((floor) => floor.name).join(', ') } });
          },
        };
      },
    },
  },
};

export default defineConfig(
  // Only the project's code: everything at the top but these folders and config files is left alone (build
  // output, data, pages' templates and static files, others' scratch files).
  globalIgnores([
    '*',
    '!src/',
    '!adapters/',
    '!interactions/',
    '!test/',
    '!bench/',
    '!examples/',
    '!bin/',
    '!eslint.config.js',
    '!vitest.config.ts',
    '!vitest.unit.config.ts',
    'bench/results/',
  ]),
  {
    files: ['**/*.{ts,js,mjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The input guards match control characters on purpose (headers, parameters, redirect URIs, return paths).
      'no-control-regex': 'off',
      // Names starting with `_` are unused on purpose (a parameter kept for its position, a value destructured away).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.{ts,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })],
      // no-cycle reads the imported files too: which ones, and with which parser.
      'import-x/extensions': ['.ts', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: [...floorZones, doorZone] }],
      // Type-only imports are left out: they vanish when the code runs.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: sourceFiles,
    plugins: { floors: floorsPlugin },
    rules: { 'floors/on-one-floor': 'error' },
  },
  {
    // The engine's own files are oidc-provider's, deep paths included; no other file imports them.
    files: ['**/*.{ts,js,mjs}'],
    ignores: [door.behind],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^oidc-provider/',
              message: `oidc-provider's internals are imported only under ${path.dirname(door.behind)}/, behind the door: go through ${door.entry}.`,
            },
          ],
        },
      ],
    },
  },
  prettier,
);
