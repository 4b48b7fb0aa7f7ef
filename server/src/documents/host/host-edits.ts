/**
 * Edits of JSON and YAML host text, in one place: the line ending and indentation a file
 * already uses, a value written in its scalar's own quoting, a property inserted where it
 * belongs. Quick fixes, completion, and the files `deploy` and `create` update all edit through
 * these, so that a file keeps its style whoever touches it.
 */
import * as jsonc from 'jsonc-parser';
import * as YAML from 'yaml';
import { encodeForScalar, type HostFormat, type HostObject, type HostProperty, type HostScalar } from './host';

/** A replacement of the text from `start` to `end` (UTF-16 offsets, end exclusive). */
export interface DocumentEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/** The file's line ending: CRLF when it has one, else LF. */
export function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** The spaces and tabs that start the line `offset` is on, up to `offset`. */
export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))![0];
}

/** The column of `offset` on its line (UTF-16 code units). */
export function columnOf(text: string, offset: number): number {
  return offset - (text.lastIndexOf('\n', offset - 1) + 1);
}

// ---------------------------------------------------------------- edits at a node

/** Replaces a string scalar's value, written in the scalar's own style. */
export function replaceScalarEdit(node: HostScalar, value: string): DocumentEdit {
  switch (node.style) {
    case 'json':
    case 'double-quoted':
      return { start: node.start, end: node.end, newText: JSON.stringify(value) };
    case 'single-quoted':
      return { start: node.start, end: node.end, newText: `'${value.replace(/'/g, "''")}'` };
    case 'hcl-quoted':
    case 'hcl-heredoc':
      // A heredoc too becomes a quoted string: the values replaced are names (an action, a phase).
      return { start: node.start, end: node.end, newText: `"${encodeForScalar('hcl-quoted', value)}"` };
    default:
      return { start: node.start, end: node.end, newText: value };
  }
}

/**
 * Renames a key in place; a quoted key (JSON's, an HCL map's `"X-Foo"`) keeps its quotes. The
 * keys renamed are names of the schema, which need no escape in either.
 */
export function renameKeyEdit(p: HostProperty, key: string): DocumentEdit {
  return { start: p.keyStart, end: p.keyEnd, newText: p.keyEnd - p.keyStart === p.key.length ? key : JSON.stringify(key) };
}

/**
 * Adds `key: value` to an object just after `after`: on the same line in JSON and in YAML
 * `{…}` mappings, on a line of its own (at the same indentation) in a YAML block mapping.
 */
export function addPropertyEdit(text: string, format: HostFormat, object: HostObject, after: HostProperty, key: string, value: Record<string, string>): DocumentEdit {
  const end = after.value?.end ?? after.keyEnd;
  if (format === 'json') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ');
    return { start: end, end, newText: `, ${JSON.stringify(key)}: { ${entries} }` };
  }
  if (!object.block) {
    const entries = Object.entries(value).map(([k, v]) => `${k}: ${v}`).join(', ');
    return { start: end, end, newText: `, ${key}: {${entries}}` };
  }
  const indent = ' '.repeat(columnOf(text, after.keyStart));
  const eol = eolOf(text);
  const lines = Object.entries(value).map(([k, v]) => `${eol}${indent}  ${k}: ${v}`).join('');
  return { start: end, end, newText: `${eol}${indent}${key}:${lines}` };
}

// ---------------------------------------------------------------- values set by path

/** A scalar value to set at a path of the file: `['version']`, `['rules', 2, 'id']`. */
export interface ValueEdit {
  /** `['version']`, `['id']` or `['rules', i, 'id']`. */
  readonly path: readonly (string | number)[];
  readonly value: string;
}

/**
 * The text with each value set: a minimal edit that keeps comments, quoting and layout. A key
 * the file lacks is inserted where a pull puts it (`id` first; `version` after `phase`, else
 * before `rules`).
 */
export function setValues(text: string, format: HostFormat, edits: readonly ValueEdit[]): string {
  // Rules last to first, so that an edit never moves the place of one still to come.
  const ordered = [...edits].sort((a, b) => Number(b.path[1] ?? -1) - Number(a.path[1] ?? -1));
  for (const edit of ordered) text = format === 'json' ? editJson(text, edit) : editYaml(text, edit);
  return text;
}

function editJson(text: string, edit: ValueEdit): string {
  const eol = eolOf(text);
  const indent = /^[ \t]*(?=")/m.exec(text.slice(text.indexOf('\n') + 1))?.[0] ?? '  ';
  const formattingOptions: jsonc.FormattingOptions = indent.startsWith('\t') ? { insertSpaces: false, tabSize: 1, eol } : { insertSpaces: true, tabSize: Math.max(1, indent.length), eol };
  const key = String(edit.path.at(-1));
  const changes = jsonc.modify(text, [...edit.path], edit.value, {
    formattingOptions,
    // Where pull puts the key: `id` first; `version` after `phase` (else before `rules`).
    getInsertionIndex: (properties) => {
      if (key === 'id') return 0;
      const phase = properties.indexOf('phase');
      if (phase !== -1) return phase + 1;
      const rules = properties.indexOf('rules');
      return rules !== -1 ? rules : properties.length;
    },
  });
  return jsonc.applyEdits(text, changes);
}

function editYaml(text: string, edit: ValueEdit): string {
  const doc = YAML.parseDocument(text, { keepSourceTokens: true, uniqueKeys: false });
  const map = edit.path.length === 1 ? doc.contents : doc.getIn(edit.path.slice(0, -1), true);
  const key = String(edit.path.at(-1));
  // As pull writes it: `"3"` stays a string, an id goes plain.
  const scalar = YAML.stringify(edit.value).trim();
  const eol = eolOf(text);
  if (YAML.isMap(map)) {
    const pair = map.items.find((p) => YAML.isScalar(p.key) && p.key.value === key);
    if (pair) {
      // Replace the value's text only: the key, comments and layout stay as they are.
      if (YAML.isScalar(pair.value) && pair.value.range && typeof pair.value.value !== 'object') {
        const [start, end] = pair.value.range;
        if (end > start) return text.slice(0, start) + scalar + text.slice(end);
      }
    } else {
      const at = insertionOffset(text, map, key);
      if (at && map.flow) return `${text.slice(0, at.offset)}${key}: ${scalar}, ${text.slice(at.offset)}`;
      if (at?.lineStart) return `${text.slice(0, at.offset)}${' '.repeat(at.column)}${key}: ${scalar}${eol}${text.slice(at.offset)}`;
      // `- action: …`: the new key goes first on the item's line, the old one below it.
      if (at) return `${text.slice(0, at.offset)}${key}: ${scalar}${eol}${' '.repeat(at.column)}${text.slice(at.offset)}`;
    }
  }
  // An odd layout: let the library write the document (comments survive).
  doc.setIn([...edit.path], edit.value);
  return doc.toString({ lineWidth: 0, minContentWidth: 0 });
}

/**
 * Where a new key goes in a mapping, as pull orders keys: `id` first; `version` after `phase`
 * (or before `rules`). In a block mapping, `lineStart` says the offset starts a line (the key
 * gets a line of its own, at `column`); otherwise the new key goes before the text at `offset`.
 */
function insertionOffset(text: string, map: YAML.YAMLMap, key: string): { offset: number; column: number; lineStart: boolean } | undefined {
  const keys = map.items.map((p) => (YAML.isScalar(p.key) ? String(p.key.value) : ''));
  const keyStart = (pair: YAML.Pair | undefined) => (pair && YAML.isScalar(pair.key) && pair.key.range ? pair.key.range[0] : undefined);
  const columnOf = (offset: number) => offset - (text.lastIndexOf('\n', offset - 1) + 1);
  const phase = keys.indexOf('phase');
  if (key !== 'id' && phase !== -1 && !map.flow) {
    // After the line that `phase: …` ends on, so that a comment above the next key stays there.
    const pair = map.items[phase];
    const start = keyStart(pair);
    const valueEnd = YAML.isScalar(pair.value) && pair.value.range ? pair.value.range[1] : undefined;
    const lineEnd = valueEnd !== undefined ? text.indexOf('\n', valueEnd) : -1;
    if (start !== undefined && lineEnd !== -1) return { offset: lineEnd + 1, column: columnOf(start), lineStart: true };
  }
  const before = key === 'id' ? map.items[0] : map.items[phase !== -1 ? phase + 1 : keys.indexOf('rules')];
  const offset = keyStart(before);
  if (offset === undefined) return undefined;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const column = offset - lineStart;
  return /^ *$/.test(text.slice(lineStart, offset)) && !map.flow ? { offset: lineStart, column, lineStart: true } : { offset, column, lineStart: false };
}
