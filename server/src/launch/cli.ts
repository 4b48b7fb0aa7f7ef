// dist/cli.js: starts the CLI bundle with the compile cache (see compile-cache.ts).
import { join } from 'node:path';
import { runBundle } from './compile-cache';

runBundle(join(__dirname, 'rulesets-cli.js'));
