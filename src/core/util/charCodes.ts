/** Character codes the hand-written scanners compare against (JSON profiles, GC trace lines). */
export const CharCode = {
  CARRIAGE_RETURN: 0x0d,
  SPACE: 0x20,
  QUOTE: 0x22,
  PERCENT: 0x25,
  COMMA: 0x2c,
  MINUS: 0x2d,
  DOT: 0x2e,
  ZERO: 0x30,
  NINE: 0x39,
  COLON: 0x3a,
  EQUALS: 0x3d,
  OPEN_BRACKET: 0x5b,
  BACKSLASH: 0x5c,
  CLOSE_BRACKET: 0x5d,
  OPEN_BRACE: 0x7b,
  CLOSE_BRACE: 0x7d,
} as const;
