'use strict';
/**
 * A floor for bench/anchors.ts, not a checker: the least a Node process does to parse a
 * ruleset's expressions. It reads the JSON ruleset in argv[2] with JSON.parse, and parses every
 * rule's `expression` with a small recursive-descent parser into nodes with spans, decoding
 * integers, addresses and strings and looking each field and function up by name in argv[3]
 * (`{"fields": {name: type}, "functions": {name: result type}}`), as the engine's parse does. It
 * checks nothing else: no argument types, no lints, no analyses, no positions in the file, no
 * report. It prints how many expressions it accepted, which bench/anchors.ts holds to the
 * engine's count, so that both did the same job.
 *
 * Written for cold speed: one pass over character codes, no regular expressions, no
 * exceptions, one node shape.
 */
const { readFileSync } = require('node:fs');

const names = JSON.parse(readFileSync(process.argv[3], 'utf8'));
const FIELDS = new Map(Object.entries(names.fields));
const FUNCTIONS = new Map(Object.entries(names.functions));
const OPERATORS = new Map(
  Object.entries({ '==': 1, eq: 1, '!=': 2, ne: 2, '<': 3, lt: 3, '>': 4, gt: 4, '<=': 5, le: 5, '>=': 6, ge: 6, contains: 7, matches: 8, '~': 8, in: 9, wildcard: 10, strict: 11 }),
);
const ORDERED = 3; // lt … ge: 3–6

class Node {
  constructor(kind, start, end, a, b, c) {
    this.kind = kind;
    this.start = start;
    this.end = end;
    this.a = a;
    this.b = b;
    this.c = c;
  }
}

let src = '';
let pos = 0;
let failed = false;
const FAILED = new Node('failed', 0, 0);
function fail() {
  failed = true;
  pos = src.length;
  return FAILED;
}

function skipSpace() {
  while (pos < src.length) {
    const c = src.charCodeAt(pos);
    if (c === 32 || c === 9 || c === 10 || c === 13) pos++;
    else break;
  }
}
const isNameCode = (c) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46;
function name() {
  const start = pos;
  while (pos < src.length && isNameCode(src.charCodeAt(pos))) pos++;
  return src.slice(start, pos);
}
function keywordAt(word) {
  return src.startsWith(word, pos) && !isNameCode(src.charCodeAt(pos + word.length));
}

function logical() {
  const start = pos;
  const first = unary();
  skipSpace();
  let operands;
  let operators;
  for (;;) {
    const c = src.charCodeAt(pos);
    let operator;
    if (c === 38 && src.charCodeAt(pos + 1) === 38) (operator = 'and'), (pos += 2);
    else if (c === 124 && src.charCodeAt(pos + 1) === 124) (operator = 'or'), (pos += 2);
    else if (c === 94 && src.charCodeAt(pos + 1) === 94) (operator = 'xor'), (pos += 2);
    else if (c === 97 && keywordAt('and')) (operator = 'and'), (pos += 3);
    else if (c === 111 && keywordAt('or')) (operator = 'or'), (pos += 2);
    else if (c === 120 && keywordAt('xor')) (operator = 'xor'), (pos += 3);
    else break;
    skipSpace();
    if (operands === undefined) (operands = [first]), (operators = []);
    operators.push(operator);
    operands.push(unary());
    skipSpace();
  }
  return operands === undefined ? first : new Node('logical', start, pos, operands, operators);
}

function unary() {
  skipSpace();
  const start = pos;
  const c = src.charCodeAt(pos);
  if (c === 33 || (c === 110 && keywordAt('not'))) {
    pos += c === 33 ? 1 : 3;
    const operand = unary();
    return new Node('not', start, pos, operand);
  }
  if (c === 40) {
    pos++;
    const inner = logical();
    skipSpace();
    if (src.charCodeAt(pos) !== 41) return fail();
    pos++;
    return new Node('group', start, pos, inner);
  }
  return comparison(false);
}

/** A comparison, or a lone operand: a Boolean one as a term, any one as a function's `argument`. */
function comparison(argument) {
  const start = pos;
  const left = operand();
  skipSpace();
  const c = src.charCodeAt(pos);
  let operator;
  if (c === 61 || c === 33 || c === 60 || c === 62 || c === 126) {
    let text = src[pos++];
    if (src.charCodeAt(pos) === 61) (text += '='), pos++;
    operator = OPERATORS.get(text);
  } else if (c >= 97 && c <= 122) {
    const save = pos;
    operator = OPERATORS.get(name());
    if (operator === undefined) pos = save;
  }
  if (operator === undefined) return argument || left.c === 'Boolean' ? left : fail();
  skipSpace();
  const right = operator === 9 ? (src.charCodeAt(pos) === 36 ? list() : set()) : literal();
  if (operator >= ORDERED && operator < ORDERED + 4 && left.c !== 'Integer' && left.c !== 'Bytes') return fail();
  if ((operator === 7 || operator === 8) && left.c !== 'Bytes') return fail();
  return new Node('comparison', start, pos, left, operator, right);
}

function operand() {
  const start = pos;
  const text = name();
  skipSpace();
  if (src.charCodeAt(pos) === 40) {
    pos++;
    const result = FUNCTIONS.get(text);
    if (result === undefined) return fail();
    const args = [];
    for (;;) {
      skipSpace();
      if (src.charCodeAt(pos) === 41) break;
      if (pos >= src.length) return fail();
      const c = src.charCodeAt(pos);
      args.push(c === 34 || (c >= 48 && c <= 57) ? literal() : comparison(true));
      skipSpace();
      if (src.charCodeAt(pos) === 44) pos++;
    }
    pos++;
    return new Node('call', start, pos, text, args, result === 'first-argument' ? (args[0] && args[0].c) : result);
  }
  let type = FIELDS.get(text);
  if (type === undefined) return fail();
  let node = new Node('field', start, pos, text, undefined, type);
  while (src.charCodeAt(pos) === 91) {
    pos++;
    let key;
    if (src.charCodeAt(pos) === 42) pos++;
    else key = literal();
    if (src.charCodeAt(pos) !== 93) return fail();
    pos++;
    if (type.startsWith('Map<') || type.startsWith('Array<')) type = type.slice(type.indexOf('<') + 1, -1);
    else return fail();
    node = new Node('index', start, pos, node, key, type);
    skipSpace();
  }
  return node;
}

function list() {
  const start = pos++;
  return new Node('list', start, pos, name());
}

function set() {
  const start = pos;
  if (src.charCodeAt(pos) !== 123) return fail();
  pos++;
  const items = [];
  for (;;) {
    skipSpace();
    if (src.charCodeAt(pos) === 125) break;
    if (pos >= src.length) return fail();
    items.push(literal());
  }
  pos++;
  return new Node('set', start, pos, items);
}

const isBareCode = (c) => (c >= 48 && c <= 58) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70) || c === 46 || c === 47 || c === 45;

function literal() {
  const start = pos;
  if (src.charCodeAt(pos) === 34) return string(start);
  while (pos < src.length && isBareCode(src.charCodeAt(pos))) pos++;
  if (pos === start) return fail();
  // An integer, a range, an IPv4 or IPv6 address or network: read in place.
  let colon = false;
  let dots = 0;
  let range = -1;
  let slash = -1;
  for (let i = start; i < pos; i++) {
    const c = src.charCodeAt(i);
    if (c === 58) colon = true;
    else if (c === 46) {
      dots++;
      if (src.charCodeAt(i + 1) === 46) range = i;
    } else if (c === 47) slash = i;
  }
  const end = slash < 0 ? pos : slash;
  if (range >= 0) return new Node('range', start, pos, integer(start, range), integer(range + 2, pos));
  if (colon) return new Node('ipv6', start, pos, ipv6(start, end), slash < 0 ? 128 : integer(slash + 1, pos));
  if (dots === 3) return new Node('ipv4', start, pos, ipv4(start, end), slash < 0 ? 32 : integer(slash + 1, pos));
  return new Node('integer', start, pos, integer(start, pos));
}

function integer(from, to) {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = src.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return fail();
    n = n * 10 + d;
  }
  return n;
}

function ipv4(from, to) {
  let n = 0;
  let part = 0;
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c === 46) (n = n * 256 + part), (part = 0);
    else part = part * 10 + c - 48;
  }
  return n * 256 + part;
}

function ipv6(from, to) {
  const groups = [];
  let group = 0;
  let digits = 0;
  for (let i = from; i < to; i++) {
    const c = src.charCodeAt(i);
    if (c === 58) {
      groups.push(digits ? group : -1);
      group = digits = 0;
    } else (group = group * 16 + (c <= 57 ? c - 48 : (c | 32) - 87)), digits++;
  }
  groups.push(digits ? group : -1);
  return groups;
}

function string(start) {
  pos++;
  let from = pos;
  let value = '';
  for (;;) {
    if (pos >= src.length) return fail();
    const c = src.charCodeAt(pos);
    if (c === 34) break;
    if (c === 92) {
      value += src.slice(from, pos) + src[pos + 1];
      pos += 2;
      from = pos;
    } else pos++;
  }
  value += src.slice(from, pos++);
  return new Node('string', start, pos, value);
}

function parse(text) {
  src = text;
  pos = 0;
  failed = false;
  const root = logical();
  skipSpace();
  return failed || pos !== src.length ? undefined : root;
}

const ruleset = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const trees = [];
for (const rule of ruleset.rules) {
  const tree = parse(rule.expression);
  if (tree) trees.push(tree);
}
console.log(JSON.stringify({ accepted: trees.length }));
