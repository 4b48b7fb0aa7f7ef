// Types for scripts/code-server.mjs, which test/e2e imports.
export declare const CODE_SERVER_VERSION: string;
export declare const CHROMIUM: string;
/** The folder code-server is (or will be) installed in: .cache/ or $RULESETS_E2E_CACHE. */
export declare function codeServerDir(): string;
/** Installs code-server when it is not installed yet (or half-finished), else reuses it. */
export declare function ensureCodeServer(): Promise<{ dir: string; entry: string; chromium: string; version: string }>;
