import { Type, type TObject, type TSchema } from 'typebox';
import { Customization, type CustomizationValue } from './customization-schema.ts';

/*
 * A site-space's customization override (the official overrideSiteSpaceCustomizationById): the fields of the
 * site's customization that one variant shows differently. It is stored as the fields set, and read over the
 * site's customization each time, so a change to the site's reaches every field a variant does not override.
 *
 * `SECTIONS` is the one statement of its shape, as the official body has it: these objects are opened and their
 * fields overridden one by one (`styling.primaryColor` alone); any other field is a value, replaced whole (a
 * colour pair, the favicon, the header's links, the announcement). In a patch, null takes a field's override
 * away; a section left with nothing overridden is taken away too.
 */
type Sections = { readonly [field: string]: Sections };
const SECTIONS: Sections = {
  styling: { sidebar: {} },
  internationalization: {},
  header: {},
  footer: {},
  themes: {},
  pdf: {},
  feedback: {},
  ai: {},
  advancedCustomization: {},
  git: {},
  pageActions: {},
  externalLinks: {},
  pagination: {},
  trademark: {},
  privacyPolicy: {},
  socialPreview: {},
  insights: {},
};

/** The fields a variant overrides, as stored (JSON of a partial customization). */
export type CustomizationOverride = { [field: string]: unknown };

function overrideSchemaOf(schema: TObject, sections: Sections): TObject {
  const properties: Record<string, TSchema> = {};
  for (const [field, value] of Object.entries(schema.properties)) {
    const inner = sections[field];
    properties[field] = Type.Optional(
      inner && (value as { type?: string }).type === 'object'
        ? overrideSchemaOf(value as TObject, inner)
        : Type.Union([value, Type.Null()], { description: 'null takes the override away' }),
    );
  }
  // Fields the customization does not have are dropped (the app's Ajv removes what additionalProperties refuses).
  return Type.Object(properties, { additionalProperties: false });
}

/**
 * The body of overrideSiteSpaceCustomizationById: every field of the customization optional, every value
 * nullable. Derived from the customization's schema by `SECTIONS`, so the two cannot drift apart. (The official
 * body leaves out a few fields the customization has, e.g. `ai` and `styling.font`: they are accepted here too.)
 */
export const CustomizationOverrideBody = Type.Object(overrideSchemaOf(Customization, SECTIONS).properties, {
  additionalProperties: false,
  description: 'The settings of the site customization this site-space shows differently',
});

/** The override a site-space row holds (its `customization` column), or null. */
export function overrideOf(row: { customization: string | null }): CustomizationOverride | null {
  return row.customization ? (JSON.parse(row.customization) as CustomizationOverride) : null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The customization a variant shows: the site's, with the variant's overridden fields over it. Pure. */
export function applyOverride(site: CustomizationValue, override: CustomizationOverride | null): CustomizationValue {
  return override ? (overlay(site, override, SECTIONS) as CustomizationValue) : site;
}

function overlay(base: Record<string, unknown>, override: Record<string, unknown>, sections: Sections): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [field, value] of Object.entries(override)) {
    const inner = sections[field];
    result[field] = inner && isObject(value) && isObject(base[field]) ? overlay(base[field], value, inner) : value;
  }
  return result;
}

/** The override after a patch: fields given replace, null takes them away, sections are patched field by field. Pure. */
export function patchOverride(current: CustomizationOverride | null, patch: CustomizationOverride): CustomizationOverride {
  return patched(current ?? {}, patch, SECTIONS);
}

function patched(current: Record<string, unknown>, patch: Record<string, unknown>, sections: Sections): Record<string, unknown> {
  const result: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    const inner = sections[field];
    if (value === null || value === undefined) {
      delete result[field];
    } else if (inner && isObject(value)) {
      const section = patched(isObject(current[field]) ? current[field] : {}, value, inner);
      if (Object.keys(section).length > 0) result[field] = section;
      else delete result[field];
    } else {
      result[field] = value;
    }
  }
  return result;
}
