import { createHash } from 'node:crypto';
import { validate } from '@readme/openapi-parser';
import { parse as parseYaml } from 'yaml';

/*
 * The text of an OpenAPI document (3.0, 3.1 or Swagger 2.0; JSON or YAML) read and validated; no I/O.
 * Validation is @readme/openapi-parser's (the maintained fork of swagger-parser), always given the parsed
 * object, never the text: given a string it would take it for a file path or a URL and read it. External
 * `$ref`s are never followed (a document must not make the server read its files or reach other hosts);
 * they stay as they are and render as the name they point to.
 */

/** Problems found in a document, as the spec's `lastProcessedErrors` shows them. */
export interface SpecProblem {
  message: string;
  code?: string;
}

export class InvalidSpecError extends Error {
  constructor(readonly problems: SpecProblem[]) {
    super(problems[0]?.message ?? 'invalid OpenAPI document');
  }
}

/** Most problems recorded for one processing; the rest are counted in the last message. */
export const MAX_PROBLEMS = 20;
/** YAML aliases expanded while parsing: a handful of anchors must not expand into gigabytes. */
const MAX_YAML_ALIASES = 1000;

export type SpecDocument = Record<string, unknown>;

export function hashOfText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The document as an object, from JSON or YAML text; InvalidSpecError when it is neither, or not an object. */
export function parseSpecText(text: string): SpecDocument {
  let value: unknown;
  const trimmed = text.trimStart();
  try {
    if (trimmed.startsWith('{')) value = JSON.parse(trimmed);
    else value = parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES, prettyErrors: false, uniqueKeys: false });
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new InvalidSpecError([{ message: `The document is neither valid JSON nor valid YAML: ${detail}`, code: 'syntax' }]);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidSpecError([{ message: 'The document is not an object with "openapi" or "swagger" at its top', code: 'not-openapi' }]);
  }
  const document = value as SpecDocument;
  const version = typeof document.openapi === 'string' ? document.openapi : typeof document.swagger === 'string' ? document.swagger : undefined;
  if (!version) throw new InvalidSpecError([{ message: 'The document has neither an "openapi" nor a "swagger" version field', code: 'not-openapi' }]);
  if (!/^(2\.0|3\.[01](\.\d+)?)$/.test(version)) {
    throw new InvalidSpecError([{ message: `OpenAPI version "${version}" is not supported (2.0, 3.0 and 3.1 are)`, code: 'unsupported-version' }]);
  }
  return document;
}

/** Validates the document against its version's schema and rules; InvalidSpecError with what is wrong. */
export async function validateSpec(document: SpecDocument): Promise<void> {
  let result: Awaited<ReturnType<typeof validate>>;
  try {
    // The validator dereferences as it goes, in place: it gets a copy.
    result = await validate(structuredClone(document) as never, {
      resolve: { external: false, file: false },
      dereference: { circular: 'ignore' },
      validate: { errors: { colorize: false } },
    });
  } catch (error) {
    throw new InvalidSpecError([{ message: error instanceof Error ? error.message : String(error), code: 'invalid' }]);
  }
  if (result.valid) return;
  const problems: SpecProblem[] = result.errors.slice(0, MAX_PROBLEMS).map((e) => ({ message: firstLines(e.message), code: 'invalid' }));
  const more = result.errors.length - problems.length + (result.additionalErrors ?? 0);
  if (more > 0) problems.push({ message: `… and ${more} more problems`, code: 'invalid' });
  throw new InvalidSpecError(problems);
}

/** The validator's messages quote the document around the problem; the first lines say what it is. */
function firstLines(message: string): string {
  return message.split('\n').slice(0, 8).join('\n').slice(0, 2000);
}
