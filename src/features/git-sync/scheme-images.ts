import { figureHtml, type HtmlImage } from '../content/document/html.ts';
import { definitionOf } from './material-grids.ts';

/*
 * An image for each colour scheme: Material shows `![x](a.png#only-light)` in its light scheme and
 * `![x](b.png#only-dark)` in its dark one, as GitHub does with `#gh-light-mode-only` and `#gh-dark-mode-only`.
 * Written side by side they are one picture, which GitBook has: an image with a dark variant, written as
 * `<picture><source srcset="b.png" media="(prefers-color-scheme: dark)"><img src="a.png"></picture>`.
 */

/** An image, inline or by reference (`![alt](src)`, `![alt][name]`, `![alt]`), and the attribute list after it. */
const IMAGE = /!\[([^\]\n]*)\](?:\(<?([^\s)>]+)>?(?:[ \t]+"[^"]*")?\)|\[([^\]\n]*)\])?(?:\{([^}\n]*)\})?/g;
const LIGHT = /#(?:only-light|gh-light-mode-only)$/;
const DARK = /#(?:only-dark|gh-dark-mode-only)$/;

/**
 * The one image that `text` (the lines of one paragraph) shows as two, light and dark, with nothing else beside
 * them; the light one's alt and width (in pixels) are the image's. Undefined when it is not such a pair.
 */
export function schemeImage(text: string, definitions: ReadonlyMap<string, string>): HtmlImage | undefined {
  const images = [...text.matchAll(IMAGE)];
  if (images.length !== 2 || text.replace(IMAGE, '').trim() !== '') return undefined;
  const read = images.map(([, alt, inline, reference, list]) => ({ alt: alt!, src: inline ?? definitionOf(definitions, reference || alt!), width: /\bwidth=["']?(\d+)(?:px)?["']?/.exec(list ?? '')?.[1] }));
  const light = read.find((image) => image.src && LIGHT.test(image.src));
  const dark = read.find((image) => image.src && DARK.test(image.src));
  if (!light || !dark) return undefined;
  return { src: light.src!.replace(LIGHT, ''), alt: light.alt, caption: '', dark: dark.src!.replace(DARK, ''), ...(light.width ? { width: Number(light.width) } : {}) };
}

/** The picture as GitBook's figure, its caption's HTML (if any) inside. */
export function schemeFigure(image: HtmlImage, captionHtml?: string): string {
  return figureHtml(captionHtml ? { ...image, captionHtml } : image);
}
