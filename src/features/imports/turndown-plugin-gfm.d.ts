// The package ships no types; these are the exports used (html-to-markdown.ts; the editor's paste, whose bundler
// reads the package's ES module, which has no default export).
declare module 'turndown-plugin-gfm' {
  import type TurndownService from 'turndown';

  const plugins: { gfm: TurndownService.Plugin };
  export default plugins;
  export const gfm: TurndownService.Plugin;
}
