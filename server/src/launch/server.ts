// dist/server.js: starts the language server bundle with the compile cache (see compile-cache.ts).
import { join } from 'node:path';
import { runBundle } from './compile-cache';

runBundle(join(__dirname, 'rulesets-server.js'));
