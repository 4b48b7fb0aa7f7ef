import { catalogueFor, checkExpression, checkRuleset, DEFAULT_SETTINGS, ExpressionCache, FIELDS } from '../core';
import { completeAt } from '../features/completion';
import { hover } from '../features/hover';
import { DocumentModel } from '../features/model';

/**
 * Work to run while the editor is still loading: the parser's code is cold when the server
 * starts, and the first file opened would otherwise be checked at a fraction of full speed
 * (a 1,000-rule file took about 100 ms longer). Each step is small, so requests that arrive
 * meanwhile wait for one step at most.
 */
export function warmUpSteps(): (() => void)[] {
  const examples = [...FIELDS.values()].map((field) => field.example);
  const steps: (() => void)[] = [];
  for (let round = 0; round < 8; round++) {
    for (let i = 0; i < examples.length; i += 8) {
      const batch = examples.slice(i, i + 8);
      // Results are not cached: the point is to compile the code, not to fill the cache.
      steps.push(() => batch.forEach((e) => checkExpression(`${e} and not (${e})`, { phase: 'magic_transit' })));
    }
  }
  const rule = (expression: string) => ({ action: 'block', expression });
  const ruleset = { name: 'warm-up', kind: 'root', phase: 'magic_transit', rules: examples.slice(0, 5).map(rule) };
  steps.push(() => checkRuleset(JSON.stringify(ruleset, null, 2), 'json'));
  // The documents' code as well, which runs once per rule: reading the file, the rules' shape,
  // the repeated and shadowed rules. Cold, it made the first file opened cost as much again.
  const warmUpFile = (phase: string, examples: readonly string[]) => JSON.stringify(
    {
      name: 'warm-up',
      kind: 'root',
      phase,
      rules: examples.map((e, i) => ({
        action: i % 4 === 0 ? 'skip' : 'block',
        ...(i % 4 === 0 ? { action_parameters: { ruleset: 'current' } } : {}),
        expression: `${e} or ${examples[(i + 1) % examples.length]}`,
        description: `Rule ${i}`,
        enabled: true,
      })),
    },
    null,
    2,
  );
  const file = warmUpFile('magic_transit', examples);
  for (let round = 0; round < 16; round++) steps.push(() => checkRuleset(file, 'json'));
  // And the HTTP phases', where most rules are written: their fields' catalogue, calls, patterns and lints.
  const httpPhase = 'http_request_firewall_custom';
  const httpExamples = [...catalogueFor(httpPhase).fields.values()].filter((field) => field.inEngine && !field.only).map((field) => field.example);
  // In files of as many rules as the magic_transit one, so that each step stays as small.
  const httpFiles: string[] = [];
  for (let i = 0; i < httpExamples.length; i += examples.length) httpFiles.push(warmUpFile(httpPhase, httpExamples.slice(i, i + examples.length)));
  for (let round = 0; round < 3; round++) for (const httpFile of httpFiles) steps.push(() => checkRuleset(httpFile, 'json'));
  // Completion and hover, whose first answer in a family built its lists cold (a field list in
  // an HTTP phase took about 70 ms, then 5–10).
  for (const [phase, kind, expression, prefixes] of [
    ['magic_transit', 'root', 'ip.src in {192.0.2.0/24} and tcp.dstport == 22', ['', 'ip.', 'ip.src in ', 'ip.src in {192.0.2.0/24} and tcp.dstport ']],
    ['http_request_firewall_custom', 'zone', 'http.host eq "example.com" and lower(http.request.uri.path) contains "/api"', ['', 'http.', 'http.host eq "example.com" and ', 'http.host eq "example.com" and lower(']],
  ] as const) {
    const text = JSON.stringify({ name: 'warm-up', kind, phase, rules: [{ action: 'block', expression }] }, null, 2);
    const start = text.indexOf(JSON.stringify(expression));
    const model = new DocumentModel(`file:///warm-up/${phase}.ruleset.json`, 1, text, 'json', new ExpressionCache());
    for (const prefix of prefixes) {
      // Where the prefix ends in the file, its quotes escaped.
      const offset = start + JSON.stringify(prefix).length - 1;
      steps.push(() => completeAt(model, offset, DEFAULT_SETTINGS));
      steps.push(() => hover(model, model.positionAt(offset + 2), DEFAULT_SETTINGS));
    }
  }
  steps.push(() => checkRuleset(`name: warm-up\nkind: root\nphase: magic_transit\nrules:\n${examples.slice(0, 5).map((e) => `  - action: block\n    expression: '${e.replace(/'/g, "''")}'\n`).join('')}`, 'yaml'));
  return steps;
}

/** Runs the steps one per turn of the event loop. */
export function runInIdleTime(steps: readonly (() => void)[], onError: (error: unknown) => void): void {
  let next = 0;
  const run = () => {
    if (next >= steps.length) return;
    try {
      steps[next++]();
    } catch (error) {
      onError(error);
      return;
    }
    setImmediate(run);
  };
  setImmediate(run);
}
