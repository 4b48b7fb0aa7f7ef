// dist/cli.js: starts the CLI bundle with the compile cache (see compile-cache.ts).
import { join } from 'node:path';
import { builtTextHash, runBundle } from './compile-cache';
import { V8_DEFAULT_TIERING_FLAGS } from './tiering';

// A short check optimises only what runs long (cli/main.ts), which changes V8's flags.
runBundle(join(__dirname, 'rulesets-cli.js'), { startFlags: V8_DEFAULT_TIERING_FLAGS, textHash: builtTextHash('rulesets-cli.js') });
