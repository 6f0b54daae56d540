/**
 * GitBook's `emoji` format: either emoji characters ("🎉") or their code points in hex ("1f389",
 * "1f468-200d-1f4bb"). Empty means "no emoji".
 */
const CODEPOINTS = /^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i;
const EMOJI = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|\p{Emoji_Component}|\p{Emoji_Modifier}|\u200d|\ufe0f|\u20e3)+$/u;

export function isEmoji(value: string): boolean {
  return value === '' || CODEPOINTS.test(value) || EMOJI.test(value);
}
