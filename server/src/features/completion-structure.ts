/**
 * Completion outside expressions: the ruleset structure. Keys of the ruleset and of a rule,
 * values of `action`, `phase`, `kind` and `enabled`, `action_parameters` for `skip` and
 * `execute`, and a whole-rule snippet in `rules`, written in the JSON or YAML around the cursor.
 */
import * as jsonc from 'jsonc-parser';
import { CompletionItemKind, InsertTextMode, TextEdit, type CompletionItem } from 'vscode-languageserver';
import { phaseFamily } from '../language/catalogue/catalogues';
import { RULE_ORDER_KEYS } from '../documents/entry-point';
import { ACTION_SUMMARIES, KNOWN_ACTIONS, KNOWN_PHASES, PACKET_PHASE_ACTIONS, RULE_KEYS, RULESET_KEYS, RULESET_KINDS } from '../language/catalogue/phases';
import { property, type HostArray, type HostFormat, type HostNode, type HostObject } from '../documents/host/index';
import { columnOf, eolOf, lineIndent } from '../documents/host/index';
import type { DocumentModel } from './model';
import { actionOf, actionParameterType, allowedValues, isSchemaKey, keySections, objectKeys, phaseActions, ruleParameterType, typeText, type Step } from './parameters';
import type { ParameterType } from '../language/catalogue/action-schema';
import { itemOf, plainText, render, sortKey, type ItemSpec, type Part } from './completion-insert';

/** The packet phases' own words for their actions; other phases take the catalogue's summaries. */
const PACKET_ACTION_DOCS: Record<string, string> = {
  block: 'Drop the packets the expression matches.',
  skip: 'Exempt the matching packets from the rules after this one (`action_parameters: {"ruleset": "current"}`).',
  execute: 'Run another ruleset for the matching packets (`action_parameters: {"id": …}`).',
};

/**
 * The actions offered in a phase: the ones the catalogue lists for it (the packet phases'
 * three with their own words), else every action the API defines.
 */
function actionChoices(phase: string | undefined): { value: string; doc?: string }[] {
  if (phaseFamily(phase) === 'magic') return PACKET_PHASE_ACTIONS.map((a) => ({ value: a, doc: PACKET_ACTION_DOCS[a] }));
  const allowed = phaseActions(phase);
  return (allowed ?? KNOWN_ACTIONS).map((a) => ({ value: a, doc: ACTION_SUMMARIES.get(a) }));
}

/** A value in a host document, written as JSON or as YAML (block style where it takes several lines). */
type Value =
  | { readonly kind: 'string'; readonly parts: readonly Part[] }
  | { readonly kind: 'verbatim'; readonly parts: readonly Part[] }
  | { readonly kind: 'map'; readonly entries: readonly (readonly [string, Value])[] }
  | { readonly kind: 'list'; readonly items: readonly Value[] }
  /** An object whose keys are left to the user: `{|}` in JSON, the cursor on the next line, indented, in YAML. */
  | { readonly kind: 'open'; readonly stop: number };

const str = (...parts: Part[]): Value => ({ kind: 'string', parts });
const verbatim = (...parts: Part[]): Value => ({ kind: 'verbatim', parts });

/** Whether a value takes lines of its own: a YAML block collection, a JSON object of more than two keys. */
function isBlock(value: Value, format: HostFormat): boolean {
  if (value.kind === 'map') return format === 'yaml' ? value.entries.length > 0 : value.entries.length > 2;
  if (value.kind === 'list') return format === 'yaml' ? value.items.length > 0 : value.items.some((v) => isBlock(v, format));
  return value.kind === 'open' && format === 'yaml';
}

/**
 * Writes a value; `indent` is the indentation of the line its key (or `-`) is on. Block
 * values start with a line break; `flow` forces one line (`{ruleset: current}`).
 */
function writeValue(value: Value, format: HostFormat, indent: string, eol: string, flow = false): Part[] {
  switch (value.kind) {
    case 'string':
      // JSON always quotes; YAML only text that would not read back as a string.
      if (format === 'json') return ['"', ...value.parts, '"'];
      return value.parts.every((p) => typeof p !== 'string' || /^([A-Za-z_][A-Za-z0-9_. -]*)?$/.test(p)) ? [...value.parts] : ['"', ...value.parts, '"'];
    case 'verbatim':
      return [...value.parts];
    case 'map': {
      if (flow || !isBlock(value, format)) {
        const entries = value.entries.map(([k, v]) => [format === 'json' ? JSON.stringify(k) : k, ': ', ...writeValue(v, format, indent, eol, true)]);
        return ['{', ...entries.flatMap((e, i) => (i === 0 ? e : [', ', ...e])), '}'];
      }
      const inner = `${indent}  `;
      if (format === 'json') {
        return ['{', ...value.entries.flatMap(([k, v], i) => [i === 0 ? eol : `,${eol}`, inner, ...entry(format, k, v, inner, eol)]), eol, `${indent}}`];
      }
      return value.entries.flatMap(([k, v]) => [eol, inner, ...entry(format, k, v, inner, eol)]);
    }
    case 'open':
      return flow || format === 'json' ? ['{', { stop: value.stop }, '}'] : [eol, `${indent}  `, { stop: value.stop }];
    case 'list': {
      if (flow || !isBlock(value, format)) return ['[', ...value.items.flatMap((v, i) => [...(i === 0 ? [] : [', ']), ...writeValue(v, format, indent, eol, true)]), ']'];
      const inner = `${indent}  `;
      if (format === 'json') {
        return ['[', ...value.items.flatMap((v, i) => [i === 0 ? eol : `,${eol}`, inner, ...writeValue(v, format, inner, eol)]), eol, `${indent}]`];
      }
      return value.items.flatMap((v) => [eol, `${inner}- `, ...(v.kind === 'map' ? inlineMap(v, `${inner}  `, eol) : writeValue(v, format, `${inner}  `, eol))]);
    }
  }
}

/** `key: value`, or for a YAML block value `key:` and the value's lines. */
function entry(format: HostFormat, key: string, value: Value, indent: string, eol: string): Part[] {
  const name = format === 'json' ? JSON.stringify(key) : key;
  return [name, format === 'yaml' && isBlock(value, format) ? ':' : ': ', ...writeValue(value, format, indent, eol)];
}

/** A YAML block mapping whose first key goes on the current line (after `- `). */
function inlineMap(map: Extract<Value, { kind: 'map' }>, indent: string, eol: string): Part[] {
  return map.entries.flatMap(([k, v], i) => [...(i === 0 ? [] : [eol, indent]), ...entry('yaml', k, v, indent, eol)]);
}

function ruleValue(phase: string | undefined): Extract<Value, { kind: 'map' }> {
  const packets = phaseFamily(phase) === 'magic';
  return {
    kind: 'map',
    entries: [
      ['action', str({ stop: 1, choices: actionChoices(phase).map((c) => c.value) })],
      ['expression', str({ stop: 2, placeholder: packets || phase === undefined ? 'ip.src in $svc.anonymizer' : 'http.request.uri.path contains "/admin"' })],
      ['description', str({ stop: 3, placeholder: 'What the rule is for' })],
      ['enabled', verbatim('true')],
    ],
  };
}

function actionParametersValue(action: string | undefined): Value {
  if (action === 'skip') return { kind: 'map', entries: [['ruleset', str('current')]] };
  if (action === 'execute') return { kind: 'map', entries: [['id', str({ stop: 1, placeholder: 'ruleset id' })]] };
  return skeleton(actionParameterType(action));
}

/** How deep a skeleton goes: `from_value: {target_url: {value: …}}` and no deeper. */
const SKELETON_DEPTH = 3;

/**
 * A value to start from for a type: an object with its required keys (and the first key of
 * each group of which one is required), a choice of the allowed values, a tab stop otherwise.
 */
function skeleton(type: ParameterType | undefined, next = { stop: 1 }, depth = 0): Value {
  const stop = () => next.stop++;
  if (!type) return { kind: 'open', stop: stop() };
  const values = allowedValues(type);
  switch (type.kind) {
    case 'object': {
      if (depth >= SKELETON_DEPTH) return { kind: 'open', stop: stop() };
      const keys = type.keys.filter((k) => k.required).map((k) => k.key);
      for (const group of type.oneRequired ?? []) if (!group.some((k) => keys.includes(k))) keys.push(group[0]);
      if (keys.length === 0) return { kind: 'open', stop: stop() };
      return { kind: 'map', entries: keys.map((k) => [k, skeleton(type.keys.find((key) => key.key === k)?.type, next, depth + 1)] as const) };
    }
    case 'union': {
      const object = type.types.find((t) => t.kind === 'object');
      return skeleton(object ?? type.types[0], next, depth);
    }
    case 'array':
      return { kind: 'list', items: [skeleton(type.items, next, depth + 1)] };
    case 'string':
      return values.length > 0 ? str({ stop: stop(), choices: values.map(String) }) : str({ stop: stop() });
    case 'number':
    case 'boolean':
      return values.length > 0 ? verbatim({ stop: stop(), choices: values.map(String) }) : verbatim({ stop: stop(), placeholder: type.kind === 'number' ? String(type.min ?? 0) : undefined });
    default:
      return str({ stop: stop() });
  }
}

function keyValue(key: string, action: string | undefined, phase: string | undefined): Value {
  switch (key) {
    case 'kind':
      return str({ stop: 1, choices: RULESET_KINDS });
    case 'phase':
      return str({ stop: 1, choices: KNOWN_PHASES });
    case 'action':
      return str({ stop: 1, choices: actionChoices(phase).map((c) => c.value) });
    case 'enabled':
      return verbatim({ stop: 1, choices: ['true', 'false'] });
    case 'rules':
      return { kind: 'list', items: [ruleValue(phase)] };
    case 'action_parameters':
      return actionParametersValue(action);
    case 'logging':
    case 'ratelimit':
    case 'exposed_credential_check':
      return skeleton(ruleParameterType(undefined, [key]));
    case 'categories':
      return { kind: 'list', items: [str({ stop: 1 })] };
    case 'version':
      // Quoted in YAML too: `1` unquoted would be a number.
      return verbatim('"', { stop: 1 }, '"');
    default:
      return str({ stop: 1 });
  }
}

interface StructureEdit {
  readonly start: number;
  readonly end: number;
  readonly indent: string;
  /** Text to insert before (`, ` after a JSON value) and after (`,` before the next property). */
  readonly before?: { readonly offset: number; readonly text: string };
  readonly after?: string;
}

function structureItem(model: DocumentModel, edit: StructureEdit, spec: Omit<ItemSpec, 'parts'>, parts: readonly Part[]): CompletionItem {
  const { text, snippet } = render([...parts, ...(edit.after ? [edit.after] : [])], (t) => t);
  const item = itemOf(spec, TextEdit.replace(model.range(edit.start, edit.end), text), snippet);
  item.insertTextMode = InsertTextMode.asIs;
  // Editors filter an item by the text from the edit's start to the cursor: when the edit
  // replaces a quoted key or value, that text starts with the quote, and so must filterText.
  const quote = model.text[edit.start];
  if (quote === '"' || quote === "'") item.filterText = `${quote}${item.filterText ?? item.label}${quote}`;
  if (edit.before) item.additionalTextEdits = [TextEdit.insert(model.positionAt(edit.before.offset), edit.before.text)];
  return item;
}

/** An action the API's types give no `action_parameters` (`challenge`, `log`). */
function takesNoParameters(action: string | undefined): boolean {
  return action !== undefined && KNOWN_ACTIONS.includes(action) && actionParameterType(action) === undefined;
}

/** The actions whose `action_parameters` are offered: the rule's; without one yet, the forms of `skip` and `execute`. */
function parameterVariants(action: string | undefined): string[] {
  return action === undefined ? ['skip', 'execute'] : [action];
}

/** Key items for an object, without the keys it already has (except the one being typed). */
function keyItems(model: DocumentModel, object: HostNode | undefined, what: 'ruleset' | 'rule', edit: StructureEdit, keyOnly: boolean, typed: string): CompletionItem[] {
  const present = new Set(object?.kind === 'object' ? object.properties.map((p) => p.key) : []);
  present.delete(typed);
  const action = what === 'rule' ? actionOf(object) : undefined;
  // Our `before`/`after` place a rule among its entry point's; a Terraform resource's rules are ordered as written.
  const ruleKeys: readonly { key: string; doc: string }[] = model.ruleset.layout === 'terraform' ? RULE_KEYS : [...RULE_KEYS, ...RULE_ORDER_KEYS];
  const keys = (what === 'ruleset' ? RULESET_KEYS : ruleKeys).filter(
    (k) => !present.has(k.key) && !(k.key === 'logging' && action !== undefined && action !== 'skip') && !(k.key === 'action_parameters' && takesNoParameters(action)),
  );
  const format = model.format;
  const eol = eolOf(model.text);
  const items: CompletionItem[] = [];
  keys.forEach((info, i) => {
    const variants: (string | undefined)[] = info.key === 'action_parameters' ? parameterVariants(action) : [action];
    for (const variant of variants) {
      const value = keyValue(info.key, variant, model.ruleset.phase);
      const parts = keyOnly ? [format === 'json' ? JSON.stringify(info.key) : info.key] : entry(format, info.key, value, edit.indent, eol);
      const special = info.key === 'action_parameters' && variant !== undefined;
      items.push(
        structureItem(
          model,
          edit,
          {
            label: info.key,
            kind: CompletionItemKind.Property,
            detail: special ? `for \`${variant}\`` : `${what} key`,
            description: special ? plainText(writeValue(value, format, '', eol, true)) : undefined,
            documentation: info.doc,
            sortText: sortKey(1, i),
          },
          parts,
        ),
      );
    }
  });
  return items;
}

function valueItems(model: DocumentModel, key: string, rule: HostNode | undefined, edit: StructureEdit, quote: '"' | "'" | ''): CompletionItem[] {
  const format = model.format;
  const choices: { value: string; doc?: string }[] =
    key === 'action'
      ? actionChoices(model.ruleset.phase)
      : key === 'phase'
        ? KNOWN_PHASES.map((p) => ({ value: p }))
        : key === 'kind'
          ? RULESET_KINDS.map((k) => ({ value: k }))
          : [];
  const items: CompletionItem[] = choices.map((choice, i) => {
    const written = format === 'json' || quote === '"' ? JSON.stringify(choice.value) : quote === "'" ? `'${choice.value}'` : choice.value;
    return structureItem(model, edit, { label: choice.value, kind: CompletionItemKind.EnumMember, detail: key, documentation: choice.doc, sortText: sortKey(1, i) }, [written]);
  });
  if (key === 'enabled' && quote === '') {
    for (const [i, value] of ['true', 'false'].entries()) items.push(structureItem(model, edit, { label: value, kind: CompletionItemKind.Value, detail: key, sortText: sortKey(1, i) }, [value]));
  }
  if (key === 'action_parameters' && quote === '') {
    for (const [i, a] of parameterVariants(actionOf(rule)).entries()) {
      const parts = writeValue(actionParametersValue(a), format, edit.indent, eolOf(model.text), true);
      items.push(structureItem(model, edit, { label: plainText(parts), kind: CompletionItemKind.Snippet, detail: `action_parameters for \`${a}\``, sortText: sortKey(1, i) }, parts));
    }
  }
  return items;
}

/**
 * Key items for an object of a rule's parameters (`action_parameters` at any depth, `ratelimit`,
 * `exposed_credential_check`, `logging`), from the schema of the rule's action: each with its
 * type, whether it is required, and its allowed values. Required keys come first.
 */
function parameterKeyItems(model: DocumentModel, rule: HostNode | undefined, path: readonly Step[], object: HostNode | undefined, edit: StructureEdit, keyOnly: boolean, typed: string): CompletionItem[] {
  const present = new Set(object?.kind === 'object' ? object.properties.map((p) => p.key) : []);
  present.delete(typed);
  const keys = objectKeys(ruleParameterType(rule, path))
    .filter((k) => !present.has(k.key))
    .sort((a, b) => Number(b.required) - Number(a.required));
  const format = model.format;
  const eol = eolOf(model.text);
  return keys.map((key, i) => {
    const parts = keyOnly ? [format === 'json' ? JSON.stringify(key.key) : key.key] : entry(format, key.key, skeleton(key.type), edit.indent, eol);
    const spec = {
      label: key.key,
      kind: CompletionItemKind.Property,
      detail: `${typeText(key.type)}${key.required ? ' · required' : ''}`,
      documentation: keySections(rule, path, key).join('\n\n'),
      sortText: sortKey(1, i),
    };
    return structureItem(model, edit, spec, parts);
  });
}

/** The allowed values of a parameter (a status code, an algorithm, a phase to skip), without those already in its array. */
function parameterValueItems(model: DocumentModel, key: string, type: ParameterType | undefined, edit: StructureEdit, quote: '"' | "'" | '', present: readonly HostNode[] = []): CompletionItem[] {
  const taken = new Set(present.flatMap((node) => (node.kind === 'string' || node.kind === 'number' || node.kind === 'boolean' ? [node.value] : [])));
  const values = allowedValues(type).filter((v) => !taken.has(v));
  if (values.length === 0 && quote === '' && (type?.kind === 'object' || type?.kind === 'union' || type?.kind === 'array')) {
    // An object or array: its skeleton on one line (`{target_url: {value: …}}`), as `action_parameters` has.
    const value = skeleton(type);
    if (value.kind === 'open') return [];
    const parts = writeValue(value, model.format, edit.indent, eolOf(model.text), true);
    return [structureItem(model, edit, { label: plainText(parts), kind: CompletionItemKind.Snippet, detail: key, sortText: sortKey(1, 0) }, parts)];
  }
  return values.map((value, i) => {
    const written = typeof value !== 'string' ? String(value) : model.format === 'json' || quote === '"' || !isPlainYamlString(value) ? JSON.stringify(value) : quote === "'" ? `'${value}'` : value;
    return structureItem(model, edit, { label: String(value), kind: CompletionItemKind.EnumMember, detail: key, sortText: sortKey(1, i) }, [written]);
  });
}

/** Whether a string reads back as itself, a string, written as a plain YAML scalar. */
function isPlainYamlString(value: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(value) && !/^(true|false|yes|no|on|off|null|y|n)$/i.test(value);
}

/** A whole rule: as a JSON object, or as a YAML item (`- action: …`, or after a typed `- `). */
function ruleItem(model: DocumentModel, edit: StructureEdit, dash: boolean): CompletionItem {
  const eol = eolOf(model.text);
  const parts: Part[] =
    model.format === 'json'
      ? writeValue(ruleValue(model.ruleset.phase), 'json', edit.indent, eol)
      : [...(dash ? ['- '] : []), ...inlineMap(ruleValue(model.ruleset.phase), dash ? `${edit.indent}  ` : edit.indent, eol)];
  return structureItem(model, edit, { label: 'rule', kind: CompletionItemKind.Snippet, detail: 'a new rule', documentation: 'A rule with `action`, `expression`, `description` and `enabled`.', sortText: sortKey(0, 0) }, parts);
}

export function structureItems(model: DocumentModel, offset: number): CompletionItem[] {
  // The keys and values of a ruleset file's own structure. A Terraform file's are the
  // Terraform extension's to complete, from the provider's schema; an octorules file's
  // structure (sections, refs) is not one this completion knows.
  if (model.parsedDocument.layout !== 'api') return [];
  return model.format === 'json' ? jsonStructureItems(model, offset) : yamlStructureItems(model, offset);
}

/** The rules of the ruleset the offset is in. */
function rulesOf(model: DocumentModel, offset: number): readonly HostNode[] {
  return model.rulesetAt(offset)?.rules ?? [];
}

// ------------------------------------------------------------ JSON

function jsonStructureItems(model: DocumentModel, offset: number): CompletionItem[] {
  const text = model.text;
  const root = model.ruleset.root;
  // jsonc-parser's getLocation recurses once per level of the text it reads, and runs out of
  // stack past about 5,000: it only gets a text the reader took, which nests MAX_NESTING
  // levels at most. A document not read (nested too deeply, or no JSON value at all) has no
  // keys or values to complete.
  if (!root) return [];
  const location = jsonc.getLocation(text, offset);
  const path = location.path;
  const node = location.previousNode;
  type Target = { object: HostNode | undefined; what: 'ruleset' | 'rule' } | { object: HostNode | undefined; what: 'parameters'; rule: HostNode | undefined; path: readonly Step[] };
  const objectAt = (objectPath: jsonc.JSONPath): Target | undefined => {
    if (objectPath.length === 0) return { object: root, what: 'ruleset' };
    if (objectPath[0] !== 'rules' || typeof objectPath[1] !== 'number') return undefined;
    const rule = rulesOf(model, offset)[objectPath[1]];
    if (objectPath.length === 2) return { object: rule, what: 'rule' };
    const path = objectPath.slice(2);
    return isSchemaKey(path[0]) ? { object: nodeAtPath(rule, path), what: 'parameters', rule, path } : undefined;
  };
  const touching = node && node.offset <= offset && offset <= node.offset + node.length;
  const word = /[A-Za-z_]*$/.exec(text.slice(Math.max(0, offset - 64), offset))![0];
  const wordEnd = offset + /^[A-Za-z_]*/.exec(text.slice(offset, offset + 64))![0].length;

  const keyPosition = (objectPath: jsonc.JSONPath, start: number, end: number, typed: string): CompletionItem[] => {
    const target = objectAt(objectPath);
    if (!target) return [];
    const following = /^\s*(.)/.exec(text.slice(end))?.[1];
    const keyOnly = following === ':';
    const previousEnd = lastNonSpace(text, start);
    const needsCommaBefore = previousEnd >= 0 && !'{,'.includes(text[previousEnd]);
    const edit: StructureEdit = {
      start,
      end,
      indent: lineIndent(text, start),
      before: needsCommaBefore ? { offset: previousEnd + 1, text: ',' } : undefined,
      after: !keyOnly && following === '"' ? ',' : undefined,
    };
    if (target.what === 'parameters') return parameterKeyItems(model, target.rule, target.path, target.object, edit, keyOnly, typed);
    return keyItems(model, target.object, target.what, edit, keyOnly, typed);
  };

  // A key being typed (`"ph|"`), even where a missing comma confuses the location.
  if (location.isAtPropertyKey || (touching && node!.type === 'property')) {
    if (touching && node!.type === 'property') return keyPosition(path.slice(0, -1), node!.offset, node!.offset + node!.length, String(node!.value));
    return keyPosition(path.slice(0, -1), offset - word.length, wordEnd, text.slice(offset - word.length, wordEnd));
  }
  const last = path[path.length - 1];
  if (typeof last === 'string') {
    // After a complete value (`"name": "x" |`): the next key, after a comma.
    if (node && !touching && node.offset + node.length <= offset && /^\s*$/.test(text.slice(node.offset + node.length, offset))) {
      return keyPosition(path.slice(0, -1), offset - word.length, wordEnd, text.slice(offset - word.length, wordEnd));
    }
    const target = objectAt(path.slice(0, -1));
    if (!target) return [];
    const start = touching ? node!.offset : offset - word.length;
    const end = touching ? node!.offset + node!.length : wordEnd;
    const following = /^\s*(.)/.exec(text.slice(end))?.[1];
    const edit: StructureEdit = { start, end, indent: lineIndent(text, start), after: following === '"' ? ',' : undefined };
    if (target.what === 'parameters') return parameterValueItems(model, last, ruleParameterType(target.rule, [...target.path, last]), edit, '');
    const rule = target.what === 'rule' ? target.object : undefined;
    return valueItems(model, last, rule, edit, '');
  }
  if (typeof last === 'number' && path.length > 3 && path[0] === 'rules' && typeof path[1] === 'number' && isSchemaKey(path[2])) {
    // An item of an array parameter (`"phases": ["http_ratelimit", |]`): the values not in it yet.
    const rule = rulesOf(model, offset)[path[1]];
    const arrayPath = path.slice(2, -1);
    const array = nodeAtPath(rule, arrayPath);
    const start = touching ? node!.offset : offset - word.length;
    const end = touching ? node!.offset + node!.length : wordEnd;
    const others = array?.kind === 'array' ? array.items.filter((item) => item.end < start || item.start > end) : [];
    const following = /^\s*(.)/.exec(text.slice(end))?.[1];
    const edit: StructureEdit = { start, end, indent: lineIndent(text, start), after: following === '"' ? ',' : undefined };
    return parameterValueItems(model, String(arrayPath[arrayPath.length - 1]), ruleParameterType(rule, [...arrayPath, 0]), edit, '', others);
  }
  if (typeof last === 'number' && path.length === 2 && path[0] === 'rules') {
    // Between the items of `rules`, not inside one.
    const inner = model.nodesAt(offset)[0];
    if (inner && inner.kind !== 'array') return [];
    const previousEnd = lastNonSpace(text, offset - word.length);
    const following = /^\s*(.)/.exec(text.slice(wordEnd))?.[1];
    const edit: StructureEdit = {
      start: offset - word.length,
      end: wordEnd,
      indent: lineIndent(text, offset - word.length),
      before: previousEnd >= 0 && text[previousEnd] === '}' ? { offset: previousEnd + 1, text: ',' } : undefined,
      after: following === '{' ? ',' : undefined,
    };
    return [ruleItem(model, edit, false)];
  }
  return [];
}

/** The node at a path of keys and indexes below `node`. */
export function nodeAtPath(node: HostNode | undefined, path: readonly Step[]): HostNode | undefined {
  let here = node;
  for (const step of path) {
    if (typeof step === 'number') here = here?.kind === 'array' ? here.items[step] : undefined;
    else here = property(here, step)?.value;
  }
  return here;
}

function lastNonSpace(text: string, before: number): number {
  let i = before - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return i;
}

// ------------------------------------------------------------ YAML

function yamlStructureItems(model: DocumentModel, offset: number): CompletionItem[] {
  const text = model.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  if (text[lineEnd - 1] === '\r') lineEnd--;
  const before = text.slice(lineStart, offset);
  const after = text.slice(offset, Math.max(offset, lineEnd));
  const root = model.ruleset.root;
  const rules = property(root, 'rules');
  const rulesArray = rules?.value?.kind === 'array' ? rules.value : undefined;
  const rootColumn = root?.kind === 'object' && root.properties.length > 0 ? columnOf(text, root.properties[0].keyStart) : 0;
  const dashColumn = rulesArray && rulesArray.items.length > 0 ? columnOf(text, rulesArray.start) : undefined;
  const rule = ruleAt(model, offset);
  const ruleColumn = rule?.kind === 'object' && rule.properties.length > 0 ? columnOf(text, rule.properties[0].keyStart) : undefined;
  const inRules = rules !== undefined && offset > rules.keyEnd && (!rulesArray || rulesArray.kind === 'array');

  const value = /^([ \t]*)(?:-[ \t]+)?([A-Za-z_]+)[ \t]*:[ \t]+(\S*)$/.exec(before);
  if (value) {
    const [, , key, typed] = value;
    const start = offset - typed.length;
    const end = offset + /^\S*/.exec(after)![0].length;
    const quote = typed.startsWith('"') ? '"' : typed.startsWith("'") ? "'" : '';
    const edit = { start, end, indent: lineIndent(text, offset) };
    const keyColumn = before.search(/[A-Za-z_]/);
    if (rule && ruleColumn !== undefined && keyColumn > ruleColumn) {
      const place = yamlPlace(text, rule, [], lineStart, offset, keyColumn);
      if (!place || place.array || !isSchemaKey(place.path[0])) return [];
      return parameterValueItems(model, key, ruleParameterType(rule, [...place.path, key]), edit, quote);
    }
    return valueItems(model, key, rule, edit, quote);
  }
  const key = /^([ \t]*)(-[ \t]+)?([A-Za-z_]*)$/.exec(before);
  if (!key) return [];
  const [, indent, dash] = key;
  const start = offset - key[3].length;
  const wordEnd = offset + /^[A-Za-z_]*/.exec(after)![0].length;
  const word = text.slice(start, wordEnd);
  const keyOnly = /^[ \t]*:/.test(text.slice(wordEnd, lineEnd));
  const column = start - lineStart;
  const edit: StructureEdit = { start, end: wordEnd, indent: ' '.repeat(column) };
  const items: CompletionItem[] = [];
  if (rule && ruleColumn !== undefined && indent.length > ruleColumn) {
    // Deeper than the rule's keys: in its parameters, or nowhere we complete.
    const place = yamlPlace(text, rule, [], lineStart, offset, dash ? indent.length : column);
    if (!place || !isSchemaKey(place.path[0])) return [];
    if (!dash) return place.array ? [] : parameterKeyItems(model, rule, place.path, place.object, edit, keyOnly, word);
    if (!place.array) return [];
    // `- |` in an array parameter: an item's keys, or the values not in the array yet.
    const index = place.array.items.findIndex((item) => item.start >= lineStart && item.start <= lineEnd);
    const itemPath = [...place.path, index < 0 ? place.array.items.length : index];
    const itemType = ruleParameterType(rule, itemPath);
    if (objectKeys(itemType).length > 0) return parameterKeyItems(model, rule, itemPath, index < 0 ? undefined : place.array.items[index], edit, keyOnly, word);
    const others = place.array.items.filter((item) => item.end < lineStart || item.start > lineEnd);
    return parameterValueItems(model, String(place.path[place.path.length - 1]), itemType, edit, '', others);
  }
  if (dash) {
    // `- |` under `rules`: a rule begins here.
    if (!inRules || (dashColumn !== undefined && indent.length !== dashColumn)) return [];
    const existing = rulesArray?.items.find((r) => r.start >= lineStart && r.start <= lineEnd);
    items.push(...keyItems(model, existing, 'rule', edit, keyOnly, word));
    if (existing?.kind !== 'object' && !keyOnly) items.push(ruleItem(model, edit, false));
    return items;
  }
  if (column === rootColumn) items.push(...keyItems(model, root, 'ruleset', edit, keyOnly, word));
  if (rule && ruleColumn !== undefined && column === ruleColumn) items.push(...keyItems(model, rule, 'rule', edit, keyOnly, word));
  if (inRules && !keyOnly && (dashColumn !== undefined ? column === dashColumn : column > rootColumn)) items.push(ruleItem(model, edit, true));
  return items;
}

/** Where a YAML line stands below a rule: the path to the object (or array) it adds a key (or item) to. */
export interface YamlPlace {
  readonly path: readonly Step[];
  /** The object the key goes into; undefined when its key has no value yet (`from_value:` alone). */
  readonly object?: HostNode;
  /** The array whose item the line is (`- |` under `phases:`). */
  readonly array?: HostArray;
}

/**
 * The place of a key (or `- `) at `column` on the line that starts at `lineStart`, below the
 * block mapping `node` at `path`: the line goes into the value of the last key before it that
 * is indented less than the line, and so on down; it is a key of `node` itself at the column of
 * its keys. Undefined where the indentation fits no mapping, or a value is written in flow
 * style (`{…}`) or as a scalar.
 */
export function yamlPlace(text: string, node: HostObject, path: readonly Step[], lineStart: number, offset: number, column: number): YamlPlace | undefined {
  if (node.properties.length === 0) return undefined;
  const earlier = node.properties.filter((p) => p.keyStart < lineStart);
  const last = earlier[earlier.length - 1];
  if (last && column > columnOf(text, last.keyStart)) {
    const value = last.value;
    const here = [...path, last.key];
    // A word typed under `from_value:` reads as its scalar value: the key's object is still to come.
    if (!value || value.kind === 'null' || (value.kind !== 'object' && value.kind !== 'array' && value.start >= lineStart)) return { path: here };
    if (value.kind === 'object' && value.block) return yamlPlace(text, value, here, lineStart, offset, column);
    if (value.kind !== 'array') return undefined;
    let index = -1;
    value.items.forEach((item, i) => {
      if (item.start <= offset) index = i;
    });
    const item = value.items[index];
    if (item?.kind === 'object' && item.block && item.properties.length > 0 && columnOf(text, item.properties[0].keyStart) <= column) {
      return yamlPlace(text, item, [...here, index], lineStart, offset, column);
    }
    return { path: here, array: value };
  }
  return column === columnOf(text, node.properties[0].keyStart) ? { path, object: node } : undefined;
}

/** The rule the offset is in or after: the last one that starts before it. */
export function ruleAt(model: DocumentModel, offset: number): HostObject | undefined {
  let found: HostObject | undefined;
  for (const rule of rulesOf(model, offset)) {
    if (rule.start > offset) break;
    if (rule.kind === 'object') found = rule;
  }
  return found;
}
