/**
 * Limits the service sets on a rule beyond its parameters' types, from the docs pages that
 * state them (catalogue/actions.ts: REQUEST_HEADER_LIMITS, RATE_LIMIT_CHARACTERISTICS,
 * ACCOUNT_EXECUTE_LIMIT): the request headers a Request Header Transform Rule cannot touch and
 * the operations it takes, what a rate limiting rule must count by and up to, and the
 * Enterprise zones an account's `execute` rule must be limited to. Each in JSON, YAML,
 * Terraform (v4 blocks and v5 attributes alike: their host trees have the same keys here) and
 * octorules. A value Terraform fills in is not known, and nothing is said of it.
 */
import type { CheckResult } from '../language/checker';
import { walkExpression, type Argument, type Expression } from '../language/ast';
import { ACCOUNT_EXECUTE_LIMIT, HEADER_NAME_LIMITS, RATE_LIMIT_CHARACTERISTICS, REQUEST_HEADER_LIMITS } from '../language/catalogue/actions';
import { catalogueFor } from '../language/catalogue/catalogues';
import { closestMatches, quoteAlternatives } from '../language/suggest';
import { isTerraformTemplate, property, type HostObject, type HostScalar } from './host/index';
import { replaceScalarEdit, type DocumentEdit } from './host/index';
import type { Report } from './parameter-shape';
import type { DocumentProblem, FilterSite, ParsedRuleset } from './parsed-ruleset';

/** The limits of one rule that its shape shows (ruleset-shape.ts calls it for each rule object). */
export function checkRuleLimits(model: ParsedRuleset, rule: HostObject, action: string | undefined, phase: string | undefined, report: Report): void {
  if (action === 'rewrite' && (HEADER_NAME_LIMITS.phases as readonly (string | undefined)[]).includes(phase)) checkHeaderNames(model, rule, report);
  if (phase === REQUEST_HEADER_LIMITS.phase && action === 'rewrite') checkRequestHeaders(model, rule, report);
  if (phase === RATE_LIMIT_CHARACTERISTICS.phase) checkRateLimit(model, rule, report);
}

// ---------------------------------------------------------------- header names

/** A header name the docs do not allow (empty, or with a character other than a letter, a digit, `-` or `_`), on the name as written. */
function checkHeaderNames(model: ParsedRuleset, rule: HostObject, report: Report): void {
  const headers = property(property(rule, 'action_parameters')?.value, 'headers')?.value;
  if (headers?.kind !== 'object') return;
  for (const header of headers.properties) {
    const name = header.key;
    // A name Terraform fills in is not known.
    if (model.format === 'hcl' && name.includes('${')) continue;
    let bad = -1;
    for (let i = 0; i < name.length && bad < 0; i++) if (!HEADER_NAME_LIMITS.character.test(name[i])) bad = i;
    if (name.length > 0 && bad < 0) continue;
    const where = name.length === 0 ? 'here an empty one' : `here \`${name[bad] === '`' ? '\\`' : name[bad]}\` at character ${bad + 1}`;
    report('invalid-header-name', 'error', header.keyStart, header.keyEnd, `\`${name}\` is not a header name the service takes: the docs allow one or more ${HEADER_NAME_LIMITS.described} in the name of a header a Transform Rule sets or removes, ${where}`);
  }
}

// ---------------------------------------------------------------- request headers

const LIMITS = REQUEST_HEADER_LIMITS;

function checkRequestHeaders(model: ParsedRuleset, rule: HostObject, report: Report): void {
  const headers = property(property(rule, 'action_parameters')?.value, 'headers')?.value;
  if (headers?.kind !== 'object') return;
  const terraform = model.format === 'hcl';
  for (const header of headers.properties) {
    const operationNode = property(header.value, 'operation')?.value;
    // A name or operation Terraform fills in is not known.
    if (operationNode?.kind !== 'string' || isTerraformTemplate(operationNode) || (terraform && header.key.includes('${'))) continue;
    const operation = String(operationNode.value);
    if (operation === 'add') {
      report('request-header-operation', 'error', operationNode.start, operationNode.end, `\`add\` is no operation of a request header: the docs give it to response headers only (where it keeps the header's earlier values); a request header is set (\`set\` replaces its value, or adds the header) or removed (\`remove\`)`, [
        { title: 'Change to `set`', edits: [replaceScalarEdit(operationNode, 'set')] },
      ]);
      continue;
    }
    if (!(LIMITS.operations as readonly string[]).includes(operation)) continue;
    const refusal = headerRefusal(header.key.toLowerCase(), operation, terraform);
    if (refusal) report('request-header-not-modifiable', 'error', header.keyStart, header.keyEnd, `\`${header.key}\`: ${refusal}`);
  }
}

/** What the service says of the operation on the header (its name in lower case), or undefined when it takes it. */
function headerRefusal(name: string, operation: string, terraform: boolean): string | undefined {
  const remove = terraform ? '`operation = "remove"`' : '`operation: remove`';
  if (LIMITS.reservedPrefixes.some((prefix) => name.startsWith(prefix))) {
    if (operation === 'remove' && (LIMITS.removable as readonly string[]).includes(name)) return undefined;
    const own = `the service refuses to ${operation} a request header whose name starts with \`cf-\` or \`x-cf-\` (Cloudflare's own headers)`;
    if ((LIMITS.removable as readonly string[]).includes(name)) return `${own}; \`${name}\` may only be removed (${remove}): send its value under another name`;
    return `${own}, except removing \`cf-connecting-ip\`: use a name of your own`;
  }
  if (operation !== 'set') return undefined;
  if ((LIMITS.removeOnly as readonly string[]).includes(name)) return `the service refuses to set the \`${name}\` request header; it can only be removed (${remove}, which removes every \`${name}\` header)`;
  if ((LIMITS.identifying as readonly string[]).includes(name)) return `the service refuses to change the value of this request header, which carries the visitor's IP address or protocol (it can be removed); send the value under a name of your own`;
  return undefined;
}

// ---------------------------------------------------------------- rate limiting

const RATE = RATE_LIMIT_CHARACTERISTICS;

function checkRateLimit(model: ParsedRuleset, rule: HostObject, report: Report): void {
  const ratelimitProperty = property(rule, 'ratelimit');
  const ratelimit = ratelimitProperty?.value;
  if (ratelimit?.kind !== 'object') return;
  const terraform = model.format === 'hcl';
  if (!RATE.thresholds.some((key) => property(ratelimit, key))) {
    const example = terraform ? '`requests_per_period = 100`' : '`requests_per_period: 100`';
    report('ratelimit-without-threshold', 'error', ratelimitProperty!.keyStart, ratelimitProperty!.keyEnd, `the service refuses a rate limiting rule without its threshold: give \`requests_per_period\` (the requests a period that trigger the rule, e.g. ${example}), or \`score_per_period\` for complexity-based rate limiting`);
  }
  // The API reads `""` as the rule's own expression, but the v5 provider's schema asks for a character at least.
  const counting = property(ratelimit, 'counting_expression')?.value;
  if (terraform && !model.parametersInProviderShape && counting?.kind === 'string' && counting.value === '' && !isTerraformTemplate(counting)) {
    report('invalid-action-parameters', 'error', counting.start, counting.end, 'the provider (v5) refuses an empty `counting_expression` (its length must be at least 1), though the API reads `""` as the rule\'s own expression: leave `counting_expression` out');
  }
  const characteristicsProperty = property(ratelimit, 'characteristics');
  const characteristics = characteristicsProperty?.value;
  if (characteristics?.kind !== 'array') return;
  const named: { node: HostScalar; name: string }[] = [];
  let unknown = false;
  for (const item of characteristics.items) {
    if (item.kind !== 'string' || isTerraformTemplate(item)) {
      unknown ||= item.kind !== 'string' || isTerraformTemplate(item);
      continue;
    }
    named.push({ node: item, name: String(item.value).trim() });
  }
  const fields = catalogueFor(RATE.phase).fields;
  for (const { node, name } of named) {
    if (!/^[A-Za-z_][\w.]*$/.test(name) || (RATE.named as readonly string[]).includes(name) || fields.has(name)) continue;
    const suggestions = closestMatches(name, RATE.named);
    const meant = suggestions.length > 0 ? suggestions : closestMatches(name, fields.keys());
    const hint = meant.length > 0 ? `; did you mean ${quoteAlternatives(meant)}?` : `; the characteristics are ${quoteAlternatives(RATE.named.slice(0, 5))}, … or an expression`;
    report('unknown-characteristic', 'error', node.start, node.end, `\`${name}\` is neither a characteristic of rate limiting nor a field an expression can use: the service refuses it${hint}`, meant.map((m) => ({ title: `Change to \`${m}\``, edits: [replaceScalarEdit(node, m)] })));
  }
  const [first, second] = RATE.incompatible;
  const one = named.find((n) => n.name === first);
  const other = named.find((n) => n.name === second);
  if (one && other) {
    const later = one.node.start > other.node.start ? one : other;
    const earlier = later === one ? other : one;
    report('incompatible-characteristics', 'error', later.node.start, later.node.end, `the service refuses \`${earlier.name}\` and \`${later.name}\` together as characteristics (IP, and IP with NAT support): keep one`);
  }
  // A list with items Terraform fills in may hold `cf.colo.id` there.
  if (unknown || named.some((n) => n.name === RATE.mandatory)) return;
  const fix = coloFix(model, characteristics.items[0] as HostScalar | undefined);
  report('ratelimit-without-colo', 'error', characteristicsProperty!.keyStart, characteristicsProperty!.keyEnd, `the service refuses rate limiting \`characteristics\` without \`${RATE.mandatory}\` (the data centre, which every rate limiting rule counts by): add it to the list`, fix ? [{ title: `Add \`${RATE.mandatory}\``, edits: [fix] }] : undefined);
}

/**
 * `cf.colo.id` added before the list's first item: a line of its own in a YAML block sequence
 * (`- cf.colo.id` above `- ip.src`), a quoted item and a comma elsewhere. None for an empty list.
 */
function coloFix(model: ParsedRuleset, first: HostScalar | undefined): DocumentEdit | undefined {
  if (!first) return undefined;
  const text = model.text;
  const lineStart = text.lastIndexOf('\n', first.start - 1) + 1;
  const before = text.slice(lineStart, first.start);
  const block = model.format === 'yaml' && /^\s*- +$/.test(before);
  if (block) return { start: first.start, end: first.start, newText: `${RATE.mandatory}${text[lineStart - 2] === '\r' ? '\r\n' : '\n'}${before}` };
  return { start: first.start, end: first.start, newText: `"${RATE.mandatory}", ` };
}

// ---------------------------------------------------------------- account-level execute

/**
 * The `execute` rules of an account's entry point (kind `root`) whose expression does not limit
 * them to Enterprise zones in the docs' form: the docs require the custom conditions in
 * parentheses followed by `and cf.zone.plan eq "ENT"` (or that test alone), or the API operation
 * fails (octorules' lint rule CF228 says the API answers 400 to another form). Said apart: an
 * expression without `cf.zone.plan` at all, and one that has the test in another form, such as
 * `a and cf.zone.plan eq "ENT"` with no parentheses. `edit` writes an edit of an expression's text.
 */
export function accountExecuteProblems(
  model: ParsedRuleset,
  phase: string | undefined,
  results: readonly CheckResult[],
  edit: (site: FilterSite, span: { start: number; end: number }, newText: string) => DocumentEdit,
): DocumentProblem[] {
  const kind = property(model.root, 'kind')?.value;
  if (kind?.kind !== 'string' || kind.value !== ACCOUNT_EXECUTE_LIMIT.kind || phase === undefined || !(ACCOUNT_EXECUTE_LIMIT.phases as readonly string[]).includes(phase)) return [];
  const problems: DocumentProblem[] = [];
  for (let i = 0; i < model.expressions.length; i++) {
    const site = model.expressions[i];
    const result = results[i];
    // An expression Terraform fills in part of, or one with errors: not known.
    if (site.holes || !result?.ast || result.problems.some((p) => p.severity === 'error')) continue;
    const rule = model.rules[site.ruleIndex];
    if (rule?.kind !== 'object' || actionName(model, rule) !== 'execute') continue;
    const text = site.text.trim();
    const start = site.text.indexOf(text);
    const end = start + text.length;
    const composed = Boolean(site.elsewhere || site.brought || site.seams) || result.text !== site.text;
    if (usesField(result, ACCOUNT_EXECUTE_LIMIT.field)) {
      if (!inDocsForm(result.ast!)) problems.push(notInDocsForm(site, result, composed, edit));
      continue;
    }
    // The docs' form: the conditions in parentheses (one group already is), then the plan.
    const ast = result.ast!;
    const grouped = ast.kind === 'group' && ast.span.start === start && ast.span.end === end;
    const limited = text === 'true' ? `(${ACCOUNT_EXECUTE_LIMIT.condition})` : `${grouped ? text : `(${text})`} and ${ACCOUNT_EXECUTE_LIMIT.condition}`;
    problems.push({
      code: 'account-execute-not-enterprise',
      severity: 'error',
      start: site.node.start,
      end: site.node.end,
      message: `an account's \`execute\` rule runs its ruleset on Enterprise zones only, and the service refuses one whose expression does not say so: end it with \`and ${ACCOUNT_EXECUTE_LIMIT.condition}\`, the conditions before it in parentheses`,
      ...(composed ? {} : { fixes: [{ title: `Limit to Enterprise zones: \`${limited}\``, edits: [edit(site, { start, end }, limited)] }] }),
    });
  }
  return problems;
}

/** `cf.zone.plan eq "ENT"` (or with `==`), in parentheses or not. */
function isEnterpriseTest(node: Expression): boolean {
  if (node.kind === 'group') return isEnterpriseTest(node.inner);
  return node.kind === 'comparison' && node.lhs.kind === 'field' && node.lhs.name === ACCOUNT_EXECUTE_LIMIT.field && node.operator?.operator === 'eq' && node.rhs?.kind === 'string' && node.rhs.value === 'ENT';
}

/** The docs' form: the Enterprise test alone, or one group of conditions `and` the test. */
function inDocsForm(ast: Expression): boolean {
  if (isEnterpriseTest(ast)) return true;
  return ast.kind === 'logical' && ast.operator === 'and' && ast.operands.length === 2 && ast.operands[0].kind === 'group' && isEnterpriseTest(ast.operands[1]);
}

/**
 * An expression that tests `cf.zone.plan` but not in the docs' form; where it ends with `and` the
 * test after conditions not in one group, the fix puts them in parentheses.
 */
function notInDocsForm(site: FilterSite, result: CheckResult, composed: boolean, edit: (site: FilterSite, span: { start: number; end: number }, newText: string) => DocumentEdit): DocumentProblem {
  const ast = result.ast!;
  const last = ast.kind === 'logical' && ast.operator === 'and' ? ast.operands[ast.operands.length - 1] : undefined;
  let fixes: DocumentProblem['fixes'];
  if (!composed && ast.kind === 'logical' && last && isEnterpriseTest(last)) {
    const conditions = { start: ast.operands[0].span.start, end: ast.operands[ast.operands.length - 2].span.end };
    const grouped = `(${site.text.slice(conditions.start, conditions.end)})`;
    fixes = [{ title: `Put the conditions in parentheses: \`${grouped} and …\``, edits: [edit(site, conditions, grouped)] }];
  }
  return {
    code: 'account-execute-not-enterprise',
    severity: 'error',
    start: site.node.start,
    end: site.node.end,
    message: `an account's \`execute\` rule limits its ruleset to Enterprise zones in one form, which the docs give and the service holds to: the conditions in parentheses, then \`and ${ACCOUNT_EXECUTE_LIMIT.condition}\` (or that test alone); this expression tests \`${ACCOUNT_EXECUTE_LIMIT.field}\` otherwise, and the service refuses it`,
    ...(fixes ? { fixes } : {}),
  };
}

function actionName(model: ParsedRuleset, rule: HostObject): string | undefined {
  const action = property(rule, 'action')?.value;
  if (action === undefined) return model.defaultAction;
  return action.kind === 'string' && !isTerraformTemplate(action) ? String(action.value) : undefined;
}

/** Whether the expression reads the field anywhere: in a comparison, a call's argument, a quantifier. */
function usesField(result: CheckResult, field: string): boolean {
  let found = false;
  const operands: Argument[] = [];
  walkExpression(result.ast!, (node) => {
    if (node.kind === 'comparison') operands.push(node.lhs);
    else if (node.kind === 'quantifier') operands.push(node.argument);
    while (operands.length > 0 && !found) {
      const operand = operands.pop()!;
      if (operand.kind === 'field') found = operand.name === field;
      else if (operand.kind === 'index') operands.push(operand.target);
      else if (operand.kind === 'call') operands.push(...operand.args);
    }
  });
  return found;
}
