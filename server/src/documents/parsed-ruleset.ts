/**
 * A ruleset document as every check and feature reads it: the host tree of its JSON or YAML,
 * its phase, its rules and the places of their expression strings, parsed once.
 */
import { detached, parseHost, property, type HostDocument, type HostFormat, type HostNode, type HostScalar } from './host';
import type { DocumentEdit } from './host-edits';
import { coarseDecodedString, type DecodedString } from './offset-map';
import type { Severity } from '../language/problem';

/** An edit in document offsets. */
export interface DocumentFix {
  readonly title: string;
  /** Edits of the document; text inserted into a string is already escaped for it. */
  readonly edits: readonly DocumentEdit[];
}

/** Another place in the document that explains a problem (the rule it repeats). */
export interface RelatedPlace {
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

/** A problem anywhere in a ruleset file, in document offsets. */
export interface DocumentProblem {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly start: number;
  readonly end: number;
  readonly fixes?: readonly DocumentFix[];
  readonly related?: readonly RelatedPlace[];
}

export interface ExpressionSite {
  /** Index of the rule in `rules`. */
  readonly ruleIndex: number;
  readonly node: HostScalar;
  /** The expression as the service receives it (escapes and YAML quoting undone). */
  readonly text: string;
  /**
   * The string is inside a YAML flow collection (`- {action: block, expression: …}`), where
   * a plain scalar cannot hold `{`, `}`, `[`, `]` or `,`.
   */
  readonly inFlow?: boolean;
  /**
   * The text with its offset map into the document, built on first use: most expressions
   * have no problems, and a re-check after one edit should cost about one expression.
   */
  decoded(): DecodedString;
}

export interface ParsedRuleset {
  readonly format: HostFormat;
  readonly text: string;
  readonly root?: HostNode;
  readonly phase?: string;
  readonly rules: readonly HostNode[];
  readonly expressions: readonly ExpressionSite[];
  /** JSON or YAML syntax errors of the host document. */
  readonly syntaxProblems: readonly DocumentProblem[];
}

export function parseRuleset(text: string, format: HostFormat): ParsedRuleset {
  return rulesetOfHost(text, parseHost(text, format));
}

/** The ruleset a parsed host document holds. */
export function rulesetOfHost(text: string, host: HostDocument): ParsedRuleset {
  const { format, root } = host;
  const phaseNode = property(root, 'phase')?.value;
  const rulesNode = property(root, 'rules')?.value;
  const rules = rulesNode?.kind === 'array' ? rulesNode.items : [];
  const expressions: ExpressionSite[] = [];
  rules.forEach((rule, ruleIndex) => {
    const node = property(rule, 'expression')?.value;
    if (node?.kind !== 'string') return;
    let decoded: DecodedString | undefined;
    expressions.push({
      ruleIndex,
      node,
      text: String(node.value),
      inFlow: format === 'yaml' && rule.kind === 'object' && !rule.block,
      decoded: () => (decoded ??= node.decode?.() ?? coarseDecodedString(String(node.value), node.start, node.end)),
    });
  });
  const syntaxProblems = host.syntaxErrors.map((e) => ({
    code: format === 'json' ? 'json-syntax' : 'yaml-syntax',
    severity: 'error' as const,
    message: e.message,
    start: e.start,
    end: Math.min(e.end, text.length),
  }));
  // Its own copy: the phase goes into the expression cache's keys, which outlive the document.
  const phase = phaseNode?.kind === 'string' ? detached(String(phaseNode.value)) : undefined;
  return { format, text, root, phase, rules, expressions, syntaxProblems };
}
