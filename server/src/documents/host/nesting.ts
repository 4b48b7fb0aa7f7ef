/**
 * How deep the values we read may nest: documents (every host tree), and the JSON that goes to
 * and comes from the API.
 *
 * A ruleset nests a handful of levels (the ruleset, `rules`, a rule, `action_parameters`,
 * `overrides`, …). The libraries that read and write these values recurse once per level and
 * run out of stack long before memory runs out; measured with node 20's default stack, in a
 * fresh process: the `yaml` library composes about 800 levels of flow collections (950 of block
 * ones; past that it reports its own stack error), its parser closes about 2,000 block
 * collections at once (past that it throws), and it writes about 1,200 (`new
 * YAML.Document(value)`); structuredClone copies about 3,300, JSON.stringify about 4,100, and
 * jsonc-parser reads about 5,000 (visit, getLocation, modify). A third of the first of these
 * leaves room for the stack a request has already used. Whatever goes deeper is reported at its
 * place and not read further, so a walk of a host tree, or of a value that passed
 * `nestsDeeperThan`, may recurse.
 */
export const MAX_NESTING = 256;

/** What a document nested past MAX_NESTING is told, at the collection that goes too deep. */
export const NESTED_TOO_DEEPLY = `nested too deeply: nesting deeper than ${MAX_NESTING} levels of objects and lists is not read (a ruleset needs only a few)`;

/**
 * Whether a plain value (from JSON.parse, or the `yaml` library's toJS) has more than `max`
 * objects and arrays inside one another. Counted without recursion, since the value may be
 * nested as deep as its text. A part shared by several parents (a YAML alias) is looked at again
 * only when reached deeper than before, so sharing cannot make it exponential; a cycle is too
 * deep.
 */
export function nestsDeeperThan(value: unknown, max = MAX_NESTING): boolean {
  const deepestSeen = new Map<object, number>();
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    if (depth > max) return true;
    if ((deepestSeen.get(node) ?? 0) >= depth) continue;
    deepestSeen.set(node, depth);
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
