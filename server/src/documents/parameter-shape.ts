/**
 * The checks of what a rule carries beside its expression (`action_parameters`, `ratelimit`,
 * …) against the data of action-schema.ts: types, keys (unknown ones with a did-you-mean),
 * required and exclusive keys, allowed values and ranges, with quick fixes.
 */
import type { ParameterType } from '../language/catalogue/action-schema';
import type { Severity } from '../language/problem';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import { isTerraformTemplate, type HostNode, type HostObject, type HostScalar } from './host/index';
import { renameKeyEdit, replaceScalarEdit } from './host/index';
import type { DocumentFix } from './parsed-ruleset';
import { convertPrimitive, inappropriateValue, terraformTypeName, terraformTypeOf } from './terraform-types';

/** How the shape checks report a finding (ruleset-shape.ts collects them into a document's problems). */
export type Report = (code: string, severity: Severity, start: number, end: number, message: string, fixes?: readonly DocumentFix[]) => void;

interface Finding {
  readonly code: string;
  readonly severity: Severity;
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly fixes?: readonly DocumentFix[];
  /** An unknown key with no key of its shape close to it: a sign that the value was meant as another shape of a union. */
  readonly stray?: boolean;
}

/** A value as messages quote it: `"301"`, `301`, an object. */
export function describe(node: HostNode): string {
  if (node.kind === 'string') return `\`"${node.value}"\``;
  if (node.kind === 'object' || node.kind === 'array') return `an ${node.kind}`;
  return `\`${String(node.value)}\``;
}

/**
 * Checks `node` against `type`: types, keys (unknown ones with a did-you-mean), required and
 * exclusive keys, allowed values and ranges. `label` names the value in messages
 * (`` `action_parameters` ``, `` `status_code` ``). In a Terraform file (`terraform`), a value
 * is first converted as Terraform converts it (terraform-types.ts), and a value Terraform fills
 * in is reported as `terraform-unknown` (with its label as the message) where it hides a check.
 */
export function checkParameterValue(text: string, node: HostNode, type: ParameterType, label: string, report: Report, terraform = false): void {
  const findings: Finding[] = [];
  walk(text, node, type, label, findings, [], terraform);
  for (const f of findings) report(f.code, f.severity, f.start, f.end, f.message, f.fixes);
}

/**
 * Whether a value of the type is checked for more than being there: an expression, a value
 * among a few, a range, keys or items. A value Terraform fills in hides that check; of a plain
 * string, number or bool it hides nothing (Terraform holds it to its type).
 */
export function hidesCheck(type: ParameterType | undefined): boolean {
  switch (type?.kind) {
    case undefined:
    case 'any':
      return false;
    case 'string':
      return type.expression !== undefined || type.values !== undefined || type.maxLength !== undefined;
    case 'number':
      return type.values !== undefined || type.integer === true || type.min !== undefined || type.max !== undefined;
    case 'boolean':
      return type.values !== undefined;
    default:
      return true;
  }
}

/** The name of the attribute a label speaks of: `period` of `` `period` `` or of ``an item of `period` ``. */
function attributeOfLabel(label: string): string {
  const names = [...label.matchAll(/`([^`]+)`/g)];
  return names.length > 0 ? names[names.length - 1][1] : label;
}

/**
 * `node` as Terraform hands it to the provider for `type`: converted (`"40"` a number), or
 * undefined when nothing is to be checked (a template Terraform fills in, reported where it
 * hides a check; `null`, which is no value; a value Terraform refuses, reported in its words).
 */
function asTerraformConverts(node: HostNode, type: ParameterType, label: string, out: Finding[]): HostNode | undefined {
  if (node.kind === 'null') return undefined;
  if (isTerraformTemplate(node)) {
    // An expression's `${…}` says so itself (terraform-interpolation).
    if (!(type.kind === 'string' && type.expression) && hidesCheck(type)) out.push({ code: 'terraform-unknown', severity: 'hint', start: node.start, end: node.end, message: label });
    return undefined;
  }
  if (type.kind === 'string' || type.kind === 'number' || type.kind === 'boolean') {
    const conversion = convertPrimitive(node, type.kind);
    if (!conversion) return node;
    if ('value' in conversion) return conversion.value;
    out.push({ code: 'invalid-type', severity: 'error', start: node.start, end: node.end, message: inappropriateValue(attributeOfLabel(label), conversion.refused) });
    return undefined;
  }
  const wanted = terraformTypeOf(type);
  if (wanted && node.kind !== type.kind) {
    out.push({ code: 'invalid-type', severity: 'error', start: node.start, end: node.end, message: inappropriateValue(attributeOfLabel(label), `${wanted} required, but have ${terraformTypeName(node)}`) });
    return undefined;
  }
  return node;
}

/**
 * `alsoKnown`: keys another shape of the same union knows, which are not unknown here either.
 * `terraform`: the value is read from a `.tf` file (see checkParameterValue).
 */
function walk(text: string, given: HostNode, type: ParameterType, label: string, out: Finding[], alsoKnown: readonly string[], terraform = false): void {
  const node = terraform && type.kind !== 'union' && type.kind !== 'any' ? asTerraformConverts(given, type, label, out) : given;
  if (!node) return;
  switch (type.kind) {
    case 'any':
      return;
    case 'string':
      if (node.kind !== 'string') return wrongType(text, node, type, label, out);
      if (type.values && !type.values.includes(String(node.value))) return notOneOf(node, type.values, closestMatches(String(node.value), type.values), label, out);
      if (type.maxLength !== undefined && String(node.value).length > type.maxLength) {
        out.push({ code: 'invalid-action-parameters', severity: 'error', start: node.start, end: node.end, message: `${label} is ${String(node.value).length} characters long; the service takes at most ${type.maxLength}` });
      }
      return;
    case 'number': {
      if (node.kind !== 'number') return wrongType(text, node, type, label, out);
      const value = Number(node.value);
      if (type.values && !type.values.includes(value)) return notOneOf(node, type.values, nearestNumbers(value, type.values), label, out);
      if (type.integer && !Number.isInteger(value)) out.push({ code: 'invalid-action-parameters', severity: 'error', start: node.start, end: node.end, message: `expected ${label} to be a whole number, found ${describe(node)}` });
      else if ((type.min !== undefined && value < type.min) || (type.max !== undefined && value > type.max)) {
        out.push({ code: 'invalid-action-parameters', severity: 'error', start: node.start, end: node.end, message: `expected ${label} ${rangeOf(type.min, type.max)}, found ${describe(node)}` });
      }
      return;
    }
    case 'boolean':
      if (node.kind !== 'boolean') return wrongType(text, node, type, label, out);
      if (type.values && !type.values.includes(node.value === true)) notOneOf(node, type.values, type.values, label, out);
      return;
    case 'array':
      if (node.kind !== 'array') return wrongType(text, node, type, label, out);
      if (type.minItems !== undefined && node.items.length < type.minItems) {
        out.push({ code: 'invalid-action-parameters', severity: 'error', start: node.start, end: node.end, message: `${label} needs at least ${type.minItems} ${type.minItems === 1 ? 'item' : 'items'}` });
      }
      if (type.maxItems !== undefined && node.items.length > type.maxItems) {
        out.push({ code: 'invalid-action-parameters', severity: 'error', start: node.start, end: node.end, message: `${label} has ${node.items.length} items; the service takes at most ${type.maxItems}` });
      }
      for (const item of node.items) walk(text, item, type.items, `an item of ${label}`, out, [], terraform);
      return;
    case 'object':
      if (node.kind !== 'object') return wrongType(text, node, type, label, out);
      return walkObject(text, node, type, label, out, alsoKnown, terraform);
    case 'union':
      return walkUnion(text, node, type.types, label, out, terraform);
  }
}

/** Whether `value` would be accepted as the value of `key` of `type` (no error found in it). */
function fits(text: string, value: HostNode, type: ParameterType & { kind: 'object' }, key: string, terraform: boolean): boolean {
  const keyType = typeOfKey(type, key);
  if (!keyType) return false;
  const findings: Finding[] = [];
  walk(text, value, keyType, key, findings, [], terraform);
  return !findings.some((f) => f.severity === 'error');
}

/** The type of an object's key: its own, or the map's values. */
function typeOfKey(type: ParameterType & { kind: 'object' }, key: string): ParameterType | undefined {
  for (const k of type.keys) if (k.key === key) return k.type;
  return type.values;
}

function walkObject(text: string, node: HostObject, type: ParameterType & { kind: 'object' }, label: string, out: Finding[], alsoKnown: readonly string[], terraform: boolean): void {
  const seen = new Set<string>();
  for (const p of node.properties) {
    if (seen.has(p.key)) out.push({ code: 'duplicate-key', severity: 'error', start: p.keyStart, end: p.keyEnd, message: `\`${p.key}\` appears twice in ${label}; only one is kept` });
    seen.add(p.key);
    const keyType = typeOfKey(type, p.key);
    if (keyType) {
      if (p.value) walk(text, p.value, keyType, `\`${p.key}\``, out, [], terraform);
      else if (p.filledIn && hidesCheck(keyType)) out.push({ code: 'terraform-unknown', severity: 'hint', start: p.filledIn.start, end: p.filledIn.end, message: `\`${p.key}\`` });
      continue;
    }
    if (alsoKnown.includes(p.key)) continue;
    const names = type.keys.map((k) => k.key);
    const candidates = new Set([...names, ...alsoKnown]);
    const close = closestMatches(p.key, candidates).filter((k) => !seen.has(k) && !node.properties.some((other) => other.key === k));
    // A key whose type the value fits is the likelier meaning (`phaes: [a, b]` is `phases`, not `phase`).
    const suggestions = p.value ? [...close.filter((k) => fits(text, p.value!, type, k, terraform)), ...close.filter((k) => !fits(text, p.value!, type, k, terraform))] : close;
    const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions)}?` : names.length > 0 ? `; its keys are ${quoteAlternatives(names)}` : '';
    out.push({
      code: 'unknown-key',
      severity: 'warning',
      start: p.keyStart,
      end: p.keyEnd,
      message: `unknown key \`${p.key}\` in ${label}${hint}`,
      fixes: suggestions.map((k) => ({ title: `Change to \`${k}\``, edits: [renameKeyEdit(p, k)] })),
      stray: closestMatches(p.key, names).length === 0,
    });
  }
  let missing: string[] | undefined;
  for (const k of type.keys) if (k.required && !seen.has(k.key)) (missing ??= []).push(k.key);
  // On the object's first character, as the JSON language service reports missing properties.
  if (missing) out.push({ code: 'missing-key', severity: 'error', start: node.start, end: node.start + 1, message: `${label} has no ${quoteAlternatives(missing)}, which ${missing.length > 1 ? 'are' : 'is'} required` });
  for (const group of type.oneRequired ?? []) {
    if (!group.some((k) => seen.has(k))) out.push({ code: 'missing-key', severity: 'error', start: node.start, end: node.start + 1, message: `${label} needs one of ${quoteAlternatives(group)}` });
  }
  for (const group of type.anyRequired ?? []) {
    if (!group.some((k) => seen.has(k))) out.push({ code: 'missing-key', severity: 'error', start: node.start, end: node.start + 1, message: `${label} needs at least one of ${quoteAlternatives(group)}` });
  }
  // Exactly one of a `oneRequired` group: a second one is as wrong as an exclusive one.
  for (const group of type.exclusive ?? []) onlyOneOf(node, group, label, out);
  for (const group of type.oneRequired ?? []) onlyOneOf(node, group, label, out);
}

/** Each key of `group` given after the first of them, where only one may be. */
function onlyOneOf(node: HostObject, group: readonly string[], label: string, out: Finding[]): void {
  let first: string | undefined;
  for (const p of node.properties) {
    if (!group.includes(p.key)) continue;
    if (first === undefined) first = p.key;
    else if (p.key !== first) out.push({ code: 'invalid-action-parameters', severity: 'error', start: p.keyStart, end: p.keyEnd, message: `\`${p.key}\` cannot be given with \`${first}\`: ${label} takes only one of ${quoteAlternatives(group)}` });
  }
}

/**
 * A value fits a union when it fits one of its shapes without an error. When it fits none, the
 * findings of the closest shape (fewest errors, then fewest unknown keys unlike any it knows);
 * when shapes tie, only what they all say, or one error that names the union's failure.
 * An older form the service still takes (`legacy`) is tried only when no shape of today fits,
 * and never in a Terraform file; fitting one is a note, and failing every shape is told in
 * today's shapes alone.
 */
function walkUnion(text: string, node: HostNode, types: readonly ParameterType[], label: string, out: Finding[], terraform: boolean): void {
  const legacy = types.filter((t) => (t.kind === 'string' || t.kind === 'array') && t.legacy);
  if (legacy.length > 0) {
    const today = types.filter((t) => !legacy.includes(t));
    const findings: Finding[] = [];
    walkUnion(text, node, today, label, findings, terraform);
    if (!terraform && findings.some((f) => f.severity === 'error')) {
      for (const older of legacy) {
        const olderFindings: Finding[] = [];
        walk(text, node, older, label, olderFindings, [], terraform);
        if (olderFindings.some((f) => f.severity === 'error')) continue;
        out.push(legacyNote(text, node, older, label), ...olderFindings);
        return;
      }
    }
    out.push(...findings);
    return;
  }
  if (types.length === 1) return walk(text, node, types[0], label, out, [], terraform);
  const keysOf = (t: ParameterType): readonly string[] => (t.kind === 'object' ? t.keys.map((k) => k.key) : []);
  const attempts = types.map((member) => {
    const findings: Finding[] = [];
    const others = types.filter((t) => t !== member).flatMap(keysOf);
    walk(text, node, member, label, findings, others, terraform);
    return { findings, errors: findings.filter((f) => f.severity === 'error').length, stray: findings.filter((f) => f.stray).length };
  });
  const fits = attempts.find((a) => a.errors === 0);
  if (fits) {
    out.push(...fits.findings);
    return;
  }
  const best = Math.min(...attempts.map((a) => a.errors * 1000 + a.stray));
  const closest = attempts.filter((a) => a.errors * 1000 + a.stray === best);
  if (closest.length === 1) {
    out.push(...closest[0].findings);
    return;
  }
  const common = closest[0].findings.filter((f) => closest.every((a) => a.findings.some((g) => g.code === f.code && g.start === f.start && g.end === f.end && g.message === f.message)));
  if (common.some((f) => f.severity === 'error')) out.push(...common);
  else out.push({ code: 'invalid-action-parameters', severity: 'error', start: node.start, end: node.end, message: `${label} fits none of the forms the service takes here` });
}

/** The note on a value in an older form (ParameterType's `legacy`): today's form, and the fix to it where one edit writes it. */
function legacyNote(text: string, node: HostNode, type: ParameterType, label: string): Finding {
  const legacy = (type.kind === 'string' || type.kind === 'array') && type.legacy;
  if (!legacy) throw new Error('legacyNote: a type without its `legacy` note');
  const described = legacy.described.replace('KEY', attributeOfLabel(label));
  const written = text.slice(node.start, node.end);
  // A list is wrapped as written only when it is written in brackets (JSON, a YAML flow list).
  const newText = 'text' in legacy.rewrite ? legacy.rewrite.text : written.startsWith('[') ? `{${JSON.stringify(legacy.rewrite.wrapIn)}: ${written}}` : undefined;
  return {
    code: 'legacy-parameter-form',
    severity: 'information',
    start: node.start,
    end: node.end,
    message: `${described} is an older form the service still takes; today's form is \`${legacy.current}\``,
    ...(newText !== undefined ? { fixes: [{ title: `Change to \`${legacy.current}\``, edits: [{ start: node.start, end: node.end, newText }] }] } : {}),
  };
}

function typeName(type: ParameterType): string {
  switch (type.kind) {
    case 'number':
      return type.integer ? 'a whole number' : 'a number';
    case 'array':
    case 'object':
      return `an ${type.kind}`;
    case 'union':
      return [...new Set(type.types.map(typeName))].join(' or ');
    default:
      return `a ${type.kind}`;
  }
}

function wrongType(text: string, node: HostNode, type: ParameterType, label: string, out: Finding[]): void {
  const fix = retypedFix(text, node, type);
  out.push({ code: 'invalid-type', severity: 'error', start: node.start, end: node.end, message: `expected ${label} to be ${typeName(type)}, found ${describe(node)}`, ...(fix ? { fixes: [fix] } : {}) });
}

/**
 * The value written as the type it should have, when it already reads as one: `"301"` as
 * `301`, `"true"` as `true`, and a number or Boolean where a string belongs, quoted.
 */
function retypedFix(text: string, node: HostNode, type: ParameterType): DocumentFix | undefined {
  if (node.kind === 'string') {
    const value = String(node.value).trim();
    if (type.kind === 'number' && /^-?\d+(\.\d+)?$/.test(value) && (!type.values || type.values.includes(Number(value)))) return { title: `Change to the number \`${value}\``, edits: [{ start: node.start, end: node.end, newText: value }] };
    if (type.kind === 'boolean' && (value === 'true' || value === 'false')) return { title: `Change to the Boolean \`${value}\``, edits: [{ start: node.start, end: node.end, newText: value }] };
    return undefined;
  }
  if (type.kind === 'string' && (node.kind === 'number' || node.kind === 'boolean')) {
    const written = text.slice(node.start, node.end);
    if (type.values && !type.values.includes(written)) return undefined;
    return { title: `Change to the string \`"${written}"\``, edits: [{ start: node.start, end: node.end, newText: JSON.stringify(written) }] };
  }
  return undefined;
}

function notOneOf(node: HostScalar, allowed: readonly (string | number | boolean)[], suggestions: readonly (string | number | boolean)[], label: string, out: Finding[]): void {
  const show = (v: string | number | boolean) => (typeof v === 'string' ? `"${v}"` : String(v));
  const listed = allowed.length > 10 ? `${quoteAlternatives(allowed.slice(0, 10).map(show))}, …` : quoteAlternatives(allowed.map(show));
  const hint = suggestions.length > 0 ? `; did you mean ${quoteAlternatives(suggestions.map(show))}?` : '';
  out.push({
    code: 'invalid-action-parameters',
    severity: 'error',
    start: node.start,
    end: node.end,
    message: `expected ${label} to be one of ${listed}, found ${describe(node)}${hint}`,
    fixes: suggestions.map((v) => ({ title: `Change to \`${show(v)}\``, edits: [typeof v === 'string' ? replaceScalarEdit(node, v) : { start: node.start, end: node.end, newText: String(v) }] })),
  });
}

/** The allowed numbers nearest to `value` (all those at the least distance, up to three). */
function nearestNumbers(value: number, allowed: readonly number[]): number[] {
  const distance = Math.min(...allowed.map((v) => Math.abs(v - value)));
  return allowed.filter((v) => Math.abs(v - value) === distance).slice(0, 3);
}

function rangeOf(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return `to be between ${min} and ${max}`;
  return min !== undefined ? `to be at least ${min}` : `to be at most ${max}`;
}
