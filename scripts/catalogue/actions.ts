// Writes server/src/language/catalogue/generated/action-parameters.ts from the API's types at the
// pinned commit (see actions-generate.ts): `npm run catalogue:actions`. Needs the git
// mirror of cloudflare/cloudflare-typescript (the fetch tool's `github:cloudflare/cloudflare-typescript`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { ACTIONS_OUTPUT, generateActionParameters, mirrorReader } from './actions-generate';

try {
  const read = mirrorReader();
  if (typeof read === 'string') {
    console.error(`catalogue:actions: ${read}`);
    process.exitCode = 1;
  } else {
    writeFileSync(join(__dirname, '..', '..', ACTIONS_OUTPUT), generateActionParameters(read));
    console.log(`wrote ${ACTIONS_OUTPUT}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
