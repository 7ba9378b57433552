/** Replaced by the bundler with package.json's version; the fallback serves sources run directly. */
declare const __V8_LENS_VERSION__: string | undefined;
export const TOOL_VERSION: string = typeof __V8_LENS_VERSION__ === 'string' ? __V8_LENS_VERSION__ : '0.0.0-dev';
