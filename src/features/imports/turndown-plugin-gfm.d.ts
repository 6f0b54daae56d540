// The package ships no types; this is the one export used (see html-to-markdown.ts).
declare module 'turndown-plugin-gfm' {
  import type TurndownService from 'turndown';

  const plugins: { gfm: TurndownService.Plugin };
  export default plugins;
}
