/** The bits of the TCP flags byte, for `tcp.flags & …` (LANGUAGE.md §5). */
export const TCP_FLAG_BITS: readonly { readonly value: number; readonly name: string; readonly description: string }[] = [
  { value: 0x01, name: 'FIN', description: 'no more data from the sender' },
  { value: 0x02, name: 'SYN', description: 'synchronise sequence numbers (connection setup)' },
  { value: 0x04, name: 'RST', description: 'reset the connection' },
  { value: 0x08, name: 'PSH', description: 'push buffered data to the application' },
  { value: 0x10, name: 'ACK', description: 'the acknowledgment field is significant' },
  { value: 0x20, name: 'URG', description: 'the urgent pointer field is significant' },
  { value: 0x40, name: 'ECE', description: 'ECN echo' },
  { value: 0x80, name: 'CWR', description: 'congestion window reduced' },
];

/** `0x02`: how a flag bit, or a byte of them, is written. */
export function hexByte(value: number): string {
  return `0x${value.toString(16).padStart(2, '0')}`;
}
