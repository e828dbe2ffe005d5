import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'var/**', 'migrations/*-*.ts', 'test-artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
      'no-console': ['error', { allow: ['error', 'warn'] }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through loadConfig (libs/config).' },
      ],
      'no-empty': ['error', { allowEmptyCatch: false }],
    },
  },
  {
    files: ['libs/config/**', 'test/**', 'apps/*/src/main.ts', 'bench/**', '**/*.spec.ts', 'vitest.config.ts', 'vitest.bench-smoke.config.ts'],
    rules: { 'no-restricted-properties': 'off', 'no-console': 'off' },
  },
);
