import { MarkupKind, type ParameterInformation, type Position, type SignatureHelp } from 'vscode-languageserver';
import { FUNCTIONS } from '../language/catalogue/functions';
import { callAt } from '../language/locate';
import type { ExpressionSite } from '../documents/parsed-ruleset';
import type { Settings } from '../documents/settings';
import type { DocumentModel } from './model';

/**
 * Signature help inside the parentheses of a call (`bit_slice(udp, 64|`): the signature, the
 * documentation of each parameter, and the active one, counted by the commas before the
 * cursor. The call is found from the tokens, so an unfinished call that does not parse
 * yet gets help too.
 */
export function signatureHelp(model: DocumentModel, position: Position, settings: Settings): SignatureHelp | null {
  if (!model.isRuleset(settings)) return null;
  const at = expressionAtCursor(model, model.offsetAt(position));
  if (!at) return null;
  const call = callAt(at.site.text, at.offset);
  const fn = call && FUNCTIONS.get(call.name.text);
  if (!call || !fn) return null;
  const label = fn.signature;
  // Parameters as offsets into the label, found after the `(` so that a parameter name that
  // also occurs in the function's name cannot be matched there.
  let from = label.indexOf('(') + 1;
  const parameters: ParameterInformation[] = fn.parameters.map((p) => {
    const start = label.indexOf(p.name, from);
    from = start + p.name.length;
    return { label: [start, start + p.name.length], documentation: { kind: MarkupKind.Markdown, value: p.doc } };
  });
  return {
    signatures: [
      {
        label,
        documentation: { kind: MarkupKind.Markdown, value: `${fn.doc}\n\nExample: \`${fn.example}\`` },
        parameters,
        activeParameter: call.argumentIndex,
      },
    ],
    activeSignature: 0,
    activeParameter: call.argumentIndex,
  };
}

/**
 * The expression at the cursor, as `DocumentModel.expressionAt`; and the cursor after the
 * spaces that end a plain YAML scalar (`expression: bit_slice(udp, |`), which the scalar's
 * value does not include, is at the end of that expression: typing the space after a comma
 * must not close the signature help.
 */
function expressionAtCursor(model: DocumentModel, offset: number): { site: ExpressionSite; offset: number } | undefined {
  const at = model.expressionAt(offset);
  if (at) return at;
  for (const site of model.ruleset.expressions) {
    if (site.node.style !== 'plain' || site.node.end > offset) continue;
    if (/^[ \t]*$/.test(model.text.slice(site.node.end, offset))) return { site, offset: site.text.length };
  }
  return undefined;
}
