// The browser build of mammoth (a UMD bundle without its own types): only what the import uses.
declare module 'mammoth/mammoth.browser.js' {
  export function extractRawText(input: {
    arrayBuffer: ArrayBuffer;
  }): Promise<{ value: string; messages: unknown[] }>;
}
