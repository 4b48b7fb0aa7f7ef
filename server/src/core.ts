/**
 * The core's entry module: what the language server, the CLI and the VS Code extension use of
 * the language, the documents, evaluation and the Rulesets API, and nothing else of them. No
 * editor or protocol package is reachable from here (checked in CI: `.dependency-cruiser.cjs`).
 */

// ---------------------------------------------------------------- documents
export { parseHost, property, type HostFormat, type HostNode } from './documents/host';
export { eolOf } from './documents/host-edits';
export { classifyFile, declaresTerraformRuleset, formatOfDocument, formatOfPath, isProjectConfigPath, isRulesetFileName, isRulesetTestFileName, isTestFileName, looksLikeRuleset, PROJECT_CONFIG_FILE_NAME, rulesetFormatOfPath, rulesetPathsBesideTest, RULESET_EXTENSIONS_TEXT, type FileRole, type RulesetEvidence } from './documents/classify';
export { ExpressionCache } from './documents/expression-cache';
export { lineAndCharacter, linePosition, positionsIn, toPositions, type PositionedProblem } from './documents/positions';
export { checkBareExpression, EXPRESSION_KINDS, expressionKind, kindOutOfPhase, unknownKindMessage, type BareExpressionOptions, type ExpressionKindInfo } from './documents/bare-expression';
export type { DocumentProblem } from './documents/parsed-ruleset';
export { checkDocument, checkRuleset } from './documents/ruleset';
export { MAX_NESTING, nestsDeeperThan } from './documents/nesting';
export { parseRuleset, type ParsedRuleset } from './documents/parsed-ruleset';
export { parseDocument, rulesetAt, type ParsedDocument } from './documents/parsed-document';
export { diskModuleReader, includeReader, providerVersionInputsOf } from './documents/include-files';
export { badBytesMessage, badBytesProblem, badBytesText, decodeFileBytes, type BadBytes, type DecodedFile } from './documents/file-bytes';
export type { TerraformModule, TerraformModuleReader } from './documents/terraform-module';
export { loadTerraformParser, mayUseModuleValues, migrateFirewallRules } from './documents/terraform';
export { DEFAULT_SETTINGS, patternInFolder, readSettings, withProjectConfig, type Settings } from './documents/settings';
export { readProjectConfig, type ProjectConfig, type RuleSeverity } from './documents/project-config';
export { nearestConfig, parentOfFolderUri, type FolderReader, type NearestConfig } from './documents/nearest-config';

// ---------------------------------------------------------------- language
export { FIELDS } from './language/catalogue/fields';
export { checkExpression } from './language/checker';
export { plainText, PROBLEM_CODES } from './language/problem';
export { grammar } from './language/grammar';
export { catalogueFor } from './language/catalogue/catalogues';
export { KNOWN_PHASES } from './language/catalogue/phases';
export { ADDONS, isAddon, isPlan, PLANS, type Addon, type Plan } from './language/catalogue/plans';
export { isListKind, LIST_KINDS, type ListKind } from './language/catalogue/lists';
export { closestMatches, quoteAlternatives } from './language/suggest';

// ---------------------------------------------------------------- evaluation
export { describeEffects, rulesetEffects, type Effects } from './evaluation/effects';
export { EvaluationError, MissingValuesError, type Subject } from './evaluation/evaluate';
export { phaseOutcomes, subjectOfPhase, type PhaseOutcomes } from './evaluation/outcomes';
export { PacketError, parseLists, parsePacket, type Lists } from './evaluation/packet';
export { parseRequest, RequestError, type Request } from './evaluation/request';
export { describeRule, evaluateRuleset, findRule, plain, prepareRuleset, RuleEvaluationError, RulesetError, type PreparedRuleset, type RuleInfo, type RulesetVerdict } from './evaluation/ruleset-eval';
export { caseOutput, describeMatches, describeVerdict, fileProblemOutput, isTestProblem, listsOfTestFile, loadTestRuleset, prepareTestRuleset, readTestFile, rulesetOfTestFile, runTestCase, traceLines, type CaseOutcome, type RulesetRead, type TestCase, type TestFile, type TestProblem, type TestRuleset } from './evaluation/test-file-run';
export { describeAssumed, evaluateAssuming, rulesThatDecide, type AssumedField } from './evaluation/assumed-fields';

// ---------------------------------------------------------------- the Rulesets API
export { ApiError, describeMessage, redact, RulesetsClient, type ApiMessage, type ClientOptions, type Credentials, type RulesetRef, type Scope } from './api/client';
export { runEmulatorCommand } from './api/emulator-command';
export { applyCreate, planCreate } from './api/create';
export { applyDeploy, checkLocal, conflictMessage, DeployOutcomeUnknownError, destinationOf, describeDestination, hasErrors, mapServiceProblems, planDeploy, type DeployPlan, type Destination, type ServiceProblem } from './api/deploy';
export { unifiedDiff } from './api/diff';
export { diffRuleset, planTargets, type EstatePlan, type PlanOptions, type RulesetPlan } from './api/plan';
export { planJson, planMarkdown, planText, summaryLine } from './api/plan-output';
export type { Target } from './api/targets';
export { readLocalRuleset, WorkflowError, type LocalRuleset, type RulesetBody } from './api/local-ruleset';
export { pointerToRange } from './api/pointer';
export { recordDeployed, rulesetToBody, serializeRuleset, withVersion } from './api/ruleset-file';
export { terraformOfRuleset } from './api/terraform-file';
export { selectRuleset, type RulesetChoice } from './documents/select-ruleset';
export { octorulesOfRuleset, octorulesSectionOfPhase } from './api/octorules-file';
export { ruleDefinition, type Position, type Rule, type RuleInput, type Ruleset, type RulesetSummary, type VersionListItem } from './api/types';
