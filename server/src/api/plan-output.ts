/**
 * A plan as people and programs read it: text like `terraform plan` (`+` add, `-` remove, `~`
 * change, `↕` move, coloured on a terminal), JSON of a documented, stable shape (docs/api.md,
 * "Plan"), and Markdown for a pull request's comment.
 */
import { relative, isAbsolute } from 'node:path';
import { describeDestination } from './deploy';
import type { EstatePlan, FieldChange, RulePlan, RulesetPlan, TargetPlan } from './plan';

export interface PlanOutputOptions {
  /** Paths are shown relative to this folder (absolute when outside it). */
  readonly relativeTo?: string;
  /** ANSI colours (the text output only). */
  readonly colour?: boolean;
}

/** The shape of `--format json`; `format_version` changes only when a field changes meaning or goes. */
export const PLAN_JSON_VERSION = 1;

const COLOURS = { add: '32', remove: '31', change: '33', move: '36', dim: '2', bold: '1' } as const;

function shownPath(path: string, options: PlanOutputOptions): string {
  if (options.relativeTo === undefined) return path;
  const shown = relative(options.relativeTo, path);
  return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? path : shown;
}

/** `Plan: 2 to add, 1 to change, 1 to move, 0 to remove; 3 unmanaged kept.` (a ruleset's description counts as a change). */
export function summaryLine(plan: EstatePlan): string {
  const c = plan.counts;
  const failed = plan.errors > 0 ? ` ${plan.errors} ruleset${plan.errors === 1 ? '' : 's'} could not be planned.` : '';
  return `Plan: ${c.add} to add, ${c.change + c.settings} to change, ${c.move} to move, ${c.remove} to remove; ${c.unmanaged} unmanaged kept.${failed}`;
}

function value(v: unknown): string {
  return JSON.stringify(v) ?? 'null';
}

function where(r: Pick<RulesetPlan, 'file' | 'label' | 'files'>, options: PlanOutputOptions): string {
  // An entry point several files give rules to is named by all of them.
  if (r.files) return r.files.map((f) => shownPath(f, options)).join(' + ');
  return `${shownPath(r.file, options)}${r.label !== undefined ? ` (${r.label})` : ''}`;
}

function rulesetHeading(t: TargetPlan, r: RulesetPlan, options: PlanOutputOptions): string {
  const live = r.liveVersion !== undefined ? `version ${r.liveVersion}` : 'does not exist yet: it would be created';
  if (r.note !== undefined) return `${where(r, options)} → ${t.target.scope.kind} ${t.target.label}, ${describeDestination(r.destination)}: ${r.note}`;
  return `${where(r, options)} → ${t.target.scope.kind} ${t.target.label}, ${describeDestination(r.destination)} (${live})${r.owned ? ', phase owned' : ''}`;
}

/** The `drift:` line of a ruleset with a lock entry: changed here, changed live, and which live edits an apply would undo. */
export function driftLine(r: RulesetPlan): string | undefined {
  const d = r.drift;
  if (!d) return undefined;
  const here = d.changedHere === undefined ? [] : [d.changedHere ? 'changed here since the last apply' : 'unchanged here since the last apply'];
  const live = d.changedLive ? `changed live since the last apply (version ${d.lockedVersion} → ${r.liveVersion !== undefined ? `version ${r.liveVersion}` : 'deleted'})` : `live as last applied (version ${d.lockedVersion})`;
  const parts = [...here, live];
  if (d.removedLive.length > 0) parts.push(`removed live: ${d.removedLive.join(', ')}`);
  if (d.undone.length > 0) parts.push(`apply would undo the live edit${d.undone.length === 1 ? '' : 's'} to ${d.undone.join(', ')}`);
  else if (d.changedLive) parts.push('apply undoes no live edit');
  return `drift: ${parts.join('; ')}`;
}

/** The marker after a rule edited or added live since the last apply. */
function driftMarker(rule: RulePlan): string {
  if (!rule.drift) return '';
  const what = rule.drift === 'edited-live' ? 'edited live since the last apply' : 'added live since the last apply';
  return ` [${what}${rule.undone ? '; apply would undo it' : ''}]`;
}

/** The lines of one rule, each with the sign that starts it; `paint` colours a sign's line. */
function ruleLines(rule: RulePlan, paint: (kind: keyof typeof COLOURS, text: string) => string, markdown: boolean): string[] {
  const named = `${rule.name}${rule.description && rule.description !== rule.name && JSON.stringify(rule.description) !== rule.name ? ` (${rule.description})` : ''}`;
  const mark = driftMarker(rule);
  switch (rule.action) {
    case 'add':
      return [paint('add', `+ ${named}, at ${rule.to}${mark}`), ...rule.fields.map((f) => paint('add', `${markdown ? '+' : ' '}     ${f.path}: ${f.unknown ? '(known after apply)' : value(f.new)}`))];
    case 'remove':
      return [paint('remove', `- ${named}, was at ${rule.from}${mark}`), ...rule.fields.map((f) => paint('remove', `${markdown ? '-' : ' '}     ${f.path}: ${value(f.old)}`))];
    case 'move':
      return [paint('move', `↕ ${named}, moved ${rule.from} → ${rule.to}${mark}`)];
    case 'change': {
      const moved = rule.moved ? `, moved ${rule.from} → ${rule.to}` : `, at ${rule.to}`;
      return [paint('change', `~ ${named}${moved}${mark}`), ...rule.fields.flatMap((f) => fieldLines(f, paint, markdown))];
    }
    case 'unmanaged':
      return [paint('dim', `  ${named}, at ${rule.to}: unmanaged (in no file), kept${mark}`)];
    default:
      // An unchanged rule is shown only where the files took up a live edit.
      return rule.drift ? [`  ${named}, at ${rule.to}: unchanged${mark}`] : [];
  }
}

function fieldLines(f: FieldChange, paint: (kind: keyof typeof COLOURS, text: string) => string, markdown: boolean): string[] {
  if (f.unknown) return markdown ? [...('old' in f ? [`-     ${f.path}: ${value(f.old)}`] : []), `+     ${f.path}: (known after apply)`] : [paint('change', `      ~ ${f.path}: ${'old' in f ? `${value(f.old)} → ` : ''}(known after apply)`)];
  if (markdown) return [...('old' in f ? [`-     ${f.path}: ${value(f.old)}`] : []), ...('new' in f ? [`+     ${f.path}: ${value(f.new)}`] : [])];
  if (!('old' in f)) return [paint('add', `      + ${f.path}: ${value(f.new)}`)];
  if (!('new' in f)) return [paint('remove', `      - ${f.path}: ${value(f.old)}`)];
  return [paint('change', `      ~ ${f.path}: ${value(f.old)} → ${value(f.new)}`)];
}

function rulesetBody(r: RulesetPlan, paint: (kind: keyof typeof COLOURS, text: string) => string, markdown: boolean): string[] {
  const lines: string[] = [];
  const drift = driftLine(r);
  if (drift !== undefined) lines.push(markdown ? `! ${drift}` : paint('move', drift));
  for (const s of r.settings) lines.push(...(markdown ? fieldLines(s, paint, true) : [paint('change', `~ ruleset ${s.path}: ${value(s.old)} → ${s.unknown ? '(known after apply)' : value(s.new)}`)]));
  for (const rule of r.rules) lines.push(...ruleLines(rule, paint, markdown));
  if (r.counts.unchanged > 0) lines.push(`  (${r.counts.unchanged} unchanged rule${r.counts.unchanged === 1 ? '' : 's'} not shown)`);
  return lines;
}

/** The plan as `terraform plan` writes one: each ruleset with something to do, rule by rule, then the summary line. */
export function planText(plan: EstatePlan, options: PlanOutputOptions = {}): string {
  const paint = (kind: keyof typeof COLOURS, text: string) => (options.colour ? `\x1b[${COLOURS[kind]}m${text}\x1b[0m` : text);
  const out: string[] = [];
  let unchanged = 0;
  for (const t of plan.targets) {
    for (const r of t.rulesets) {
      const hasLines = r.note !== undefined || r.settings.length > 0 || r.rules.some((rule) => rule.action !== 'unchanged') || r.drift?.changedLive === true;
      if (!hasLines) {
        unchanged++;
        continue;
      }
      out.push(paint('bold', rulesetHeading(t, r, options)));
      out.push(...rulesetBody(r, paint, false).map((line) => `  ${line}`), '');
    }
    for (const s of t.skipped) out.push(`skipped: ${where(s, options)}: ${s.reason}`, '');
    for (const e of t.errors) out.push(paint('remove', `error: ${e.message}`), '');
  }
  if (unchanged > 0) out.push(`${unchanged} ruleset${unchanged === 1 ? ' is' : 's are'} as ${unchanged === 1 ? 'its file says' : 'their files say'}.`);
  const planned = plan.targets.reduce((n, t) => n + t.rulesets.length, 0);
  if (planned === 0 && plan.errors === 0) out.push('No ruleset to plan.');
  else if (!plan.changes && plan.errors === 0) out.push('No changes: what is live is what the files say.');
  out.push(paint('bold', summaryLine(plan)));
  return `${out.join('\n')}\n`;
}

/** What a pull request's comment holds at most (GitHub: 65,536 characters), with some to spare. */
export const MARKDOWN_LIMIT = 65_000;
/** Kept free for the lines that count what did not fit. */
const COUNT_LINES = 400;
/** Past this many rulesets without changes, they are one collapsed list. */
const QUIET_OPEN = 10;

/**
 * The plan as Markdown for a pull request's comment: the summary, the errors, each ruleset with
 * changes in a `diff` block (as many as fit in a comment; the rest counted), then those without
 * changes and those skipped.
 */
export function planMarkdown(plan: EstatePlan, options: PlanOutputOptions & { readonly limit?: number } = {}): string {
  const paint = (_kind: keyof typeof COLOURS, text: string) => text;
  const limit = options.limit ?? MARKDOWN_LIMIT;
  const out: string[] = ['### rulesets plan', '', `**${summaryLine(plan)}**`, ''];
  const errors = plan.targets.flatMap((t) => t.errors.map((e) => `- **error**: ${escapeMarkdown(e.message)}`));
  if (errors.length > 0) out.push(...errors, '');
  const quiet: string[] = [];
  let size = out.join('\n').length;
  let untold = 0;
  for (const t of plan.targets) {
    for (const r of t.rulesets) {
      const heading = escapeMarkdown(rulesetHeading(t, r, options));
      const hasLines = r.note !== undefined || r.settings.length > 0 || r.rules.some((rule) => rule.action !== 'unchanged') || r.drift?.changedLive === true;
      if (!hasLines) {
        quiet.push(`- ${heading}: no changes`);
        continue;
      }
      const c = r.counts;
      const block = [
        `<details open><summary>${heading}: ${c.add} to add, ${c.change + r.settings.length} to change, ${c.move} to move, ${c.remove} to remove; ${c.unmanaged} unmanaged kept</summary>`,
        '',
        '```diff',
        ...rulesetBody(r, paint, true).map((line) => line.replace(/```/g, '`\u200b``')),
        '```',
        '',
        '</details>',
        '',
      ];
      const length = block.join('\n').length + 1;
      if (untold > 0 || size + length > limit - COUNT_LINES) {
        untold++;
        continue;
      }
      out.push(...block);
      size += length;
    }
    for (const s of t.skipped) quiet.push(`- skipped: ${escapeMarkdown(`${where(s, options)}: ${s.reason}`)}`);
  }
  if (untold > 0) out.push(`${untold} more ruleset${untold === 1 ? '' : 's'} with changes ${untold === 1 ? 'is' : 'are'} not shown here, for a comment holds ${limit.toLocaleString('en-US')} characters at most: \`rulesets plan\` shows ${untold === 1 ? 'it' : 'them'}.`, '');
  // Those without changes fill what room is left; the rest are counted.
  const room = limit - COUNT_LINES - size - 200;
  let listed = 0;
  for (let used = 0; listed < quiet.length && used + quiet[listed].length + 1 <= room; listed++) used += quiet[listed].length + 1;
  const unlisted = quiet.length - listed;
  const rest = unlisted > 0 ? [`- and ${unlisted} more`] : [];
  if (quiet.length > QUIET_OPEN) out.push(`<details><summary>${quiet.length} rulesets without changes, or skipped</summary>`, '', ...quiet.slice(0, listed), ...rest, '', '</details>', '');
  else if (quiet.length > 0) out.push(...quiet.slice(0, listed), ...rest, '');
  return `${out.join('\n')}`;
}

function escapeMarkdown(text: string): string {
  return text.replace(/[<>&]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&amp;')).replace(/([\\`*_[\]|])/g, '\\$1');
}

/** The plan as JSON (`format_version` 1; docs/api.md, "Plan", documents each field). */
export function planJson(plan: EstatePlan, options: PlanOutputOptions = {}): string {
  const rule = (r: RulePlan) => ({
    action: r.action,
    name: r.name,
    ...(r.id !== undefined ? { id: r.id } : {}),
    ...(r.ref !== undefined ? { ref: r.ref } : {}),
    ...(r.description !== undefined ? { description: r.description } : {}),
    from: r.from ?? null,
    to: r.to ?? null,
    moved: r.moved,
    matched_by: r.matchedBy ?? null,
    fields: r.fields,
    ...(r.drift !== undefined ? { drift: r.drift === 'edited-live' ? 'edited_live' : 'added_live', undone_by_apply: r.undone === true } : {}),
  });
  const counts = (c: EstatePlan['counts'] | RulesetPlan['counts']) => ({ add: c.add, change: c.change, move: c.move, remove: c.remove, unmanaged: c.unmanaged, unchanged: c.unchanged });
  const json = {
    format_version: PLAN_JSON_VERSION,
    changes: plan.changes,
    summary: { ...counts(plan.counts), settings: plan.counts.settings, errors: plan.errors },
    targets: plan.targets.map((t) => ({
      scope: { kind: t.target.scope.kind, id: t.target.scope.id },
      label: t.target.label,
      rulesets: t.rulesets.map((r) => ({
        file: shownPath(r.file, options),
        ...(r.files ? { files: r.files.map((f) => shownPath(f, options)) } : {}),
        label: r.label ?? null,
        phase: r.phase,
        destination: r.destination.kind === 'ruleset' ? { kind: 'ruleset', id: r.destination.id } : { kind: 'entrypoint', phase: r.destination.phase },
        live_version: r.liveVersion ?? null,
        owned: r.owned,
        ...(r.note !== undefined ? { note: r.note } : {}),
        summary: counts(r.counts),
        settings: r.settings,
        rules: r.rules.map(rule),
        ...(r.drift
          ? {
              drift: {
                locked_version: r.drift.lockedVersion,
                changed_here: r.drift.changedHere ?? null,
                changed_live: r.drift.changedLive,
                undone_by_apply: r.drift.undone,
                removed_live: r.drift.removedLive,
              },
            }
          : {}),
      })),
      skipped: t.skipped.map((s) => ({ file: shownPath(s.file, options), label: s.label ?? null, reason: s.reason })),
      errors: t.errors.map((e) => ({
        file: shownPath(e.file, options),
        label: e.label ?? null,
        message: e.message,
        problems: (e.problems ?? []).map((p) => ({ line: p.range.start.line + 1, column: p.range.start.character + 1, severity: p.severity, code: p.code, message: p.message })),
      })),
    })),
  };
  return `${JSON.stringify(json, null, 2)}\n`;
}
