/**
 * The core's entry module: what the language server, the CLI and the VS Code extension use of
 * the language, the documents, evaluation and the Rulesets API, and nothing else of them. No
 * editor or protocol package is reachable from here (checked in CI: `.dependency-cruiser.cjs`).
 */

// ---------------------------------------------------------------- documents
export { parseHost, property, type HostFormat, type HostNode } from './documents/host/index';
export { eolOf } from './documents/host/index';
export { classifyFile, declaresTerraformRuleset, formatOfDocument, formatOfPath, isRulesetTestFileName, isTestFileName, PROJECT_CONFIG_FILE_NAME, rulesetFormatOfPath, RULESET_EXTENSIONS_TEXT } from './documents/classify';
export { ExpressionCache } from './documents/expression-cache';
export { lineAndCharacter, linePosition, positionsIn, toPositions, type PositionedProblem } from './documents/positions';
export { checkBareExpression, EXPRESSION_KINDS, expressionKind, kindOutOfPhase, unknownKindMessage, type BareExpressionOptions } from './documents/bare-expression';
export type { DocumentProblem } from './documents/parsed-ruleset';
export { checkDocument, checkRuleset } from './documents/ruleset';
export { MAX_NESTING, nestsDeeperThan } from './documents/host/index';
export { parseRuleset } from './documents/parsed-ruleset';
export { parseDocument, rulesetAt } from './documents/parsed-document';
export { entryPointProblems, type EntryPointSource } from './documents/entry-point';
export { diskModuleReader, includeReader, providerVersionInputsOf } from './documents/include-files';
export { badBytesMessage, decodeFileBytes, type DecodedFile } from './documents/file-bytes';
export type { TerraformModuleReader } from './documents/terraform-module';
export { loadTerraformParser, mayUseModuleValues, migrateFirewallRules } from './documents/terraform';
export { DEFAULT_SETTINGS, patternInFolder, readSettings, targetGlob, targetOfFile, withProjectConfig, type Settings } from './documents/settings';
export { readProjectConfig, type ProjectConfig, type RuleSeverity, type TargetConfig } from './documents/project-config';
export { nearestConfig, parentOfFolderUri, type FolderReader } from './documents/nearest-config';

// ---------------------------------------------------------------- language
export { FIELDS } from './language/catalogue/fields';
export { checkExpression } from './language/checker';
export { plainText, PROBLEM_CODES } from './language/problem';
export { catalogueFor } from './language/catalogue/catalogues';
export { KNOWN_PHASES } from './language/catalogue/phases';
export type { Addon, Plan } from './language/catalogue/plans';
export type { ListKind } from './language/catalogue/lists';
export { closestMatches, quoteAlternatives } from './language/suggest';

// ---------------------------------------------------------------- evaluation
export { describeEffects, rulesetEffects } from './evaluation/effects';
export { EvaluationError, type Subject } from './evaluation/evaluate';
export { phaseOutcomes, subjectOfPhase } from './evaluation/outcomes';
export { PacketError, parseLists, parsePacket, type Lists } from './evaluation/packet';
export { parseRequest, RequestError } from './evaluation/request';
export { describeRule, evaluateRuleset, plain, prepareRuleset, RuleEvaluationError, RulesetError, type RuleInfo, type RulesetVerdict } from './evaluation/ruleset-eval';
export { caseOutput, describeMatches, describeVerdict, fileProblemOutput, isTestProblem, listsOfTestFile, loadTestRuleset, prepareTestRuleset, readTestFile, rulesetOfTestFile, runTestCase, traceLines, type RulesetRead, type TestCase, type TestFile, type TestProblem, type TestRuleset } from './evaluation/test-file-run';
export { describeAssumed, evaluateAssuming, rulesThatDecide, type AssumedField } from './evaluation/assumed-fields';

// ---------------------------------------------------------------- the Rulesets API
export { ApiError, describeMessage, redact, RulesetsClient, type ApiMessage, type ClientOptions, type Credentials, type RulesetRef, type Scope, type ZoneSummary } from './api/client';
export { runEmulatorCommand } from './api/emulator-command';
export { applyCreate, planCreate } from './api/create';
export { applyDeploy, conflictMessage, DeployOutcomeUnknownError, destinationOf, describeDestination, hasErrors, mapServiceProblems, planDeploy, type DeployPlan, type Destination, type ServiceProblem } from './api/deploy';
export { unifiedDiff } from './api/diff';
export { diffRuleset, planTargets, type EstatePlan, type PlanOptions, type RulesetPlan } from './api/plan';
export { terraformPlanOf, TerraformPlanError } from './api/terraform-plan';
export { driftLine, planJson, planMarkdown, planText, summaryLine } from './api/plan-output';
export { applyLimitsOf, applyPlan, auditLogWriter, isPlanFileText, planFileText, readSavedPlan, rulesetName, savedPlanOf, serviceOf, type AppliedRuleset, type SavedPlan } from './api/apply';
export { emptyLock, lockEntryOf, lockFileText, lockKey, readLockFile, withDrift, withLockEntry, type LockEntry, type LockFile } from './api/lock';
export { readLocalRuleset, WorkflowError, type LocalRuleset, type RulesetBody } from './api/local-ruleset';
export { pointerToRange } from './api/pointer';
export { recordDeployed, rulesetToBody, serializeRuleset, withVersion } from './api/ruleset-file';
export { terraformOfRuleset } from './api/terraform-file';
export type { RulesetChoice } from './documents/select-ruleset';
export { octorulesOfRuleset, octorulesSectionOfPhase } from './api/octorules-file';
export { ruleDefinition, type Position, type Rule, type RuleInput, type Ruleset, type RulesetSummary, type VersionListItem } from './api/types';
export { estateTargets, isOctorulesText, resolveTargets, TargetResolutionError, TargetsError, targetsOf, type Estate, type EstateOptions, type Target, type TargetFile, type TargetGrouping, type TargetProblem, type TargetsConfig, type UnresolvedTarget, type ZoneFinder } from './api/targets';
