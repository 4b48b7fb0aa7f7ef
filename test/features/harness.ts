/**
 * Feature tests read like what the user sees: an expression with a cursor marker `|`
 * (`tcp.dstport in {|}`), embedded in a real ruleset document in JSON or in one of the YAML
 * styles. A `|` that is half of `||` is the operator, not the marker.
 */
import assert from 'node:assert/strict';
import type { Position, Range, TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DEFAULT_SETTINGS, type Settings } from '../../server/src/documents/settings';
import { ExpressionCache } from '../../server/src/documents/expression-cache';
import { DocumentModel } from '../../server/src/features/model';
import type { HostFormat } from '../../server/src/documents/host/host';

export type Host = 'json' | 'yaml-plain' | 'yaml-single' | 'yaml-double' | 'yaml-literal' | 'yaml-folded';
export const HOSTS: readonly Host[] = ['json', 'yaml-plain', 'yaml-single', 'yaml-double', 'yaml-literal', 'yaml-folded'];

/** The offset of the cursor marker, and the text without it. */
export function takeCursor(marked: string): { text: string; offset: number } {
  for (let i = 0; i < marked.length; i++) {
    if (marked[i] === '|' && marked[i - 1] !== '|' && marked[i + 1] !== '|') {
      return { text: marked.slice(0, i) + marked.slice(i + 1), offset: i };
    }
  }
  throw new Error(`no cursor marker in ${JSON.stringify(marked)}`);
}

const CURSOR = '\u2038'; // survives JSON and YAML escaping unchanged, unlike `|` in a YAML block

/** The expression written as the value of `expression:` in the given host style; `indent` indents a block scalar's line. */
function writeExpression(host: Host, expression: string, indent = '      '): string {
  switch (host) {
    case 'json':
      return JSON.stringify(expression);
    case 'yaml-plain':
      return expression;
    case 'yaml-single':
      return `'${expression.replace(/'/g, "''")}'`;
    case 'yaml-double':
      return JSON.stringify(expression);
    case 'yaml-literal':
      return `|-\n${indent}${expression}`;
    case 'yaml-folded':
      return `>-\n${indent}${expression}`;
  }
}

/**
 * A ruleset document (phase magic_transit unless given) with one `block` rule whose
 * expression is `markedExpression`; the cursor is where its `|` is.
 */
export function rulesetWith(host: Host, markedExpression: string, options: { phase?: string } = {}): { text: string; offset: number } {
  const marked = markedExpression.replace(/(?<!\|)\|(?!\|)/, CURSOR);
  const phase = options.phase ?? 'magic_transit';
  const value = writeExpression(host, marked);
  const text =
    host === 'json'
      ? `{\n  "name": "test",\n  "kind": "root",\n  "phase": ${JSON.stringify(phase)},\n  "rules": [\n    {\n      "action": "block",\n      "expression": ${value}\n    }\n  ]\n}\n`
      : `name: test\nkind: root\nphase: ${phase}\nrules:\n  - action: block\n    expression: ${value}\n`;
  const offset = text.indexOf(CURSOR);
  if (offset < 0) return { text, offset: -1 };
  return { text: text.slice(0, offset) + text.slice(offset + 1), offset };
}

/**
 * A URL rewrite ruleset (phase http_request_transform) whose rule rewrites the path with the
 * value expression `markedExpression` (`action_parameters.uri.path.expression`); the cursor is
 * where its `|` is.
 */
export function rewriteWith(host: Host, markedExpression: string): { text: string; offset: number } {
  const marked = markedExpression.replace(/(?<!\|)\|(?!\|)/, CURSOR);
  const value = writeExpression(host, marked, ' '.repeat(12));
  const text =
    host === 'json'
      ? `{\n  "name": "test",\n  "kind": "zone",\n  "phase": "http_request_transform",\n  "rules": [\n    {\n      "action": "rewrite",\n      "expression": "true",\n      "action_parameters": {"uri": {"path": {"expression": ${value}}}}\n    }\n  ]\n}\n`
      : `name: test\nkind: zone\nphase: http_request_transform\nrules:\n  - action: rewrite\n    expression: "true"\n    action_parameters:\n      uri:\n        path:\n          expression: ${value}\n`;
  const offset = text.indexOf(CURSOR);
  if (offset < 0) return { text, offset: -1 };
  return { text: text.slice(0, offset) + text.slice(offset + 1), offset };
}

/** A document model and the cursor's position, for a value expression in a rewrite's `uri.path.expression`. */
export function atRewrite(host: Host, markedExpression: string): { model: DocumentModel; position: Position; offset: number } {
  const { text, offset } = rewriteWith(host, markedExpression);
  const model = modelOf(text, formatOf(host));
  return { model, position: model.positionAt(offset), offset };
}

export function formatOf(host: Host): 'json' | 'yaml' {
  return host === 'json' ? 'json' : 'yaml';
}

export function modelOf(text: string, format: HostFormat, uri = format === 'hcl' ? 'file:///work/main.tf' : `file:///work/test.ruleset.${format}`): DocumentModel {
  return new DocumentModel(uri, 1, text, format, new ExpressionCache());
}

/** A document model and the LSP position of the cursor, for an expression in a host style. */
export function at(host: Host, markedExpression: string, options: { phase?: string } = {}): { model: DocumentModel; position: Position; offset: number } {
  const { text, offset } = rulesetWith(host, markedExpression, options);
  const model = modelOf(text, formatOf(host));
  return { model, position: model.positionAt(offset), offset };
}

export function settings(overrides: Partial<Settings> = {}): Settings {
  return { ...DEFAULT_SETTINGS, ...overrides };
}

export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const document = TextDocument.create('file:///x', 'plaintext', 0, text);
  return TextDocument.applyEdits(document, [...edits]);
}

/** The text a range covers. */
export function textOf(text: string, range: Range): string {
  const document = TextDocument.create('file:///x', 'plaintext', 0, text);
  return text.slice(document.offsetAt(range.start), document.offsetAt(range.end));
}

export function assertInside(text: string, range: Range): void {
  const document = TextDocument.create('file:///x', 'plaintext', 0, text);
  const start = document.offsetAt(range.start);
  const end = document.offsetAt(range.end);
  assert.ok(start <= end && end <= text.length, `range ${JSON.stringify(range)} inside the document`);
}
