// Generates the TextMate grammars in syntaxes/ (see syntaxes/README.md):
//
//   node scripts/syntaxes.mjs            writes syntaxes/*.tmLanguage.json
//   node scripts/syntaxes.mjs DIR        writes them into DIR instead
//
// The expression language is written into several kinds of host text, and each spells the
// expression's own `"` and `\` differently, or ends differently:
//
//   plain         the expression as it is: the standalone grammar, YAML block scalars
//   yaml-plain    a YAML plain scalar: as it is, but ` #` starts a YAML comment
//   json          inside a JSON string: `\"`, `\\`, and any `\uXXXX`, `\n`, ... escape
//   yaml-double   inside a YAML double-quoted scalar: `\"`, `\\`, and YAML's escapes
//   yaml-single   inside a YAML single-quoted scalar: `''` is one quote
//
// so the expression patterns are generated once per host quoting style ("variant"). Every
// pattern of a variant consumes the host's escapes whole, so that a pattern can never start
// in the middle of one (`\\"` is an escaped backslash and then the closing quote, not a
// backslash and then `\"`), and every rule that can span text (strings) also ends where the
// host string ends, so a broken expression never runs past its host string.
//
// No dependencies: plain Node. Run it after editing this file; a test checks that the
// committed grammars are what it generates.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// ---------------------------------------------------------------- the language's words

/**
 * Functions of every phase (the catalogue's, server/src/language/catalogue/generated/functions.ts;
 * a test holds the two together). `contains` and `wildcard` are also operators: the operator
 * rule reads them first, a call of them is still coloured as a call by the server.
 */
export const FUNCTIONS = [
  'bit_slice', 'cidr', 'cidr6', 'coalesce', 'concat', 'contains', 'decode_base64', 'encode_base64', 'ends_with', 'has_key',
  'has_value', 'hash_in_range', 'hmac', 'ip_in_range', 'is_jwt_present', 'is_jwt_valid', 'is_timed_hmac_valid_v0', 'join', 'len',
  'lookup_json_integer', 'lookup_json_string', 'lower', 'regex_replace', 'remove_bytes', 'remove_query_args', 'sha256', 'sha512',
  'split', 'starts_with', 'substring', 'to_string', 'trim', 'trim_end', 'trim_start', 'upper', 'url_decode', 'uuidv4', 'wildcard',
  'wildcard_replace',
];
/** `any(…)` and `all(…)`: logical terms around a comparison over `[*]`, not calls. */
export const QUANTIFIERS = ['any', 'all'];
/** English logical operators (LANGUAGE.md §2). */
export const LOGICAL_WORDS = ['and', 'or', 'xor', 'not'];
/** Symbol logical operators; `!` is `not`. */
export const LOGICAL_SYMBOLS = ['&&', '||', '^^', '!'];
/** English comparison operators (`strict wildcard` is one operator, `strict` alone is still a keyword). */
export const COMPARISON_WORDS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'in', 'contains', 'matches', 'wildcard', 'bitwise_and', 'strict'];
/** Symbol comparison operators, and `=`, which the server reads as `==` to offer a fix. */
export const COMPARISON_SYMBOLS = ['==', '!=', '<=', '>=', '<', '>', '~', '&', '='];
export const BOOLEANS = ['true', 'false'];

/**
 * The keys whose value is an expression: a rule's filter, and the expressions inside its
 * parameters (`expression` of `target_url`, `uri.path`, `uri.query` and each header;
 * `counting_expression` of `ratelimit`; the two of `exposed_credential_check`), which are
 * coloured as the filter is. Any other key (`my_expression`) is the host's.
 */
const KEYS = ['expression', 'counting_expression', 'username_expression', 'password_expression'];
const KEY = `(?:${KEYS.join('|')})`;

// ---------------------------------------------------------------- regex pieces

const escapeRegex = (text) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
const alternatives = (words) => words.map(escapeRegex).join('|');

/** The characters of a word: field names and bare values alike (`lex.ts` `isWordChar`). */
const WORD = 'A-Za-z0-9_.:/-';
/**
 * Word boundaries. A word is a run of word characters, and each class below must match a
 * whole word, so that no class colours part of another word (`in` in `ip.in`, `10` in
 * `10.0.0.0`). `..` (a range) separates two words: `1..1024`, `10.0.0.1..10.0.0.9`.
 */
const START = `(?:(?<![${WORD}])|(?<=\\.\\.))`;
// The end: no word character follows, but a `.` may if it starts `..`.
const END = `(?![A-Za-z0-9_:/-]|\\.(?!\\.))`;
const word = (body) => `${START}(?:${body})${END}`;

const HEX = '[0-9A-Fa-f]';
const IPV4 = '(?:[0-9]{1,3}\\.){3}[0-9]{1,3}';
const H16 = `${HEX}{1,4}`;
const IPV6 = `(?:(?:${H16}:){7}${H16}|(?:${H16}:){6}${IPV4}|(?:${H16}(?::${H16}){0,6})?::(?:(?:${H16}:){0,5}(?:${H16}|${IPV4}))?)`;

// ---------------------------------------------------------------- host quoting styles

/** A host that writes the expression's `"` and `\` as they are. */
function asWritten(hostEnd = undefined, hostEscapes = []) {
  return { quote: '"', backslash: '\\\\', escapeScope: undefined, hostEscapes, hostEnd };
}

/** A host double-quoted string with backslash escapes (JSON, YAML): `\"` and `\\`, ending at a bare `"`. */
function insideDoubleQuotes(escapeScope, hostEscapes) {
  return { quote: '\\\\"', backslash: '\\\\\\\\', escapeScope, hostEscapes, hostEnd: '(?=")' };
}

/**
 * How a host spells the expression's text.
 * - `quote`, `backslash`: the expression's `"` and `\` as the host writes them (regex).
 * - `hostEscapes`: patterns for the host's escapes, tried after the expression's own tokens.
 * - `escapeScope`: the scope of a host escape, added to the expression tokens written with one.
 * - `hostEnd`: lookahead for where the host string ends (a string of the expression ends there too).
 */
const VARIANTS = {
  plain: asWritten(),
  // A YAML comment: ` #` ends a plain scalar, wherever it is.
  'yaml-plain': asWritten('(?=[\\t ]+#)'),
  // JSON.tmLanguage.json's `stringcontent`.
  json: insideDoubleQuotes('constant.character.escape.json', [
    { match: '\\\\(?:["\\\\/bfnrt]|u[0-9a-fA-F]{4})', name: 'constant.character.escape.json' },
    { match: '\\\\.', name: 'invalid.illegal.unrecognized-string-escape.json' },
  ]),
  // yaml-1.2.tmLanguage.json's `double-escape` (a `\` at the end of a line escapes the line break).
  'yaml-double': insideDoubleQuotes('constant.character.escape.yaml', [
    { match: '\\\\[\\r\\n\\t0abtnvfre "/\\\\N_LP]', name: 'constant.character.escape.yaml' },
    { match: '\\\\x[0-9a-fA-F]{2}', name: 'constant.character.escape.unicode.8-bit.yaml' },
    { match: '\\\\u[0-9a-fA-F]{4}', name: 'constant.character.escape.unicode.16-bit.yaml' },
    { match: '\\\\U[0-9a-fA-F]{8}', name: 'constant.character.escape.unicode.32-bit.yaml' },
    { match: '\\\\.?', name: 'invalid.illegal.constant.character.escape.yaml' },
  ]),
  'yaml-single': asWritten("(?='(?!'))", [{ match: "''", name: 'constant.character.escape.single-quote.yaml' }]),
};

/** A scope, plus the host's escape scope when the host writes this token with an escape. */
function escaped(scope, variant) {
  return variant.escapeScope ? `${scope} ${variant.escapeScope}` : scope;
}

// ---------------------------------------------------------------- expression patterns

/**
 * The repository entries of one variant: `expression-<variant>` is the expression's
 * tokens, and the entries it includes.
 */
function expressionRepository(id) {
  const v = VARIANTS[id];
  const suffix = `-${id}`;
  // Rules that can span text end at their closing delimiter, where the host string ends, or
  // at the end of the line: a string literal is never continued on the next line.
  const spanEnd = (close) => [close, v.hostEnd, '$'].filter(Boolean).join('|');
  const hostEscapes = v.hostEscapes.length > 0 ? [{ include: `#host-escapes${suffix}` }] : [];

  const repository = {
    [`expression${suffix}`]: {
      patterns: [
        { include: `#string${suffix}` },
        { include: `#raw-string${suffix}` },
        ...hostEscapes,
        { include: `#list${suffix}` },
        { include: `#index${suffix}` },
        { include: `#words${suffix}` },
        { include: `#values${suffix}` },
        { include: `#operators${suffix}` },
        { include: `#punctuation${suffix}` },
      ],
    },

    [`string${suffix}`]: {
      name: 'string.quoted.double.rulesets',
      begin: `(${v.quote})`,
      beginCaptures: { 1: { name: escaped('punctuation.definition.string.begin.rulesets', v) } },
      end: spanEnd(`(${v.quote})`),
      endCaptures: { 1: { name: escaped('punctuation.definition.string.end.rulesets', v) } },
      patterns: [
        {
          // The expression's escapes: \" \\ \xHH \OOO.
          match: `(${v.backslash})(?:(${v.quote}|${v.backslash})|x${HEX}{2}|[0-7]{3})`,
          name: 'constant.character.escape.rulesets',
          captures: v.escapeScope ? { 1: { name: v.escapeScope }, 2: { name: v.escapeScope } } : undefined,
        },
        {
          // Any other backslash (`"\n"` is an error in the language): the backslash alone, so
          // that what follows it is read as usual.
          match: `(${v.backslash})`,
          name: 'invalid.illegal.unknown-escape.rulesets',
          captures: v.escapeScope ? { 1: { name: v.escapeScope } } : undefined,
        },
        ...hostEscapes,
      ],
    },

    [`raw-string${suffix}`]: {
      // r"…", r#"…"#, r##"…"##: no escapes, the closing fence repeats the opening one.
      name: 'string.quoted.raw.rulesets',
      begin: `(?<![${WORD}])(r)(#*)(${v.quote})`,
      beginCaptures: {
        1: { name: 'storage.type.string.rulesets' },
        2: { name: 'punctuation.definition.string.begin.rulesets' },
        3: { name: escaped('punctuation.definition.string.begin.rulesets', v) },
      },
      end: spanEnd(`(${v.quote})(\\2)`),
      endCaptures: {
        1: { name: escaped('punctuation.definition.string.end.rulesets', v) },
        2: { name: 'punctuation.definition.string.end.rulesets' },
      },
      patterns: hostEscapes,
    },

    [`list${suffix}`]: {
      match: '(\\$)[A-Za-z0-9_.]*',
      name: 'variable.other.constant.list.rulesets',
      captures: { 1: { name: 'punctuation.definition.variable.rulesets' } },
    },

    [`index${suffix}`]: {
      // An index step after a field, a call or another step: `["x-api-key"]`, `[0]`, `[*]`. It
      // ends at its `]`, where the host string ends, or at the end of the line.
      name: 'meta.index.rulesets',
      begin: '(?<=[A-Za-z0-9_)\\]])(\\[)',
      beginCaptures: { 1: { name: 'punctuation.section.index.begin.rulesets' } },
      end: spanEnd('(\\])'),
      endCaptures: { 1: { name: 'punctuation.section.index.end.rulesets' } },
      patterns: [
        { include: `#string${suffix}` },
        { include: `#raw-string${suffix}` },
        ...hostEscapes,
        { match: '\\*', name: 'keyword.operator.each.rulesets' },
        { match: word('[0-9]+'), name: 'constant.numeric.integer.decimal.rulesets' },
      ],
    },

    [`words${suffix}`]: {
      patterns: [
        { match: `${START}(?:${alternatives(QUANTIFIERS)})(?=[ \\t]*\\()`, name: 'keyword.operator.quantifier.rulesets' },
        { match: word(alternatives(LOGICAL_WORDS)), name: 'keyword.operator.logical.rulesets' },
        { match: word(`strict +wildcard|${alternatives(COMPARISON_WORDS)}`), name: 'keyword.operator.word.rulesets' },
        { match: word(alternatives(BOOLEANS)), name: 'constant.language.boolean.rulesets' },
        { match: `${START}(?:${alternatives(FUNCTIONS)})(?=[ \\t]*\\()`, name: 'support.function.rulesets' },
        { match: `${START}[A-Za-z_][A-Za-z0-9_]*(?=[ \\t]*\\()`, name: 'entity.name.function.rulesets' },
      ],
    },

    [`values${suffix}`]: {
      patterns: [
        // Dotted decimal first: `01.02.03.04` is an address, as the server reads it.
        { match: word(`${IPV4}(?:/[0-9]{1,3})?`), name: 'constant.numeric.ip.rulesets' },
        // Hex bytes before IPv6: `10:20:30:40:50:60:70:80` is bytes by its shape (it is an
        // address only after an IP field, which the server's semantic tokens tell).
        { match: word(`${HEX}{2}(?:[:.-]${HEX}{2})+`), name: 'string.unquoted.bytes.rulesets' },
        { match: word(`${IPV6}(?:/[0-9]{1,3})?`), name: 'constant.numeric.ip.rulesets' },
        { match: word('-?0x[0-9A-Fa-f]+'), name: 'constant.numeric.integer.hexadecimal.rulesets' },
        { match: word('-?0[0-7]+'), name: 'constant.numeric.integer.octal.rulesets' },
        { match: word('-?(?:0|[1-9][0-9]*)'), name: 'constant.numeric.integer.decimal.rulesets' },
        // A malformed number (`080`, `0x`, `12ab`) is still coloured as one, as the server does.
        { match: word('-?[0-9][0-9A-Za-z_]*'), name: 'constant.numeric.integer.rulesets' },
        // Fields: a dotted name (a trailing dot while typing `ip.src.` keeps the colour).
        { match: word('[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z0-9_]+)*\\.?'), name: 'variable.other.field.rulesets' },
      ],
    },

    [`operators${suffix}`]: {
      patterns: [
        { match: '\\.\\.', name: 'keyword.operator.range.rulesets' },
        { match: '&&|\\|\\||\\^\\^|!(?!=)', name: 'keyword.operator.logical.rulesets' },
        { match: '==|!=|<=|>=|<|>|~|&|=', name: 'keyword.operator.comparison.rulesets' },
      ],
    },

    [`punctuation${suffix}`]: {
      patterns: [
        { match: '\\(', name: 'punctuation.section.parens.begin.rulesets' },
        { match: '\\)', name: 'punctuation.section.parens.end.rulesets' },
        { match: '\\{', name: 'punctuation.section.set.begin.rulesets' },
        { match: '\\}', name: 'punctuation.section.set.end.rulesets' },
        { match: ',', name: 'punctuation.separator.comma.rulesets' },
      ],
    },
  };
  if (v.hostEscapes.length > 0) repository[`host-escapes${suffix}`] = { patterns: v.hostEscapes };
  return repository;
}

// ---------------------------------------------------------------- the grammars

const EMBEDDED = 'meta.embedded.expression.rulesets';

/**
 * A host's quoted string that holds an expression: the host's string scope and punctuation
 * (`begin` and `end` capture the quotes), the expression inside.
 */
function embeddedString(begin, end, host, kind, variant) {
  return {
    name: `string.quoted.${kind}.${host}`,
    begin,
    beginCaptures: { 1: { name: `punctuation.definition.string.begin.${host}` } },
    end,
    endCaptures: { 1: { name: `punctuation.definition.string.end.${host}` } },
    contentName: EMBEDDED,
    patterns: [{ include: `#expression-${variant}` }],
  };
}

const GENERATED = 'Generated by scripts/syntaxes.mjs: edit that file and run `node scripts/syntaxes.mjs`.';

function expressionGrammar() {
  return {
    $comment: GENERATED,
    name: 'Rulesets expression',
    scopeName: 'source.rulesets-expression',
    patterns: [{ include: '#expression-plain' }],
    repository: expressionRepository('plain'),
  };
}

/**
 * JSON and JSON with Comments (VS Code's JSON.tmLanguage.json, JSONC.tmLanguage.json). The
 * host reads a key, then `:` starts `meta.structure.dictionary.value.json`, which ends at
 * `,` or before `}`. The injection only replaces the string inside that value, found by
 * looking back at the key on the same line, so the host's own rules stay in charge of
 * everything around it (the `,` and the next key are the host's as if there were no
 * injection). A value on the line after `"expression":` is found too.
 */
function jsonGrammar() {
  const key = `"${KEY}"`;
  const string = (begin) => embeddedString(begin, '(")', 'json', 'double', 'json');
  return {
    $comment: GENERATED,
    name: 'Rulesets expressions in JSON',
    scopeName: 'rulesets.injection.json',
    injectionSelector: 'L:meta.structure.dictionary.value.json - string - comment',
    patterns: [{ include: '#value' }, { include: '#value-on-next-line' }],
    repository: {
      value: string(`(?<=${key}\\s*:\\s*)(")`),
      'value-on-next-line': {
        // `"expression":` ends its line: the string is the next thing on a later line.
        begin: `(?<=${key}\\s*:)[\\t ]*\\n`,
        end: '(?<=")|(?=[^\\s"])',
        patterns: [{ include: '#value-string' }],
      },
      'value-string': string('(")'),
      ...expressionRepository('json'),
    },
  };
}

/**
 * YAML (VS Code's yaml.tmLanguage.json and yaml-1.x.tmLanguage.json, RedCMD's
 * YAML-Syntax-Highlighter). The host reads the key `expression` and the `:` that starts
 * `meta.map.value.yaml`; the injection starts right after that `:` (looking back at the key
 * from the start of its line, as a plain key of a mapping or as the first key of a sequence
 * item `- expression:`) and holds the value in a `while` rule that goes on over the lines
 * indented deeper than the key, blank lines and comment lines, which is where the host's own
 * value goes on too. Inside, each scalar style is read by its own rule; any other kind of
 * value (a mapping, a sequence, an alias…) is left to the host's own rules.
 */
function yamlGrammar() {
  const keys = `(?:${KEY}|"${KEY}"|'${KEY}')`;
  // What the host's `block-plain-out` accepts as the first character of a plain scalar.
  const plainStart = "(?=[\\x{85}[^-?:,\\[\\]{}#&*!|>'\"%@` \\p{Cntrl}\\p{Surrogate}\\x{FEFF FFFE FFFF}]]|[?:-](?![\\r\\n\\t ]))";
  // A line that reads as `key: value` is a mapping, not a plain scalar (YAML allows no `: ` in one).
  const notMapping = '(?!(?:[^#\\n]|(?<![\\t ])#)*?:[\\t \\n])';
  const blockHeader = '[|>](?:[+-][1-9]?|[1-9][+-]?)?(?=[\\t ]|\\n)';
  // The value starts right after `key: ` or on a later line (then after indentation only).
  const valueStart = '(?<=^[\\t ]*|:[\\t ]+)';
  const value = (prefix, more) => ({
    // Starts after the `:` and the spaces after it (or the line break), only before a value
    // the rules below read, so that anything else stays the host's.
    begin: `(?<=:)(?<=^([\\t ]*)${prefix}${keys}[\\t ]*:)(?:([\\t ]++)(?=["']|${plainStart}${notMapping}|${blockHeader}|#)|[\\t ]*+\\n)`,
    beginCaptures: { [more ? 3 : 2]: { name: 'punctuation.whitespace.separator.yaml' } },
    // Goes on over blank lines, comment lines and lines indented deeper than the key. Matches
    // nothing (`\G`, where the host's own `while` rules left off), so the host's rules below
    // read the line from where they would have.
    while: `\\G(?=[\\t ]*+(?:\\n|#|(?<=^\\1 ${more ? '\\2 ' : ''}[\\t ]*)\\S))`,
    patterns: [
      { include: '#plain' },
      { include: '#double-quoted' },
      { include: '#single-quoted' },
      { include: '#block' },
      { include: 'source.yaml.1.2#block-node' },
    ],
  });
  return {
    $comment: [GENERATED, ...REDCMD_NOTICE],
    name: 'Rulesets expressions in YAML',
    scopeName: 'rulesets.injection.yaml',
    injectionSelector: 'L:meta.map.value.yaml - string - comment - meta.scalar.yaml - meta.flow',
    patterns: [{ include: '#value' }, { include: '#value-in-sequence' }],
    repository: {
      value: value('', false),
      // `- expression:`: the key's column counts from the `-`, its indentation and the spaces after it.
      'value-in-sequence': value('-([\\t ]++)', true),
      plain: {
        begin: `${valueStart}${plainStart}${notMapping}`,
        // A comment ends a plain scalar (the host goes on with the comment).
        end: '(?=[\\t ]+#)|(?<=^[\\t ]*)(?=#)',
        name: `string.unquoted.plain.out.yaml ${EMBEDDED}`,
        patterns: [{ include: '#expression-yaml-plain' }],
      },
      'double-quoted': embeddedString(`${valueStart}(")`, '(")', 'yaml', 'double', 'yaml-double'),
      'single-quoted': embeddedString(`${valueStart}(')`, "(')(?!')", 'yaml', 'single', 'yaml-single'),
      block: blockScalar(),
      ...expressionRepository('yaml-plain'),
      ...expressionRepository('yaml-double'),
      ...expressionRepository('yaml-single'),
      ...expressionRepository('plain'),
    },
  };
}

/** The license of the block scalar rules, which ship in the grammar file. */
const REDCMD_NOTICE = [
  'repository.block is adapted from the block-scalar rules of yaml-1.2.tmLanguage.json, https://github.com/RedCMD/YAML-Syntax-Highlighter, under its license:',
  'MIT License. Copyright 2024 RedCMD',
  'Permission is hereby granted, free of charge, to any person obtaining a copy of this software and associated documentation files (the "Software"), to deal in the Software without restriction, including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the following conditions:',
  'The above copyright notice and this permission notice shall be included in all copies or substantial portions of the Software.',
  'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.',
];

/**
 * Block scalars (`|`, `>-`, `|2`…): the host's own `block-scalar` rules (yaml-1.2, MIT,
 * Copyright 2024 RedCMD), so that the header, the indentation and the comments after the
 * content (which belong to the scalar) are read exactly as the host reads them, with the
 * expression's patterns and scope in the content.
 */
function blockScalar() {
  const content = { contentName: `string.unquoted.block.yaml ${EMBEDDED}`, patterns: [{ include: '#expression-plain' }, { include: 'source.yaml#non-printable' }] };
  const indentation = {
    1: { name: 'punctuation.whitespace.indentation.yaml' },
    2: { name: 'punctuation.whitespace.indentation.yaml' },
    3: { name: 'invalid.illegal.expected-indentation.yaml' },
  };
  const header = {
    1: { name: 'keyword.control.flow.block-scalar.literal.yaml' },
    2: { name: 'keyword.control.flow.block-scalar.folded.yaml' },
    3: { name: 'storage.modifier.chomping-indicator.yaml' },
  };
  const headerRest = { begin: '\\G', end: '$', patterns: [{ include: 'source.yaml.1.2#presentation-detail' }] };
  const start = '(?<=:[\\t ]+)';
  return {
    patterns: [
      {
        // With an indentation indicator.
        begin: `${start}(?>(\\|)|(>))(?<chomp>[+-])?+([1-9])(?(<chomp>)|\\g<chomp>)?+`,
        while: '\\G(?> {\\4}| *+($|[^#]))',
        beginCaptures: { ...header, 4: { name: 'constant.numeric.indentation-indicator.yaml' } },
        whileCaptures: { 0: { name: 'punctuation.whitespace.indentation.yaml' }, 1: { name: 'invalid.illegal.expected-indentation.yaml' } },
        name: 'meta.scalar.yaml',
        patterns: [{ begin: '$', while: '\\G', ...content }, headerRest],
      },
      {
        // The content's indentation is the first content line's.
        begin: `${start}(?>(\\|)|(>))([+-]?+)`,
        while: '\\G',
        beginCaptures: header,
        name: 'meta.scalar.yaml',
        patterns: [
          {
            begin: '$',
            while: '\\G',
            patterns: [
              // Blank lines before the content, the deepest one first.
              { begin: '\\G( ++)$', while: '\\G(?>(\\1)$|(?!\\1)( *+)($|.))', captures: indentation, ...content },
              {
                // The content; a comment less indented than it ends it (`end` clears `\G`).
                begin: '\\G(?!$)(?=( *+))',
                end: '\\G(?!\\1)(?=[\\t ]*+#)',
                patterns: [{ begin: '\\G( *+)', while: '\\G(?>(\\1)|( *+)($|[^\\t#]|[\\t ]++[^#]))', captures: indentation, ...content }],
              },
              // Comments after the content.
              { begin: '(?!\\G)(?=[\\t ]*+#)', while: '\\G', patterns: [{ include: 'source.yaml.1.2#presentation-detail' }] },
            ],
          },
          headerRest,
        ],
      },
    ],
  };
}

/** The grammars, by file name. */
export function grammars() {
  return {
    'rulesets-expression.tmLanguage.json': expressionGrammar(),
    'rulesets-json.injection.tmLanguage.json': jsonGrammar(),
    'rulesets-yaml.injection.tmLanguage.json': yamlGrammar(),
  };
}

/** A grammar file's text: two-space JSON (undefined fields left out) and a final newline. */
export function grammarText(grammar) {
  return `${JSON.stringify(grammar, null, 2)}\n`;
}

export function writeGrammars(dir) {
  mkdirSync(dir, { recursive: true });
  for (const [file, grammar] of Object.entries(grammars())) writeFileSync(join(dir, file), grammarText(grammar));
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const dir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'syntaxes');
  writeGrammars(dir);
  console.log(`wrote ${Object.keys(grammars()).join(', ')} to ${dir}`);
}
