import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CompletionItemKind, InsertTextFormat, type CompletionItem, type CompletionList, type Range } from 'vscode-languageserver/node';
import { completion } from '../../server/src/features/completion';
import { itemDefaultsSupport, withItemDefaults } from '../../server/src/server/completion-defaults';
import { modelOf, settings } from '../features/harness';

const ALL = itemDefaultsSupport(['commitCharacters', 'editRange', 'insertTextFormat', 'insertTextMode', 'data']);

/** The items as a client reads them (LSP 3.17, CompletionList.itemDefaults and CompletionItem.textEditText). */
function asRead(list: CompletionList): CompletionItem[] {
  return list.items.map((item) => {
    const { textEditText, ...read } = item;
    const range = list.itemDefaults?.editRange as Range | undefined;
    if (read.textEdit === undefined && range) read.textEdit = { range, newText: textEditText ?? item.label };
    read.insertTextFormat = item.insertTextFormat ?? list.itemDefaults?.insertTextFormat ?? InsertTextFormat.PlainText;
    return read;
  });
}

/** The items as given, with an omitted format read as plain text, as the protocol says. */
function asGiven(list: CompletionList): CompletionItem[] {
  return list.items.map((item) => ({ ...item, insertTextFormat: item.insertTextFormat ?? InsertTextFormat.PlainText }));
}

const EXAMPLES = join(__dirname, '..', '..', 'examples');

describe('completion item defaults', () => {
  it('read back as the protocol says, every answer in the examples is the one given', () => {
    let lists = 0;
    let factored = 0;
    for (const name of readdirSync(EXAMPLES).filter((n) => /\.ruleset\.(json|yaml)$/.test(n))) {
      const text = readFileSync(join(EXAMPLES, name), 'utf8');
      const model = modelOf(text, name.endsWith('.json') ? 'json' : 'yaml', `file:///work/${name}`);
      for (let offset = 0; offset <= text.length; offset += 3) {
        const list = completion(model, model.positionAt(offset), settings());
        if (!list) continue;
        lists++;
        const sent = withItemDefaults(list, ALL)!;
        if (sent.itemDefaults) factored++;
        assert.deepEqual(asRead(sent), asGiven(list), `${name} at ${offset}`);
      }
    }
    assert.ok(factored > lists / 4, `${factored} of ${lists} answers say what their items share once`);
  });

  it('an HTTP field list says its range once: a smaller answer', () => {
    const text = 'name: t\nkind: zone\nphase: http_request_firewall_custom\nrules:\n  - action: block\n    expression: http.request.uri.path eq "/" and http.\n';
    const model = modelOf(text, 'yaml');
    const list = completion(model, model.positionAt(text.lastIndexOf('http.') + 'http.'.length), settings())!;
    assert.ok(list.items.length > 100, `${list.items.length} items`);
    const sent = withItemDefaults(list, ALL)!;
    assert.ok(sent.itemDefaults?.editRange, 'the shared range is a default');
    assert.ok(sent.items.every((item) => item.textEdit === undefined), 'no item repeats it');
    assert.ok(JSON.stringify(sent).length < 0.8 * JSON.stringify(list).length, `${JSON.stringify(sent).length} against ${JSON.stringify(list).length} characters`);
  });

  it('only what the client reads', () => {
    const range = { start: { line: 0, character: 1 }, end: { line: 0, character: 3 } };
    const list: CompletionList = {
      isIncomplete: false,
      items: ['a', 'b'].map((label) => ({ label, kind: CompletionItemKind.Field, textEdit: { range, newText: label }, insertTextFormat: InsertTextFormat.PlainText })),
    };
    assert.equal(withItemDefaults(list, itemDefaultsSupport(undefined)), list);
    assert.deepEqual(withItemDefaults(list, itemDefaultsSupport(['editRange']))!.itemDefaults, { editRange: range });
    assert.deepEqual(withItemDefaults(list, itemDefaultsSupport(['insertTextFormat']))!.itemDefaults, { insertTextFormat: InsertTextFormat.PlainText });
  });

  it('no default range where an item has no edit of its own, which would take the default', () => {
    const range = { start: { line: 0, character: 1 }, end: { line: 0, character: 3 } };
    const list: CompletionList = {
      isIncomplete: false,
      items: [{ label: 'a', textEdit: { range, newText: 'a' } }, { label: 'b', textEdit: { range, newText: 'b()' } }, { label: 'c', insertText: 'c' }],
    };
    const sent = withItemDefaults(list, ALL)!;
    assert.equal(sent.itemDefaults?.editRange, undefined);
    assert.deepEqual(asRead(sent), asGiven(list));
  });

  it('a snippet default leaves an item without a format, which is plain text, saying so', () => {
    const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    const other = { start: { line: 1, character: 0 }, end: { line: 1, character: 2 } };
    const list: CompletionList = {
      isIncomplete: false,
      items: [
        { label: 'f', textEdit: { range, newText: 'f($1)' }, insertTextFormat: InsertTextFormat.Snippet },
        { label: 'g', textEdit: { range, newText: 'g($1)' }, insertTextFormat: InsertTextFormat.Snippet },
        { label: 'x', textEdit: { range: other, newText: 'x' } },
      ],
    };
    const sent = withItemDefaults(list, ALL)!;
    assert.deepEqual(sent.itemDefaults, { editRange: range, insertTextFormat: InsertTextFormat.Snippet });
    assert.equal(sent.items[2].insertTextFormat, InsertTextFormat.PlainText);
    assert.deepEqual(sent.items[2].textEdit, { range: other, newText: 'x' }, 'an item of another range keeps its edit');
    assert.equal(sent.items[0].textEditText, 'f($1)');
    assert.deepEqual(asRead(sent), asGiven(list));
  });
});
