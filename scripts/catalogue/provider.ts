// Writes server/src/language/catalogue/generated/provider-schema.ts from the Cloudflare provider's
// Go schema at the pinned tags (see provider-generate.ts): `npm run catalogue:provider`.
// Needs the git mirror of cloudflare/terraform-provider-cloudflare (the fetch tool's
// `github:cloudflare/terraform-provider-cloudflare`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { generateProviderSchema, PROVIDER_OUTPUT, providerMirrorReader } from './provider-generate';

try {
  const read = providerMirrorReader();
  if (typeof read === 'string') {
    console.error(`catalogue:provider: ${read}`);
    process.exitCode = 1;
  } else {
    writeFileSync(join(__dirname, '..', '..', PROVIDER_OUTPUT), generateProviderSchema(read));
    console.log(`wrote ${PROVIDER_OUTPUT}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
}
