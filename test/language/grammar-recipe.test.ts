import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { grammar, grammarFromRecipeFile, grammarSource, recipeFileText, recipeOf } from '../../server/src/language/grammar';

const SAMPLES = [
  'ip.src in {10.0.0.0/8 192.0.2.1} and tcp.dstport == 22',
  'not (udp.dstport in {53 123} or icmp.type == 8)',
  'http.host matches r##"a"#b"##',
  'ip.src ==',
  'tcp.dstport in {80-90}',
];

describe('the compiled grammar shipped beside the bundle', () => {
  it('is the grammar of expression.ohm: the same recipe and the same verdicts', () => {
    const source = grammarSource();
    const loaded = grammarFromRecipeFile(recipeFileText(source), source);
    assert.ok(loaded, 'a recipe made from this grammar loads');
    assert.equal(recipeOf(loaded), recipeOf(grammar()));
    for (const text of SAMPLES) {
      const ours = loaded.match(text);
      const theirs = grammar().match(text);
      assert.equal(ours.succeeded(), theirs.succeeded(), text);
      if (ours.failed() && theirs.failed()) assert.equal(ours.getRightmostFailurePosition(), theirs.getRightmostFailurePosition(), text);
    }
  });

  it('is not used once the grammar has changed: the grammar is compiled from its source instead', () => {
    const source = grammarSource();
    const recipe = recipeFileText(source);
    assert.equal(grammarFromRecipeFile(recipe, source.replace('Filter = Logical end', 'Filter = Logical "!" end')), undefined);
  });

  it('is not used when the file is damaged', () => {
    assert.equal(grammarFromRecipeFile('{"key": "', grammarSource()), undefined);
  });
});
