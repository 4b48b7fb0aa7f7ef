/**
 * Runs one feature for one request. A failure is logged (with its stack, for the bug report)
 * and the request is answered empty: one broken feature never takes the server down, and
 * the editor keeps working.
 */
export function guarded<T>(feature: string, empty: T, run: () => T, logError: (message: string) => void): T {
  try {
    return run();
  } catch (error) {
    logError(`${feature} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return empty;
  }
}
