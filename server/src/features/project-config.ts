/**
 * The editor's features in `.rulesets.yaml`, the project configuration: its mistakes as
 * diagnostics (with their quick fixes), completion of its keys, phases, codes and severities,
 * and hovers that say what a key or a code means. (Which file a ruleset file is checked with
 * is the server's state: server/project-configuration.ts.)
 */
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CodeAction,
  type CompletionItem,
  type CompletionList,
  type Diagnostic,
  type Hover,
  type Position,
  type Range,
} from 'vscode-languageserver';
import { KNOWN_PHASES } from '../language/catalogue/phases';
import { addonName, ADDONS, PLANS, planName } from '../language/catalogue/plans';
import { PROBLEM_CODES, type ProblemCodeInfo } from '../language/problem-codes';
import type { HostNode } from '../documents/host/index';
import { eolOf } from '../documents/host/index';
import { isProjectConfigPath } from '../documents/classify';
import { PROJECT_CONFIG_KEYS, PROJECT_CONFIG_SCHEMA, readProjectConfig, RULE_SEVERITIES, TARGET_KEY_DESCRIPTIONS, TARGET_KEYS, type ProjectConfigKey, type TargetKey } from '../documents/project-config';
import { fixActions } from './code-actions';
import { toDiagnostic } from './diagnostics';
import { pathOfUri, type DocumentModel } from './model';

/** Whether the document is a project configuration (by its name, wherever it is). */
export function isProjectConfigDocument(uri: string): boolean {
  return isProjectConfigPath(pathOfUri(uri));
}

// ---------------------------------------------------------------- diagnostics and fixes

export function projectConfigDiagnostics(model: DocumentModel): Diagnostic[] {
  return readProjectConfig(model.text).problems.map((p) => toDiagnostic(model, p));
}

/** The quick fixes of the configuration's problems in the range (a misspelt key, code or phase). */
export function projectConfigCodeActions(model: DocumentModel, range: Range): CodeAction[] {
  const start = model.offsetAt(range.start);
  const end = model.offsetAt(range.end);
  const actions: CodeAction[] = [];
  for (const problem of readProjectConfig(model.text).problems) {
    if (!problem.fixes || !(problem.start <= end && start <= problem.end)) continue;
    actions.push(...fixActions(model, toDiagnostic(model, problem), problem.fixes));
  }
  return actions;
}

// ---------------------------------------------------------------- completion

/**
 * Where the cursor is, read from the lines rather than the YAML tree: a file being typed is
 * often not valid YAML yet (`rules:` with a half-written code under it).
 */
type Place =
  | { readonly kind: 'top-key' }
  | { readonly kind: 'code' }
  | { readonly kind: 'phase' }
  | { readonly kind: 'plan' }
  | { readonly kind: 'addon' }
  | { readonly kind: 'severity'; readonly code: string }
  /** A key of an item of `targets:`. */
  | { readonly kind: 'target-key' };

const WORD = /[A-Za-z0-9_.$-]*$/;
const KEY_LINE = /^([ \t]*)([A-Za-z0-9_-]+)[ \t]*:[ \t]*(?:#.*)?$/;

function placeAt(text: string, offset: number): Place | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const key = /^([ \t]*)[A-Za-z0-9_-]*$/.exec(before);
  if (key) {
    const indent = key[1].length;
    if (indent === 0) return { kind: 'top-key' };
    if (inTargetItem(text, lineStart, indent)) return { kind: 'target-key' };
    return parentKey(text, lineStart, indent) === 'rules' ? { kind: 'code' } : undefined;
  }
  // `addons: [bot_management, |` and `addons:` with `  - |` under it (at the top, or in a target).
  const addons = /^([ \t]*)(-[ \t]+)?addons[ \t]*:[ \t]*\[(?:[^\]#]*,)?[ \t]*[A-Za-z0-9_]*$/.exec(before);
  if (addons) {
    const [, lead, dash] = addons;
    const inTarget = dash ? parentKey(text, lineStart, lead.length) === 'targets' : inTargetItem(text, lineStart, lead.length);
    return (lead.length === 0 && !dash) || inTarget ? { kind: 'addon' } : undefined;
  }
  const item = /^([ \t]+)-[ \t]+[A-Za-z0-9_]*$/.exec(before);
  if (item) {
    const parent = parentKey(text, lineStart, item[1].length);
    return parent === 'addons' ? { kind: 'addon' } : parent === 'targets' ? { kind: 'target-key' } : undefined;
  }
  const value = /^([ \t]*)(-[ \t]+)?([A-Za-z0-9_-]+)[ \t]*:[ \t]+[A-Za-z0-9_]*$/.exec(before);
  if (!value) return undefined;
  const [, lead, dash, name] = value;
  if (lead.length === 0 && !dash) return name === 'phase' ? { kind: 'phase' } : name === 'plan' ? { kind: 'plan' } : undefined;
  if (name === 'plan' && (dash ? parentKey(text, lineStart, lead.length) === 'targets' : inTargetItem(text, lineStart, lead.length))) return { kind: 'plan' };
  if (dash) return undefined;
  return parentKey(text, lineStart, lead.length) === 'rules' ? { kind: 'severity', code: name } : undefined;
}

/**
 * Whether a line indented by `indent` is inside an item of `targets:`: the nearest line above
 * indented less is an item's `- …` line whose parent key is `targets`.
 */
function inTargetItem(text: string, lineStart: number, indent: number): boolean {
  let end = lineStart;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 2) + 1;
    const line = text.slice(start, end).replace(/\r?\n$/, '');
    end = start;
    if (/^\s*(#.*)?$/.test(line)) continue;
    const lead = /^[ \t]*/.exec(line)![0].length;
    if (lead >= indent) continue;
    if (!/^[ \t]*-[ \t]/.test(line)) return false;
    return lead === 0 ? false : parentKey(text, start, lead) === 'targets';
  }
  return false;
}

/** The key of the nearest line above `lineStart` indented less than `indent`, when it opens a block (`rules:`). */
function parentKey(text: string, lineStart: number, indent: number): string | undefined {
  const lines = text.slice(0, lineStart).split(/\r?\n/).reverse();
  for (const line of lines) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const lead = /^[ \t]*/.exec(line)![0].length;
    if (lead >= indent) continue;
    return KEY_LINE.exec(line)?.[2];
  }
  return undefined;
}

export function projectConfigCompletion(model: DocumentModel, position: Position): CompletionList {
  const offset = model.offsetAt(position);
  const text = model.text;
  const place = placeAt(text, offset);
  if (!place) return { isIncomplete: false, items: [] };
  const typed = WORD.exec(text.slice(0, offset))![0];
  const rest = /^[A-Za-z0-9_.$-]*/.exec(text.slice(offset))![0];
  const range = model.range(offset - typed.length, offset + rest.length);
  const present = presentKeys(model);
  switch (place.kind) {
    case 'top-key': {
      const eol = eolOf(text);
      return list(
        PROJECT_CONFIG_KEYS.filter((key) => !present.top.has(key) || key === typed).map((key, i) => ({
          label: key,
          kind: CompletionItemKind.Property,
          detail: PROJECT_CONFIG_SCHEMA[key].type,
          documentation: keyDocumentation(key),
          sortText: String(i).padStart(2, '0'),
          insertTextFormat: InsertTextFormat.Snippet,
          textEdit: { range, newText: KEY_SNIPPETS[key].replaceAll('\n', eol) },
        })),
      );
    }
    case 'code':
      // Only codes whose severity can change: an error code could only be set to `error` again.
      return list(
        [...PROBLEM_CODES]
          .filter(([code, info]) => info.severity !== 'error' && (!present.codes.has(code) || code === typed))
          .map(([code, info]) => ({
            label: code,
            kind: CompletionItemKind.Property,
            detail: info.description,
            documentation: codeDocumentation(code, info),
            textEdit: { range, newText: `${code}: ` },
          })),
      );
    case 'phase':
      return list(KNOWN_PHASES.map((phase) => ({ label: phase, kind: CompletionItemKind.EnumMember, textEdit: { range, newText: phase } })));
    case 'plan':
      return list(PLANS.map((plan, i) => ({ label: plan, kind: CompletionItemKind.EnumMember, detail: planName(plan), sortText: String(i), textEdit: { range, newText: plan } })));
    case 'addon':
      return list(ADDONS.map((addon, i) => ({ label: addon, kind: CompletionItemKind.EnumMember, detail: addonName(addon), sortText: String(i), textEdit: { range, newText: addon } })));
    case 'target-key': {
      const eol = eolOf(text);
      return list(
        TARGET_KEYS.map((key, i) => ({
          label: key,
          kind: CompletionItemKind.Property,
          detail: TARGET_KEY_DESCRIPTIONS[key].type,
          documentation: { kind: MarkupKind.Markdown, value: TARGET_KEY_DESCRIPTIONS[key].description },
          sortText: String(i),
          insertTextFormat: InsertTextFormat.Snippet,
          textEdit: { range, newText: TARGET_KEY_SNIPPETS[key].replaceAll('\n', eol) },
        })),
      );
    }
    case 'severity': {
      const info = PROBLEM_CODES.get(place.code);
      const allowed = info?.severity === 'error' ? ['error'] : RULE_SEVERITIES;
      return list(allowed.map((severity, i) => ({ label: severity, kind: CompletionItemKind.EnumMember, detail: SEVERITY_DETAIL[severity], sortText: String(i), textEdit: { range, newText: severity } })));
    }
  }
}

const KEY_SNIPPETS: Record<ProjectConfigKey, string> = {
  phase: 'phase: $0',
  plan: 'plan: $0',
  addons: 'addons: [$0]',
  lists: 'lists: [$0]',
  files: 'files: ["$0"]',
  rules: 'rules:\n  $0',
  terraform: 'terraform:\n  var_files: [$0]',
  targets: 'targets:\n  - files: $1\n    zone: $0',
  apply: 'apply:\n  max_removed: $0',
};

const TARGET_KEY_SNIPPETS: Record<TargetKey, string> = {
  files: 'files: $0',
  zone: 'zone: $0',
  account: 'account: $0',
  plan: 'plan: $0',
  addons: 'addons: [$0]',
};

const SEVERITY_DETAIL: Record<string, string> = {
  off: 'not reported',
  error: 'reported as an error: `rulesets check` fails',
  warning: 'reported as a warning',
  information: 'reported as information',
};

function list(items: CompletionItem[]): CompletionList {
  return { isIncomplete: false, items };
}

/** The keys already in the file, at the top and under `rules`, when it parses. */
function presentKeys(model: DocumentModel): { top: Set<string>; codes: Set<string> } {
  // The model's reading of the file, made once per version.
  const root = model.ruleset.root;
  const keys = (node: HostNode | undefined) => new Set(node?.kind === 'object' ? node.properties.map((p) => p.key) : []);
  const rules = root?.kind === 'object' ? root.properties.find((p) => p.key === 'rules')?.value : undefined;
  return { top: keys(root), codes: keys(rules) };
}

function keyDocumentation(key: ProjectConfigKey): { kind: typeof MarkupKind.Markdown; value: string } {
  const schema = PROJECT_CONFIG_SCHEMA[key];
  return { kind: MarkupKind.Markdown, value: `${schema.description}\n\n\`\`\`yaml\n${schema.example}\n\`\`\`` };
}

function codeDocumentation(code: string, info: ProblemCodeInfo): { kind: typeof MarkupKind.Markdown; value: string } {
  const can =
    info.severity === 'error'
      ? 'An error: the service rejects the rule, so it cannot be turned off or lowered.'
      : info.off
        ? 'Off unless set here: `information`, `warning` or `error` turns it on.'
        : 'A warning: can be set to `off`, `error`, `warning` or `information`.';
  return { kind: MarkupKind.Markdown, value: `**\`${code}\`** — ${info.description}\n\n${can}` };
}

// ---------------------------------------------------------------- hover

/** What a key of the file, or a code under `rules`, means. */
export function projectConfigHover(model: DocumentModel, position: Position): Hover | null {
  const offset = model.offsetAt(position);
  const root = model.ruleset.root;
  if (root?.kind !== 'object') return null;
  for (const p of root.properties) {
    if (offset >= p.keyStart && offset <= p.keyEnd && Object.hasOwn(PROJECT_CONFIG_SCHEMA, p.key)) {
      return { contents: keyDocumentation(p.key as ProjectConfigKey), range: model.range(p.keyStart, p.keyEnd) };
    }
    if (p.key === 'targets' && p.value?.kind === 'array') {
      for (const item of p.value.items) {
        if (item.kind !== 'object') continue;
        for (const q of item.properties) {
          if (offset >= q.keyStart && offset <= q.keyEnd && Object.hasOwn(TARGET_KEY_DESCRIPTIONS, q.key)) {
            const { description } = TARGET_KEY_DESCRIPTIONS[q.key as TargetKey];
            return { contents: { kind: MarkupKind.Markdown, value: `**\`${q.key}\`** (in a target) — ${description}` }, range: model.range(q.keyStart, q.keyEnd) };
          }
        }
      }
    }
    if (p.key !== 'rules' || p.value?.kind !== 'object') continue;
    for (const rule of p.value.properties) {
      const info = PROBLEM_CODES.get(rule.key);
      if (info && offset >= rule.keyStart && offset <= rule.keyEnd) return { contents: codeDocumentation(rule.key, info), range: model.range(rule.keyStart, rule.keyEnd) };
    }
  }
  return null;
}
