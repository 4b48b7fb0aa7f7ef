// dist/server.js: starts the language server bundle with the compile cache (see compile-cache.ts).
import { join } from 'node:path';
import { builtTextHash, runBundle } from './compile-cache';
import { optimiseOnlyWhatRunsLong } from './tiering';

// An editor's requests are short bursts of work on files of at most a few thousand rules.
optimiseOnlyWhatRunsLong();

runBundle(join(__dirname, 'rulesets-server.js'), { textHash: builtTextHash('rulesets-server.js') });
