import { MarkupKind, type ParameterInformation, type Position, type SignatureHelp } from 'vscode-languageserver';
import { callAt } from '../language/locate';
import type { ExpressionSite } from '../documents/parsed-ruleset';
import type { Settings } from '../documents/settings';
import type { DocumentModel } from './model';
import { functionAvailability, phaseScope, planText } from './catalogue-text';

/**
 * Signature help inside the parentheses of a call (`bit_slice(udp, 64|`, `lower(|`): the
 * catalogue's signature for the document's phase, the documentation of each parameter, and
 * the active one, counted by the commas before the cursor (past the last parameter, a
 * repeated one such as concat's stays active). The innermost call is found from the tokens,
 * so an unfinished call that does not parse yet gets help too, also inside another call and
 * across the line breaks of a block scalar, in a rule's `expression` and in the expressions of
 * its parameters alike.
 */
export function signatureHelp(model: DocumentModel, position: Position, settings: Settings): SignatureHelp | null {
  if (!model.isRuleset(settings)) return null;
  const at = expressionAtCursor(model, model.offsetAt(position));
  if (!at) return null;
  const call = callAt(at.site.text, at.offset);
  const fn = call && phaseScope(model, settings, at.site.node.start).catalogue.functions.get(call.name.text);
  if (!call || !fn || fn.quantifier) return null;
  const label = fn.signature;
  // Parameters as offsets into the label, found after the `(` so that a parameter name that
  // also occurs in the function's name cannot be matched there.
  let from = label.indexOf('(') + 1;
  const parameters: ParameterInformation[] = fn.parameters.map((p) => {
    const start = parameterAt(label, p.name, from);
    from = start + p.name.length;
    return { label: [start, start + p.name.length], documentation: { kind: MarkupKind.Markdown, value: p.doc } };
  });
  const last = fn.parameters.length - 1;
  const active = call.argumentIndex > last && fn.parameters[last]?.repeats ? last : call.argumentIndex;
  const plan = planText(fn);
  const documentation = [fn.doc, `Example: \`${fn.example}\``, functionAvailability(fn), ...(plan ? [`Plan: ${plan}.`] : [])].join('\n\n');
  return {
    signatures: [{ label, documentation: { kind: MarkupKind.Markdown, value: documentation }, parameters, activeParameter: active }],
    activeSignature: 0,
    activeParameter: active,
  };
}

/**
 * The expression at the cursor, as `DocumentModel.siteAt` (a rule's or one in its parameters); and the cursor after the
 * spaces that end a plain YAML scalar (`expression: bit_slice(udp, |`), which the scalar's
 * value does not include, is at the end of that expression: typing the space after a comma
 * must not close the signature help.
 */
function expressionAtCursor(model: DocumentModel, offset: number): { site: ExpressionSite; offset: number } | undefined {
  const at = model.siteAt(offset);
  if (at) return at;
  for (const site of model.sites) {
    if (site.node.style !== 'plain' || site.node.end > offset) continue;
    if (/^[ \t]*$/.test(model.text.slice(site.node.end, offset))) return { site, offset: site.text.length };
  }
  return undefined;
}

/**
 * Where a parameter's name is written in a signature, from `from` on: the name followed by
 * its `:` (or `?:`), so that a name that is also part of a type (`map: Map<…>`) or of an
 * earlier name is not taken for it.
 */
function parameterAt(label: string, name: string, from: number): number {
  for (let at = label.indexOf(name, from); at >= 0; at = label.indexOf(name, at + 1)) {
    const before = label[at - 1];
    const after = label.slice(at + name.length, at + name.length + 2);
    if (!/[A-Za-z0-9_]/.test(before ?? '') && (after.startsWith(':') || after === '?:' || after.startsWith(',') || after.startsWith(')'))) return at;
  }
  return label.indexOf(name, from);
}
