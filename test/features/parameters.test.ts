/**
 * The editor inside a rule's parameters: a value expression in `action_parameters.uri.path.expression`
 * (in JSON and every YAML style) is completed, explained, signature-helped and coloured as the
 * rule's `expression` is, by its kind; the quick fixes of the parameter checks come through the
 * code action feature; hover explains actions and parameter keys.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SemanticTokenTypes, type CompletionItem, type Hover, type MarkupContent, type TextEdit } from 'vscode-languageserver';

import { codeActions } from '../../server/src/features/code-actions';
import { completion } from '../../server/src/features/completion';
import { hover } from '../../server/src/features/hover';
import { SEMANTIC_TOKENS_LEGEND, semanticTokens } from '../../server/src/features/semantic-tokens';
import { signatureHelp } from '../../server/src/features/signature-help';
import type { DocumentModel } from '../../server/src/features/model';
import { applyEdits, atRewrite, HOSTS, modelOf, settings, takeCursor, textOf } from './harness';

function labels(model: DocumentModel, offset: number): string[] {
  return (completion(model, model.positionAt(offset), settings())?.items ?? []).map((i: CompletionItem) => i.label);
}

function contents(h: Hover | null): string {
  assert.ok(h, 'a hover');
  return (h.contents as MarkupContent).value;
}

describe('a value expression inside action_parameters, in every host style', () => {
  for (const host of HOSTS) {
    it(`${host}: completion offers what a value may use, and nothing of a filter`, () => {
      const { model, offset } = atRewrite(host, '|');
      const offered = labels(model, offset);
      for (const name of ['regex_replace', 'wildcard_replace', 'to_string', 'concat', 'http.request.uri.path', 'ip.src.timezone.name']) assert.ok(offered.includes(name), `${name} offered`);
      // One operand: no `not`, no group, no Booleans.
      for (const name of ['not', '(', 'true', 'false', 'any']) assert.ok(!offered.includes(name), `${name} not offered`);
      // After a complete operand nothing follows: no operator, no connective.
      const after = atRewrite(host, 'http.request.uri.path |');
      assert.deepEqual(labels(after.model, after.offset), []);
      // Inside a call: the argument's fields.
      const argument = atRewrite(host, 'concat("/v2", http.request.uri.p|)');
      assert.ok(labels(argument.model, argument.offset).includes('http.request.uri.path'));
    });

    it(`${host}: the rule's own filter does not offer the value-only functions`, () => {
      const { text } = atRewrite(host, 'x').model;
      const marked = host === 'json' ? text.replace('"expression": "true"', '"expression": "|"') : text.replace('expression: "true"', 'expression: "|"');
      const { text: clean, offset } = takeCursor(marked);
      const offered = labels(modelOf(clean, host === 'json' ? 'json' : 'yaml'), offset);
      assert.ok(offered.includes('starts_with') && !offered.includes('regex_replace') && !offered.includes('ip.src.timezone.name'));
    });

    it(`${host}: hover and signature help`, () => {
      const field = atRewrite(host, 'regex_replace(http.request.uri.pa|th, "^/v1/", "/v2/")');
      const fieldHover = hover(field.model, field.position, settings());
      assert.match(contents(fieldHover), /http\.request\.uri\.path/);
      assert.equal(textOf(field.model.text, fieldHover!.range!), 'http.request.uri.path');
      const fn = atRewrite(host, 'regex_re|place(http.request.uri.path, "^/v1/", "/v2/")');
      assert.match(contents(hover(fn.model, fn.position, settings())), /value expressions only/);
      const inCall = atRewrite(host, 'regex_replace(http.request.uri.path, |');
      const help = signatureHelp(inCall.model, inCall.position, settings());
      assert.ok(help, 'signature help');
      assert.match(help.signatures[0].label, /^regex_replace\(/);
      assert.equal(help.activeParameter, 1);
    });

    it(`${host}: semantic tokens colour the value expression`, () => {
      const { model } = atRewrite(host, 'regex_replace(http.request.uri.path, "^/v1/", "/v2/")|');
      const { data } = semanticTokens(model, settings());
      const types: string[] = [];
      for (let i = 0; i < data.length; i += 5) types.push(SEMANTIC_TOKENS_LEGEND.tokenTypes[data[i + 3]]);
      // The rule's own `true`, then the function, the field and the two strings of the rewrite.
      assert.deepEqual(types, [SemanticTokenTypes.keyword, SemanticTokenTypes.function, SemanticTokenTypes.property, SemanticTokenTypes.string, SemanticTokenTypes.string]);
    });
  }

  it('a mistake in the nested expression has its fix through the code actions, on its own characters', () => {
    for (const host of HOSTS) {
      const { model, offset } = atRewrite(host, 'concat("/v2", http.request.uri.pth|)');
      const position = model.positionAt(offset - 1);
      const actions = codeActions(model, { start: position, end: position }, { diagnostics: [] }, settings());
      const fix = actions.find((a) => a.title.includes('http.request.uri.path'));
      assert.ok(fix, `${host}: a fix among ${actions.map((a) => a.title).join(' | ')}`);
      const fixed = applyEdits(model.text, fix.edit!.changes![model.uri] as TextEdit[]);
      const after = modelOf(fixed, model.format);
      assert.deepEqual(after.problems(settings()), [], `${host}: clean after the fix`);
    }
  });
});

describe('quick fixes of the parameter checks', () => {
  const fixOf = (marked: string, format: 'json' | 'yaml', title: RegExp) => {
    const { text, offset } = takeCursor(marked);
    const model = modelOf(text, format);
    const position = model.positionAt(offset);
    const actions = codeActions(model, { start: position, end: position }, { diagnostics: [] }, settings());
    const action = actions.find((a) => title.test(a.title));
    assert.ok(action, `${title} among ${actions.map((a) => a.title).join(' | ')}`);
    const fixed = applyEdits(text, action.edit!.changes![model.uri] as TextEdit[]);
    return { fixed, problems: modelOf(fixed, format).problems(settings()) };
  };

  it('a misspelt parameter key, in YAML and JSON', () => {
    const yaml = fixOf('name: t\nkind: zone\nphase: http_request_origin\nrules:\n  - action: route\n    expression: "true"\n    action_parameters:\n      host_hea|dr: www.example.com\n', 'yaml', /host_header/);
    assert.match(yaml.fixed, /\n {6}host_header: www\.example\.com\n/);
    assert.deepEqual(yaml.problems, []);
    const json = fixOf('{"name": "t", "kind": "zone", "phase": "http_request_origin", "rules": [{"action": "route", "expression": "true", "action_parameters": {"host_hea|dr": "www.example.com"}}]}', 'json', /host_header/);
    assert.match(json.fixed, /"host_header": "www\.example\.com"/);
    assert.deepEqual(json.problems, []);
  });

  it('a wrong value: a status code written as a string, an algorithm misspelt', () => {
    const status = fixOf(
      'name: t\nkind: zone\nphase: http_request_dynamic_redirect\nrules:\n  - action: redirect\n    expression: "true"\n    action_parameters:\n      from_value:\n        status_code: "3|01"\n        target_url:\n          value: https://example.com/\n',
      'yaml',
      /301/,
    );
    assert.match(status.fixed, /status_code: 301\n/);
    assert.deepEqual(status.problems, []);
    const algorithm = fixOf(
      '{"name": "t", "kind": "zone", "phase": "http_response_compression", "rules": [{"action": "compress_response", "expression": "true", "action_parameters": {"algorithms": [{"name": "brotl|"}]}}]}',
      'json',
      /brotli/,
    );
    assert.match(algorithm.fixed, /"name": "brotli"/);
    assert.deepEqual(algorithm.problems, []);
  });

  it("a cache key's query string in its older form: the fix to today's form", () => {
    const all = fixOf('{"name": "t", "kind": "zone", "phase": "http_request_cache_settings", "rules": [{"action": "set_cache_settings", "expression": "true", "action_parameters": {"cache_key": {"custom_key": {"query_string": {"exclude": "|*"}}}}}]}', 'json', /\{"all": true\}/);
    assert.match(all.fixed, /"exclude": \{"all": true\}/);
    assert.deepEqual(all.problems, []);
  });
});

describe('hover on actions and parameter keys', () => {
  const hoverAt = (marked: string, format: 'json' | 'yaml') => {
    const { text, offset } = takeCursor(marked);
    const model = modelOf(text, format);
    const h = hover(model, model.positionAt(offset), settings());
    return { text: contents(h), range: textOf(text, h!.range!) };
  };

  it('an action: what it does, the phases that take it, what is checked of its parameters', () => {
    const redirect = hoverAt('name: t\nkind: zone\nphase: http_request_dynamic_redirect\nrules:\n  - action: redi|rect\n    expression: "true"\n', 'yaml');
    assert.equal(redirect.range, 'redirect');
    assert.match(redirect.text, /Allowed in the phases `http_request_dynamic_redirect`, `http_request_redirect`\./);
    assert.match(redirect.text, /Its `action_parameters` \(`from_list`, `from_value`\) are checked/);
    assert.doesNotMatch(redirect.text, /not checked yet/);
    // The rule's summary speaks of packets: not in an HTTP phase.
    assert.doesNotMatch(redirect.text, /packet/);
    // In a phase that does not take it: said so, with the phase's own actions.
    const waf = hoverAt('{"name": "t", "kind": "zone", "phase": "http_request_firewall_custom", "rules": [{"action": "rou|te", "expression": "true"}]}', 'json');
    assert.match(waf.text, /Not an action of `http_request_firewall_custom`, which takes `block`/);
    assert.match(waf.text, /Allowed in the phases `http_request_origin`\./);
  });

  it('a parameter key: type, required or not, allowed values, the note, the phases of its action', () => {
    const status = hoverAt('name: t\nkind: zone\nphase: http_request_dynamic_redirect\nrules:\n  - action: redirect\n    expression: "true"\n    action_parameters:\n      from_value:\n        status_c|ode: 301\n', 'yaml');
    assert.equal(status.range, 'status_code');
    assert.match(status.text, /^\(parameter\) `status_code`/);
    assert.match(status.text, /`status_code`: number \(301, 302, 303, 307, 308\), optional \(a parameter of `redirect`\)\./);
    assert.match(status.text, /Allowed: `301`, `302`, `303`, `307`, `308`\./);
    assert.match(status.text, /`redirect` is allowed in the phases `http_request_dynamic_redirect`, `http_request_redirect`\./);
    const target = hoverAt('{"name": "t", "kind": "zone", "phase": "http_request_dynamic_redirect", "rules": [{"action": "redirect", "expression": "true", "action_parameters": {"from_value": {"target_u|rl": {"value": "https://example.com/"}}}}]}', 'json');
    assert.equal(target.range, '"target_url"');
    assert.match(target.text, /object, required/);
    assert.match(target.text, /Exactly one of `value`, `expression`\./);
    const period = hoverAt('{"name": "t", "kind": "zone", "phase": "http_ratelimit", "rules": [{"action": "block", "expression": "true", "ratelimit": {"per|iod": 60}}]}', 'json');
    assert.match(period.text, /required \(in the rule's `ratelimit`\)/);
  });

  it("a cache key's query string: hover and completion give today's form only, not the older ones the check takes", () => {
    const exclude = hoverAt('name: t\nkind: zone\nphase: http_request_cache_settings\nrules:\n  - action: set_cache_settings\n    expression: "true"\n    action_parameters:\n      cache_key:\n        custom_key:\n          query_string:\n            excl|ude: {all: true}\n', 'yaml');
    assert.match(exclude.text, /`exclude`: object, optional/);
    const { text, offset } = takeCursor('name: t\nkind: zone\nphase: http_request_cache_settings\nrules:\n  - action: set_cache_settings\n    expression: "true"\n    action_parameters:\n      cache_key:\n        custom_key:\n          query_string:\n            exclude: |\n');
    assert.ok(!labels(modelOf(text, 'yaml'), offset).includes('*'));
  });

  it('a rule-level object: its keys and where it belongs; an unknown key: nothing', () => {
    const ratelimit = hoverAt('name: t\nkind: zone\nphase: http_ratelimit\nrules:\n  - action: block\n    expression: "true"\n    rate|limit:\n      period: 60\n', 'yaml');
    assert.match(ratelimit.text, /^\(rule key\) `ratelimit`/);
    assert.match(ratelimit.text, /`characteristics` \(required\)/);
    assert.match(ratelimit.text, /Allowed in the phases `http_ratelimit`/);
    const { text, offset } = takeCursor('name: t\nkind: zone\nphase: http_request_origin\nrules:\n  - action: route\n    expression: "true"\n    action_parameters:\n      host_hea|dr: x\n');
    const model = modelOf(text, 'yaml');
    assert.equal(hover(model, model.positionAt(offset), settings()), null);
  });
});
