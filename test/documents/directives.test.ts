/**
 * `# rulesets-disable-next-line CODE` and `# rulesets-disable CODE` in YAML rulesets: what they
 * silence, what they cannot, and how a directive that is wrong or not needed is reported, with
 * the fix. Each test reads the findings as `rulesets check` lists them: line, severity, code.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as YAML from 'yaml';

import { ExpressionCache } from '../../server/src/documents/expression-cache';
import type { DocumentEdit } from '../../server/src/documents/host/host-edits';
import { parseRuleset, type DocumentProblem } from '../../server/src/documents/parsed-ruleset';
import { reparseAfterEdit } from '../../server/src/documents/reparse';
import { checkParsedRuleset, checkRuleset, type RulesetCheckOptions } from '../../server/src/documents/ruleset';
import { silenceFix } from '../../server/src/documents/directives';

const HEAD = ['name: test', 'kind: root', 'phase: magic_transit', 'rules:'];
/** Rule 1 blocks every TCP packet: a later TCP rule is `shadowed-rule`. */
const BLOCK_TCP = ['  - action: block', '    expression: ip.proto == "tcp"'];

function yaml(...lines: string[]): string {
  return [...lines, ''].join('\n');
}

function problems(text: string, options: RulesetCheckOptions = {}): DocumentProblem[] {
  return checkRuleset(text, 'yaml', { cache: new ExpressionCache(), ...options });
}

function lineOf(text: string, offset: number): number {
  return text.slice(0, offset).split('\n').length;
}

/** The findings as `rulesets check` lists them: `line: severity code`, lines counted from 1. */
function findings(text: string, options: RulesetCheckOptions = {}): string[] {
  return problems(text, options).map((p) => `${lineOf(text, p.start)}: ${p.severity} ${p.code}`);
}

function only(text: string, code: string, options: RulesetCheckOptions = {}): DocumentProblem {
  const found = problems(text, options).filter((p) => p.code === code);
  assert.equal(found.length, 1, `one ${code} in ${JSON.stringify(problems(text, options), null, 1)}`);
  return found[0];
}

function applied(text: string, edits: readonly DocumentEdit[]): string {
  return [...edits].sort((a, b) => b.start - a.start).reduce((t, e) => t.slice(0, e.start) + e.newText + t.slice(e.end), text);
}

/** The text after the fix of that title on the only problem of that code. */
function fixed(text: string, code: string, title: string): string {
  const fix = only(text, code).fixes?.find((f) => f.title === title);
  assert.ok(fix, `a fix titled ${title} among ${JSON.stringify(only(text, code).fixes?.map((f) => f.title))}`);
  return applied(text, fix.edits);
}

describe('rulesets-disable-next-line', () => {
  const shadowed = yaml(...HEAD, ...BLOCK_TCP, '  - action: block', '    expression: tcp.dstport == 23');

  it('a later TCP rule is shadowed without a directive', () => {
    assert.deepEqual(findings(shadowed), ['8: warning shadowed-rule']);
  });

  it('silences its code in the rule item that starts on the next line, the expression below included', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23');
    assert.deepEqual(findings(text), []);
  });

  it('silences a finding inside a `|` block that starts on the next line', () => {
    const text = yaml(...HEAD, '  - action: block', '    # rulesets-disable-next-line redundant-set-member', '    expression: |', '      ip.src in {10.0.0.0/8', '        10.0.0.1}');
    assert.deepEqual(findings(text), []);
  });

  it('reaches only the node that starts on the next line, not the rule after it', () => {
    const text = yaml(
      ...HEAD,
      ...BLOCK_TCP,
      '  # rulesets-disable-next-line shadowed-rule',
      '  - action: block',
      '    expression: tcp.dstport == 23',
      '  - action: block',
      '    expression: tcp.dstport == 25',
    );
    assert.deepEqual(findings(text), ['11: warning shadowed-rule']);
  });

  it('silences only the codes it names', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23', '    descripton: telnet');
    assert.deepEqual(findings(text), ['10: warning unknown-key']);
  });

  it('skips blank lines and comments to the next line, so two directives may stand one above the other', () => {
    const text = yaml(
      ...HEAD,
      ...BLOCK_TCP,
      '  # rulesets-disable-next-line shadowed-rule',
      '',
      '  # telnet has its own rule',
      '  # rulesets-disable-next-line unknown-key',
      '  - action: block',
      '    expression: tcp.dstport == 23',
      '    descripton: telnet',
    );
    assert.deepEqual(findings(text), []);
  });

  it('takes several codes, separated by commas or spaces, and a reason after --', () => {
    for (const list of ['shadowed-rule, unknown-key', 'shadowed-rule unknown-key', 'shadowed-rule,unknown-key -- telnet is counted apart']) {
      const text = yaml(...HEAD, ...BLOCK_TCP, `  # rulesets-disable-next-line ${list}`, '  - action: block', '    expression: tcp.dstport == 23', '    descripton: telnet');
      assert.deepEqual(findings(text), [], list);
    }
  });

  it('on a key line reaches that key and its value only', () => {
    const text = yaml(...HEAD, '  - action: block', '    # rulesets-disable-next-line unknown-key', '    descripton: x', '    expression: ip.src == 10.0.0.1', '    colour: red');
    assert.deepEqual(findings(text), ['9: warning unknown-key']);
  });

  it('works the same in a file with CRLF line breaks', () => {
    const text = [...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23', ''].join('\r\n');
    assert.deepEqual(findings(text), []);
  });
});

describe('rulesets-disable (the whole file)', () => {
  it('at the top silences its codes everywhere in the file', () => {
    const text = yaml(
      '# Telnet and SMTP are counted by their own rules.',
      '# rulesets-disable shadowed-rule',
      ...HEAD,
      ...BLOCK_TCP,
      '  - action: block',
      '    expression: tcp.dstport == 23',
      '  - action: block',
      '    expression: tcp.dstport == 25',
    );
    assert.deepEqual(findings(text), []);
  });

  it('further down is reported, silences nothing, and is fixed into a next-line directive', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23');
    assert.deepEqual(findings(text), ['7: warning invalid-disable', '9: warning shadowed-rule']);
    assert.match(only(text, 'invalid-disable').message, /silences the whole file, so it goes among the comments at the top, before the first key/);
    assert.deepEqual(findings(fixed(text, 'invalid-disable', 'Change to `rulesets-disable-next-line`')), []);
  });
});

describe('what a directive cannot silence', () => {
  it('an error the service would reject stays, and the directive says why', () => {
    const text = yaml(...HEAD, '  # rulesets-disable-next-line unknown-field', '  - action: block', '    expression: tcp.dstprt == 22');
    assert.deepEqual(findings(text), ['5: warning unused-disable', '7: error unknown-field']);
    assert.equal(only(text, 'unused-disable').message, '`unknown-field` here is an error, and an error cannot be silenced: the service rejects this rule, so fix it instead');
  });

  it('nor in the file form', () => {
    const text = yaml('# rulesets-disable unknown-field', ...HEAD, '  - action: block', '    expression: tcp.dstprt == 22');
    assert.deepEqual(findings(text), ['1: warning unused-disable', '7: error unknown-field']);
  });

  it('a warning the project configuration makes an error can still be silenced where it is meant', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23', '  - action: block', '    expression: tcp.dstport == 25');
    assert.deepEqual(findings(text, { severities: { 'shadowed-rule': 'error' } }), ['11: error shadowed-rule']);
  });

  it('a finding about directives', () => {
    const text = yaml('# rulesets-disable unused-disable', '# rulesets-disable-next-line always-true', ...HEAD, ...BLOCK_TCP);
    assert.deepEqual(findings(text), ['1: warning unused-disable', '2: warning unused-disable']);
    assert.equal(problems(text)[0].message, '`unused-disable` is about directives, and a directive cannot silence it');
  });
});

describe('a directive that is not needed: unused-disable', () => {
  it('is reported on the code, and the fix removes the directive', () => {
    const text = yaml(...HEAD, '  # rulesets-disable-next-line shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23');
    const unused = only(text, 'unused-disable');
    assert.equal(text.slice(unused.start, unused.end), 'shadowed-rule');
    assert.equal(unused.severity, 'warning');
    assert.equal(unused.message, 'no `shadowed-rule` on the next line, so the directive has nothing to silence');
    assert.equal(fixed(text, 'unused-disable', 'Remove the directive'), yaml(...HEAD, '  - action: block', '    expression: tcp.dstport == 23'));
  });

  it('names the one code that silences nothing, and the fix removes that code', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line always-true, shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23');
    assert.deepEqual(findings(text), ['7: warning unused-disable']);
    const after = fixed(text, 'unused-disable', 'Remove `always-true` from the directive');
    assert.ok(after.includes('  # rulesets-disable-next-line shadowed-rule\n'), after);
    assert.deepEqual(findings(after), []);
  });

  it('removes the last code with the comma before it', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rule, always-true', '  - action: block', '    expression: tcp.dstport == 23');
    assert.ok(fixed(text, 'unused-disable', 'Remove `always-true` from the directive').includes('  # rulesets-disable-next-line shadowed-rule\n'));
  });

  it('in the file form, when the file has no such finding', () => {
    const text = yaml('# rulesets-disable shadowed-rule', ...HEAD, ...BLOCK_TCP);
    assert.equal(only(text, 'unused-disable').message, 'no `shadowed-rule` in this file, so the directive has nothing to silence');
    assert.deepEqual(findings(fixed(text, 'unused-disable', 'Remove the directive')), []);
  });

  it('at the end of the file, with nothing after it', () => {
    const text = `${yaml(...HEAD, ...BLOCK_TCP)}  # rulesets-disable-next-line shadowed-rule`;
    assert.equal(only(text, 'unused-disable').message, 'no line follows this directive, so it has nothing to silence');
    assert.equal(fixed(text, 'unused-disable', 'Remove the directive'), yaml(...HEAD, ...BLOCK_TCP).slice(0, -1));
  });

  it('when the same code is named twice', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rule, shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23');
    assert.equal(only(text, 'unused-disable').message, '`shadowed-rule` is named twice in this directive');
  });

  it('when a directive nearer to the finding silences it already', () => {
    const text = yaml(
      ...HEAD.slice(0, 3),
      '# rulesets-disable-next-line shadowed-rule',
      'rules:',
      ...BLOCK_TCP,
      '  # rulesets-disable-next-line shadowed-rule',
      '  - action: block',
      '    expression: tcp.dstport == 23',
    );
    assert.deepEqual(findings(text), ['4: warning unused-disable']);
    assert.equal(only(text, 'unused-disable').message, '`shadowed-rule` there is silenced already, by the directive nearer to it');
    assert.deepEqual(findings(fixed(text, 'unused-disable', 'Remove the directive')), []);
  });

  it('removes a last line without a line break, CRLF included', () => {
    const text = `${[...HEAD, ...BLOCK_TCP].join('\r\n')}\r\n  # rulesets-disable-next-line shadowed-rule`;
    assert.equal(fixed(text, 'unused-disable', 'Remove the directive'), [...HEAD, ...BLOCK_TCP].join('\r\n'));
  });

  it('when the project configuration turns the code off already (as ESLint reports it)', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23');
    assert.deepEqual(findings(text, { severities: { 'shadowed-rule': 'off' } }), ['7: warning unused-disable']);
  });

  it('is itself turned off or made an error by the project configuration', () => {
    const text = yaml(...HEAD, '  # rulesets-disable-next-line shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23');
    assert.deepEqual(findings(text, { severities: { 'unused-disable': 'off' } }), []);
    assert.deepEqual(findings(text, { severities: { 'unused-disable': 'error' } }), ['5: error unused-disable']);
  });
});

describe('a directive written wrong', () => {
  it('an unknown code: unknown-disable-code, with the codes it may have meant', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rules', '  - action: block', '    expression: tcp.dstport == 23');
    assert.deepEqual(findings(text), ['7: warning unknown-disable-code', '9: warning shadowed-rule']);
    assert.equal(only(text, 'unknown-disable-code').message, 'unknown code `shadowed-rules`; did you mean `shadowed-rule`?');
    assert.deepEqual(findings(fixed(text, 'unknown-disable-code', 'Change to `shadowed-rule`')), []);
  });

  it('words of a reason without --: each is an unknown code, and the message says where a reason goes', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rule because', '  - action: block', '    expression: tcp.dstport == 23');
    assert.match(only(text, 'unknown-disable-code').message, /^unknown code `because`: .*a reason goes after ` -- `$/);
  });

  it('without codes it silences nothing (every finding would include ones that later edits bring); the fix names what is there', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line', '  - action: block', '    expression: tcp.dstport == 23', '    descripton: telnet');
    assert.deepEqual(findings(text), ['7: warning invalid-disable', '9: warning shadowed-rule', '10: warning unknown-key']);
    assert.match(only(text, 'invalid-disable').message, /names no code: name the codes it silences/);
    const after = fixed(text, 'invalid-disable', 'Silence `shadowed-rule`, `unknown-key`');
    assert.ok(after.includes('  # rulesets-disable-next-line shadowed-rule, unknown-key\n'), after);
    assert.deepEqual(findings(after), []);
  });

  it('after other text on a line: reported, and moved above that line by the fix', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  - action: block  # rulesets-disable-next-line shadowed-rule', '    expression: tcp.dstport == 23');
    assert.deepEqual(findings(text), ['7: warning invalid-disable', '8: warning shadowed-rule']);
    const after = fixed(text, 'invalid-disable', 'Move the directive above this line');
    assert.equal(after, yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23'));
    assert.deepEqual(findings(after), []);
  });

  it('a misspelt name, with the fix', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-nextline shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23');
    assert.equal(only(text, 'invalid-disable').message, '`rulesets-disable-nextline` is not a directive; did you mean `rulesets-disable-next-line`?');
    assert.deepEqual(findings(fixed(text, 'invalid-disable', 'Change to `rulesets-disable-next-line`')), []);
  });

  it('rulesets-enable, which does not exist', () => {
    const text = yaml('# rulesets-enable-everything', ...HEAD, ...BLOCK_TCP);
    assert.match(only(text, 'invalid-disable').message, /^`rulesets-enable-everything` is not a directive: `rulesets-disable-next-line CODE` silences the next line/);
  });
});

describe('what is not a directive', () => {
  it('the text of a string or a `|` block, and comments that merely mention rulesets', () => {
    const text = yaml(
      '# This file is checked with rulesets-tools.',
      ...HEAD,
      ...BLOCK_TCP,
      '  - action: block',
      '    description: "# rulesets-disable-next-line shadowed-rule"',
      '    expression: |',
      '      # rulesets-disable-next-line shadowed-rule',
      '      tcp.dstport == 23',
    );
    // The `#` line is part of the expression, which the service then fails to parse.
    assert.deepEqual(findings(text), ['11: error syntax-error']);
  });

  it('a directive-like text in a JSON ruleset, which has no comments', () => {
    const text = JSON.stringify({ name: 'test', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', description: '# rulesets-disable-next-line x', expression: 'ip.src == 10.0.0.1' }] });
    assert.deepEqual(checkRuleset(text, 'json'), []);
  });

  it('exactly the comments the YAML library reads as comments', () => {
    // Each document holds `rulesets-disable-nextline` in places that are and are not comments;
    // every one that is a comment must be reported (as misspelt), and no other.
    const documents = [
      yaml('# rulesets-disable-nextline a', ...HEAD, ...BLOCK_TCP, '  # rulesets-disable-nextline b'),
      yaml(...HEAD, '  - action: block # rulesets-disable-nextline a', "    description: 'x # rulesets-disable-nextline b'", '    expression: ip.src == 10.0.0.1 # rulesets-disable-nextline c'),
      yaml(...HEAD, '  - action: block', '    description: |  # rulesets-disable-nextline a', '      # rulesets-disable-nextline b', '', '    # rulesets-disable-nextline c', '    expression: ip.src == 10.0.0.1'),
      yaml(...HEAD, '  - {action: block,', '     # rulesets-disable-nextline a', '     description: "x', '       # rulesets-disable-nextline b', '       y", expression: ip.src == 10.0.0.1}'),
      yaml(...HEAD, '  - action: block', '    description: plain#rulesets-disable-nextline a', '    expression: ip.src == 10.0.0.1', '    "# rulesets-disable-nextline b": x'),
      yaml('---', '# rulesets-disable-nextline a', ...HEAD, ...BLOCK_TCP, '...'),
    ];
    for (const text of documents) {
      const reported = problems(text)
        .filter((p) => p.code === 'invalid-disable')
        .map((p) => p.start);
      assert.deepEqual(reported, commentsOfLibrary(text), text);
    }
  });
});

/** Where the `yaml` library's lexer finds a comment that holds `rulesets-disable`: the offset of its directive name. */
function commentsOfLibrary(text: string): number[] {
  const found: number[] = [];
  let offset = 0;
  let afterScalarMarker = false;
  for (const token of new YAML.Lexer().lex(text)) {
    // The lexer's control tokens (document start, scalar and flow markers) are not in the text.
    if (token === '\x02' || token === '\x18' || token === '\x1f') {
      afterScalarMarker = token === '\x1f';
      continue;
    }
    if (token.startsWith('#') && !afterScalarMarker && token.includes('rulesets-disable')) found.push(offset + token.indexOf('rulesets-disable'));
    afterScalarMarker = false;
    offset += token.length;
  }
  return found;
}

describe('directives after typing in a string (the model re-read from the previous one)', () => {
  it('stay where they are: an edit inside a string changes no line and no comment', () => {
    const before = yaml(...HEAD, '  - action: block', '    expression: ip.proto == "tcp"', '  # rulesets-disable-next-line shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23', '  - action: block', '    expression: tcp.dstport == 25');
    const after = before.replace('ip.proto == "tcp"', 'ip.proto == "tcp" or ip.proto == "udp"');
    const previous = parseRuleset(before, 'yaml');
    assert.deepEqual(findings(before), ['11: warning shadowed-rule']);
    const reread = reparseAfterEdit(previous, after);
    assert.ok(reread, 'the edit inside one string is read without parsing the file again');
    const problemsAfter = checkParsedRuleset(reread, { cache: new ExpressionCache() });
    assert.deepEqual(problemsAfter, checkParsedRuleset(parseRuleset(after, 'yaml'), { cache: new ExpressionCache() }));
    assert.deepEqual(
      problemsAfter.map((p) => `${lineOf(after, p.start)}: ${p.code}`),
      ['11: shadowed-rule'],
    );
  });

  it('an edit that writes a directive-like text into a string adds no directive', () => {
    const before = yaml(...HEAD, ...BLOCK_TCP, '  - action: block', '    description: "telnet"', '    expression: tcp.dstport == 23');
    const after = before.replace('"telnet"', '"telnet # rulesets-disable shadowed-rule"');
    const reread = reparseAfterEdit(parseRuleset(before, 'yaml'), after);
    assert.ok(reread);
    assert.deepEqual(
      checkParsedRuleset(reread).map((p) => p.code),
      ['shadowed-rule'],
    );
  });
});

describe('the quick fix "Silence `code` on this line"', () => {
  function silenced(text: string, code: string): string {
    const model = parseRuleset(text, 'yaml');
    const problem = checkParsedRuleset(model).find((p) => p.code === code);
    assert.ok(problem, `${code} in the document`);
    const fix = silenceFix(model, problem);
    assert.ok(fix, `a fix to silence ${code}`);
    assert.equal(fix.title, `Silence \`${code}\` on this line`);
    return applied(text, fix.edits);
  }

  it('puts the directive above the line, indented like it', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  - action: block', '    expression: tcp.dstport == 23', '    descripton: telnet');
    const after = silenced(text, 'unknown-key');
    assert.equal(after, yaml(...HEAD, ...BLOCK_TCP, '  - action: block', '    expression: tcp.dstport == 23', '    # rulesets-disable-next-line unknown-key', '    descripton: telnet'));
    assert.deepEqual(findings(after), ['8: warning shadowed-rule']);
  });

  it('above the key of a `|` block when the finding is inside it', () => {
    const text = yaml(...HEAD, '  - action: block', '    expression: |', '      ip.src in {10.0.0.0/8', '        10.0.0.1}');
    const after = silenced(text, 'redundant-set-member');
    assert.equal(after, yaml(...HEAD, '  - action: block', '    # rulesets-disable-next-line redundant-set-member', '    expression: |', '      ip.src in {10.0.0.0/8', '        10.0.0.1}'));
    assert.deepEqual(findings(after), []);
  });

  it('above the line where a quoted string broken over lines starts', () => {
    const text = yaml(...HEAD, '  - action: block', '    expression: "ip.src in {10.0.0.0/8', '      10.0.0.1}"');
    const after = silenced(text, 'redundant-set-member');
    assert.ok(after.includes('    # rulesets-disable-next-line redundant-set-member\n    expression: "ip.src'), after);
    assert.deepEqual(findings(after), []);
  });

  it('adds the code to a directive already above the line', () => {
    const text = yaml(...HEAD, ...BLOCK_TCP, '  # rulesets-disable-next-line shadowed-rule', '  - action: block', '    expression: tcp.dstport == 23 and ip.src in {10.0.0.0/8 10.0.0.1}');
    const after = silenced(text, 'redundant-set-member');
    assert.ok(after.includes('  # rulesets-disable-next-line shadowed-rule, redundant-set-member\n'), after);
    assert.deepEqual(findings(after), []);
  });

  it('leaves a directive above all the rules as it is, which would silence the code in every rule', () => {
    const text = yaml(...HEAD.slice(0, 3), '# rulesets-disable-next-line shadowed-rule', 'rules:', ...BLOCK_TCP, '  - action: block', '    expression: ip.src in {10.0.0.0/8 10.0.0.1}');
    const after = silenced(text, 'redundant-set-member');
    assert.ok(after.includes('# rulesets-disable-next-line shadowed-rule\nrules:'), after);
    assert.ok(after.includes('    # rulesets-disable-next-line redundant-set-member\n    expression: ip.src'), after);
  });

  it('keeps the file CRLF', () => {
    const text = [...HEAD, '  - action: block', '    expression: ip.src in {10.0.0.0/8 10.0.0.1}', ''].join('\r\n');
    const after = silenced(text, 'redundant-set-member');
    assert.ok(after.includes('\r\n    # rulesets-disable-next-line redundant-set-member\r\n    expression:'), JSON.stringify(after));
    assert.deepEqual(findings(after), []);
  });

  it('is not offered for an error, nor in JSON', () => {
    const yamlModel = parseRuleset(yaml(...HEAD, '  - action: block', '    expression: tcp.dstprt == 22'), 'yaml');
    assert.equal(silenceFix(yamlModel, checkParsedRuleset(yamlModel)[0]), undefined);
    const jsonModel = parseRuleset(JSON.stringify({ name: 't', kind: 'root', phase: 'magic_transit', rules: [{ action: 'block', expression: 'ip.src in {10.0.0.0/8 10.0.0.1}' }] }), 'json');
    const warning = checkParsedRuleset(jsonModel)[0];
    assert.equal(warning.code, 'redundant-set-member');
    assert.equal(silenceFix(jsonModel, warning), undefined);
  });
});
