import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX from 'eslint-plugin-import-x';
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
  { target: './src/lib', from: ['./src/app', './src/pages', './src/features', './src/components', './src/services', './src/i18n'], message: 'lib/ is pure: no React, no I/O, no app code.' },
  { target: './src/services', from: ['./src/app', './src/pages', './src/features', './src/components'], message: 'services/ talk to the outside world and know nothing of the UI.' },
  { target: './src/config', from: ['./src/app', './src/pages', './src/features', './src/components', './src/services'], message: 'config/ holds values only.' },
  { target: './src/components', from: ['./src/app', './src/pages', './src/features'], message: 'components/ are shared and presentational.' },
  { target: './src/features', from: ['./src/app', './src/pages'], message: 'features/ do not reach up into pages or the app.' },
  { target: './src/pages', from: ['./src/app'], message: 'pages/ do not reach up into the app.' },
  { target: './src', from: './tests', message: 'src/ never imports test code.' },
  { target: './supabase/local', from: './src', message: 'The local stack stands on its own.' },
  ...features.map((name) => ({
    target: `./src/features/${name}`,
    from: './src/features',
    except: [`./${name}`],
    message: 'A feature does not import another feature.',
  })),
];

export default tseslint.config(
  { ignores: ['dist', 'dist-*', 'coverage', 'playwright-report', 'test-results', '.supabase-local', 'node_modules'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json', './tsconfig.node.json'], tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-confusing-void-expression': 'off',
      '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: true }],
      'import-x/no-restricted-paths': ['error', { zones }],
    },
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
