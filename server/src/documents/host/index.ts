/**
 * The host formats, one room: JSON, YAML and HCL text read into host trees whose every string
 * keeps a map back to the file's offsets, the edits that write such text in its own style, and
 * the limits every reader keeps (nesting depth, whole characters). It knows nothing of rulesets;
 * the rest of documents/ builds rulesets on these trees.
 *
 * This is the room's one entry: modules outside documents/host/ import from here, never from a
 * file inside it (`npm run layers` holds both rules). The readers behind `parseHost`
 * (block-yaml.ts, strict-json.ts, decode-json.ts, decode-yaml.ts) stay private to the room.
 */
export * from './host';
export * from './host-node';
export * from './host-edits';
export * from './offset-map';
export * from './nesting';
export * from './whole-characters';
export * from './hcl-parser';
export * from './hcl-subset';
export * from './decode-hcl';
