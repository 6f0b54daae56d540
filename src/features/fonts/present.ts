import type { Config } from '../../config.ts';
import { fileDownloadUrl } from '../files/service.ts';
import { fileNameOf } from './font-files.ts';
import type { FontWithFaces } from './store.ts';

/** The font as CSS needs it (the official CustomizationFontDefinitionInput): each face's file at this server's URL. */
export function fontDefinition(config: Pick<Config, 'publicUrl'>, font: FontWithFaces) {
  return {
    id: font.id,
    custom: true,
    fontFamily: font.font_family,
    fontFaces: font.faces.map((face) => ({
      weight: face.weight,
      sources: [{ url: fileDownloadUrl(config, face.blob_hash, fileNameOf(font.font_family, face.weight, face.format)), format: face.format as 'woff2' | 'woff' }],
    })),
  };
}

/** The official CustomizationFontDefinition: the definition and whether the caller may edit it. */
export function presentFont(config: Pick<Config, 'publicUrl'>, font: FontWithFaces, permissions: { edit: boolean }) {
  return { ...fontDefinition(config, font), permissions };
}
