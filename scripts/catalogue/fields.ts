// Writes the generated catalogue (server/src/language/catalogue/generated/) from the pinned
// engine and the inputs in scripts/catalogue/: `npm run catalogue`. Needs the engine
// (`python3 -m pip install octorules-wirefilter==0.7.0`).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

import { Engine } from './engine';
import { generateCatalogue } from './fields-generate';

async function main(): Promise<void> {
  const started = await Engine.start();
  if (!('engine' in started)) {
    console.error(`catalogue: the reference engine is not available: ${started.missing}`);
    process.exitCode = 1;
    return;
  }
  try {
    const root = join(__dirname, '..', '..');
    for (const [path, text] of await generateCatalogue(started.engine)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
      console.log(`wrote ${path}`);
    }
  } finally {
    started.engine.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
