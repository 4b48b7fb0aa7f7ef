// Types for scripts/syntaxes.mjs, which test/syntaxes imports.

/** A TextMate grammar as JSON. */
export type Grammar = Record<string, unknown>;

export declare const FUNCTIONS: readonly string[];
export declare const QUANTIFIERS: readonly string[];
export declare const LOGICAL_WORDS: readonly string[];
export declare const LOGICAL_SYMBOLS: readonly string[];
export declare const COMPARISON_WORDS: readonly string[];
export declare const COMPARISON_SYMBOLS: readonly string[];
export declare const BOOLEANS: readonly string[];

/** The grammars, by file name in syntaxes/. */
export declare function grammars(): Record<string, Grammar>;
/** A grammar file's text, as written. */
export declare function grammarText(grammar: Grammar): string;
/** Writes every grammar into `dir`. */
export declare function writeGrammars(dir: string): void;
