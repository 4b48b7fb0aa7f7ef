import type { ScalarType, FunctionCall } from '../ast';
import { problem, replaceFix, type Problem } from '../problem';

export interface FunctionInfo {
  readonly name: string;
  readonly signature: string;
  readonly doc: string;
  readonly example: string;
  readonly parameters: readonly { readonly name: string; readonly doc: string }[];
  readonly resultType: ScalarType;
  /** Checks a call's arguments (`text` is the expression); tells the range of the values it can return. */
  check(call: FunctionCall, text: string): { problems: Problem[]; resultRange?: readonly [bigint, bigint] };
}

const BIT_SLICE_PROTOCOLS = ['ip', 'tcp', 'udp', 'icmp'];
/** Limits of the reference implementation (LANGUAGE.md §7). */
export const BIT_SLICE_MAX_BITS = 32;
export const BIT_SLICE_MAX_OFFSET = 2040;

const bitSlice: FunctionInfo = {
  name: 'bit_slice',
  signature: 'bit_slice(protocol, offset_start, offset_end) -> Integer',
  doc: `Contiguous bits of a header, counted from the start of the named protocol header (${BIT_SLICE_PROTOCOLS.join(', ')}). At most ${BIT_SLICE_MAX_BITS} bits; offsets at most ${BIT_SLICE_MAX_OFFSET}.`,
  example: 'bit_slice(udp, 64, 72) == 0x45',
  parameters: [
    { name: 'protocol', doc: `The header to read from: ${BIT_SLICE_PROTOCOLS.join(', ')}.` },
    { name: 'offset_start', doc: 'First bit of the slice, counted from the start of the header.' },
    { name: 'offset_end', doc: `Bit just after the slice; at most ${BIT_SLICE_MAX_BITS} bits after offset_start.` },
  ],
  resultType: 'Integer',
  check(call, text) {
    const problems: Problem[] = [];
    const args = call.args;
    if (args.length !== 3) {
      problems.push(problem('bit-slice-arguments', 'error', call.span, `\`bit_slice\` takes 3 arguments (protocol, offset_start, offset_end), found ${args.length}: e.g. \`bit_slice(udp, 64, 72)\``));
      return { problems };
    }
    const [protocol, start, end] = args;
    const protocolName = protocol.kind === 'field' ? protocol.name : protocol.kind === 'string' ? protocol.value : undefined;
    const header = protocolName?.toLowerCase();
    if (protocol.kind === 'string' && header !== undefined && BIT_SLICE_PROTOCOLS.includes(header)) {
      // The reference wants the raw field itself ("expected argument of kind Field, but got Literal").
      problems.push(
        problem('bit-slice-arguments', 'error', protocol.span, `expected the field \`${header}\` as the first argument of \`bit_slice\`, found the string \`"${protocol.value}"\`; write it without quotes: \`bit_slice(${header}, …)\``, [
          replaceFix(`Change to \`${header}\``, protocol.span, header),
        ]),
      );
    } else if (protocolName === undefined || !BIT_SLICE_PROTOCOLS.includes(protocolName)) {
      const lower = protocolName?.toLowerCase();
      const fixes = lower && BIT_SLICE_PROTOCOLS.includes(lower) ? [replaceFix(`Change to \`${lower}\``, protocol.span, lower)] : [];
      problems.push(problem('bit-slice-arguments', 'error', protocol.span, `the first argument of \`bit_slice\` is the header to read: one of ${BIT_SLICE_PROTOCOLS.map((p) => `\`${p}\``).join(', ')}`, fixes));
    }
    const offsets: bigint[] = [];
    for (const offset of [start, end]) {
      const written = text.slice(offset.span.start, offset.span.end);
      if (offset.kind === 'integer' && /^-?0x/.test(written)) {
        // The reference reads a hex argument as a name ("unknown identifier").
        problems.push(
          problem('bit-slice-arguments', 'error', offset.span, `expected a decimal bit offset, found the hex \`${written}\`; \`bit_slice\` offsets are written in decimal: \`${offset.value}\``, [
            replaceFix(`Change to \`${offset.value}\``, offset.span, String(offset.value)),
          ]),
        );
      } else if (offset.kind !== 'integer') {
        problems.push(problem('bit-slice-arguments', 'error', offset.span, 'expected a bit offset (a whole number) here'));
      } else if (offset.value < 0n || offset.value > BigInt(BIT_SLICE_MAX_OFFSET)) {
        problems.push(problem('bit-slice-range', 'error', offset.span, `bit offset ${offset.value} is outside 0–${BIT_SLICE_MAX_OFFSET}`));
      } else {
        offsets.push(offset.value);
      }
    }
    if (offsets.length !== 2) return { problems };
    const [from, to] = offsets;
    const span = { start: start.span.start, end: end.span.end };
    if (to <= from) {
      problems.push(problem('bit-slice-range', 'error', span, `the slice ends at bit ${to}, which is not after its start (${from}); the end offset is exclusive`));
      return { problems };
    }
    const bits = to - from;
    if (bits > BigInt(BIT_SLICE_MAX_BITS)) {
      problems.push(problem('bit-slice-range', 'error', span, `the slice is ${bits} bits long; \`bit_slice\` returns at most ${BIT_SLICE_MAX_BITS} bits`));
      return { problems };
    }
    return { problems, resultRange: [0n, (1n << bits) - 1n] };
  },
};

export const FUNCTIONS: ReadonlyMap<string, FunctionInfo> = new Map([[bitSlice.name, bitSlice]]);
