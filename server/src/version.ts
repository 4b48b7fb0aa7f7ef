// Kept in step with package.json by the test suite (test/cli/cli.test.ts).
export const version = '0.1.0';
