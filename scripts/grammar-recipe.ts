// Writes the compiled expression grammar beside the bundle (see grammar.ts): `node --import tsx
// scripts/grammar-recipe.ts dist`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RECIPE_FILE_NAME, recipeFileText } from '../server/src/language/grammar';

writeFileSync(join(process.argv[2] ?? 'dist', RECIPE_FILE_NAME), recipeFileText());
