/** Language codes as a person types them ("fr, de ja"): each once, lowercase, in the order given. */
export function parseLanguages(text: string): string[] {
  const seen = new Set<string>();
  for (const part of text.split(/[\s,;]+/)) {
    const code = part.trim().toLowerCase();
    if (code) seen.add(code);
  }
  return [...seen];
}
