/**
 * Writes data as TypeScript source, the same way for every generated module: the same value gives
 * the same text, byte for byte, so a generator's test can rerun it and compare.
 */

export function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * A value as TypeScript source: objects one key a line, short arrays of scalars on one line; with
 * `compact`, short objects on one line too.
 */
export function source(value: unknown, indent: string, compact = false): string {
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const parts = value.map((v) => source(v, inner, compact));
    const line = `[${parts.join(', ')}]`;
    if (!parts.some((p) => p.includes('\n')) && line.length + indent.length <= 110) return line;
    return `[\n${parts.map((p) => `${inner}${p},\n`).join('')}${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${IDENTIFIER.test(k) ? k : quote(k)}: ${source(v, inner, compact)}`);
    const line = `{ ${entries.join(', ')} }`;
    if (compact && !entries.some((e) => e.includes('\n')) && line.length + indent.length <= 110) return line;
    return `{\n${entries.map((e) => `${inner}${e},\n`).join('')}${indent}}`;
  }
  throw new Error(`cannot write ${String(value)} as TypeScript`);
}
