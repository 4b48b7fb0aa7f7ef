import { SymbolKind, type DocumentSymbol, type Range } from 'vscode-languageserver';
import { property, type HostNode, type HostObject } from '../documents/host/index';
import type { ParsedRuleset } from '../documents/parsed-ruleset';
import type { Settings } from '../documents/settings';
import type { DocumentModel } from './model';
import { oneLine, ruleEffect } from './rule-effect';

export { oneLine };

/** Longest name shown for a rule without a description (`block: ip.src in $svc.vpn or …`). */
export const MAX_EXPRESSION_NAME_LENGTH = 40;
/** Longest description shown as a rule's name; the full text is in the document. */
export const MAX_DESCRIPTION_NAME_LENGTH = 100;

/**
 * The outline of a ruleset: one `Module` symbol for the ruleset (its `name`, with its phase as
 * detail) holding one `Function` symbol per rule. A rule is named by its description, else by
 * what its action does (`redirect → https://example.com/new (301)`), else by its action and a
 * short form of its expression; the detail is what the action does when the description is
 * the name, else the action. Whatever can be read of a broken document
 * is shown; a file that is not a ruleset has no symbols from this server.
 */
export function documentSymbols(model: DocumentModel, settings: Settings): DocumentSymbol[] {
  if (!model.isRuleset(settings)) return [];
  return model.rulesets.flatMap((ruleset) => rulesetSymbol(model, ruleset));
}

/**
 * A ruleset file's one ruleset, named by its `name`; a Terraform resource or an octorules
 * section, one of several in its file, by its label (`cloudflare_ruleset.waf`,
 * `waf_custom_rules`), with its `name` beside the phase when it has one.
 */
function rulesetSymbol(model: DocumentModel, ruleset: ParsedRuleset): DocumentSymbol[] {
  const root = ruleset.root;
  if (root?.kind !== 'object') return [];
  const range = rangeOf(model, root);
  const nameNode = property(root, 'name')?.value;
  const name = oneLine(stringValue(nameNode) ?? '', MAX_DESCRIPTION_NAME_LENGTH);
  const phase = stringValue(property(root, 'phase')?.value);
  const rules = property(root, 'rules')?.value;
  const children = rules?.kind === 'array' ? rules.items.flatMap((rule, index) => (rule.kind === 'object' ? [ruleSymbol(model, rule, index)] : [])) : [];
  const detail = ruleset.label && name ? [name, phase].filter(Boolean).join(' · ') : phase;
  return [
    {
      name: ruleset.label ?? (name || 'ruleset'),
      detail,
      kind: SymbolKind.Module,
      range,
      selectionRange: selection(model, range, ruleset.label ? undefined : nameNode, root.start),
      children,
    },
  ];
}

function ruleSymbol(model: DocumentModel, rule: HostObject, index: number): DocumentSymbol {
  const range = rangeOf(model, rule);
  const action = stringValue(property(rule, 'action')?.value);
  const expressionNode = property(rule, 'expression')?.value;
  const expression = stringValue(expressionNode);
  const description = oneLine(stringValue(property(rule, 'description')?.value) ?? '', MAX_DESCRIPTION_NAME_LENGTH);
  const effect = ruleEffect(rule);
  let name = description || effect;
  if (!name) {
    const short = oneLine(expression ?? '', MAX_EXPRESSION_NAME_LENGTH);
    if (action && short) name = `${action}: ${short}`;
    else name = short || action || `rule ${index + 1}`;
  }
  const enabled = property(rule, 'enabled')?.value;
  const disabled = enabled?.kind === 'boolean' && enabled.value === false;
  const detail = [(description ? effect : undefined) ?? action, disabled ? '(disabled)' : undefined].filter((part) => part !== undefined).join(' ');
  return {
    name,
    detail: detail || undefined,
    kind: SymbolKind.Function,
    range,
    selectionRange: selection(model, range, expressionNode?.kind === 'string' ? expressionNode : undefined, rule.start),
  };
}

function stringValue(node: HostNode | undefined): string | undefined {
  return node?.kind === 'string' ? String(node.value) : undefined;
}

/** The node's range when it lies inside `range` (as LSP requires), else the empty range at `fallback`. */
function selection(model: DocumentModel, range: Range, node: HostNode | undefined, fallback: number): Range {
  if (node) {
    const candidate = rangeOf(model, node);
    if (contains(range, candidate)) return candidate;
  }
  return model.range(fallback, fallback);
}

/**
 * A node's range without the line breaks and blanks that YAML counts into a block mapping or
 * block scalar: the outline highlights the node, not the empty line after it.
 */
function rangeOf(model: DocumentModel, node: HostNode): Range {
  const text = model.text;
  let end = node.end;
  while (end > node.start && /\s/.test(text[end - 1])) end--;
  return model.range(node.start, end);
}

function contains(outer: Range, inner: Range): boolean {
  const before = (a: Range['start'], b: Range['start']) => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}
