/**
 * An expression in words: `tcp.dstport != 22 and ip.proto == "tcp"` is "TCP packets whose
 * destination port is not 22". Pure: reads only the AST and the catalogues. The result is a
 * noun phrase about packets, for hover ("**Blocks** TCP packets whose …").
 */
import type { Comparison, Expression, Literal, LogicalExpression, Value } from './ast';
import { COUNTRIES } from './catalogue/countries';
import { FIELDS, hexByte, TCP_FLAG_BITS } from './catalogue/fields';
import { MANAGED_LISTS } from './catalogue/lists';
import { formatAddress } from './literals';

/** What the packets are called: `packets`, or `TCP packets` when the whole expression requires it. */
export function describeExpression(ast: Expression): string {
  const root = unwrap(ast);
  if (root.kind === 'boolean') return root.value ? 'every packet' : 'no packet';
  // `ip.proto == "tcp"` as the expression or one operand of a top-level `and` becomes an adjective.
  const operands = root.kind === 'logical' && root.operator === 'and' ? root.operands.map(unwrap) : [root];
  const index = operands.findIndex(protocolEquality);
  if (index < 0) return `packets ${clause(root, {})}`;
  const protocol = ((operands[index] as Comparison).rhs as { value: string }).value;
  const rest = operands.filter((_, i) => i !== index);
  const adjective = `${protocolName(protocol)} packets`;
  if (rest.length === 0) return adjective;
  const context: Context = { protocol };
  return `${adjective} ${rest.map((operand) => operandClause(operand, 'and', context)).join(' and ')}`;
}

interface Context {
  /** The protocol all packets described have: `tcp.dstport` is then the "destination port". */
  readonly protocol?: string;
}

function unwrap(node: Expression): Expression {
  let current = node;
  while (current.kind === 'group') current = current.inner;
  return current;
}

function protocolEquality(node: Expression): boolean {
  return node.kind === 'comparison' && node.lhs.kind === 'field' && node.lhs.name === 'ip.proto' && node.operator?.operator === 'eq' && node.rhs?.kind === 'string';
}

function protocolName(protocol: string): string {
  return protocol.toUpperCase();
}

// ---------------------------------------------------------------- clauses

/** A clause that follows "packets": `from Brazil`, `whose TTL is less than 10`. */
function clause(node: Expression, context: Context): string {
  const n = unwrap(node);
  switch (n.kind) {
    case 'boolean':
      return n.value ? 'of any kind' : 'of no kind';
    case 'comparison':
      return comparisonClause(n, false, context);
    case 'not':
      return negatedClause(n.operand, context);
    case 'logical':
      return logicalClause(n, context);
    case 'group':
      return clause(n.inner, context);
    case 'quantifier':
      return `for which \`${n.name.text}(…)\` holds`;
  }
}

function logicalClause(node: LogicalExpression, context: Context): string {
  const parts = node.operands.map((operand) => operandClause(operand, node.operator, context));
  if (node.operator === 'xor') {
    if (parts.length === 2) return `either ${parts[0]} or ${parts[1]}, but not both`;
    return `for which an odd number of these hold: ${parts.join('; ')}`;
  }
  return parts.join(` ${node.operator} `);
}

/** An operand of `and`/`or`/`xor`: a compound one of another operator goes in parentheses. */
function operandClause(operand: Expression, parent: LogicalExpression['operator'], context: Context): string {
  const n = unwrap(operand);
  const text = clause(n, context);
  if (n.kind === 'logical' && n.operator !== parent) return `(${text})`;
  return text;
}

function negatedClause(operand: Expression, context: Context): string {
  const n = unwrap(operand);
  switch (n.kind) {
    case 'boolean':
      return clause({ ...n, value: !n.value }, context);
    case 'comparison':
      return comparisonClause(n, true, context);
    case 'not':
      return clause(n.operand, context);
    default:
      return `not (${clause(n, context)})`;
  }
}

// ---------------------------------------------------------------- comparisons

/** Short names of the fields, as they read after "whose". */
const NOUNS: Record<string, string> = {
  'ip.src': 'source address',
  'ip.dst': 'destination address',
  'ip.src.asnum': 'source AS number',
  'ip.dst.asnum': 'destination AS number',
  'ip.proto': 'protocol',
  'ip.len': 'length',
  'ip.hdr_len': 'IPv4 header length',
  'ip.ttl': 'TTL',
  'ip.opt.type': 'first IPv4 option byte',
  'tcp.srcport': 'TCP source port',
  'tcp.dstport': 'TCP destination port',
  'udp.srcport': 'UDP source port',
  'udp.dstport': 'UDP destination port',
  'tcp.flags': 'TCP flags byte',
  'icmp.type': 'ICMP type',
  'icmp.code': 'ICMP code',
  'cf.colo.name': 'data centre',
  'cf.colo.region': 'data centre region',
  ip: 'raw IP packet',
  tcp: 'raw TCP header',
  udp: 'raw UDP header',
  icmp: 'raw ICMP header',
};

/** Direction words for the address and country fields: `from Brazil`, `to 192.0.2.0/24`. */
const DIRECTIONS: Record<string, string> = {
  'ip.src': 'from',
  'ip.dst': 'to',
  'ip.src.country': 'from',
  'ip.dst.country': 'to',
  'ip.geoip.country': 'from or to',
};

const FLAG_NAMES: Record<string, string> = {
  'tcp.flags.ack': 'ACK',
  'tcp.flags.cwr': 'CWR',
  'tcp.flags.ecn': 'ECE',
  'tcp.flags.fin': 'FIN',
  'tcp.flags.push': 'PSH',
  'tcp.flags.reset': 'RST',
  'tcp.flags.syn': 'SYN',
  'tcp.flags.urg': 'URG',
};

function noun(comparison: Comparison, context: Context): string {
  const lhs = comparison.lhs;
  if (lhs.kind === 'call') {
    const args = lhs.args;
    const header = args[0]?.kind === 'field' ? NOUNS[args[0].name]?.replace(/^raw /, '') ?? `\`${args[0].name}\`` : 'header';
    const from = args[1]?.kind === 'integer' ? args[1].value : undefined;
    const to = args[2]?.kind === 'integer' ? args[2].value : undefined;
    if (lhs.name.text === 'bit_slice' && from !== undefined && to !== undefined && to > from) {
      return to - from === 1n ? `value of bit ${from} of the ${header}` : `value of bits ${from}–${to - 1n} of the ${header}`;
    }
    return `\`${lhs.name.text}(…)\``;
  }
  if (lhs.kind === 'index') return `\`${lhs.target.kind === 'field' ? lhs.target.name : `${lhs.target.name.text}(…)`}[…]\``;
  const name = NOUNS[lhs.name];
  if (!name) return `\`${lhs.name}\``;
  // "TCP packets whose destination port": the protocol is already said.
  const prefix = context.protocol ? `${protocolName(context.protocol)} ` : undefined;
  return prefix && name.startsWith(prefix) ? name.slice(prefix.length) : name;
}

function comparisonClause(comparison: Comparison, negated: boolean, context: Context): string {
  const lhs = comparison.lhs;
  const fieldName = lhs.kind === 'field' ? lhs.name : undefined;
  const operator = comparison.operator?.operator;
  const rhs = comparison.rhs;

  // A Boolean field alone.
  if (!operator || !rhs) {
    if (fieldName && FLAG_NAMES[fieldName]) return `with the ${FLAG_NAMES[fieldName]} flag ${negated ? 'not set' : 'set'}`;
    if (fieldName === 'sip') return negated ? 'that are not SIP messages' : 'that are SIP messages';
    return negated ? `for which \`${fieldName ?? '…'}\` is false` : `for which \`${fieldName ?? '…'}\` is true`;
  }

  const format = (literal: Literal) => formatValue(literal, fieldName);
  const values = valueWords(rhs, format);

  // Directions: `from Brazil`, `not to 192.0.2.0/24`, `from an address on $svc.vpn`.
  const direction = fieldName ? DIRECTIONS[fieldName] : undefined;
  if (direction && (operator === 'eq' || operator === 'ne' || operator === 'in')) {
    const negative = negated !== (operator === 'ne');
    return `${negative ? 'not ' : ''}${direction} ${values}`;
  }
  if (fieldName === 'ip.proto' && (operator === 'eq' || operator === 'ne' || operator === 'in')) {
    const negative = negated !== (operator === 'ne');
    return `${negative ? 'not ' : ''}over ${values}`;
  }
  if (fieldName === 'tcp.flags' && operator === 'bitwise_and' && rhs.kind === 'integer') {
    const bits = TCP_FLAG_BITS.filter((bit) => (BigInt(bit.value) & rhs.value) !== 0n).map((bit) => bit.name);
    if (bits.length > 0) {
      if (bits.length === 1) return `${negated ? 'without' : 'with'} the ${bits[0]} flag set`;
      return `with ${negated ? 'none' : 'any'} of the ${orList(bits)} flags set`;
    }
  }

  const subject = lhs.kind === 'call' ? `where the ${noun(comparison, context)}` : `whose ${noun(comparison, context)}`;
  const not = negated ? 'not ' : '';
  switch (operator) {
    case 'eq':
      return `${subject} is ${not}${values}`;
    case 'ne':
      return `${subject} is ${negated ? '' : 'not '}${values}`;
    case 'lt':
      return `${subject} is ${negated ? 'at least' : 'less than'} ${values}`;
    case 'le':
      return `${subject} is ${negated ? 'more than' : 'at most'} ${values}`;
    case 'gt':
      return `${subject} is ${negated ? 'at most' : 'more than'} ${values}`;
    case 'ge':
      return `${subject} is ${negated ? 'less than' : 'at least'} ${values}`;
    case 'in':
      return `${subject} is ${not}${values}`;
    case 'bitwise_and':
      return `${subject} has ${negated ? 'none' : 'any'} of the bits ${values} set`;
    case 'contains':
      return `${subject} ${negated ? 'does not contain' : 'contains'} ${values}`;
    case 'matches':
      return `${subject} ${negated ? 'does not match' : 'matches'} the regular expression ${values}`;
    case 'wildcard':
    case 'strict_wildcard': {
      const how = operator === 'strict_wildcard' ? ' (case-sensitive)' : ' (case-insensitive)';
      return `${subject} ${negated ? 'does not match' : 'matches'} the wildcard pattern ${values}${how}`;
    }
  }
  return subject;
}

/** The right-hand side in words: `22`, `one of 80 or 443`, `between 1024 and 65535`, `Brazil or Cuba`. */
function valueWords(value: Value, format: (literal: Literal) => string): string {
  switch (value.kind) {
    case 'list': {
      const managed = MANAGED_LISTS.get(value.name);
      const about = managed ? ` (${managed.doc.replace(/\.$/, '').replace(/^./, (c) => c.toLowerCase())})` : '';
      return `an address on the list \`$${value.name}\`${about}`;
    }
    case 'set': {
      const items = value.items.map(format);
      return orList(items);
    }
    default:
      return format(value);
  }
}

function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? 'nothing';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

function formatValue(literal: Literal, fieldName: string | undefined): string {
  const field = fieldName ? FIELDS.get(fieldName) : undefined;
  switch (literal.kind) {
    case 'integer':
      return field?.values === 'tcp-flags' && literal.value >= 0n && literal.value < 256n ? hexByte(Number(literal.value)) : String(literal.value);
    case 'integer-range':
      return `${literal.from}–${literal.to}`;
    case 'string':
      if (field?.values === 'country') return COUNTRIES.get(literal.value) ?? JSON.stringify(literal.value);
      if (field?.values === 'protocol') return protocolName(literal.value);
      return JSON.stringify(literal.value);
    case 'bytes':
      return literal.bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
    case 'ip':
      return formatAddress(literal.family, literal.value);
    case 'ip-range':
      return literal.prefixLength !== undefined
        ? `${formatAddress(literal.family, literal.first)}/${literal.prefixLength}`
        : `${formatAddress(literal.family, literal.first)}–${formatAddress(literal.family, literal.last)}`;
    case 'invalid':
      return literal.text;
  }
}
