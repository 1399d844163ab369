// ESLint flat config: @eslint/js and typescript-eslint's recommended (not type-checked) rules.
// Type-aware linting would re-run the type checker that `npm run typecheck` already runs.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // Generated (schemas → schemas/generated/types/ and validators), built or installed: not linted.
  { ignores: ['node_modules/', 'dist/', 'lib/', '.dist-*/', 'coverage/', '.bench/', 'schemas/generated/types/', 'schemas/generated/catalog/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a binding kept on purpose (a rest sibling dropped, a signature's arg).
      '@typescript-eslint/no-unused-vars': ['error', {
        argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_',
        destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true,
      }],
      // `cond ? a.add(x) : a.delete(x)` and `ok && f()` are statements here, read as such.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // Zulip's validators refuse control characters, so the regexes name them on purpose.
      'no-control-regex': 'off',
      // Tests match aligned report text; two literal spaces read better than ` {2}` there.
      'no-regex-spaces': 'off',
    },
  },
  {
    // Tests and client typings read untyped JSON bodies (and model Zulip's untyped apply_event).
    files: ['test/**', 'simulator/examples/**/*.d.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
