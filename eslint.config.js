import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// One-way imports: shared code (lib, services, config, components) → features → pages → app.
// A feature never imports another feature; nothing in src imports tests.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const zones = [
  { target: './src/lib', from: ['./src/app', './src/pages', './src/features', './src/components', './src/i18n'], message: 'lib/ is pure: no React, no I/O, no app code.' },
  { target: './src/lib', from: './src/services', message: 'lib/ is pure: no React, no I/O, no app code.' },
  { target: './src/services', from: ['./src/app', './src/pages', './src/features', './src/components'], message: 'services/ talk to the outside world and know nothing of the UI.' },
  { target: './src/config', from: ['./src/app', './src/pages', './src/features', './src/components', './src/services'], message: 'config/ holds values only.' },
  { target: './src/components', from: ['./src/app', './src/pages', './src/features'], message: 'components/ are shared and presentational.' },
  { target: './src/features', from: ['./src/app', './src/pages'], message: 'features/ do not reach up into pages or the app.' },
  // The coach's conversation is a plain object: the hook and the components subscribe to it.
  {
    target: './src/features/coach/session',
    from: ['./node_modules/react', './node_modules/react-dom', './src/components'],
    message: 'The coach session is plain TypeScript: no React, no components.',
  },
  { target: './src/pages', from: ['./src/app'], message: 'pages/ do not reach up into the app.' },
  // Tests beside their modules in src take their helpers and browser fakes from tests/support/browser.
  { target: './src', from: './tests', except: ['./support/browser'], message: 'Tests in src/ import only tests/support/browser.' },
  { target: './src', from: './supabase/local', message: 'The app never imports the local stack.' },
  { target: './src', from: './supabase/functions', except: ['./_shared'], message: 'The app shares only supabase/functions/_shared with the functions.' },
  { target: './src', from: './scripts', message: 'src/ never imports scripts.' },
  { target: './supabase/local', from: ['./src', './supabase/functions', './tests', './scripts'], message: 'The local stack stands on its own (it loads functions by path at runtime).' },
  { target: './supabase/functions', from: ['./src', './supabase/local', './tests', './scripts'], message: 'Edge functions run under Deno on their own: they import only each other and _shared.' },
  { target: './supabase/functions/_shared', from: './supabase/functions', except: ['./_shared'], message: 'Shared function code does not import a function.' },
  { target: './tests/fixtures', from: ['./tests/e2e', './tests/local', './tests/db', './tests/pdf', './tests/scripts', './tests/functions'], message: 'Test fixtures stand alone; tests import them, not the other way round.' },
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'A feature does not import another feature.',
  })),
];

// Production code in src never imports test code, not even the helpers written for its tests.
const productionZones = [
  ...zones,
  { target: './src', from: './tests', message: 'src/ never imports test code.' },
];

// Resolves TypeScript sources (.ts/.tsx, `.js` written for `.ts`, tsconfig settings). Without a
// resolver the import rules cannot follow an import and silently check nothing.
const typescriptResolver = createNodeResolver({
  extensions: ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.json'],
  extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
  conditionNames: ['types', 'import', 'default'],
  tsconfig: { configFile: new URL('./tsconfig.node.json', import.meta.url).pathname, references: 'auto' },
});

export default tseslint.config(
  { ignores: ['tests/fixtures/lint', 'dist', 'dist-*', 'coverage', 'playwright-report', 'test-results', '.supabase-local', 'node_modules'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json', './tsconfig.node.json'], tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': importX.flatConfigs.typescript.settings['import-x/extensions'],
      'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'],
      'import-x/resolver-next': [typescriptResolver],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: true }],
      'import-x/no-restricted-paths': ['error', { zones }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-unresolved': ['error', { ignore: ['^virtual:', '\\?(raw|url|worker|inline)$'] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.{ts,tsx}'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: productionZones }] },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.strict.rules,
    },
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
