// Writes server/src/language/catalogue/generated/plans-limits.ts from cloudflare-docs' plans table
// at the pinned commit (see plans-generate.ts): `npm run catalogue:plans`. Needs the
// table's text: PLANS_JSON=path/to/index.json (a copy of the file at that commit), or a git mirror.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { generatePlansLimits, PLANS_OUTPUT, plansSourceReader } from './plans-generate';

try {
  const read = plansSourceReader();
  if (typeof read === 'string') {
    console.error(`catalogue:plans: ${read}`);
    process.exitCode = 1;
  } else {
    writeFileSync(join(__dirname, '..', '..', PLANS_OUTPUT), generatePlansLimits(read()));
    console.log(`wrote ${PLANS_OUTPUT}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
