/** What the Terraform module tests share: a module held in memory. */
import type { TerraformModuleReader } from '../../server/src/documents/terraform-module';

/** A module held in memory: file name → text, in the folder /m (sub-modules under /m/…). */
export function memoryReader(files: Record<string, string>): TerraformModuleReader {
  const byPath = new Map(Object.entries(files).map(([name, text]) => [`/m/${name}`, text]));
  return {
    listFiles: (folder) => {
      const prefix = folder.endsWith('/') ? folder : `${folder}/`;
      const names = [...byPath.keys()].filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes('/')).map((p) => p.slice(prefix.length));
      return names.length > 0 ? names : undefined;
    },
    readFile: (path) => byPath.get(path),
  };
}
