/**
 * Regular expressions of the rules language, compiled for matching: `matches` in filters and
 * `regex_replace` in value expressions use the same syntax (the Rust `regex` crate's, checked and
 * translated to RE2 syntax by language/regex.ts) and the same byte-oriented reading. A value's
 * bytes are matched as Latin-1 text, one character per byte, by re2js, which runs in linear time
 * whatever the pattern (a rule's regex is user input).
 */
import { RE2JS } from 're2js';
import { checkRegex } from '../language/regex';

/** Compiled patterns by source; cleared when full, as a rule set has few distinct ones. */
const cache = new Map<string, RE2JS>();
const CACHE_SIZE = 1000;

/** The compiled regex, or why it cannot be matched here (an invalid pattern, a construct re2js lacks). */
export function compileRegex(source: string): RE2JS | { readonly problem: string } {
  const cached = cache.get(source);
  if (cached) return cached;
  const checked = checkRegex(source);
  if (!checked.ok) return { problem: `invalid regular expression \`${source}\`: ${checked.error.message}` };
  const { re2, lookbehinds, unsupported } = checked.translated;
  if (unsupported) return { problem: `cannot evaluate the regular expression \`${source}\`: it uses ${unsupported}, which \`rulesets test\` does not match` };
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(re2, lookbehinds ? RE2JS.LOOKBEHINDS : 0);
  } catch (error) {
    return { problem: `cannot evaluate the regular expression \`${source}\`: ${(error as Error).message}` };
  }
  if (cache.size >= CACHE_SIZE) cache.clear();
  cache.set(source, compiled);
  return compiled;
}

/** Bytes as the text the compiled regexes match: one character per byte. */
export function latin1(bytes: Uint8Array): string {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  return text;
}

/** The bytes of a text made by latin1(). */
export function fromLatin1(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}
