import type { Position, Range } from 'vscode-languageserver';
import type { RulesetEvidence } from '../documents/classify';
import type { CheckResult, ValueCheckResult } from '../language/checker';
import { classifyFile, isRulesetTestFileName } from '../documents/classify';
import type { HostFormat, HostNode } from '../documents/host/index';
import type { Settings } from '../documents/settings';
import { ExpressionCache } from '../documents/expression-cache';
import { checkDocument, siteAt, SiteChecker, type RulesetCheckOptions, type SiteResult } from '../documents/ruleset';
import { parseDocument, rulesetAt, type ParsedDocument } from '../documents/parsed-document';
import type { IncludeReader } from '../documents/octorules';
import type { TerraformModule } from '../documents/terraform-module';
import { rulesetOfRoot, type DocumentProblem, type ExpressionSite, type FilterSite, type ParsedRuleset, type ValueSite } from '../documents/parsed-ruleset';
import { reparseAfterEdit } from '../documents/reparse';
import { LineTable } from '../documents/positions';

/** The path part of a document's URI, as patterns and file names are matched against it. */
export function pathOfUri(uri: string): string {
  return decodeURIComponent(uri.replace(/^[a-z]+:\/\//i, ''));
}

/**
 * One version of one open document, parsed once and shared by every feature. Everything is
 * computed on first use: a hover never pays for diagnostics, and a completion request
 * in a file with a thousand rules looks at one expression.
 */
export class DocumentModel {
  private parsed?: ParsedDocument;
  private allSites?: readonly ExpressionSite[];
  private noRuleset?: ParsedRuleset;
  private problemsFor?: { key: string; problems: readonly DocumentProblem[] };
  private optionsFor?: { settings: Settings; options: RulesetCheckOptions };
  /** The checkers of the rulesets' sites under the options last asked for: one per ruleset, not one per site checked. */
  private checkersFor?: { options: RulesetCheckOptions; checkers: Map<ParsedRuleset, SiteChecker> };
  /** The text's lines, found when a position is first asked for. */
  private lines?: LineTable;

  constructor(
    readonly uri: string,
    readonly version: number,
    readonly text: string,
    readonly format: HostFormat,
    /** The server's results of expressions already checked: an expression text is checked once, whatever file it is in. */
    private readonly cache: ExpressionCache,
    /** The ruleset of the document's previous version, if it was read: typing in a string re-reads only that string. */
    private previous?: ParsedRuleset,
    /** Reads the files an octorules `!include` names (a saved document's neighbours); without one, includes are not followed. */
    private readonly include?: IncludeReader,
    /** A Terraform document's module (its folder's other files, open ones as the editor has them); without one, only its own text is read. */
    private readonly module?: TerraformModule,
    /** What the module's other files were when this model was made: a model is kept only while they stay so. */
    readonly moduleStamp = '',
  ) {}

  /** The file as the rulesets in it: one for a ruleset file, one per Terraform resource or octorules section. */
  get parsedDocument(): ParsedDocument {
    if (!this.parsed) {
      const previous = this.previous;
      // Let go of the previous version either way: a model must not keep its document's history.
      this.previous = undefined;
      const reparsed = previous?.format === this.format && previous.layout === 'api' ? reparseAfterEdit(previous, this.text) : undefined;
      this.parsed = reparsed ? { format: this.format, layout: 'api', text: this.text, rulesets: [reparsed], problems: [] } : parseDocument(this.text, this.format, { include: this.include, module: this.module });
    }
    return this.parsed;
  }

  /**
   * The ruleset of a ruleset file (JSON or YAML in the API's shape), as test files, the project
   * configuration and the packet commands read it; in a Terraform or octorules file, the first
   * of its rulesets (features that have a position use rulesetAt).
   */
  get ruleset(): ParsedRuleset {
    // A Terraform file without a `cloudflare_ruleset` has none: an empty one stands for it.
    return this.parsedDocument.rulesets[0] ?? (this.noRuleset ??= rulesetOfRoot(this.text, this.format, undefined, { layout: this.parsedDocument.layout }));
  }

  /** Every ruleset of the file, in document order. */
  get rulesets(): readonly ParsedRuleset[] {
    return this.parsedDocument.rulesets;
  }

  /** The ruleset whose resource or section holds the offset; a ruleset file's one ruleset holds every offset. */
  rulesetAt(offset: number): ParsedRuleset | undefined {
    return rulesetAt(this.parsedDocument, offset);
  }

  /** Every expression site of every ruleset, in document order. */
  get sites(): readonly ExpressionSite[] {
    return (this.allSites ??= this.rulesets.length === 1 ? this.rulesets[0].sites : this.rulesets.flatMap((r) => r.sites));
  }

  /** The ruleset file's ruleset, when something has read it already (for the next version's reparse). */
  get rulesetIfRead(): ParsedRuleset | undefined {
    return this.parsed?.layout === 'api' ? this.parsed.rulesets[0] : undefined;
  }

  /** A ruleset by its name, by a configured pattern, or by its content. */
  isRuleset(settings: Settings): boolean {
    return this.rulesetBy(settings) !== undefined;
  }

  /** Why the document is treated as a ruleset, or undefined when it is not one. */
  rulesetBy(settings: Settings): RulesetEvidence | undefined {
    const kind = classifyFile(pathOfUri(this.uri), {
      patterns: settings.files,
      format: this.format,
      root: () => this.ruleset.root,
      text: () => this.text,
      terraform: settings.terraform?.enable,
      // A locals.tf, variables.tf or .tfvars whose strings the module's rulesets use.
      feedsRuleset: () => this.module !== undefined && this.parsedDocument.rulesets.length > 0,
    });
    return kind.role === 'ruleset' ? kind.why : undefined;
  }

  /** A test file of `rulesets test` (`NAME.ruleset.test.yaml`, `.yml`, `.json`), by its name. */
  isRulesetTest(): boolean {
    return isRulesetTestFileName(pathOfUri(this.uri));
  }

  /** The check's options for these settings: made once, not once an expression (check is called for each of thousands). */
  checkOptions(settings: Settings): RulesetCheckOptions {
    if (this.optionsFor?.settings !== settings) {
      const options = {
        defaultPhase: settings.defaultPhase,
        plan: settings.plan,
        ...(settings.addons ? { addons: settings.addons } : {}),
        knownLists: settings.knownLists.length > 0 ? settings.knownLists : undefined,
        ...(settings.listKinds ? { listKinds: settings.listKinds } : {}),
        severities: settings.rules,
        cache: this.cache,
      };
      this.optionsFor = { settings, options };
    }
    return this.optionsFor.options;
  }

  /** Every problem of the document, without the hints the settings turn off. */
  problems(settings: Settings): readonly DocumentProblem[] {
    const key = JSON.stringify(settings);
    if (this.problemsFor?.key !== key) {
      const all = checkDocument(this.parsedDocument, this.checkOptions(settings));
      this.problemsFor = { key, problems: all.filter((p) => settings.hints[p.code] !== false) };
    }
    return this.problemsFor.problems;
  }

  /** The check result (AST and problems) of one expression site. */
  check(site: FilterSite, settings: Settings): CheckResult;
  check(site: ValueSite, settings: Settings): ValueCheckResult;
  check(site: ExpressionSite, settings: Settings): SiteResult;
  check(site: ExpressionSite, settings: Settings): SiteResult {
    const ruleset = this.rulesetAt(site.node.start) ?? this.ruleset;
    const options = this.checkOptions(settings);
    if (this.checkersFor?.options !== options) this.checkersFor = { options, checkers: new Map() };
    let checker = this.checkersFor.checkers.get(ruleset);
    if (!checker) this.checkersFor.checkers.set(ruleset, (checker = new SiteChecker(ruleset, options)));
    return checker.check(site);
  }

  /**
   * The rule expression the offset is in, and where in the expression's decoded text (siteAt
   * over the rules' own expressions).
   */
  expressionAt(offset: number): { site: FilterSite; offset: number } | undefined {
    const ruleset = this.rulesetAt(offset);
    return ruleset && siteAt(ruleset.expressions, offset);
  }

  /**
   * The expression site the offset is in, a rule's `expression` or one inside its parameters
   * (`action_parameters.uri.path.expression`, `ratelimit.counting_expression`), and where in its
   * decoded text: completion, hover, signature help and colouring read it by its kind.
   */
  siteAt(offset: number): { site: ExpressionSite; offset: number } | undefined {
    const ruleset = this.rulesetAt(offset);
    return ruleset && siteAt(ruleset.sites, offset);
  }

  /** The host node (of the ruleset structure) whose source contains the offset, innermost first. */
  nodesAt(offset: number): HostNode[] {
    const path: HostNode[] = [];
    let node: HostNode | undefined = this.rulesetAt(offset)?.root;
    while (node && offset >= node.start && offset <= node.end) {
      path.unshift(node);
      const children: readonly HostNode[] =
        node.kind === 'object' ? node.properties.flatMap((p) => (p.value ? [p.value] : [])) : node.kind === 'array' ? node.items : [];
      node = children.find((child) => offset >= child.start && offset <= child.end);
    }
    return path;
  }

  // Lines found by a native search (positions.ts), not by TextDocument's loop over every
  // character: a large file's first diagnostics waited on that loop (30 ms of 200).
  offsetAt(position: Position): number {
    return (this.lines ??= new LineTable(this.text)).offsetAt(position);
  }

  positionAt(offset: number): Position {
    return (this.lines ??= new LineTable(this.text)).positionAt(offset);
  }

  range(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }
}
