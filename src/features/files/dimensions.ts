import { imageSize } from 'image-size';

export interface Dimensions {
  width: number;
  height: number;
}

/**
 * Width and height of an image as it is displayed, or undefined for anything that is not a measurable image
 * (a truncated file, an SVG sized in percent). Whole pixels: the columns are integers on both databases.
 */
export function imageDimensions(bytes: Buffer, contentType: string): Dimensions | undefined {
  if (!contentType.startsWith('image/')) return undefined;
  let measured;
  try {
    measured = imageSize(bytes);
  } catch {
    return undefined;
  }
  const width = Math.round(measured.width);
  const height = Math.round(measured.height);
  if (!Number.isFinite(width) || !Number.isFinite(height) || width <= 0 || height <= 0) return undefined;
  // EXIF orientations 5 to 8 rotate a JPEG by a quarter turn: the stored width is the displayed height.
  const quarterTurn = measured.orientation !== undefined && measured.orientation >= 5 && measured.orientation <= 8;
  return quarterTurn ? { width: height, height: width } : { width, height };
}
