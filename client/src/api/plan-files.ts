/**
 * The Plan view's files and targets, as `rulesets plan` run at the workspace's root finds them:
 * of the JSON, YAML and Terraform files outside hidden folders and `node_modules` (VS Code's
 * file search gives them), those `rulesets check` takes as ruleset files (by name, by the
 * patterns of their `.rulesets.yaml`, by content); each placed by the nearest `.rulesets.yaml`
 * (up to the folder that holds `.git`) through estateTargets, the CLI's own. Plain functions
 * over the disk: tested beside the CLI without VS Code (test/client/plan-files.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  badBytesMessage,
  classifyFile,
  decodeFileBytes,
  estateTargets,
  nearestConfig,
  patternInFolder,
  PROJECT_CONFIG_FILE_NAME,
  readProjectConfig,
  rulesetFormatOfPath,
  type Estate,
  type EstateOptions,
  type TargetsConfig,
} from '../../../server/src/core';

/** A `.rulesets.yaml` as read for the plan: its targets, and its patterns of more ruleset files. */
export interface WorkspaceConfig extends TargetsConfig {
  readonly patterns: readonly string[];
}

/** The nearest `.rulesets.yaml` of each file, each folder asked once, as the CLI finds it. */
export class WorkspaceConfigs {
  private readonly folders = new Map<string, { readonly config: WorkspaceConfig | undefined; readonly root: boolean }>();

  of(file: string): WorkspaceConfig | undefined {
    return nearestConfig(dirname(resolve(file)), {
      configIn: (folder) => this.folder(folder).config,
      isRoot: (folder) => this.folder(folder).root,
      parentOf: (folder) => (dirname(folder) === folder ? undefined : dirname(folder)),
    })?.config;
  }

  /** The configurations read so far that have `targets:`, in the order of their paths. */
  withTargets(): WorkspaceConfig[] {
    return [...this.folders.values()].flatMap((f) => (f.config && (f.config.config.targets?.length ?? 0) > 0 ? [f.config] : [])).sort((a, b) => a.path.localeCompare(b.path));
  }

  private folder(folder: string): { readonly config: WorkspaceConfig | undefined; readonly root: boolean } {
    let known = this.folders.get(folder);
    if (!known) {
      const path = join(folder, PROJECT_CONFIG_FILE_NAME);
      let config: WorkspaceConfig | undefined;
      if (existsSync(path)) {
        const read = readProjectConfig(readFileSync(path, 'utf8').replace(/^\uFEFF/, '')).config;
        config = { config: read, folder, path, patterns: (read.files ?? []).map((pattern) => patternInFolder(pattern, folder)) };
      }
      known = { config, root: existsSync(join(folder, '.git')) };
      this.folders.set(folder, known);
    }
    return known;
  }
}

/** A reader of the plan's files, each read once, as UTF-8 text (a file that is not is an error naming its first bad byte, as the CLI's). */
export function planFileReader(): (path: string) => string {
  const texts = new Map<string, string>();
  return (path) => {
    let text = texts.get(path);
    if (text === undefined) {
      const decoded = decodeFileBytes(readFileSync(path));
      if (decoded.bad) throw new Error(badBytesMessage(path, decoded.bad));
      texts.set(path, (text = decoded.text));
    }
    return text;
  };
}

/** Of the files found, those `rulesets check` takes as ruleset files, in the order of their paths. */
export function rulesetFilesOf(found: readonly string[], configs: WorkspaceConfigs, read: (path: string) => string): string[] {
  return found
    .map((path) => resolve(path))
    .filter((path) => {
      if (!rulesetFormatOfPath(path)) return false;
      const text = () => {
        try {
          return read(path);
        } catch {
          // Not UTF-8: whether it is a ruleset is asked of its lenient text, as the CLI's search asks it.
          return new TextDecoder().decode(readFileSync(path));
        }
      };
      return classifyFile(path, { patterns: configs.of(path)?.patterns ?? [], text }).role === 'ruleset';
    })
    .sort();
}

/** The workspace's targets: the ruleset files among `found`, each where `rulesets plan` would send it. */
export async function workspaceEstate(found: readonly string[], options: Omit<EstateOptions, 'configOf'> & { readonly configs: WorkspaceConfigs }): Promise<Estate & { readonly files: readonly string[] }> {
  const files = rulesetFilesOf(found, options.configs, options.read);
  const estate = await estateTargets(files, { ...options, configOf: (file) => options.configs.of(file) });
  return { ...estate, files };
}
