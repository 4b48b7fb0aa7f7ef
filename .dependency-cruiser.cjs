/**
 * The layers (README, "Architecture"), checked by `npm run check:layers` in the tests:
 *
 *   language → documents → evaluation, api → core.ts → features → server; cli; client
 *
 * Inside documents/, host/ (the JSON, YAML and HCL readers) is a room of its own, entered
 * through host/index.ts.
 *
 * Each may import what stands left of it and nothing to its right; the extension (client/)
 * and the CLI reach the core through its entry module, server/src/core.ts.
 */
const EDITOR_PACKAGES = '(^|/)node_modules/(vscode-languageserver[^/]*|vscode-languageclient|vscode-jsonrpc|@types/vscode|vscode)/';
const CORE = '^server/src/(language|documents|evaluation|api)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'Modules that import each other, directly or around a circle, cannot be understood or changed one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'core-without-editors',
      severity: 'error',
      comment: 'The core (language, documents, evaluation, api, core.ts) is pure: no editor or protocol package.',
      from: { path: [CORE, '^server/src/core\\.ts$'] },
      to: { path: EDITOR_PACKAGES },
    },
    {
      name: 'language-stands-alone',
      severity: 'error',
      comment: 'The expression language knows nothing of files, evaluation, the API or editors.',
      from: { path: '^server/src/language/' },
      to: { path: '^server/src/', pathNot: '^server/src/language/' },
    },
    {
      name: 'documents-above-language-only',
      severity: 'error',
      from: { path: '^server/src/documents/' },
      to: { path: '^server/src/', pathNot: '^server/src/(language|documents)/' },
    },
    {
      name: 'host-formats-stand-alone',
      severity: 'error',
      comment: 'documents/host/ reads JSON, YAML and HCL text into host trees; it knows nothing of rulesets, so it imports nothing of ours outside its own folder.',
      from: { path: '^server/src/documents/host/' },
      to: { path: '^server/src/', pathNot: '^server/src/documents/host/' },
    },
    {
      name: 'host-formats-through-their-index',
      severity: 'error',
      comment: 'The rest of the code reaches documents/host/ through its entry, documents/host/index.ts, so that its readers can change behind it.',
      from: { path: '^(server|client)/src/', pathNot: '^server/src/documents/host/' },
      to: { path: '^server/src/documents/host/', pathNot: '^server/src/documents/host/index\\.ts$' },
    },
    {
      name: 'evaluation-above-documents',
      severity: 'error',
      from: { path: '^server/src/evaluation/' },
      to: { path: '^server/src/', pathNot: '^server/src/(language|documents|evaluation)/' },
    },
    {
      name: 'api-above-documents',
      severity: 'error',
      from: { path: '^server/src/api/' },
      to: { path: '^server/src/', pathNot: '^server/src/(language|documents|api)/|^server/src/version\\.ts$' },
    },
    {
      name: 'features-below-the-server',
      severity: 'error',
      comment: 'One module per LSP feature, over the core: never the server wiring, the CLI or the extension.',
      from: { path: '^server/src/features/' },
      to: { path: '^server/src/(server|cli)/|^client/' },
    },
    {
      name: 'cli-through-the-core-entry',
      severity: 'error',
      comment: 'The CLI reaches the core through server/src/core.ts only.',
      from: { path: '^server/src/cli/' },
      to: { path: [CORE, '^server/src/(features|server)/'] },
    },
    {
      name: 'server-through-the-core-entry',
      severity: 'error',
      comment: 'The language server wires features; what it needs of the core comes through server/src/core.ts.',
      from: { path: '^server/src/server/' },
      to: { path: [CORE, '^server/src/cli/', '^client/'] },
    },
    {
      name: 'extension-through-the-core-entry',
      severity: 'error',
      comment: 'The extension reaches the server code only through the core entry module and the shared protocol.',
      from: { path: '^client/src/' },
      to: { path: '^server/src/', pathNot: '^server/src/(core|protocol)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '^(test|bench|scripts|dist)/' },
  },
};
