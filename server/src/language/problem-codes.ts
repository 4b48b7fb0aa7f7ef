/**
 * Every code the checks of a ruleset file report, with the severity they report it at and
 * what it means in one line. The project configuration (`.rulesets.yaml`) checks the codes of
 * its `rules` against this list and completes them from it; comments that silence a finding
 * can do the same. test/language/problem-codes.test.ts holds the list to the checks' sources,
 * so a new code cannot be left out of it.
 */

export interface ProblemCodeInfo {
  /**
   * The severity the checks give it. An error is a mistake the service rejects (or a file it
   * cannot read): configuration cannot turn it off or lower it, or the author would learn of
   * the mistake from the API. A warning is a rule the service takes but that does not do what
   * it seems to. Information is a hint about a rule that works, such as a deprecated name,
   * that `rulesets.hints` can turn off. A hint says what was not checked (a Terraform
   * interpolation), not that anything is wrong.
   */
  readonly severity: 'error' | 'warning' | 'information' | 'hint';
  /** What the finding says, in one line. */
  readonly description: string;
  /**
   * Not looked for unless the project configuration's `rules` gives the code a severity other
   * than `off`: a style lint that many rulesets would trip everywhere (CheckOptions.lints).
   */
  readonly off?: true;
}

const error = (description: string): ProblemCodeInfo => ({ severity: 'error', description });
const warning = (description: string): ProblemCodeInfo => ({ severity: 'warning', description });
const information = (description: string): ProblemCodeInfo => ({ severity: 'information', description });
const hint = (description: string): ProblemCodeInfo => ({ severity: 'hint', description });
/** A lint off by default (ProblemCodeInfo.off), reported as information once the configuration turns it on. */
const offByDefault = (description: string): ProblemCodeInfo => ({ severity: 'information', description, off: true });

export const PROBLEM_CODES: ReadonlyMap<string, ProblemCodeInfo> = new Map([
  // ---------------------------------------------------------------- the file
  ['json-syntax', error('The file is not valid JSON.')],
  ['yaml-syntax', error('The file is not valid YAML.')],
  ['not-utf8', error('A file on disk that is not UTF-8 text (or is binary): its first such byte; nothing of it is checked or sent.')],
  ['hcl-syntax', error('The Terraform file is not valid HCL.')],
  ['hcl-parser-unavailable', error('The HCL parser was not loaded, so the Terraform file was not read.')],
  ['unsupported-block-type', error('A block where the module\'s provider version takes an argument (`rules { … }` where v5 takes `rules = [ … ]`), as Terraform says it.')],
  ['unsupported-argument', error('An argument where the module\'s provider version takes a block (`rules = [ … ]` where v4 takes `rules { … }`), as Terraform says it.')],
  ['firewall-rules-ended', warning('A Terraform `cloudflare_filter` or `cloudflare_firewall_rule`: Firewall Rules ended on 2025-06-15; a fix writes the `cloudflare_ruleset` that takes over.')],
  ['terraform-rules-without-ref', information('A `cloudflare_ruleset` with rules without a `ref`, whose ids the provider then changes when rules move; a fix adds them.')],
  ['terraform-interpolation', hint('An expression with a Terraform `${…}` interpolation: that part is not checked.')],
  ['terraform-unknown', hint('A value Terraform fills in (a reference, a function call, a `${…}` template) where it hides a check: said once a resource, not checked.')],
  ['unknown-section', warning('A key of an octorules file that is no section octorules knows (often a misspelling).')],
  ['duplicate-section', error('An octorules section written twice in one file.')],
  ['section-outside-block', warning('An octorules section outside the `cloudflare:` block, which octorules 0.37 skips.')],
  ['duplicate-ref', error('Two rules of one octorules section with the same `ref`.')],
  ['ref-shared', error('A `ref` that two files contributing to one entry point both give.')],
  ['unknown-rule-ref', error('A rule\'s `before:` or `after:` naming no rule (by its `ref`) of its entry point.')],
  ['rule-order-cycle', error('Rules whose `before:`/`after:` make a cycle, which no order satisfies.')],
  ['rule-unplaceable', error('A rule whose `before:`/`after:` depends on a rule that cannot be placed.')],
  ['empty-ref', error('An octorules rule whose `ref` is empty, which octorules refuses.')],
  ['include-outside', error('An octorules `!include` of a file outside the including file\'s folder.')],
  ['include-loop', error('An octorules `!include` that includes itself.')],
  ['include-too-deep', error('An octorules `!include` nested too deeply, or too many files included.')],
  ['include-unreadable', error('An octorules `!include` of a file that cannot be read.')],
  ['unescaped-quote', error('A `"` inside a string ends it early.')],
  ['empty-document', error('The file holds no ruleset.')],
  ['invalid-type', error('A key of the ruleset or of a rule has a value of the wrong type.')],
  ['missing-key', error('A key the service requires is missing.')],
  ['phase-not-given', information('A ruleset file without `phase` (nor `--phase`, `phase:` in .rulesets.yaml or the `rulesets.defaultPhase` setting): its expressions are checked only for what holds in every phase.')],
  ['duplicate-key', error('A key appears twice in one object; only one is kept.')],
  ['unknown-key', warning('A key the service does not know (often a misspelling).')],
  ['unknown-kind', error('`kind` is not one of the kinds of ruleset.')],
  ['unknown-phase', warning('`phase` is not a phase this version knows.')],
  ['unknown-action', error('`action` is not one of the actions the service defines, which refuses it.')],
  ['action-not-allowed', error('An action the phase does not allow.')],
  ['missing-action-parameters', error('A rule lacks the `action_parameters` its action needs.')],
  ['invalid-action-parameters', error('A value of `action_parameters` (or of `ratelimit`, `exposed_credential_check`, `logging`) the service rejects: out of range, not one of the allowed values, keys that exclude each other.')],
  ['legacy-parameter-form', information('A value of `action_parameters` in an older form the service still takes (a cache key\'s `"exclude": "*"`, which Terraform provider v4 sends); a fix writes today\'s form.')],
  ['logging-not-allowed', error('`logging` on a rule that is not a `skip` rule.')],
  ['invalid-header-name', error('A Header Transform Rule\'s header name the service does not take: empty, or with a character other than the letters, digits, `-` and `_` the docs allow.')],
  ['request-header-not-modifiable', error('A Request Header Transform Rule that sets or removes a header the service will not change: `cf-…` and `x-cf-…` (but `cf-connecting-ip` may be removed), `cookie` set, the visitor\'s IP and protocol headers set.')],
  ['request-header-operation', error('`add` on a request header: the operation of response headers; a request header is set or removed.')],
  ['ratelimit-without-threshold', error('A rate limiting rule without `requests_per_period` (or `score_per_period`).')],
  ['ratelimit-without-colo', error('Rate limiting `characteristics` without `cf.colo.id`, which the service requires.')],
  ['unknown-characteristic', error('A rate limiting characteristic that is neither one the docs list nor a field an expression can use.')],
  ['incompatible-characteristics', error('`ip.src` and `cf.unique_visitor_id` as characteristics of one rate limiting rule.')],
  ['account-execute-not-enterprise', error('An `execute` rule of an account\'s entry point whose expression does not limit it to Enterprise zones in the docs\' form (its conditions in parentheses, then `and cf.zone.plan eq "ENT"`).')],
  ['too-many-rules', warning('More rules than the service documents for the phase.')],
  ['rule-quota', error('More rules in a ruleset than the account\'s plan allows in its phase (the plans table of the docs).')],
  ['ruleset-quota', error('More custom rulesets of WAF custom rules for one zone in a Terraform file than the account\'s plan allows a zone.')],
  // ---------------------------------------------------------------- rules against each other
  ['duplicate-rule', warning('A rule repeats an earlier one, so it never decides anything.')],
  ['shadowed-rule', warning('Every packet a rule matches is decided by an earlier rule.')],
  ['skip-skips-nothing', warning('A `skip` of the current ruleset with no rule after it to skip.')],
  // ---------------------------------------------------------------- expression syntax
  ['syntax-error', error('The expression does not parse.')],
  ['empty-expression', error('The expression is empty.')],
  ['expression-too-long', error('The expression is longer than the service accepts.')],
  ['nesting-too-deep', error('More levels of parentheses and `not` than the service accepts.')],
  ['tab-whitespace', error('A TAB between tokens, where only spaces and line breaks may be.')],
  ['single-equals', error('`=` where a comparison needs `==`.')],
  ['unterminated-string', error('A string without its closing quote.')],
  ['invalid-escape', error('An escape a string may not hold.')],
  ['invalid-integer', error('A number that is not an integer, or a range not written `a..b`.')],
  ['integer-overflow', error('An integer too large for 64 bits.')],
  ['invalid-ip', error('Not an IP address, or an address range not written `a..b`.')],
  ['invalid-cidr', error('A CIDR block that is malformed or has host bits set.')],
  ['range-order', error('A range that starts after it ends.')],
  ['range-family', error('A range from an IPv4 to an IPv6 address.')],
  ['invalid-value', error('Something that is not a value.')],
  ['invalid-index', error('An index step the value does not take: on a value that is no array or map, an array index outside 0–4294967295, or a map key that is not UTF-8 text.')],
  ['invalid-list-name', error('A `$list` name with characters list names cannot have.')],
  ['list-in-set', error('A `$list` inside a `{…}` set.')],
  ['comma-in-set', error('Commas between the items of a set, which takes spaces.')],
  ['invalid-regex', error('A regular expression the service cannot compile.')],
  ['invalid-wildcard', error('A wildcard pattern the service rejects.')],
  ['bit-slice-arguments', error('`bit_slice` called with the wrong arguments.')],
  ['bit-slice-range', error('A `bit_slice` reaching outside what it can read.')],
  // ---------------------------------------------------------------- expression meaning
  ['unknown-field', error('A field the phase does not have.')],
  ['unknown-function', error('A function the phase does not have.')],
  ['missing-arguments', error('A function named without calling it.')],
  ['missing-operator', error('A field that is not a Boolean, with no comparison.')],
  ['invalid-operator', error('An operator the field\'s type does not take.')],
  ['strict-wildcard-spacing', error('`strict wildcard` not written with one space.')],
  ['boolean-comparison', error('A Boolean field compared with a value.')],
  ['set-required', error('`in` without a `{…}` set or a `$list`.')],
  ['set-requires-in', error('A set compared with `==` or another one-value operator.')],
  ['type-mismatch', error('A value of the wrong type for the field or operator.')],
  ['list-not-allowed', error('A `$list` after a field its kind does not fit (the packet phases\' lists hold IP addresses).')],
  ['ip-ordering', warning('IP addresses compared with `<`, `>` and the like, which the service does not support.')],
  ['value-out-of-range', warning('A value the field never has, so the comparison never matches.')],
  ['empty-set', warning('`in {}`, which never matches.')],
  ['country-code-case', warning('A lowercase country code, which never matches.')],
  ['unknown-country-code', warning('A country code that is not assigned.')],
  ['protocol-case', warning('An uppercase protocol name, which never matches.')],
  ['unknown-protocol', warning('A protocol name the service does not know, which never matches.')],
  ['unknown-list', warning('A `$list` the account or the managed lists do not have.')],
  ['always-true', warning('A condition that every packet meets.')],
  ['always-false', warning('A condition that no packet meets.')],
  ['redundant-set-member', warning('A set item that another item of the set already covers.')],
  // ---------------------------------------------------------------- calls, arrays and where things may be used (issue 21)
  ['argument-count', error('A call with fewer or more arguments than its function takes.')],
  ['argument-kind', error('A literal where the function reads a field, a call or an index expression, or the reverse.')],
  ['argument-type', error('An argument of a type the function does not take there.')],
  ['invalid-argument', error('A literal argument the service refuses (bounds out of order, a byte given twice, an option letter `url_decode` does not have).')],
  ['once-per-expression', error('A second call of a function the docs allow once in an expression (`regex_replace`, `wildcard_replace`).')],
  ['replace-nesting', error('`regex_replace` and `wildcard_replace` one inside the other, which the docs forbid.')],
  ['invalid-each', error('`[*]` where it may not stand: a later argument of a call, a value expression.')],
  ['boolean-array', error('An array of Booleans (a comparison over `[*]`) where one Boolean is needed.')],
  ['field-on-right', error('A field, call or index expression on the right of a comparison, where a value goes.')],
  ['field-not-available', error('A field the docs do not give to this phase or kind of expression.')],
  ['function-not-available', error('A function the docs do not give to this phase or kind of expression.')],
  ['plan-required', error('A field, operator, function, action or kind of list that needs a higher plan than the account\'s, a duration on a challenge rate limiting rule (Enterprise), or a counting characteristic the plan does not have.')],
  ['addon-required', error('A field or rate limiting characteristic that needs an add-on (Bot Management, Advanced Rate Limiting) that `addons` in .rulesets.yaml does not list.')],
  ['list-kind', warning('A `$list` after a field its kind is not made for, or of no known kind where none is made for the field.')],
  // ---------------------------------------------------------------- `# rulesets-disable…` comments (YAML)
  ['unused-disable', warning('A disable comment, or a code in it, that silences nothing there.')],
  ['unknown-disable-code', warning('A disable comment names a code that no check reports.')],
  ['invalid-disable', warning('A disable comment written wrong: no codes, not on a line of its own, or misplaced.')],
  // ---------------------------------------------------------------- lints (lints.ts)
  ['method-case', warning('An HTTP method with a lowercase letter, which never matches: methods are uppercase.')],
  ['value-case', warning('An uppercase letter in a value the field always holds in lowercase, which never matches.')],
  ['extension-dot', warning('A path extension written with a dot, which never matches: the field holds what follows the last dot.')],
  ['header-name-case', warning('A header name with a capital letter as a map key, which is never present: the keys are lowercase.')],
  ['unknown-value', warning('A value outside the closed set the field documents (continents, score classes, …), which never matches.')],
  ['deprecated-field', information('A deprecated field, with the rewrite to its replacement where one keeps what the rule matches.')],
  ['literal-false', warning('A rule whose whole expression is `false`, which never matches.')],
  ['pattern-matches-all', warning('A pattern that matches every string (`matches ".*"`, `wildcard "*"`), which tells nothing.')],
  ['regex-literal', information('A regex that is only a literal, which `==`, `contains`, `starts_with` or `ends_with` says without one.')],
  ['regex-in-literal', warning('Regex syntax in a value that `==`, `in` or `contains` compares as literal text.')],
  ['wildcard-in-literal', warning('A `*` in a value that `==` or `in` compares as literal text, where `wildcard` was meant.')],
  ['too-many-regexes', error('More regular expressions in one rule than the service takes.')],
  // ---------------------------------------------------------------- style and clarity lints (lints.ts, issue 35)
  ['mixed-logical-operators', information('`and`, `xor` and `or` (or `&&`, `^^`, `||`) mixed at one level without parentheses; a fix adds them where the operators bind.')],
  ['edge-whitespace', information('Whitespace at the start or end of an expression, which the engine ignores; a fix removes it.')],
  ['expression-builder', offByDefault('An expression the dashboard\'s Expression Builder cannot show (function calls, nested groups), as the docs say; off unless `rules` turns it on.')],
]);
