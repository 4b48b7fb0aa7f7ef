import { setFlagsFromString } from 'node:v8';

/**
 * How much work V8 sees a function do before it compiles it with its optimising compiler
 * (TurboFan): 2 MiB of bytecode budget, where V8's default is 66 KB.
 *
 * With the default, the first seconds of a process are spent compiling: checking a 1,000-rule
 * file, V8 optimised about 370 functions, and the compiler's threads used about as much CPU as
 * the check itself; most of those functions had run a few hundred times and would never run
 * long enough to pay it back. Measured beside the peers (npm run bench, same run), the
 * language server with this budget: opening a 1,000-rule JSON file 470 → 250 ms of CPU,
 * YAML 650 → 430 ms; an edit's p95 in YAML 89 → 33 ms, p50 unchanged (16–17 ms). What it
 * costs is peak speed on very large inputs, which now reach it later: opening a 10,000-rule
 * file took 15–50% longer, and the CLI keeps V8's default for large runs (see cli/main.ts).
 */
export const PATIENT_INTERRUPT_BUDGET = 2 * 1024 * 1024;

/**
 * V8's own setting of what optimiseOnlyWhatRunsLong changes, as Node 20's V8 starts with it
 * (`node --v8-options`): a process that changed it sets it back with this before saving its
 * compile cache, which V8 refuses when made under other flags than those it starts with.
 */
export const V8_DEFAULT_TIERING_FLAGS = '--interrupt-budget=67584';

/** Optimise only what runs long: for functions that have not run yet, from now on. */
export function optimiseOnlyWhatRunsLong(): void {
  setFlagsFromString(`--interrupt-budget=${PATIENT_INTERRUPT_BUDGET}`);
}
