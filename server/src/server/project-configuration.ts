/**
 * The settings each document is checked with, as the server keeps them: the user's (from
 * `initializationOptions`, `workspace/configuration` or `didChangeConfiguration`), the workspace
 * folders, and the `.rulesets.yaml` of each folder read so far, with the watching and reloading
 * of those files. Which file applies is `nearestConfig`'s rule, the one `rulesets check` follows;
 * here the root is the document's workspace folder and the files are read as saved.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DidChangeWatchedFilesNotification, type Connection, type InitializeParams, type WorkspaceFoldersChangeEvent } from 'vscode-languageserver/node';
import { DEFAULT_SETTINGS, nearestConfig, parentOfFolderUri, PROJECT_CONFIG_FILE_NAME, readProjectConfig, readSettings, withProjectConfig, type ProjectConfig, type Settings } from '../core';
import { pathOfUri } from '../features/model';

/** The configuration a `.rulesets.yaml` text gives (what is right in it), or none for no file. */
export function projectConfigOf(text: string | undefined): ProjectConfig | undefined {
  return text === undefined ? undefined : readProjectConfig(text).config;
}

/** The workspace folder (of `folders`, by URI) that holds the document: the innermost one. */
export function folderOf(uri: string, folders: readonly string[]): string | undefined {
  const inside = folders.filter((folder) => uri.startsWith(folder.endsWith('/') ? folder : `${folder}/`));
  return inside.sort((a, b) => b.length - a.length)[0];
}

/** The URI of the `.rulesets.yaml` at the root of a folder. */
export function projectConfigUriOf(folder: string): string {
  return `${folder.replace(/\/+$/, '')}/${PROJECT_CONFIG_FILE_NAME}`;
}

/**
 * The settings a document is checked with: the user's, with the keys that the nearest
 * `.rulesets.yaml` sets taken from there (see withProjectConfig for why the file wins). The
 * nearest is found by `nearestConfig` from the document's folder up to `root` (its workspace
 * folder; none: up to the top), each folder's file (by the folder's URI, undefined for none)
 * given by `configs`.
 */
export function settingsForDocument(uri: string, settings: Settings, configs: { get(folder: string): ProjectConfig | undefined }, root?: string): Settings {
  const top = root?.replace(/\/+$/, '');
  const nearest = nearestConfig(uri.slice(0, uri.lastIndexOf('/')), {
    configIn: (folder) => configs.get(folder),
    isRoot: (folder) => top !== undefined && folder.length <= top.length,
    parentOf: parentOfFolderUri,
  });
  return nearest ? withProjectConfig(settings, nearest.config, pathOfUri(nearest.folder), pathOfUri(uri)) : settings;
}

/** The user's settings, the workspace folders and their `.rulesets.yaml` files: what a document is checked with. */
export class ProjectConfiguration {
  /** The user's settings, before any `.rulesets.yaml`. */
  private user: Settings = DEFAULT_SETTINGS;
  /** The workspace folders, by URI: a `.rulesets.yaml` is looked for up to the one of a document. */
  private workspaceFolders: string[] = [];
  /**
   * The `.rulesets.yaml` of each folder read so far, as saved (undefined: none), by the folder's
   * URI: each workspace folder's, and those of the folders between it and the documents checked.
   */
  private readonly configs = new Map<string, ProjectConfig | undefined>();
  /** The client answers workspace/configuration. */
  private configurationRequests = false;
  /** The client lets the server register the files it watches. */
  private watchedFilesRegistration = false;
  private watching = false;
  /** The client tells of workspace folders added and removed. */
  private folderChanges = false;

  /** `changed`: the settings of some documents may have changed; they are checked again. */
  constructor(
    private readonly connection: Connection,
    private readonly changed: () => void,
  ) {}

  /** Whether the client says when files change only once the server asks (editors other than VS Code). */
  get watchesFiles(): boolean {
    return this.watchedFilesRegistration;
  }

  /** Whether the server is told of workspace folders added and removed. */
  get followsWorkspaceFolders(): boolean {
    return this.folderChanges;
  }

  /** The nearest `.rulesets.yaml` of a document and its folder (a path), if any: where its `targets:` globs start. */
  nearestOf(uri: string): { readonly config: ProjectConfig; readonly folder: string } | undefined {
    const root = folderOf(uri, this.workspaceFolders)?.replace(/\/+$/, '');
    if (root === undefined) return undefined;
    const nearest = nearestConfig(uri.slice(0, uri.lastIndexOf('/')), {
      configIn: (folder) => this.configIn(folder),
      isRoot: (folder) => folder.length <= root.length,
      parentOf: parentOfFolderUri,
    });
    return nearest ? { config: nearest.config, folder: pathOfUri(nearest.folder) } : undefined;
  }

  /** The settings a document is checked with: the user's, and the nearest `.rulesets.yaml` over them. */
  settingsOf(uri: string): Settings {
    const root = folderOf(uri, this.workspaceFolders);
    if (root === undefined) return this.user;
    return settingsForDocument(uri, this.user, { get: (folder) => this.configIn(folder) }, root);
  }

  /** What the client says at `initialize`: its folders, what it can do, and the settings it may pass there. */
  initialize(params: InitializeParams): void {
    const workspace = params.capabilities.workspace;
    this.workspaceFolders = (params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : [])).map(withoutSlash);
    for (const folder of this.workspaceFolders) this.load(folder);
    this.configurationRequests = workspace?.configuration === true;
    this.watchedFilesRegistration = workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    this.folderChanges = workspace?.workspaceFolders === true;
    // Editors that send their server config at start (Helix's `config`) pass it here, in the
    // shape of the `rulesets` settings section; workspace/configuration, if any, follows.
    const options = params.initializationOptions as { rulesets?: unknown } | undefined;
    if (options?.rulesets) this.user = readSettings(options.rulesets);
  }

  /** Once initialized: the settings asked for, the files watched, the folders followed. */
  initialized(): void {
    if (this.configurationRequests) this.refresh();
    this.watch();
    if (this.folderChanges) this.connection.workspace.onDidChangeWorkspaceFolders((event) => this.foldersChanged(event));
  }

  /** `workspace/didChangeConfiguration`: clients that push settings send them here; the others are asked. */
  configurationChanged(pushedSettings: unknown): void {
    const pushed = (pushedSettings as { rulesets?: unknown } | undefined)?.rulesets;
    if (!this.configurationRequests && pushed !== undefined) this.user = readSettings(pushed);
    this.refresh();
  }

  /** A `.rulesets.yaml` of a folder read so far was saved, created or deleted: read it again, check again. */
  filesChanged(changes: readonly { uri: string }[]): void {
    const folders = [...this.configs.keys()].filter((folder) => changes.some((c) => c.uri === projectConfigUriOf(folder)));
    if (folders.length === 0) return;
    for (const folder of folders) this.load(folder);
    this.refresh();
  }

  private foldersChanged(event: WorkspaceFoldersChangeEvent): void {
    const removed = new Set(event.removed.map((folder) => withoutSlash(folder.uri)));
    const added = event.added.map((folder) => withoutSlash(folder.uri));
    this.workspaceFolders = [...this.workspaceFolders.filter((folder) => !removed.has(folder)), ...added];
    // What was read below a folder that left goes with it (unless another folder still holds it).
    for (const folder of this.configs.keys()) if (folderOf(`${folder}/`, this.workspaceFolders) === undefined) this.configs.delete(folder);
    for (const folder of added) this.load(folder);
    this.watch();
    this.refresh();
  }

  /** The user's settings asked for again (when the client answers), then every document checked again. */
  private refresh(): void {
    this.refreshUserSettings().catch((error) => this.connection.console.error(`settings: ${String(error)}`));
  }

  private async refreshUserSettings(): Promise<void> {
    if (this.configurationRequests) {
      // An editor without a `rulesets` section answers null (Neovim): keep what
      // initializationOptions gave rather than falling back to defaults.
      const answer: unknown = await this.connection.workspace.getConfiguration('rulesets');
      if (answer && typeof answer === 'object') this.user = readSettings(answer);
    }
    // Settings hold no secrets (credentials live elsewhere), and this line answers most
    // "why is my setting ignored" questions.
    this.connection.console.log(`settings: ${JSON.stringify(this.user)}`);
    this.changed();
  }

  /** A folder's own `.rulesets.yaml`, read from disk the first time a document below it needs it. */
  private configIn(folder: string): ProjectConfig | undefined {
    if (!this.configs.has(folder)) this.load(folder);
    return this.configs.get(folder);
  }

  /** Reads the folder's `.rulesets.yaml` from disk: the saved file is what `rulesets check` reads too. */
  private load(folder: string): void {
    const uri = projectConfigUriOf(folder);
    let text: string | undefined;
    try {
      text = uri.startsWith('file:') ? readFileSync(fileURLToPath(uri), 'utf8').replace(/^\uFEFF/, '') : undefined;
    } catch {
      text = undefined; // no file: the user's settings alone
    }
    const config = projectConfigOf(text);
    this.configs.set(folder, config);
    if (config) this.connection.console.log(`project configuration ${uri}: ${JSON.stringify(config)}`);
  }

  /** Editors other than VS Code (whose client watches it) learn of changes to the file this way; once there is a folder. */
  private watch(): void {
    if (!this.watchedFilesRegistration || this.watching || this.workspaceFolders.length === 0) return;
    this.watching = true;
    this.connection.client
      .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern: `**/${PROJECT_CONFIG_FILE_NAME}` }] })
      .catch((error: unknown) => this.connection.console.error(`watching ${PROJECT_CONFIG_FILE_NAME}: ${String(error)}`));
  }
}

/** A folder's URI as the configurations are kept by: `file:///work/repo/` is `file:///work/repo`. */
function withoutSlash(uri: string): string {
  return uri.replace(/\/+$/, '');
}
