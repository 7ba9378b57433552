/** What V8 Lens launches: the palette, the CLI and launch configurations all come down to one of these. */
export type ProfileTarget =
  /** A JS file we start with `node <flags> file`. */
  | { kind: 'script'; script: string; args: string[] }
  /** Anything else (`npm run start`): started as is, flags through NODE_OPTIONS. */
  | { kind: 'command'; command: string; args: string[] };
