import type { ComparisonOperator, ScalarType, LogicalOperator } from '../ast';

/**
 * The operators of the language (LANGUAGE.md §3): how each is written, what it means, and
 * which left sides take it. The parser reads spellings from here, the checker the types,
 * completion the summaries and hover the docs, so that they cannot disagree.
 */

export interface ComparisonOperatorInfo {
  readonly operator: ComparisonOperator;
  /** Symbol spelling first where there is one (`==` then `eq`). */
  readonly spellings: readonly string[];
  /** The spelling messages name it by: the symbol, except `matches`, which says more than `~`. */
  readonly usual: string;
  /** A few words: what a completion item says. */
  readonly summary: string;
  /** What hover says: a title and a sentence or two. */
  readonly title: string;
  readonly doc: string;
}

export const COMPARISON_OPERATORS: ReadonlyMap<ComparisonOperator, ComparisonOperatorInfo> = new Map(
  (
    [
      { operator: 'eq', spellings: ['==', 'eq'], usual: '==', summary: 'equals', title: 'equal', doc: 'True when the left side equals the value.' },
      { operator: 'ne', spellings: ['!=', 'ne'], usual: '!=', summary: 'does not equal', title: 'not equal', doc: 'True when the left side differs from the value.' },
      { operator: 'lt', spellings: ['<', 'lt'], usual: '<', summary: 'less than', title: 'less than', doc: 'True when the left side is less than the value (strings compare byte by byte).' },
      { operator: 'le', spellings: ['<=', 'le'], usual: '<=', summary: 'less than or equal to', title: 'less than or equal', doc: 'True when the left side is less than or equal to the value (strings compare byte by byte).' },
      { operator: 'gt', spellings: ['>', 'gt'], usual: '>', summary: 'greater than', title: 'greater than', doc: 'True when the left side is greater than the value (strings compare byte by byte).' },
      { operator: 'ge', spellings: ['>=', 'ge'], usual: '>=', summary: 'greater than or equal to', title: 'greater than or equal', doc: 'True when the left side is greater than or equal to the value (strings compare byte by byte).' },
      {
        operator: 'in',
        spellings: ['in'],
        usual: 'in',
        summary: 'is in a `{…}` set or a `$list`',
        title: 'is one of',
        doc: 'True when the left side is one of the values of a `{…}` set (items separated by spaces), or in a `$list`.',
      },
      {
        operator: 'bitwise_and',
        spellings: ['&', 'bitwise_and'],
        usual: '&',
        summary: 'has any of these bits set',
        title: 'bitwise and',
        doc: 'True when the left side and the value have a set bit in common, `(left & value) != 0`: `tcp.flags & 0x02` is true when SYN is set. It is a complete test, so `tcp.flags & 0x12 == 0x12` is an error.',
      },
      { operator: 'contains', spellings: ['contains'], usual: 'contains', summary: 'contains this string', title: 'substring match', doc: 'True when the string contains the value, byte for byte.' },
      {
        operator: 'matches',
        spellings: ['~', 'matches'],
        usual: 'matches',
        summary: 'matches this regular expression',
        title: 'matches a regular expression',
        doc: 'True when the string matches the regular expression (Rust `regex` syntax).',
      },
      {
        operator: 'wildcard',
        spellings: ['wildcard'],
        usual: 'wildcard',
        summary: 'matches this wildcard pattern (`*`), ignoring case',
        title: 'wildcard match',
        doc: 'True when the whole string matches the pattern, where `*` matches any run of characters; case-insensitive.',
      },
      {
        operator: 'strict_wildcard',
        spellings: ['strict wildcard'],
        usual: 'strict wildcard',
        summary: 'matches this wildcard pattern (`*`), case-sensitive',
        title: 'strict wildcard match',
        doc: 'Like `wildcard` (`*` matches any run of characters), but case-sensitive.',
      },
    ] as const
  ).map((info) => [info.operator, info]),
);

/**
 * Every spelling of a comparison operator, and `=`: not an operator, but read as `==` so
 * that it can be reported with a fix rather than as a syntax error.
 */
const COMPARISON_OPERATOR_BY_SPELLING: ReadonlyMap<string, ComparisonOperator> = new Map([
  ...[...COMPARISON_OPERATORS.values()].flatMap((info) => info.spellings.map((spelling) => [spelling, info.operator] as const)),
  ['=', 'eq'] as const,
]);

/** The comparison operator a token spells (`strict` and `wildcard` may be apart by any whitespace, which the checker reports), if any. */
export function comparisonOperatorOf(text: string): ComparisonOperator | undefined {
  return COMPARISON_OPERATOR_BY_SPELLING.get(text) ?? (/^strict[ \t\r\n]+wildcard$/.test(text) ? 'strict_wildcard' : undefined);
}

/** The comparison operators each type of left side allows: what the checker holds comparisons to. */
export const OPERATORS_BY_TYPE: Record<ScalarType, readonly ComparisonOperator[]> = {
  Integer: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in', 'bitwise_and'],
  Ip: ['eq', 'ne', 'in', 'lt', 'le', 'gt', 'ge'],
  Bytes: ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains', 'matches', 'wildcard', 'strict_wildcard', 'in'],
  Boolean: [],
};

export const ORDERING_OPERATORS: readonly ComparisonOperator[] = ['lt', 'le', 'gt', 'ge'];

/** Operators that compare whole values, so a value can be held against what the field takes. */
export const WHOLE_VALUE_OPERATORS: readonly ComparisonOperator[] = ['eq', 'ne', 'in'];

/** Ordering IP addresses parses, and the checker only warns, but the service does not support it. */
export function supportedOperators(type: ScalarType): readonly ComparisonOperator[] {
  const allowed = OPERATORS_BY_TYPE[type];
  return type === 'Ip' ? allowed.filter((operator) => !ORDERING_OPERATORS.includes(operator)) : allowed;
}

export interface LogicalOperatorInfo {
  readonly operator: LogicalOperator;
  /** Word spelling first (`and` then `&&`). */
  readonly spellings: readonly string[];
  readonly summary: string;
  readonly title: string;
  readonly doc: string;
}

export const LOGICAL_OPERATORS: ReadonlyMap<LogicalOperator, LogicalOperatorInfo> = new Map(
  (
    [
      { operator: 'and', spellings: ['and', '&&'], summary: 'both tests must match', title: 'logical and', doc: 'True when both sides are true.' },
      { operator: 'or', spellings: ['or', '||'], summary: 'either test matches', title: 'logical or', doc: 'True when either side is true (or both).' },
      { operator: 'xor', spellings: ['xor', '^^'], summary: 'exactly one of the tests matches', title: 'logical exclusive or', doc: 'True when exactly one of the two sides is true.' },
    ] as const
  ).map((info) => [info.operator, info]),
);

export const LOGICAL_OPERATOR_BY_SPELLING: ReadonlyMap<string, LogicalOperator> = new Map(
  [...LOGICAL_OPERATORS.values()].flatMap((info) => info.spellings.map((spelling) => [spelling, info.operator] as const)),
);
