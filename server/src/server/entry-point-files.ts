/**
 * In the editor, the conflicts of the entry point a document gives rules to (entry-point.ts):
 * with the other files of its `targets:` item (open documents as they are, the others as
 * saved), or alone when no target names it and its rules say where they go. The files of a
 * target are found under the folder of its `.rulesets.yaml`, as `rulesets check` of that folder
 * finds them (dependencies and hidden folders skipped), a bounded number of them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostic } from 'vscode-languageserver';
import { entryPointProblems, parseDocument, rulesetFormatOfPath, targetGlob, targetOfFile, type EntryPointSource, type ProjectConfig } from '../core';
import { toDiagnostic } from '../features/diagnostics';
import { pathOfUri, type DocumentModel } from '../features/model';

/** How many files of a folder are looked at for a target's others, at most: a huge tree is not walked at each keystroke. */
const MAX_FILES = 5000;
const ORDER_WORDS = /\b(?:before|after)\b/;

export interface EntryPointContext {
  /** The document's nearest `.rulesets.yaml` and its folder. */
  readonly nearest?: { readonly config: ProjectConfig; readonly folder: string };
  /** An open document's text, by URI (undefined: not open). */
  readonly openText: (uri: string) => string | undefined;
}

/** The diagnostics of the entry point's merge that fall in this document. */
export function entryPointDiagnostics(model: DocumentModel, context: EntryPointContext): Diagnostic[] {
  if (model.format === 'hcl' || !model.uri.startsWith('file:')) return [];
  const path = pathOfUri(model.uri);
  const nearest = context.nearest;
  const target = nearest ? targetOfFile(nearest.config, nearest.folder, path) : undefined;
  if (!target && !ORDER_WORDS.test(model.text)) return [];
  const shown = (file: string) => (nearest ? relative(nearest.folder, file) : file.slice(file.lastIndexOf('/') + 1)).replace(/\\/g, '/');
  const key = target ? placeOf(target) : undefined;
  const sources: EntryPointSource[] = [{ file: shown(path), document: model.parsedDocument, ...(key !== undefined ? { target: key } : {}) }];
  if (target && nearest) {
    // Items of `targets:` for the same place split its files between them: all of them count.
    const globs = (nearest.config.targets ?? []).filter((t) => placeOf(t) === key).flatMap((t) => t.files.map((pattern) => targetGlob(pattern, nearest.folder)));
    for (const file of filesUnder(nearest.folder)) {
      if (file === path || !globs.some((matches) => matches(file.replace(/\\/g, '/')))) continue;
      // A file also named by an earlier item of `targets:` goes there (targetOfFile).
      const its = targetOfFile(nearest.config, nearest.folder, file);
      if (!its || placeOf(its) !== key) continue;
      const format = rulesetFormatOfPath(file);
      if (!format || format === 'hcl') continue;
      let text = context.openText(pathToFileURL(file).href);
      try {
        text ??= readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
      } catch {
        continue;
      }
      sources.push({ file: shown(file), document: parseDocument(text, format), target: key! });
    }
  }
  return entryPointProblems(sources)[0].map((p) => toDiagnostic(model, p));
}

/** The place an item of `targets:` names, as `rulesets check` keys it: its zone or account, as written, in lowercase. */
function placeOf(target: { readonly zone?: string; readonly account?: string }): string {
  return (target.zone ?? target.account ?? '').toLowerCase();
}

/** The files under a folder, hidden folders and node_modules skipped, at most MAX_FILES looked at. */
function filesUnder(folder: string): string[] {
  const out: string[] = [];
  const pending = [folder];
  let seen = 0;
  while (pending.length > 0 && seen < MAX_FILES) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > MAX_FILES) break;
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(full);
      else if (entry.isFile()) out.push(full);
    }
  }
  return out.sort();
}

/** The other open documents of the same place of `targets:` as `uri` (none when no target names it). */
export function entryPointPeers(uri: string, open: readonly string[], nearestOf: (uri: string) => EntryPointContext['nearest']): string[] {
  const placeOfUri = (u: string): string | undefined => {
    if (!u.startsWith('file:')) return undefined;
    const format = rulesetFormatOfPath(pathOfUri(u));
    const nearest = format && format !== 'hcl' ? nearestOf(u) : undefined;
    const target = nearest ? targetOfFile(nearest.config, nearest.folder, pathOfUri(u)) : undefined;
    return target && nearest ? `${nearest.folder}\0${placeOf(target)}` : undefined;
  };
  const mine = placeOfUri(uri);
  return mine === undefined ? [] : open.filter((other) => other !== uri && placeOfUri(other) === mine);
}
