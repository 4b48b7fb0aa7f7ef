import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CompletionItemKind, InsertTextFormat, type CompletionItem, type TextEdit } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { completeAt, completion, COMPLETION_TRIGGER_CHARACTERS } from '../../server/src/features/completion';
import type { DocumentModel } from '../../server/src/features/model';
import { completionContext } from '../../server/src/language/completion-context';
import { KNOWN_PHASES } from '../../server/src/language/catalogue/phases';
import { property } from '../../server/src/documents/host/host';
import { applyEdits, assertInside, at, formatOf, HOSTS, modelOf, settings, takeCursor, textOf, type Host } from './harness';
import { OCTORULES_OTHER_FILES } from '../fixtures/octorules';

// ---------------------------------------------------------------- helpers

function itemsAt(host: Host, marked: string, options: { phase?: string; knownLists?: string[] } = {}) {
  const { model, position, offset } = at(host, marked, { phase: options.phase });
  const list = completion(model, position, settings({ knownLists: options.knownLists ?? [] }));
  assert.ok(list, 'a completion list');
  return { model, offset, items: list.items };
}

function itemsIn(marked: string, format: 'json' | 'yaml') {
  const { text, offset } = takeCursor(marked);
  const model = modelOf(text, format);
  const list = completion(model, model.positionAt(offset), settings());
  assert.ok(list, 'a completion list');
  return { model, offset, items: list.items };
}

function labels(items: readonly CompletionItem[]): string[] {
  return items.map((i) => i.label);
}

function find(items: readonly CompletionItem[], label: string, detail?: string): CompletionItem {
  const item = items.find((i) => i.label === label && (detail === undefined || i.detail === detail));
  assert.ok(item, `an item ${JSON.stringify(label)}${detail ? ` (${detail})` : ''} among ${JSON.stringify(labels(items).slice(0, 40))}`);
  return item;
}

function editOf(item: CompletionItem): TextEdit {
  assert.ok(item.textEdit && 'range' in item.textEdit, `${item.label} has an explicit TextEdit`);
  return item.textEdit;
}

/** The text a snippet inserts when every tab stop keeps its placeholder (first choice). */
function snippetText(snippet: string): string {
  let out = '';
  for (let i = 0; i < snippet.length; i++) {
    const c = snippet[i];
    if (c === '\\' && i + 1 < snippet.length) {
      out += snippet[++i];
    } else if (c === '$') {
      const stop = /^\$(\d+)|^\$\{(\d+)(?::((?:\\.|[^\\}])*)|\|((?:\\.|[^\\|])*)\|)?\}/.exec(snippet.slice(i));
      assert.ok(stop, `a tab stop at ${i} of ${JSON.stringify(snippet)}`);
      if (stop[3] !== undefined) out += snippetText(stop[3]);
      else if (stop[4] !== undefined) out += snippetText(stop[4].split(/(?<!\\),/)[0]);
      i += stop[0].length - 1;
    } else {
      out += c;
    }
  }
  return out;
}

/** The document after accepting the item (its snippet reduced to its placeholders). */
function accept(model: DocumentModel, item: CompletionItem): string {
  const edit = editOf(item);
  const newText = item.insertTextFormat === InsertTextFormat.Snippet ? snippetText(edit.newText) : edit.newText;
  return applyEdits(model.text, [{ range: edit.range, newText }, ...(item.additionalTextEdits ?? [])]);
}

/** The first expression of a document, as the service would receive it. */
function expressionOf(text: string, format: 'json' | 'yaml'): string | undefined {
  return modelOf(text, format).ruleset.expressions[0]?.text;
}

/** Accepts the item and returns the expression the document then holds (trailing spaces aside: YAML plain drops them). */
function acceptExpression(model: DocumentModel, host: Host, item: CompletionItem): string | undefined {
  const text = accept(model, item);
  const parsed = modelOf(text, formatOf(host));
  assert.deepEqual(parsed.ruleset.syntaxProblems, [], `the ${host} document still parses:\n${text}`);
  return expressionOf(text, formatOf(host))?.trimEnd();
}

/** Items a client would keep once the user typed what is in the edit range before the cursor (case-insensitive). */
function filtered(model: DocumentModel, offset: number, items: readonly CompletionItem[]): CompletionItem[] {
  return items.filter((item) => {
    const start = model.offsetAt(editOf(item).range.start);
    const typed = model.text.slice(start, offset).toLowerCase();
    return (item.filterText ?? item.label).toLowerCase().includes(typed);
  });
}

const OPERAND_START = ['not', '(', 'bit_slice', 'true', 'false'];

// ---------------------------------------------------------------- expressions

describe('completion at the start of an operand', () => {
  for (const host of HOSTS) {
    test(`${host}: fields, not, (, functions, true/false at the start`, () => {
      const { model, items } = itemsAt(host, '|');
      const names = labels(items);
      for (const label of ['ip.src', 'ip.src.country', 'tcp.dstport', 'tcp.flags.syn', 'sip', ...OPERAND_START]) assert.ok(names.includes(label), label);
      for (const label of ['==', 'and', 'or', '{ }', '"BR"']) assert.ok(!names.includes(label), `no ${label}`);
      const field = find(items, 'ip.src.country');
      assert.equal(field.detail, 'String');
      assert.match(JSON.stringify(field.documentation), /ISO 3166-1 alpha-2 country code of the source address\..*Example: `ip\.src\.country == \\"BR\\"`/);
      assert.equal(find(items, 'ip.src').detail, 'IP address');
      assert.equal(find(items, 'tcp.dstport').detail, 'Integer');
      assert.equal(find(items, 'sip').detail, 'Boolean');
      assert.equal(acceptExpression(model, host, field), 'ip.src.country');
      assert.equal(acceptExpression(model, host, find(items, 'not')), 'not');
      // `true` alone in a YAML plain scalar would be a Boolean: it is quoted there.
      assert.equal(acceptExpression(model, host, find(items, 'true')), 'true');
    });

    for (const before of ['sip and ', 'sip or ', 'sip xor ', 'not ', '(', 'sip && ', '!', 'sip and not (']) {
      // `!` would start a YAML tag, not a plain scalar.
      if (host === 'yaml-plain' && before === '!') continue;
      test(`${host}: after ${JSON.stringify(before)}`, () => {
        const { model, items } = itemsAt(host, `${before}|`);
        const names = labels(items);
        for (const label of ['ip.dst', 'tcp.flags', ...OPERAND_START]) assert.ok(names.includes(label), `${label} after ${before}`);
        assert.ok(!names.includes('=='));
        assert.ok(!names.includes('and'));
        for (const item of items) assert.equal(textOf(model.text, editOf(item).range), '', `${item.label} inserts at the cursor`);
        assert.equal(acceptExpression(model, host, find(items, 'ip.dst')), `${before}ip.dst`);
      });
    }
  }

  test('`(` puts the cursor between parentheses', () => {
    const { model, items } = itemsAt('json', 'sip and |');
    const item = find(items, '(');
    assert.equal(item.insertTextFormat, InsertTextFormat.Snippet);
    assert.equal(editOf(item).newText, '($0)');
    assert.equal(acceptExpression(model, 'json', item), 'sip and ()');
  });

  for (const host of HOSTS) {
    test(`${host}: bit_slice is a snippet with its arguments as placeholders`, () => {
      const { model, items } = itemsAt(host, 'sip and |');
      const item = find(items, 'bit_slice');
      assert.equal(item.insertTextFormat, InsertTextFormat.Snippet);
      // The catalogue's signature, written as every function's is.
      assert.equal(item.detail, 'bit_slice(protocol: String, offset_start: Integer, offset_end: Integer): Integer');
      assert.equal(editOf(item).newText, 'bit_slice(${1|ip,tcp,udp,icmp|}, ${2:0}, ${3:8})');
      assert.equal(acceptExpression(model, host, item), 'sip and bit_slice(ip, 0, 8)');
    });
  }

  test('a function call takes the raw headers as its first argument', () => {
    const { model, items } = itemsAt('json', 'bit_slice(|');
    assert.deepEqual(labels(items), ['ip', 'tcp', 'udp', 'icmp']);
    assert.equal(acceptExpression(model, 'json', find(items, 'udp')), 'bit_slice(udp');
    assert.deepEqual(labels(itemsAt('json', 'bit_slice(udp, |').items), []);
  });

  for (const host of HOSTS) {
    test(`${host}: a partial field name is replaced whole`, () => {
      const { model, items } = itemsAt(host, 'tcp.dst|');
      for (const item of items) assert.equal(textOf(model.text, editOf(item).range), 'tcp.dst');
      const names = filtered(model, model.offsetAt(editOf(items[0]).range.end), items).map((i) => i.label);
      assert.deepEqual(names, ['tcp.dstport']);
      assert.equal(acceptExpression(model, host, find(items, 'tcp.dstport')), 'tcp.dstport');

      // In the middle of a name, the whole name is the token.
      const middle = itemsAt(host, 'sip and tcp.dst|port == 22');
      assert.equal(textOf(middle.model.text, editOf(middle.items[0]).range), 'tcp.dstport');
      assert.equal(acceptExpression(middle.model, host, find(middle.items, 'udp.dstport')), 'sip and udp.dstport == 22');

      const dotted = itemsAt(host, 'ip.|');
      assert.equal(textOf(dotted.model.text, editOf(dotted.items[0]).range), 'ip.');
    });
  }

  test('a token escaped in the JSON string is replaced whole', () => {
    const { items, model } = itemsIn('{"name": "t", "kind": "root", "phase": "magic_transit", "rules": [{"action": "block", "expression": "sip and \\u0074cp.dst|"}]}', 'json');
    const item = find(items, 'tcp.dstport');
    assert.equal(textOf(model.text, editOf(item).range), '\\u0074cp.dst');
    assert.equal(expressionOf(accept(model, item), 'json'), 'sip and tcp.dstport');
  });
});

describe('comparison operators after a field', () => {
  const operators = (host: Host, marked: string, phase?: string) => labels(itemsAt(host, marked, { phase }).items);
  for (const host of HOSTS) {
    test(`${host}: only the operators of the field's type, in both spellings`, () => {
      assert.deepEqual(operators(host, 'ip.src |'), ['==', 'eq', '!=', 'ne', 'in']);
      assert.deepEqual(operators(host, 'tcp.dstport |'), ['==', 'eq', '!=', 'ne', '<', 'lt', '<=', 'le', '>', 'gt', '>=', 'ge', 'in', '&', 'bitwise_and']);
      assert.deepEqual(operators(host, 'ip.src.country |'), ['==', 'eq', '!=', 'ne', '<', 'lt', '<=', 'le', '>', 'gt', '>=', 'ge', 'contains', '~', 'matches', 'wildcard', 'strict wildcard', 'in']);
      assert.deepEqual(operators(host, 'bit_slice(udp, 64, 72) |'), operators(host, 'tcp.dstport |'));
      // A Boolean field is a complete test: only what may follow one.
      assert.deepEqual(operators(host, 'tcp.flags.syn |'), ['and', 'or', 'xor']);
      assert.deepEqual(operators(host, 'not (sip |'), ['and', 'or', 'xor', ')']);
    });

    test(`${host}: accepting an operator`, () => {
      const { model, items } = itemsAt(host, 'ip.src |');
      assert.equal(find(items, '==').detail, 'equals');
      assert.equal(find(items, 'in').detail, 'is in a {…} set or a $list');
      assert.equal(acceptExpression(model, host, find(items, 'in')), 'ip.src in');
      assert.equal(acceptExpression(model, host, find(items, 'ne')), 'ip.src ne');
      // The operator typed so far is the token.
      const partial = itemsAt(host, 'ip.src.country con|');
      assert.equal(textOf(partial.model.text, editOf(partial.items[0]).range), 'con');
      assert.equal(acceptExpression(partial.model, host, find(partial.items, 'contains')), 'ip.src.country contains');
    });
  }

  for (const host of HOSTS) {
    test(`${host}: \`strict wildcard\` word by word`, () => {
      const after = itemsAt(host, 'ip.proto strict |');
      assert.deepEqual(labels(after.items), ['wildcard']);
      const item = find(after.items, 'wildcard');
      assert.equal(item.detail, 'matches this wildcard pattern (*), case-sensitive');
      assert.equal(textOf(after.model.text, editOf(item).range), '');
      assert.equal(acceptExpression(after.model, host, item), 'ip.proto strict wildcard');

      const typed = itemsAt(host, 'ip.proto strict wild|');
      assert.deepEqual(labels(typed.items), ['wildcard']);
      assert.equal(textOf(typed.model.text, editOf(typed.items[0]).range), 'wild');
      assert.equal(acceptExpression(typed.model, host, typed.items[0]), 'ip.proto strict wildcard');

      const middle = itemsAt(host, 'ip.proto strict wild| "*tcp*" and sip');
      assert.equal(acceptExpression(middle.model, host, find(middle.items, 'wildcard')), 'ip.proto strict wildcard "*tcp*" and sip');
    });
  }

  test('`strict` then something else than `wildcard`, or on a type without it: nothing', () => {
    assert.deepEqual(operators('json', 'ip.proto strict con|'), []);
    assert.deepEqual(operators('json', 'tcp.dstport strict |'), []);
    assert.deepEqual(operators('json', 'sip and strict |'), []);
  });

  test('an unknown field in a phase without a complete field table takes any operator or a connective', () => {
    const names = operators('yaml-plain', 'my.future.field |', 'my_future_phase');
    for (const label of ['==', 'contains', '&', 'in', 'strict wildcard', 'and', 'or', 'xor']) assert.ok(names.includes(label), label);
  });

  test('an HTTP field takes the operators of its type from the phase\'s catalogue', () => {
    const names = operators('yaml-plain', 'http.host |', 'http_request_firewall_custom');
    for (const label of ['==', 'contains', '~', 'matches', 'wildcard', 'strict wildcard', 'in']) assert.ok(names.includes(label), label);
    for (const label of ['&', 'bitwise_and', 'and', 'or']) assert.ok(!names.includes(label), `no ${label}`);
  });
});

describe('values', () => {
  for (const host of HOSTS) {
    test(`${host}: after \`in\`: a set, the managed lists and the account's lists, for IP fields`, () => {
      const { model, items } = itemsAt(host, 'ip.src in |', { knownLists: ['office_ips'] });
      assert.deepEqual(labels(items), ['{ }', '$svc.anonymizer', '$svc.botnetcc', '$svc.malware', '$svc.open_proxies', '$svc.vpn', '$office_ips']);
      assert.equal(find(items, '$svc.anonymizer').labelDetails?.description, 'Anonymizer proxies: open SOCKS proxies, VPNs and TOR nodes.');
      assert.equal(find(items, '$office_ips').detail, 'account list');
      const set = find(items, '{ }');
      assert.equal(set.insertTextFormat, InsertTextFormat.Snippet);
      assert.equal(snippetText(editOf(set).newText), '{}');
      assert.match(editOf(set).newText, /^\{\$0\\?\}$/);
      assert.equal(acceptExpression(model, host, set), 'ip.src in {}');
      assert.equal(acceptExpression(model, host, find(items, '$svc.vpn')), 'ip.src in $svc.vpn');
      assert.equal(acceptExpression(model, host, find(items, '$office_ips')), 'ip.src in $office_ips');

      const partial = itemsAt(host, 'ip.dst in $svc.bo|');
      assert.equal(textOf(partial.model.text, editOf(find(partial.items, '$svc.botnetcc')).range), '$svc.bo');
      assert.equal(acceptExpression(partial.model, host, find(partial.items, '$svc.botnetcc')), 'ip.dst in $svc.botnetcc');

      // Lists hold addresses: not offered for other fields.
      assert.deepEqual(labels(itemsAt(host, 'tcp.dstport in |', { knownLists: ['office_ips'] }).items), ['{ }']);
    });

    test(`${host}: country codes with their names; typing Braz finds "BR"`, () => {
      for (const field of ['ip.src.country', 'ip.dst.country', 'ip.geoip.country']) {
        const { items } = itemsAt(host, `${field} == |`);
        const br = find(items, '"BR"');
        assert.equal(br.detail, 'Brazil');
        assert.equal(br.labelDetails?.description, 'Brazil');
        assert.match(br.filterText ?? '', /BR.*Brazil/);
        assert.ok(labels(items).includes('"GB"'));
        assert.ok(!labels(items).includes('"UK"'), 'UK is not an assigned code');
        assert.equal(items.length, 249);
      }
      const { model, offset, items } = itemsAt(host, 'ip.src.country == Braz|');
      assert.equal(textOf(model.text, editOf(items[0]).range), 'Braz');
      assert.deepEqual(labels(filtered(model, offset, items)), ['"BR"']);
      assert.equal(acceptExpression(model, host, find(items, '"BR"')), 'ip.src.country == "BR"');
    });

    test(`${host}: a partial string is replaced whole, closing quote included`, () => {
      const { model, offset, items } = itemsAt(host, 'ip.src.country == "b|"');
      const range = editOf(items[0]).range;
      assert.equal(textOf(model.text, range), host === 'json' || host === 'yaml-double' ? '\\"b\\"' : '"b"');
      assert.ok(labels(filtered(model, offset, items)).includes('"BR"'));
      assert.equal(acceptExpression(model, host, find(items, '"BR"')), 'ip.src.country == "BR"');

      const named = itemsAt(host, 'ip.src.country == "Braz|');
      assert.deepEqual(labels(filtered(named.model, named.offset, named.items)), ['"BR"']);
      assert.equal(acceptExpression(named.model, host, find(named.items, '"BR"')), 'ip.src.country == "BR"');
    });

    test(`${host}: inside a set`, () => {
      const { model, items } = itemsAt(host, 'ip.geoip.country in {"DE" |}');
      assert.equal(acceptExpression(model, host, find(items, '"FR"')), 'ip.geoip.country in {"DE" "FR"}');
      const ports = itemsAt(host, 'tcp.dstport in {22 |}');
      assert.equal(find(ports.items, '443').detail, 'https');
      assert.equal(acceptExpression(ports.model, host, find(ports.items, '443')), 'tcp.dstport in {22 443}');
    });

    test(`${host}: protocols, ports, ICMP types and TCP flag bits`, () => {
      const proto = itemsAt(host, 'ip.proto == |');
      assert.deepEqual(labels(proto.items).slice(0, 3), ['"tcp"', '"udp"', '"icmp"']);
      assert.equal(find(proto.items, '"gre"').labelDetails?.description, 'Generic Routing Encapsulation');
      assert.equal(acceptExpression(proto.model, host, find(proto.items, '"udp"')), 'ip.proto == "udp"');

      const tcp = itemsAt(host, 'tcp.dstport == |');
      assert.equal(find(tcp.items, '22').detail, 'ssh');
      assert.ok(!labels(tcp.items).includes('123'), 'ntp is UDP');
      const udp = itemsAt(host, 'udp.dstport == |');
      assert.equal(find(udp.items, '53').detail, 'domain');
      assert.equal(find(udp.items, '123').detail, 'ntp');
      assert.ok(!labels(udp.items).includes('22'), 'ssh is TCP');
      const typed = itemsAt(host, 'udp.srcport == ntp|');
      assert.equal(filtered(typed.model, typed.offset, typed.items)[0].label, '123');
      assert.equal(acceptExpression(typed.model, host, find(typed.items, '123')), 'udp.srcport == 123');

      const icmp = itemsAt(host, 'icmp.type == |');
      assert.equal(find(icmp.items, '8').detail, 'Echo');
      assert.equal(find(icmp.items, '0').detail, 'Echo Reply');

      for (const operator of ['&', '==', 'bitwise_and']) {
        const flags = itemsAt(host, `tcp.flags ${operator} |`);
        assert.deepEqual(labels(flags.items), ['0x01', '0x02', '0x04', '0x08', '0x10', '0x20', '0x40', '0x80']);
        assert.deepEqual(flags.items.map((i) => i.detail), ['FIN', 'SYN', 'RST', 'PSH', 'ACK', 'URG', 'ECE', 'CWR']);
        assert.equal(acceptExpression(flags.model, host, find(flags.items, '0x02')), `tcp.flags ${operator} 0x02`);
      }
    });
  }

  test('"BR" goes into a JSON string as \\"BR\\"', () => {
    const { model, items } = itemsAt('json', 'ip.src.country == |');
    const item = find(items, '"BR"');
    assert.equal(editOf(item).newText, '\\"BR\\"');
    assert.equal(item.filterText, '\\"BR\\" \\"Brazil\\"');
    assert.match(accept(model, item), /"expression": "ip\.src\.country == \\"BR\\""/);
    // A YAML single-quoted string takes it as it is.
    assert.equal(editOf(find(itemsAt('yaml-single', 'ip.src.country == |').items, '"BR"')).newText, '"BR"');
  });

  test('escapes before the cursor are mapped: the range covers the token in the document', () => {
    const { model, items } = itemsAt('json', 'ip.src.country == "BR" or ip.dst.country == "F|"');
    const item = find(items, '"FR"');
    assert.equal(textOf(model.text, editOf(item).range), '\\"F\\"');
    assert.equal(acceptExpression(model, 'json', item), 'ip.src.country == "BR" or ip.dst.country == "FR"');
  });

  test('no catalogue values where the operator takes a pattern, or the field has none', () => {
    assert.deepEqual(labels(itemsAt('json', 'ip.src.country contains |').items), []);
    assert.deepEqual(labels(itemsAt('json', 'ip.src == |').items), []);
    assert.deepEqual(labels(itemsAt('json', 'ip.src.country in |').items), ['{ }']);
  });

  test('a value glued to its operator gets a space', () => {
    const { model, items } = itemsAt('json', 'ip.src.country ==|');
    assert.equal(editOf(find(items, '"BR"')).newText, ' \\"BR\\"');
    assert.equal(acceptExpression(model, 'json', find(items, '"BR"')), 'ip.src.country == "BR"');
  });
});

describe('a string still open at the cursor: only what was typed is replaced', () => {
  /**
   * Accepts `label` and checks the edit replaced only text before the cursor: the document
   * keeps everything from the cursor on, still parses, and holds `expected`.
   */
  function acceptKeepingTheRest(model: DocumentModel, offset: number, items: readonly CompletionItem[], label: string, typed: string, expected: string) {
    const item = find(items, label);
    const range = editOf(item).range;
    assert.equal(textOf(model.text, range), typed, 'the range is what was typed before the cursor');
    assert.equal(model.offsetAt(range.end), offset, 'the range ends at the cursor');
    const text = accept(model, item);
    assert.ok(text.endsWith(model.text.slice(offset)), `everything after the cursor is kept:\n${text}`);
    const after = modelOf(text, model.format);
    assert.deepEqual(after.ruleset.syntaxProblems, [], `the document still parses:\n${text}`);
    assert.equal(after.ruleset.expressions[0]?.text, expected);
    return after;
  }

  const yamlRule = (expression: string) => `name: t\nkind: root\nphase: magic_transit\nrules:\n  - action: block\n    expression: ${expression}\n    description: block Brazil\n`;
  // `|` marks the cursor in the harness, and a YAML block scalar starts with one: `¦` here.
  const yamlAt = (marked: string) => {
    const offset = marked.indexOf('¦');
    const model = modelOf(marked.replace('¦', ''), 'yaml');
    const list = completeAt(model, offset, settings());
    assert.ok(list, 'a completion list');
    return { model, offset, items: list.items };
  };

  for (const indicator of ['|', '|-', '|+', '>', '>-']) {
    test(`YAML ${indicator} block scalar followed by the next key`, () => {
      const { model, offset, items } = yamlAt(yamlRule(`${indicator}\n      ip.src.country == "Bra¦`));
      const after = acceptKeepingTheRest(model, offset, items, '"BR"', '"Bra', `ip.src.country == "BR"${indicator.endsWith('-') ? '' : '\n'}`);
      const description = property(after.ruleset.rules[0], 'description')?.value;
      assert.deepEqual([description?.kind, description?.kind === 'string' ? description.value : undefined], ['string', 'block Brazil']);
    });

    test(`YAML ${indicator} block scalar with a content line after the cursor`, () => {
      const { model, offset, items } = yamlAt(yamlRule(`${indicator}\n      ip.src.country == "Bra¦\n      and sip`));
      const joined = indicator.startsWith('>') ? 'ip.src.country == "BR" and sip' : 'ip.src.country == "BR"\nand sip';
      acceptKeepingTheRest(model, offset, items, '"BR"', '"Bra', `${joined}${indicator.endsWith('-') ? '' : '\n'}`);
    });
  }

  for (const host of HOSTS) {
    const quote = host === 'json' || host === 'yaml-double' ? '\\"' : '"';
    test(`${host}: an unterminated string before more of the expression`, () => {
      const { model, offset, items } = itemsAt(host, 'ip.src.country == "B| and sip');
      acceptKeepingTheRest(model, offset, items, '"BR"', `${quote}B`, 'ip.src.country == "BR" and sip');
    });

    test(`${host}: a string typed before another in a set`, () => {
      // The quote after the cursor opens `"US"`; it does not close what is typed.
      const spaced = itemsAt(host, 'ip.src.country in {"B| "US"}');
      acceptKeepingTheRest(spaced.model, spaced.offset, spaced.items, '"BR"', `${quote}B`, 'ip.src.country in {"BR" "US"}');
      const glued = itemsAt(host, 'ip.src.country in {"B|"US"}');
      acceptKeepingTheRest(glued.model, glued.offset, glued.items, '"BR"', `${quote}B`, 'ip.src.country in {"BR""US"}');
    });
  }

  test('a closed string is still replaced whole, also before a connective glued to it', () => {
    const { model, items } = itemsAt('json', 'ip.src.country == "b|r"and sip');
    const item = find(items, '"BR"');
    assert.equal(textOf(model.text, editOf(item).range), '\\"br\\"');
    assert.equal(acceptExpression(model, 'json', item), 'ip.src.country == "BR"and sip');
  });
});

test('a plain scalar in a YAML flow mapping is rewritten double-quoted rather than broken by `{`', () => {
  const { model, offset, items } = itemsIn('name: t\nkind: root\nphase: magic_transit\nrules:\n  - {action: block, expression: ip.src in |}\n', 'yaml');
  const set = find(items, '{ }');
  const range = editOf(set).range;
  assert.equal(textOf(model.text, range), 'ip.src in ');
  assert.equal(model.offsetAt(range.end), offset);
  const text = accept(model, set);
  assert.equal(text, 'name: t\nkind: root\nphase: magic_transit\nrules:\n  - {action: block, expression: "ip.src in {}"}\n');
  assert.deepEqual(modelOf(text, 'yaml').ruleset.syntaxProblems, []);
  // A list needs no rewrite.
  assert.equal(expressionOf(accept(model, find(items, '$svc.vpn')), 'yaml'), 'ip.src in $svc.vpn');
});

describe('after a complete comparison', () => {
  for (const host of HOSTS) {
    test(`${host}: and, or, xor, and ) when a group is open`, () => {
      const { model, items } = itemsAt(host, 'ip.src.country == "BR" |');
      assert.deepEqual(labels(items), ['and', 'or', 'xor']);
      assert.equal(acceptExpression(model, host, find(items, 'and')), 'ip.src.country == "BR" and');
      assert.deepEqual(labels(itemsAt(host, 'tcp.dstport in {22 443} |').items), ['and', 'or', 'xor']);
      assert.deepEqual(labels(itemsAt(host, 'ip.src in $svc.vpn |').items), ['and', 'or', 'xor']);
      const group = itemsAt(host, 'sip and (ip.proto == "tcp" or ip.proto == "udp" |');
      assert.deepEqual(labels(group.items), ['and', 'or', 'xor', ')']);
      assert.equal(acceptExpression(group.model, host, find(group.items, ')')), 'sip and (ip.proto == "tcp" or ip.proto == "udp" )');
      const partial = itemsAt(host, 'sip o|');
      assert.equal(textOf(partial.model.text, editOf(partial.items[0]).range), 'o');
      assert.equal(acceptExpression(partial.model, host, find(partial.items, 'or')), 'sip or');
    });
  }

  test('a connective glued to a closing brace gets a space before it', () => {
    const { model, items } = itemsAt('json', 'tcp.dstport in {22}|');
    assert.equal(editOf(find(items, 'and')).newText, ' and ');
    assert.equal(acceptExpression(model, 'json', find(items, 'and')), 'tcp.dstport in {22} and');
  });

  test('a connective before a space keeps a single space', () => {
    const { model, items } = itemsAt('json', 'sip an| tcp.flags.syn');
    assert.equal(acceptExpression(model, 'json', find(items, 'and')), 'sip and tcp.flags.syn');
  });

  test('a syntax error earlier does not stop completion of the current clause', () => {
    const { items } = itemsAt('json', 'ip.src == 1 2 and |');
    assert.ok(labels(items).includes('ip.src'));
    assert.deepEqual(labels(itemsAt('json', 'ip.src == 1 2 and tcp.dstport |').items).slice(0, 2), ['==', 'eq']);
  });
});

describe('phases', () => {
  test('in an unknown phase, fields and their operators are still offered', () => {
    for (const host of HOSTS) {
      const { items } = itemsAt(host, 'sip and |', { phase: 'my_future_phase' });
      assert.ok(labels(items).includes('ip.src.country'));
      assert.deepEqual(labels(itemsAt(host, 'ip.src |', { phase: 'my_future_phase' }).items), ['==', 'eq', '!=', 'ne', 'in']);
    }
  });

  test('phase values replace an unknown phase', () => {
    for (const [marked, format, typed] of [
      ['name: t\nkind: root\nphase: my_fut|ure\nrules: []\n', 'yaml', 'my_future'],
      ['{"name": "t", "kind": "root", "phase": "my_fut|ure", "rules": []}', 'json', '"my_future"'],
    ] as const) {
      const { model, items } = itemsIn(marked, format);
      assert.deepEqual(labels(items), KNOWN_PHASES);
      const item = find(items, 'magic_transit');
      assert.equal(textOf(model.text, editOf(item).range), typed);
      const text = accept(model, item);
      assert.equal(modelOf(text, format).ruleset.phase, 'magic_transit');
    }
  });
});

describe('the cursor context (language/completion-context.ts)', () => {
  const at = (marked: string) => {
    const { text, offset } = takeCursor(marked);
    return completionContext(text, offset);
  };

  test('what the grammar expects decides the kind of context', () => {
    assert.ok(at('|').operand?.fields);
    assert.equal(at('ip.src |').operator?.lhs?.type, 'Ip');
    assert.equal(at('bit_slice(udp, 1, 2) |').operator?.lhs?.kind, 'call');
    const set = at('ip.src.country in {"DE" |}').value;
    assert.deepEqual([set?.lhs?.name, set?.operator, set?.inSet, set?.list], ['ip.src.country', 'in', true, false]);
    const list = at('ip.dst in |').value;
    assert.deepEqual([list?.operator, list?.set, list?.list, list?.inSet], ['in', true, true, false]);
    assert.equal(at('ip.src.country strict wildcard |').value?.operator, 'strict_wildcard');
    assert.deepEqual(at('bit_slice(udp, |').argument, { functionName: 'bit_slice', index: 1 });
    assert.deepEqual(at('sip |').connective, { closeGroup: false });
    assert.deepEqual(at('not (sip or (bit_slice(udp, 1, 2) == 3 |').connective, { closeGroup: true });
  });

  test('the token under the cursor', () => {
    assert.deepEqual(at('ip.src.country == "b|r" and sip').replace, { start: 18, end: 22 });
    assert.deepEqual(at('ip.src in $svc.v|').replace, { start: 10, end: 16 });
    assert.deepEqual(at('ip.src ==| 1').replace, { start: 9, end: 9 });
    assert.equal(at('tcp.dst|port').partial, 'tcp.dstport');
    // A string still open: what was typed before the cursor, not the rest of the text.
    assert.deepEqual(at('ip.src.country == "B| and sip').replace, { start: 18, end: 20 });
    assert.equal(at('ip.src.country == "B| and sip').partial, '"B');
    assert.deepEqual(at('ip.src.country == r#"B| and sip').replace, { start: 18, end: 22 });
    assert.deepEqual(at('ip.src.country == "B|').replace, { start: 18, end: 20 });
    assert.deepEqual(at('ip.src.country == |"B and sip').replace, { start: 18, end: 18 });
    // Its quote glued to a word opens the next string.
    assert.deepEqual(at('ip.src.country in {"B| "US"}').replace, { start: 19, end: 21 });
    assert.deepEqual(at('ip.src.country in {r"B| "US"}').replace, { start: 19, end: 22 });
    // Closed strings are replaced whole.
    assert.deepEqual(at('ip.src.country == "b|r"and sip').replace, { start: 18, end: 22 });
    assert.deepEqual(at('ip.src.country == "b|r\\\\"').replace, { start: 18, end: 24 });
    assert.deepEqual(at('ip.src.country == "b|r\\"').replace, { start: 18, end: 20 }, 'an escaped quote closes nothing');
  });

  test('`strict wildcard` word by word', () => {
    for (const marked of ['ip.proto strict |', 'ip.proto strict wild|', 'ip.proto  strict   wildcard|']) {
      const context = at(marked);
      assert.equal(context.operator?.lhs?.name, 'ip.proto', marked);
      assert.equal(context.operator?.strictWildcard, true, marked);
      assert.equal(context.connective, undefined, marked);
    }
    assert.deepEqual(at('ip.proto strict wild|').replace, { start: 16, end: 20 });
    assert.equal(at('ip.proto strict\twild|').operator, undefined, 'the grammar takes spaces only between the words');
    assert.equal(at('ip.proto strict con|').operator, undefined);
  });

  test('only the clause at the cursor is matched: a long expression, nested or not', () => {
    const clauses = Array.from({ length: 60 }, (_, i) => `(ip.src.country in {"BR" "DE"} and tcp.dstport == ${i})`).join(' or ');
    assert.equal(at(`${clauses} and ip.src |`).operator?.lhs?.name, 'ip.src');
    assert.deepEqual(at(`(${clauses} or sip |`).connective, { closeGroup: true });
    // A syntax error in an earlier clause does not matter.
    assert.ok(at(`ip.src == 1 2 or ${clauses} and |`).operand?.fields);
  });
});

// ---------------------------------------------------------------- ruleset structure

const JSON_RULESET = (rest: string) => `{\n  "name": "t",\n  "kind": "root",\n  "phase": "magic_transit",\n  "rules": [\n    {\n      "action": "skip",\n      "expression": "sip"${rest}\n    }\n  ]\n}\n`;

describe('ruleset structure, JSON', () => {
  test('ruleset keys not already present, with a comma before the next one', () => {
    const { model, items } = itemsIn('{\n  "name": "t",\n  |\n  "rules": []\n}\n', 'json');
    assert.deepEqual(labels(items), ['kind', 'phase', 'description', 'id', 'version', 'last_updated', 'source']);
    for (const key of ['id', 'version', 'last_updated', 'source']) assert.match(JSON.stringify(find(items, key).documentation), /set by the service/, key);
    const text = accept(model, find(items, 'kind'));
    assert.equal(text, '{\n  "name": "t",\n  "kind": "root",\n  "rules": []\n}\n');
    assert.deepEqual(modelOf(text, 'json').ruleset.syntaxProblems, []);
  });

  test('a partial quoted key is replaced whole, and a comma is added after the previous value', () => {
    const { model, items } = itemsIn('{\n  "name": "t",\n  "kind": "root"\n  "ph|"\n}\n', 'json');
    const item = find(items, 'phase');
    assert.equal(textOf(model.text, editOf(item).range), '"ph"');
    const text = accept(model, item);
    assert.equal(text, '{\n  "name": "t",\n  "kind": "root",\n  "phase": "magic_transit"\n}\n');
    assert.deepEqual(modelOf(text, 'json').ruleset.syntaxProblems, []);
  });

  test('what is typed inside quotes, the quote included, still matches: VS Code filters by it', () => {
    for (const [marked, expected] of [
      [JSON_RULESET(',\n      "|"'), ['description', 'enabled', 'action_parameters']],
      [JSON_RULESET(',\n      "en|"'), ['enabled']],
      ['{"name": "t", "kind": "root", "phase": "magic_transit", "rules": [{"action": "bl|", "expression": "true"}]}', ['block']],
      ['{"name": "t", "kind": "ro|", "phase": "magic_transit", "rules": []}', ['root']],
      ['name: t\nkind: \'cu|\'\n', ['custom']],
    ] as const) {
      const { model, offset, items } = itemsIn(marked, marked.startsWith('name:') ? 'yaml' : 'json');
      const shown = labels(filtered(model, offset, items));
      for (const label of expected) assert.ok(shown.includes(label), `${marked}: ${label} in ${JSON.stringify(shown)} of ${JSON.stringify(labels(items))}`);
    }
  });

  test('rule keys not already present; action_parameters for skip', () => {
    const { model, items } = itemsIn(JSON_RULESET(',\n      |'), 'json');
    const names = labels(items);
    assert.ok(!names.includes('action') && !names.includes('expression'));
    for (const key of ['description', 'enabled', 'action_parameters', 'logging']) assert.ok(names.includes(key), key);
    const parameters = find(items, 'action_parameters');
    assert.equal(parameters.detail, 'for `skip`');
    const text = accept(model, parameters);
    assert.match(text, /"expression": "sip",\n {6}"action_parameters": \{"ruleset": "current"\}\n/);
    const after = modelOf(text, 'json');
    assert.deepEqual(after.ruleset.syntaxProblems, []);
    assert.ok(!after.problems(settings()).some((p) => p.code === 'missing-action-parameters'));
  });

  test('action values, and action_parameters for execute as a value', () => {
    const actions = itemsIn('{"name": "t", "kind": "root", "phase": "magic_transit", "rules": [{"action": "b|", "expression": "true"}]}', 'json');
    assert.deepEqual(labels(actions.items), ['block', 'skip', 'execute']);
    assert.match(accept(actions.model, find(actions.items, 'execute')), /"action": "execute", "expression"/);

    const { model, items } = itemsIn('{"name": "t", "kind": "root", "phase": "magic_transit", "rules": [{"action": "execute", "expression": "true", "action_parameters": |}]}', 'json');
    assert.deepEqual(labels(items), ['{"id": "ruleset id"}']);
    assert.equal(editOf(items[0]).newText, '{"id": "${1:ruleset id}"\\}');
    const text = accept(model, items[0]);
    assert.ok(!modelOf(text, 'json').problems(settings()).some((p) => p.code === 'missing-action-parameters'));
  });

  test('kind values', () => {
    const { items } = itemsIn('{"name": "t", "kind": |, "phase": "magic_transit", "rules": []}', 'json');
    assert.deepEqual(labels(items), ['root', 'custom', 'managed', 'zone']);
    assert.equal(editOf(items[0]).newText, '"root"');
  });

  test('a whole rule between the rules, with the comma it needs', () => {
    const { model, items } = itemsIn(JSON_RULESET('\n    }\n    |\n    {"action": "block", "expression": "true"'), 'json');
    assert.deepEqual(labels(items), ['rule']);
    const text = accept(model, items[0]);
    const after = modelOf(text, 'json');
    assert.deepEqual(after.ruleset.syntaxProblems, []);
    assert.equal(after.ruleset.rules.length, 3);
    assert.deepEqual(after.ruleset.expressions.map((e) => e.text), ['sip', 'ip.src in $svc.anonymizer', 'true']);
    assert.match(text, /\n {4}\{\n {6}"action": "block",\n {6}"expression": "ip\.src in \$svc\.anonymizer",\n {6}"description": "What the rule is for",\n {6}"enabled": true\n {4}\},\n/);
    assert.match(editOf(items[0]).newText, /"expression": "\$\{2:ip\.src in \\\$svc\.anonymizer\}"/);
  });
});

const RULE_YAML = 'action: block\n    expression: ip.src in $svc.anonymizer\n    description: What the rule is for\n    enabled: true';
const YAML_RULESET = 'name: t\nkind: root\nphase: magic_transit\nrules:\n  - action: skip\n    expression: sip\n';

describe('ruleset structure, YAML', () => {
  test('ruleset keys not already present', () => {
    const { model, items } = itemsIn('name: t\n|\n', 'yaml');
    assert.deepEqual(labels(items), ['kind', 'phase', 'description', 'rules', 'id', 'version', 'last_updated', 'source']);
    const text = accept(model, find(items, 'rules'));
    assert.equal(text, `name: t\nrules:\n  - ${RULE_YAML}\n`);
    assert.deepEqual(modelOf(text, 'yaml').ruleset.syntaxProblems, []);
    assert.deepEqual(modelOf(text, 'yaml').ruleset.expressions.map((e) => e.text), ['ip.src in $svc.anonymizer']);
  });

  test('rule keys not already present, action_parameters for skip as a block', () => {
    const { model, items } = itemsIn(`${YAML_RULESET}    |\n`, 'yaml');
    const names = labels(items);
    assert.ok(!names.includes('action') && !names.includes('expression') && !names.includes('name'));
    const text = accept(model, find(items, 'action_parameters'));
    assert.equal(text, `${YAML_RULESET}    action_parameters:\n      ruleset: current\n`);
    const after = modelOf(text, 'yaml');
    assert.deepEqual(after.ruleset.syntaxProblems, []);
    assert.ok(!after.problems(settings()).some((p) => p.code === 'missing-action-parameters' || p.code === 'unknown-key'));
  });

  test('a partial key is replaced; a key before `:` is replaced alone', () => {
    const typed = itemsIn(`${YAML_RULESET}    desc|\n`, 'yaml');
    assert.equal(textOf(typed.model.text, editOf(find(typed.items, 'description')).range), 'desc');
    const renamed = itemsIn(`${YAML_RULESET}    desc|: x\n`, 'yaml');
    assert.equal(accept(renamed.model, find(renamed.items, 'description')), `${YAML_RULESET}    description: x\n`);
  });

  test('action values in an HTTP phase: every action the API defines, each with what it does', () => {
    const actions = itemsIn('name: t\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: |\n    expression: "true"\n', 'yaml');
    const offered = labels(actions.items);
    for (const action of ['block', 'managed_challenge', 'js_challenge', 'challenge', 'log', 'skip', 'execute']) assert.ok(offered.includes(action), action);
    assert.match(JSON.stringify(find(actions.items, 'managed_challenge').documentation), /challenge the service chooses/);
  });

  test('action values, and a flow action_parameters value for execute', () => {
    const actions = itemsIn('name: t\nkind: root\nphase: magic_transit\nrules:\n  - action: |\n    expression: "true"\n', 'yaml');
    assert.deepEqual(labels(actions.items), ['block', 'skip', 'execute']);
    const { model, items } = itemsIn('name: t\nkind: root\nphase: magic_transit\nrules:\n  - action: execute\n    expression: "true"\n    action_parameters: |\n', 'yaml');
    assert.deepEqual(labels(items), ['{id: ruleset id}']);
    const text = accept(model, items[0]);
    assert.ok(!modelOf(text, 'yaml').problems(settings()).some((p) => p.code.includes('action-parameters') || p.code === 'yaml-syntax'));
  });

  test('kind values keep the quotes typed', () => {
    const { model, items } = itemsIn('name: t\nkind: "ro|"\nphase: magic_transit\nrules: []\n', 'yaml');
    assert.equal(accept(model, find(items, 'root')), 'name: t\nkind: "root"\nphase: magic_transit\nrules: []\n');
  });

  test('a whole rule at the indentation of the items of rules', () => {
    const { model, items } = itemsIn(`${YAML_RULESET}  |\n`, 'yaml');
    assert.deepEqual(labels(items), ['rule']);
    const text = accept(model, items[0]);
    assert.equal(text, `${YAML_RULESET}  - ${RULE_YAML}\n`);
    const after = modelOf(text, 'yaml');
    assert.deepEqual(after.ruleset.syntaxProblems, []);
    assert.deepEqual(after.ruleset.expressions.map((e) => e.text), ['sip', 'ip.src in $svc.anonymizer']);
    assert.deepEqual(after.problems(settings()).filter((p) => p.start >= YAML_RULESET.length), [], 'the new rule is clean');

    const dashed = itemsIn(`${YAML_RULESET}  - |\n`, 'yaml');
    assert.ok(labels(dashed.items).includes('action') && labels(dashed.items).includes('rule'));
    assert.equal(accept(dashed.model, find(dashed.items, 'rule')), `${YAML_RULESET}  - ${RULE_YAML}\n`);
  });
});

// ---------------------------------------------------------------- actions and their parameters

const REDIRECT_JSON = (parameters: string) =>
  `{"name": "t", "kind": "zone", "phase": "http_request_dynamic_redirect", "rules": [{"action": "redirect", "expression": "true", "action_parameters": ${parameters}}]}`;
const REDIRECT_YAML = 'name: t\nkind: zone\nphase: http_request_dynamic_redirect\nrules:\n  - action: redirect\n    expression: "true"\n    action_parameters:\n';

describe('actions and their parameters', () => {
  test('actions: only those the phase allows, where the catalogue knows them', () => {
    const redirect = itemsIn('name: t\nkind: zone\nphase: http_request_dynamic_redirect\nrules:\n  - action: |\n    expression: "true"\n', 'yaml');
    assert.deepEqual(labels(redirect.items), ['redirect']);
    const waf = itemsIn('{"name": "t", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"action": "|", "expression": "true"}]}', 'json');
    assert.ok(labels(waf.items).includes('managed_challenge') && !labels(waf.items).includes('route') && !labels(waf.items).includes('set_cache_settings'));
    // A phase with no list (or none at all): every action the API defines.
    const unknown = itemsIn('name: t\nkind: zone\nphase: http_request_sbfm\nrules:\n  - action: |\n    expression: "true"\n', 'yaml');
    assert.ok(labels(unknown.items).includes('route') && labels(unknown.items).includes('block'));
  });

  test('JSON: the keys of a nested object of the rule\'s action, required first, without those present, each documented', () => {
    const { model, items } = itemsIn(REDIRECT_JSON('{"from_value": {"preserve_query_string": true, |}}'), 'json');
    assert.deepEqual(labels(items), ['target_url', 'status_code']);
    const status = find(items, 'status_code');
    assert.equal(status.detail, 'number (301, 302, 303, 307, 308)');
    const doc = JSON.stringify(status.documentation);
    assert.match(doc, /`status_code`: number \(301, 302, 303, 307, 308\), optional \(a parameter of `redirect`\)/);
    assert.match(doc, /Allowed: `301`, `302`, `303`, `307`, `308`/);
    assert.equal(find(items, 'target_url').detail, 'object · required');
    // A number choice goes in as a number, not a string.
    const text = accept(model, status);
    assert.match(text, /"preserve_query_string": true, "status_code": 301\}/);
    assert.deepEqual(modelOf(text, 'json').ruleset.syntaxProblems, []);
  });

  test('JSON: the keys of action_parameters itself, and of a rule-level object', () => {
    const top = itemsIn(REDIRECT_JSON('{|}'), 'json');
    assert.deepEqual(labels(top.items).sort(), ['from_list', 'from_value']);
    const ratelimit = itemsIn('{"name": "t", "kind": "zone", "phase": "http_ratelimit", "rules": [{"action": "block", "expression": "true", "ratelimit": {"period": 60, "|"}}]}', 'json');
    const names = labels(ratelimit.items);
    assert.ok(names.includes('characteristics') && names.includes('counting_expression') && !names.includes('period'), names.join());
    assert.equal(find(ratelimit.items, 'counting_expression').detail, 'filter expression');
    // No keys where no schema speaks: under an unknown action.
    const unknown = itemsIn('{"name": "t", "kind": "zone", "phase": "http_request_origin", "rules": [{"action": "rout", "expression": "true", "action_parameters": {|}}]}', 'json');
    assert.deepEqual(labels(unknown.items), []);
  });

  test('JSON: enumerated values, and an array\'s values not in it yet', () => {
    const status = itemsIn(REDIRECT_JSON('{"from_value": {"status_code": |}}'), 'json');
    assert.deepEqual(labels(status.items), ['301', '302', '303', '307', '308']);
    assert.equal(editOf(status.items[0]).newText, '301');
    const phases = itemsIn('{"name": "t", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"action": "skip", "expression": "true", "action_parameters": {"phases": ["http_ratelimit", |]}}]}', 'json');
    const offered = labels(phases.items);
    assert.ok(offered.includes('http_request_sbfm') && !offered.includes('http_ratelimit'), offered.join());
    assert.equal(editOf(find(phases.items, 'http_request_sbfm')).newText, '"http_request_sbfm"');
    const algorithm = itemsIn('{"name": "t", "kind": "zone", "phase": "http_response_compression", "rules": [{"action": "compress_response", "expression": "true", "action_parameters": {"algorithms": [{"name": "|"}]}}]}', 'json');
    assert.deepEqual(labels(algorithm.items), ['none', 'auto', 'default', 'gzip', 'brotli', 'zstd']);
    // Inside the quotes: the whole string is replaced.
    assert.match(accept(algorithm.model, find(algorithm.items, 'zstd')), /\[\{"name": "zstd"\}\]/);
  });

  test('YAML: keys at each depth by indentation, a skeleton with the required keys', () => {
    const top = itemsIn(`${REDIRECT_YAML}      |\n`, 'yaml');
    assert.deepEqual(labels(top.items).sort(), ['from_list', 'from_value']);
    const text = accept(top.model, find(top.items, 'from_value'));
    // `target_url` takes a `value` or an `expression`: the skeleton starts with the first.
    assert.equal(text, `${REDIRECT_YAML}      from_value:\n        target_url:\n          value: \n`);
    assert.deepEqual(modelOf(text, 'yaml').ruleset.syntaxProblems, []);
    const nested = itemsIn(`${REDIRECT_YAML}      from_value:\n        status_code: 301\n        |\n`, 'yaml');
    assert.deepEqual(labels(nested.items), ['target_url', 'preserve_query_string']);
    // A key being typed is replaced; the keys of the rule are not offered this deep.
    const typed = itemsIn(`${REDIRECT_YAML}      from_value:\n        pres|\n`, 'yaml');
    assert.ok(labels(typed.items).includes('preserve_query_string') && !labels(typed.items).includes('description'));
    assert.equal(textOf(typed.model.text, editOf(find(typed.items, 'preserve_query_string')).range), 'pres');
    const ratelimit = itemsIn('name: t\nkind: zone\nphase: http_ratelimit\nrules:\n  - action: block\n    expression: "true"\n    ratelimit:\n      period: 60\n      |\n', 'yaml');
    assert.ok(labels(ratelimit.items).includes('requests_per_period') && !labels(ratelimit.items).includes('period'));
  });

  test('YAML: values after `key: `, in an array of objects, and items of an array', () => {
    const status = itemsIn(`${REDIRECT_YAML}      from_value:\n        status_code: |\n`, 'yaml');
    assert.deepEqual(labels(status.items), ['301', '302', '303', '307', '308']);
    const algorithm = itemsIn('name: t\nkind: zone\nphase: http_response_compression\nrules:\n  - action: compress_response\n    expression: "true"\n    action_parameters:\n      algorithms:\n        - name: brotli\n        - name: |\n', 'yaml');
    assert.ok(labels(algorithm.items).includes('gzip'));
    const item = itemsIn('name: t\nkind: zone\nphase: http_response_compression\nrules:\n  - action: compress_response\n    expression: "true"\n    action_parameters:\n      algorithms:\n        - |\n', 'yaml');
    assert.deepEqual(labels(item.items), ['name']);
    const phases = itemsIn('name: t\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: skip\n    expression: "true"\n    action_parameters:\n      phases:\n        - http_ratelimit\n        - |\n', 'yaml');
    assert.ok(labels(phases.items).includes('http_request_sbfm') && !labels(phases.items).includes('http_ratelimit'));
    const text = accept(phases.model, find(phases.items, 'http_request_sbfm'));
    assert.match(text, /- http_ratelimit\n {8}- http_request_sbfm\n/);
  });

  test('an object value: its skeleton on one line, in JSON and YAML', () => {
    const json = itemsIn(REDIRECT_JSON('{"from_value": |}'), 'json');
    assert.deepEqual(labels(json.items), ['{"target_url": {"value": ""}}']);
    const text = accept(json.model, json.items[0]);
    assert.match(text, /"from_value": \{"target_url": \{"value": ""\}\}/);
    assert.deepEqual(modelOf(text, 'json').ruleset.syntaxProblems, []);
    const yaml = itemsIn(`${REDIRECT_YAML}      from_value: |\n`, 'yaml');
    assert.deepEqual(labels(yaml.items), ['{target_url: {value: }}']);
  });

  test('action_parameters for the rule\'s action; none offered for an action that takes none', () => {
    const route = itemsIn('name: t\nkind: zone\nphase: http_request_origin\nrules:\n  - action: route\n    expression: "true"\n    |\n', 'yaml');
    assert.equal(find(route.items, 'action_parameters').detail, 'for `route`');
    const challenge = itemsIn('name: t\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: managed_challenge\n    expression: "true"\n    |\n', 'yaml');
    assert.ok(!labels(challenge.items).includes('action_parameters'));
  });
});

// ---------------------------------------------------------------- robustness

describe('robustness', () => {
  test('not a ruleset: no completion', () => {
    const model = modelOf('{"name": "x", "version": "1.0.0"}', 'json', 'file:///work/package.json');
    assert.equal(completion(model, { line: 0, character: 3 }, settings()), null);
  });

  test('trigger characters', () => {
    for (const c of [' ', '.', '$', '{', '"', '(']) assert.ok(COMPLETION_TRIGGER_CHARACTERS.includes(c));
  });

  const examples = join(__dirname, '..', '..', 'examples');
  // Test files (`*.ruleset.test.yaml`, for `rulesets test`) are not rulesets: no completion there.
  // Subfolders too; a folder's `.rulesets.yaml` is no ruleset, nor are octorules' configuration and the files its `!include`s read.
  const names = readdirSync(examples, { recursive: true, encoding: 'utf8' }).filter((n) => /\.(json|ya?ml)$/.test(n) && !/\.test\.(json|ya?ml)$/.test(n) && !n.endsWith('.rulesets.yaml') && !OCTORULES_OTHER_FILES.includes(n));
  for (const name of names) {
    test(`never throws, and every range lies inside the document, at every offset of examples/${name}`, () => {
      const text = readFileSync(join(examples, name), 'utf8');
      const format = name.endsWith('.json') ? 'json' : 'yaml';
      const model = modelOf(text, format, `file:///work/examples/${name}`);
      let offered = 0;
      for (let offset = 0; offset <= text.length; offset++) {
        const list = completeAt(model, offset, settings({ knownLists: ['office'] }));
        assert.ok(list);
        for (const item of list.items) {
          offered++;
          const edit = editOf(item);
          assertInside(text, edit.range);
          const start = model.offsetAt(edit.range.start);
          const end = model.offsetAt(edit.range.end);
          assert.ok(start <= offset && offset <= end, `${name}@${offset}: the range of ${item.label} holds the cursor`);
          for (const extra of item.additionalTextEdits ?? []) assertInside(text, extra.range);
        }
      }
      assert.ok(offered > 0);
    });
  }

  test('the context analysis never throws and its range holds the cursor, on any text', () => {
    const alphabet = fc.constantFrom(...'ip.src == "BR" and or ( ) { } $svc.vpn in not ! & 0x02 r#" \\ , tcp.dstport 1..2 ~ strict wildcard\t\n'.split(' '), ' ', '"', '#', '\\', '{', '(', ')');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }), fc.nat(), (parts, n) => {
        const text = parts.join(' ');
        const cursor = n % (text.length + 1);
        const context = completionContext(text, cursor);
        assert.ok(context.replace.start <= cursor && cursor <= context.replace.end && context.replace.end <= text.length);
      }),
      { numRuns: 500 },
    );
  });

  test('every host style, every offset of a few expressions: never throws, ranges inside', () => {
    for (const host of HOSTS) {
      for (const expression of ['ip.src.country in {"BR" "DE"} and not (tcp.dstport == 22 or ip.src in $svc.vpn)', 'bit_slice(udp, 64, 72) == 0x45 && tcp.flags & 0x02', 'ip.proto == "tc', 'ip.src.country in {"B "US"} or ip.proto strict wild']) {
        for (let i = 0; i <= expression.length; i++) {
          const marked = `${expression.slice(0, i)}|${expression.slice(i)}`;
          if (/\|\||\|\|/.test(marked.slice(Math.max(0, i - 1), i + 2))) continue;
          const { model, offset } = at(host, marked);
          const list = completeAt(model, offset, settings());
          for (const item of list?.items ?? []) {
            const edit = editOf(item);
            assertInside(model.text, edit.range);
            const newText = item.insertTextFormat === InsertTextFormat.Snippet ? snippetText(edit.newText) : edit.newText;
            const after = modelOf(applyEdits(model.text, [{ range: edit.range, newText }]), formatOf(host));
            assert.deepEqual(after.ruleset.syntaxProblems, [], `${host} ${marked}: accepting ${item.label} keeps the document valid`);
          }
        }
      }
    }
  });

  test('a 1,000-rule document: a completion reads only the expression under the cursor', () => {
    const rules = Array.from({ length: 1000 }, (_, i) => ({ action: 'block', expression: `ip.src.country == "BR" and tcp.dstport in {${i} 443} or ip.src in $svc.vpn`, description: `rule ${i}` }));
    const text = JSON.stringify({ name: 'big', kind: 'root', phase: 'magic_transit', rules }, null, 2);
    const model = modelOf(text, 'json');
    const sites = model.ruleset!.sites;
    // Every read of an expression's text or decoded string is recorded: the time a request takes
    // grows with the expressions it reads (bench/peers.ts measures that time beside the JSON server).
    const examined = new Set<number>();
    sites.forEach((site, i) => {
      const decoded = site.decoded.bind(site);
      const siteText = site.text;
      Object.defineProperty(site, 'decoded', { value: () => (examined.add(i), decoded()) });
      Object.defineProperty(site, 'text', { get: () => (examined.add(i), siteText) });
    });
    for (const offset of [text.lastIndexOf('443}'), text.lastIndexOf('and tcp') + 4, text.indexOf('in {500 ') + 4, text.lastIndexOf('"description"') + 3]) {
      const under = sites.findIndex((site) => site.node.start < offset && offset < site.node.end);
      for (let request = 0; request < 2; request++) {
        examined.clear();
        assert.ok(completion(model, model.positionAt(offset), settings())?.items.length, `items at ${offset}`);
        assert.deepEqual([...examined], under < 0 ? [] : [under], `the expressions read for a completion at ${offset}`);
      }
    }
  });
});

// The harness's TextDocument import keeps positions honest for CRLF documents too.
test('CRLF documents: ranges and YAML snippets use the document line ends', () => {
  const marked = 'name: t\r\nkind: root\r\nphase: magic_transit\r\nrules:\r\n  - action: skip\r\n    expression: sip\r\n    |\r\n';
  const { model, items } = itemsIn(marked, 'yaml');
  const text = accept(model, find(items, 'action_parameters'));
  assert.match(text, /action_parameters:\r\n {6}ruleset: current\r\n/);
  const document = TextDocument.create('file:///x', 'yaml', 0, text);
  assert.ok(document.lineCount > 7);
});

// ---------------------------------------------------------------- every phase: the catalogue of the document's phase

const HTTP = { phase: 'http_request_firewall_custom' };

/** The operator labels offered at the cursor. */
function operatorLabels(host: Host, marked: string, phase: string): string[] {
  return labels(itemsAt(host, marked, { phase }).items);
}

describe('completion in an HTTP phase, from its catalogue', () => {
  for (const host of HOSTS) {
    test(`${host}: the phase's fields, grouped, with type, plan and deprecation; none of the packet phases`, () => {
      const { model, items } = itemsAt(host, '|', HTTP);
      const names = labels(items);
      for (const label of ['http.host', 'http.request.method', 'http.request.headers', 'cf.bot_management.score', 'ip.src']) assert.ok(names.includes(label), label);
      for (const label of ['tcp.dstport', 'sip', 'udp', 'bit_slice']) assert.ok(!names.includes(label), `no ${label} in an HTTP phase`);
      // Response fields and value-only fields are not offered in a request phase's filter.
      for (const label of ['http.response.code', 'ip.src.timezone.name', 'http.request.accepted_languages']) assert.ok(!names.includes(label), `no ${label}`);
      assert.equal(find(items, 'http.host').detail, 'String');
      assert.equal(find(items, 'http.request.headers').detail, 'Map<Array<String>>');
      assert.equal(find(items, 'ip.src.subdivision_1_iso_code').detail, 'String · Business or above');
      const deprecated = find(items, 'ip.geoip.country');
      assert.equal(deprecated.detail, 'String · deprecated: use ip.src.country');
      assert.deepEqual(deprecated.tags, [1]);
      assert.equal(find(items, 'http.host').labelDetails?.description, 'URI');
      const doc = JSON.stringify(find(items, 'http.request.cookies').documentation);
      assert.match(doc, /Example: `/);
      assert.match(doc, /Plan: Pro or above\./);
      assert.equal(acceptExpression(model, host, find(items, 'http.request.headers')), 'http.request.headers');
    });
  }

  test('sorted by group (in the catalogue\'s order), then by name, deprecated fields last in their group', () => {
    const { items } = itemsAt('json', '|', HTTP);
    const fields = items.filter((i) => i.kind === CompletionItemKind.Field).sort((a, b) => (a.sortText! < b.sortText! ? -1 : 1));
    const groups = fields.map((f) => f.labelDetails!.description!);
    const runs = groups.filter((g, i) => g !== groups[i - 1]);
    assert.deepEqual(runs, [...new Set(runs)], 'each group is one run');
    assert.equal(runs[0], 'URI');
    for (let i = 1; i < fields.length; i++) {
      if (groups[i] !== groups[i - 1]) continue;
      const [a, b] = [fields[i - 1], fields[i]];
      const [da, db] = [a.tags !== undefined, b.tags !== undefined];
      assert.ok(da === db ? a.label < b.label : !da, `${a.label} before ${b.label}`);
    }
    // Fields before the keywords, functions after them.
    assert.ok(find(items, 'http.host').sortText! < find(items, 'not').sortText!);
    assert.ok(find(items, 'not').sortText! < find(items, 'lower').sortText!);
  });

  for (const host of HOSTS) {
    test(`${host}: functions with snippets of their parameters, only those usable in a filter of the phase`, () => {
      const { model, items } = itemsAt(host, 'http.host == "a" and |', HTTP);
      const lower = find(items, 'lower');
      assert.equal(lower.insertTextFormat, InsertTextFormat.Snippet);
      assert.equal(editOf(lower).newText, 'lower(${1:source})');
      assert.equal(lower.detail, 'lower(source: String): String');
      assert.equal(acceptExpression(model, host, lower), 'http.host == "a" and lower(source)');
      assert.equal(editOf(find(items, 'starts_with')).newText, 'starts_with(${1:source}, ${2:prefix})');
      // Optional parameters are left out; a repeated one is written once.
      assert.equal(editOf(find(items, 'url_decode')).newText, 'url_decode(${1:source})');
      assert.equal(editOf(find(items, 'concat')).newText, 'concat(${1:first}, ${2:more})');
      const names = labels(items);
      for (const label of ['regex_replace', 'uuidv4', 'to_string', 'wildcard_replace', 'bit_slice', 'split']) assert.ok(!names.includes(label), `no ${label} in a filter of this phase`);
      for (const label of ['cidr', 'len', 'any', 'all']) assert.ok(names.includes(label), label);
      const any = find(items, 'any');
      assert.equal(editOf(any).newText, 'any($1)');
      assert.equal(acceptExpression(model, host, any), 'http.host == "a" and any()');
    });
  }

  test('a function\'s phases decide: split in http_response_headers_transform, not in http_request_firewall_custom', () => {
    assert.ok(labels(itemsAt('json', '|', { phase: 'http_response_headers_transform' }).items).includes('split'));
    assert.ok(!labels(itemsAt('json', '|', HTTP).items).includes('split'));
  });

  test('the packet phases: no any()/all(), no HTTP field or function', () => {
    const names = labels(itemsAt('json', '|').items);
    for (const label of ['any', 'all', 'lower', 'http.host']) assert.ok(!names.includes(label), `no ${label} in magic_transit`);
  });

  for (const host of HOSTS) {
    test(`${host}: operators by the real type of the left side, after index steps and calls`, () => {
      for (const marked of ['http.request.headers["x"][0] |', 'http.request.uri.args["q"][*] |', 'lower(http.host) |', 'concat(http.host, "/") |', 'http.request.headers.names[0] |']) {
        const names = operatorLabels(host, marked, HTTP.phase);
        for (const label of ['==', 'contains', 'matches', 'wildcard', 'strict wildcard']) assert.ok(names.includes(label), `${label} after ${marked}`);
        for (const label of ['&', 'and']) assert.ok(!names.includes(label), `no ${label} after ${marked}`);
      }
      const integer = operatorLabels(host, 'len(http.host) |', HTTP.phase);
      assert.ok(integer.includes('&') && integer.includes('<') && !integer.includes('contains'));
      // An array or a map is compared through an index or `[*]`: no operator fits it whole.
      assert.deepEqual(operatorLabels(host, 'http.request.headers |', HTTP.phase), []);
      const matches = find(itemsAt(host, 'http.host |', HTTP).items, 'matches');
      assert.equal(matches.detail, 'matches this regular expression · Business or above');
    });
  }

  for (const host of HOSTS) {
    test(`${host}: request header names after http.request.headers[", lowercase, from their specification`, () => {
      const { model, items } = itemsAt(host, 'http.request.headers["|', HTTP);
      const item = find(items, '"user-agent"');
      assert.equal(item.labelDetails?.description, 'RFC 9110 §10.1.5');
      for (const name of ['"cookie"', '"authorization"', '"referer"', '"content-type"', '"sec-fetch-site"']) find(items, name);
      for (const i of items) assert.equal(i.label, i.label.toLowerCase(), 'lowercase');
      assert.equal(acceptExpression(model, host, item), 'http.request.headers["user-agent"]');
      // Typed part of the name, the bracket already closed: the string is replaced, no second `]`.
      const typed = itemsAt(host, 'http.request.headers["user-ag|"][0] == "x"', HTTP);
      assert.equal(acceptExpression(typed.model, host, find(typed.items, '"user-agent"')), 'http.request.headers["user-agent"][0] == "x"');
      // Right after `[`: the names as strings, and `*`.
      const open = itemsAt(host, 'any(http.request.headers[|', HTTP);
      assert.equal(acceptExpression(open.model, host, find(open.items, '"accept"')), 'any(http.request.headers["accept"]');
      assert.equal(acceptExpression(open.model, host, find(open.items, '*')), 'any(http.request.headers[*]');
    });
  }

  test('no key names invented for query arguments, cookies or response headers; `*` and `0` for arrays', () => {
    for (const marked of ['http.request.uri.args["|', 'http.request.cookies["|', 'http.request.headers["x"][|']) {
      const { items } = itemsAt('json', marked, HTTP);
      assert.ok(items.every((i) => !i.label.startsWith('"')), `no names after ${marked}: ${JSON.stringify(labels(items))}`);
    }
    assert.deepEqual(labels(itemsAt('json', 'http.request.uri.args[|', HTTP).items), ['*']);
    assert.deepEqual(labels(itemsAt('json', 'http.request.headers.names[|', HTTP).items), ['*', '0']);
    assert.deepEqual(labels(itemsAt('json', 'http.request.headers["x"][|', HTTP).items), ['*', '0']);
    assert.deepEqual(labels(itemsAt('json', 'http.host[|', HTTP).items), [], 'a string takes no index');
    assert.deepEqual(labels(itemsAt('json', 'ip.src[|').items), [], 'nor a packet field');
  });

  for (const host of HOSTS) {
    test(`${host}: arguments: fields and calls of the types the parameter takes; array fields with [*] in any()`, () => {
      const lower = itemsAt(host, 'lower(|', HTTP);
      const names = labels(lower.items);
      assert.ok(names.includes('http.host') && names.includes('lower') && names.includes('url_decode'));
      for (const label of ['cf.bot_management.score', 'ip.src', 'http.request.headers', 'len']) assert.ok(!names.includes(label), `no ${label} as a String argument`);
      assert.equal(acceptExpression(lower.model, host, find(lower.items, 'http.host')), 'lower(http.host');
      // A parameter that takes only a literal: nothing to offer.
      assert.deepEqual(labels(itemsAt(host, 'wildcard(http.host, |', HTTP).items), []);
      const any = itemsAt(host, 'any(|', HTTP);
      const each = find(any.items, 'http.request.headers.names[*]');
      assert.ok(each.sortText! < find(any.items, 'http.host').sortText!);
      assert.equal(acceptExpression(any.model, host, each), 'any(http.request.headers.names[*]');
    });
  }

  for (const host of HOSTS) {
    test(`${host}: values: methods in capitals, continents, country codes on HTTP country fields`, () => {
      const methods = itemsAt(host, 'http.request.method == |', HTTP);
      assert.deepEqual(labels(methods.items), ['"GET"', '"HEAD"', '"POST"', '"PUT"', '"DELETE"', '"CONNECT"', '"OPTIONS"', '"TRACE"', '"PATCH"']);
      assert.equal(acceptExpression(methods.model, host, find(methods.items, '"POST"')), 'http.request.method == "POST"');
      assert.deepEqual(labels(itemsAt(host, 'ip.src.continent in {|}', HTTP).items), ['"AF"', '"AN"', '"AS"', '"EU"', '"NA"', '"OC"', '"SA"', '"T1"']);
      assert.ok(labels(itemsAt(host, 'ip.src.country == |', HTTP).items).includes('"BR"'));
      assert.deepEqual(labels(itemsAt(host, 'http.request.method contains |', HTTP).items), [], 'no whole values after a pattern operator');
    });
  }

  test('an unknown phase: the fields and functions of every phase, marked as unverified', () => {
    const { items } = itemsAt('json', '|', { phase: 'my_future_phase' });
    const names = labels(items);
    for (const label of ['http.host', 'tcp.dstport', 'lower', 'bit_slice']) assert.ok(names.includes(label), label);
    const host = find(items, 'http.host');
    assert.equal(host.detail, 'String · unverified');
    assert.match(JSON.stringify(host.documentation), /Unverified: this tool has no field table for phase `my_future_phase`/);
    assert.equal(find(items, 'tcp.dstport').detail, 'Integer · unverified');
  });
});
