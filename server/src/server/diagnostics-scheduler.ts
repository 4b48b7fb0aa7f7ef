/**
 * When each document's diagnostics are computed and how they reach the editor: pulled by the
 * client (`textDocument/diagnostic`, with a refresh request when others must be pulled again)
 * or pushed by the server once typing pauses. It also knows which other documents an edit
 * touches (the test files run against a ruleset, the Terraform files of the same module), and
 * computes a large document's diagnostics in slices, stopping for a newer version or a
 * cancellation.
 */
import {
  DiagnosticRefreshRequest,
  DocumentDiagnosticReportKind,
  LSPErrorCodes,
  ResponseError,
  type CancellationToken,
  type ClientCapabilities,
  type Connection,
  type Diagnostic,
  type TextDocuments,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { formatOfDocument, isRulesetTestFileName, type ExpressionCache, type Settings } from '../core';
import { diagnostics, withPlainText } from '../features/diagnostics';
import { pathOfUri, type DocumentModel } from '../features/model';
import { isProjectConfigDocument, projectConfigDiagnostics } from '../features/project-config';
import { rulesetCandidates, testFileDiagnostics, type RulesetReader } from '../features/test-file';
import type { TerraformParser } from './terraform-parser';

/** How long push diagnostics wait for typing to pause. */
const PUSH_DEBOUNCE_MS = 150;
/** Diagnostics of a large document are computed in slices of this many ms, yielding between. */
const SLICE_MS = 8;

/** What the scheduler reads documents with: the server's models, settings and readers. */
export interface DiagnosticsSources {
  readonly connection: Connection;
  readonly documents: TextDocuments<TextDocument>;
  readonly cache: ExpressionCache;
  readonly terraformParser: TerraformParser;
  /** The model of a document's current version (undefined: not one the server reads, or not yet). */
  readonly modelOf: (uri: string) => DocumentModel | undefined;
  readonly settingsOf: (uri: string) => Settings;
  /** A test file's ruleset, open or on disk. */
  readonly readRuleset: RulesetReader;
  /** The conflicts of the entry point the document gives rules to, with the other files that give it theirs (entry-point-files.ts). */
  readonly entryPoints?: (model: DocumentModel) => Diagnostic[];
  /** The other open documents that give rules to the entry points of this one (the same item of `targets:`): checked again when it changes. */
  readonly entryPointPeers?: (uri: string) => string[];
}

export class DiagnosticsScheduler {
  /** The client pulls diagnostics; else they are pushed. */
  private pull = false;
  /** The client takes `workspace/diagnostic/refresh`. */
  private refreshSupport = false;
  private readonly pushTimers = new Map<string, NodeJS.Timeout>();
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(private readonly sources: DiagnosticsSources) {}

  /** Whether the client pulls diagnostics (read from its capabilities at `initialize`). */
  get pulls(): boolean {
    return this.pull;
  }

  initialize(capabilities: ClientCapabilities): void {
    this.pull = capabilities.textDocument?.diagnostic !== undefined;
    this.refreshSupport = capabilities.workspace?.diagnostics?.refreshSupport === true;
  }

  /** Answers the client's pulls (when it pulls). */
  listen(): void {
    const { connection } = this.sources;
    connection.languages.diagnostics.on(async (params, token) => {
      let items: Diagnostic[] | undefined;
      try {
        items = await this.compute(params.textDocument.uri, token);
      } catch (error) {
        connection.console.error(`diagnostics failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return { kind: DocumentDiagnosticReportKind.Full, items: [] };
      }
      // Stopped for a newer version or a cancellation: an empty "full" report would clear the
      // editor's diagnostics until the next pull, so say it was cancelled and ask again.
      if (!items) throw new ResponseError(LSPErrorCodes.ServerCancelled, 'the document changed', { retriggerRequest: true });
      return { kind: DocumentDiagnosticReportKind.Full, items };
    });
  }

  /** A document's text changed: it, the open test files run against it and the other files of its module are checked again. */
  changed(uri: string): void {
    if (!this.pull) this.schedulePush(uri);
    this.recheckTestsOf(uri);
    this.recheckModuleOf(uri);
    const peers = this.sources.entryPointPeers?.(uri) ?? [];
    if (peers.length > 0) this.recheckOthers(peers);
  }

  /** A document was closed: nothing is pending for it; `keepsDiagnostics` when "Check Workspace" holds its file's. */
  closed(uri: string, keepsDiagnostics: boolean): void {
    clearTimeout(this.pushTimers.get(uri));
    this.pushTimers.delete(uri);
    if (!keepsDiagnostics && !this.pull) this.sources.connection.sendDiagnostics({ uri, diagnostics: [] });
    // A closed ruleset is read from disk from now on.
    this.recheckTestsOf(uri);
  }

  /** Every open document checked again (the settings changed). */
  recheckAll(): void {
    if (this.pull) this.requestRefresh();
    else for (const document of this.sources.documents.all()) this.schedulePush(document.uri);
  }

  /** These open documents checked again now (they can be read at last). */
  recheck(uris: readonly string[]): void {
    if (this.pull) this.requestRefresh();
    else for (const uri of uris) this.schedulePush(uri);
  }

  /**
   * Checks every expression of the model in slices, yielding to the event loop between them,
   * so that typing in a file with thousands of rules is never blocked; stops as soon as the
   * request is cancelled or the document has moved on. Undefined when it stopped.
   */
  private async compute(uri: string, token?: CancellationToken): Promise<Diagnostic[] | undefined> {
    const { cache, modelOf, settingsOf, readRuleset, terraformParser } = this.sources;
    if (this.isTerraform(uri) && !(await terraformParser.load())) return [];
    const model = modelOf(uri);
    if (!model) return [];
    if (isProjectConfigDocument(uri)) return projectConfigDiagnostics(model);
    const settings = settingsOf(uri);
    if (model.isRulesetTest()) return testFileDiagnostics(model, readRuleset).map(withPlainText);
    if (!model.isRuleset(settings)) {
      cache.release(uri);
      return [];
    }
    const sites = model.sites;
    // Checked again at each keystroke: kept by the cache, whatever else passes through it.
    cache.hold(uri, sites.map((site) => site.text));
    let sliceStart = Date.now();
    for (const site of sites) {
      model.check(site, settings);
      if (Date.now() - sliceStart > SLICE_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        if (token?.isCancellationRequested || modelOf(uri) !== model) return undefined;
        sliceStart = Date.now();
      }
    }
    const entryPoint = this.sources.entryPoints?.(model) ?? [];
    return entryPoint.length > 0 ? [...diagnostics(model, settings), ...entryPoint] : diagnostics(model, settings);
  }

  private isTerraform(uri: string): boolean {
    const document = this.sources.documents.get(uri);
    return document !== undefined && formatOfDocument(document.languageId, uri) === 'hcl';
  }

  private schedulePush(uri: string): void {
    const { connection, documents } = this.sources;
    clearTimeout(this.pushTimers.get(uri));
    this.pushTimers.set(
      uri,
      setTimeout(() => {
        this.pushTimers.delete(uri);
        const version = documents.get(uri)?.version;
        this.compute(uri)
          .then((items) => {
            if (items && documents.get(uri)?.version === version) connection.sendDiagnostics({ uri, version, diagnostics: items });
          })
          .catch((error) => connection.console.error(`diagnostics failed: ${String(error)}`));
      }, PUSH_DEBOUNCE_MS),
    );
  }

  /** Asks a pull client to pull every open document again. */
  private requestRefresh(): void {
    const { connection } = this.sources;
    // Only clients that announce it take a refresh request; a refused one must not become
    // an unhandled rejection, which would end the process.
    if (this.refreshSupport) connection.sendRequest(DiagnosticRefreshRequest.type).catch((error: unknown) => connection.console.error(`diagnostic refresh: ${String(error)}`));
  }

  /** Other open documents checked again once typing pauses: pushed each, or (pull) one refresh, not one a keystroke: it makes the editor pull every open document. */
  private recheckOthers(uris: readonly string[]): void {
    if (uris.length === 0) return;
    if (!this.pull) for (const uri of uris) this.schedulePush(uri);
    else {
      clearTimeout(this.refreshTimer);
      this.refreshTimer = setTimeout(() => this.requestRefresh(), PUSH_DEBOUNCE_MS);
    }
  }

  /** The open test files whose cases run against the document `uri`: checked again when it changes. */
  private recheckTestsOf(uri: string): void {
    const { documents, modelOf } = this.sources;
    // By name first: this runs on every keystroke in every document.
    const tests = documents.all().filter((d) => {
      if (d.uri === uri) return false;
      const model = isRulesetTestFileName(pathOfUri(d.uri)) ? modelOf(d.uri) : undefined;
      return model !== undefined && rulesetCandidates(model).includes(uri);
    });
    this.recheckOthers(tests.map((test) => test.uri));
  }

  /** The other open Terraform documents of an edited one's folder: their findings may come from its values. */
  private recheckModuleOf(uri: string): void {
    if (!this.isTerraform(uri)) return;
    this.recheckOthers(sameModule(this.sources.documents, uri).map((other) => other.uri));
  }
}

/** The other open Terraform documents of the folder of `uri` (a module is one folder's `.tf` files). */
export function sameModule(documents: TextDocuments<TextDocument>, uri: string): TextDocument[] {
  const folder = uri.slice(0, uri.lastIndexOf('/') + 1);
  return documents.all().filter((d) => d.uri !== uri && d.uri.startsWith(folder) && !d.uri.slice(folder.length).includes('/') && formatOfDocument(d.languageId, d.uri) === 'hcl');
}
