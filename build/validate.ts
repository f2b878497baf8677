import type { ValidateFunction } from "ajv";
import { DESCRIPTION_MAX_LENGTH, MAX_OFFERINGS } from "../src/contract.ts";
import { closest } from "../src/core/closest.ts";
import { createAjv } from "../src/schemas/ajv.ts";
import {
  type BusinessFrontMatter,
  BusinessFrontMatterSchema,
  type OfferingFrontMatter,
  OfferingFrontMatterSchema,
  type ServiceEntry,
  ServiceVocabularySchema,
  type SiteFrontMatter,
  SiteFrontMatterSchema,
} from "../src/schemas/content.ts";
import type { CachedFile } from "./cache.ts";
import type { ContentProblem, RawContent, ServicesFile, SourceFile } from "./content.ts";
import { describe, fieldOf, pointerOf, valueAt } from "./schema-errors.ts";
import { type ContentWarning, listingWarnings, type OwnWarnings, placeholderWarnings } from "./warnings.ts";

export interface Entry<T> {
  readonly file: string;
  readonly slug: string;
  readonly data: T;
  /** The Markdown body, trimmed. */
  readonly body: string;
  /** For a file read unchanged from the cache, the cache's entry (SourceFile.cached). */
  readonly cached?: CachedFile;
}

export interface ValidContent {
  readonly site: Entry<SiteFrontMatter>;
  /** The service vocabulary (content/services.yml), in its order; null without the file. */
  readonly services: readonly ServiceEntry[] | null;
  readonly offerings: Entry<OfferingFrontMatter>[];
  readonly businesses: Entry<BusinessFrontMatter>[];
}

/** Errors stop the build; warnings (build/warnings.ts) are reported either way. */
export type Validation =
  | { ok: true; content: ValidContent; warnings: ContentWarning[] }
  | { ok: false; problems: ContentProblem[]; warnings: ContentWarning[] };

// allErrors is safe here: the input is the editors' own files, and they want every error at once.
const ajv = createAjv({ allErrors: true });
const validators = {
  site: ajv.compile<SiteFrontMatter>(SiteFrontMatterSchema),
  offering: ajv.compile<OfferingFrontMatter>(OfferingFrontMatterSchema),
  business: ajv.compile<BusinessFrontMatter>(BusinessFrontMatterSchema),
  services: ajv.compile<ServiceEntry[]>(ServiceVocabularySchema),
};

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
export const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
/** The vocabulary checked against its schema and for duplicate names; null when it is invalid. */
export function checkServices(source: ServicesFile, problems: ContentProblem[]): ServiceEntry[] | null {
  const { file, data } = source;
  if (!validators.services(data)) {
    for (const error of validators.services.errors ?? []) {
      // Numbered from 0, as in every other message: `[0].aliases[1]` is the first entry's second alias.
      const field = fieldOf(error).replace(/^(\d+)/, "[$1]");
      const value = valueAt(data, error.instancePath);
      const message =
        error.keyword === "pattern" && field.includes("aliases")
          ? "must be letters, digits, spaces, apostrophes and hyphens"
          : field === "(front matter)"
            ? "must be a YAML list of services, each with a name"
            : describe(error, field, value);
      problems.push({ file, field: field === "(front matter)" ? "(file)" : field, message, at: pointerOf(error) });
    }
    return null;
  }
  const seen = new Map<string, number>();
  for (const [i, { name }] of data.entries()) {
    const first = seen.get(name);
    if (first !== undefined)
      problems.push({ file, field: `[${i}].name`, message: `"${name}" is already listed at [${first}]`, at: { value: [i, "name"] } });
    else seen.set(name, i);
  }
  return data;
}

/** Every listing's service is in the vocabulary, and in the category the vocabulary gives it. */
function checkListingServices(
  businesses: readonly Entry<BusinessFrontMatter>[],
  services: readonly ServiceEntry[],
  problems: ContentProblem[],
): void {
  const byName = new Map(services.map((service) => [service.name, service]));
  for (const { file, data } of businesses) {
    const service = byName.get(data.service);
    if (service === undefined) {
      const suggestion = closest(data.service, byName.keys());
      problems.push({
        file,
        field: "service",
        message: `"${data.service}" is not a service in services.yml${suggestion === undefined ? "; add it there or use one of its names" : `; did you mean "${suggestion}"?`}`,
        at: { value: ["service"] },
      });
    } else if (service.category !== undefined && service.category !== data.category) {
      problems.push({
        file,
        field: "category",
        message: `must be "${service.category}" for ${data.service} (services.yml)`,
        at: { value: ["category"] },
      });
    }
  }
}

/** The problems of one listing's or offering's front matter alone, as the build reports them (no positions). */
export function frontMatterProblems(kind: "business" | "offering", file: string, data: Record<string, unknown>): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const validate: ValidateFunction<unknown> = validators[kind];
  check({ file, slug: "", data, body: "" }, validate, problems);
  return problems;
}

function check<T>(source: SourceFile, validate: ValidateFunction<T>, problems: ContentProblem[]): Entry<T> | null {
  if (source.cached !== undefined || validate(source.data)) {
    const entry = { file: source.file, slug: source.slug, data: source.data as T, body: source.body.trim() };
    return source.cached === undefined ? entry : { ...entry, cached: source.cached };
  }
  // A value can fail two keywords that say the same to an editor (a URL's format and its pattern): once is enough.
  const said = new Set<string>();
  for (const error of validate.errors ?? []) {
    const field = fieldOf(error);
    const message = describe(error, field, valueAt(source.data, error.instancePath));
    if (said.has(`${field}\n${message}`)) continue;
    said.add(`${field}\n${message}`);
    problems.push({ file: source.file, field, message, at: pointerOf(error) });
  }
  return null;
}

function checkSlugs(sources: SourceFile[], problems: ContentProblem[]): void {
  const seen = new Map<string, string>();
  for (const { file, slug } of sources) {
    if (!SLUG_PATTERN.test(slug)) {
      problems.push({
        file,
        field: "(file name)",
        message: "must be lower-case letters, digits and hyphens, starting with a letter or digit",
        at: { file: true },
      });
    } else if (UUID_LIKE.test(slug)) {
      problems.push({ file, field: "(file name)", message: "must not look like a UUID (ids and slugs share one URL)", at: { file: true } });
    }
    const other = seen.get(slug);
    if (other !== undefined)
      problems.push({ file, field: "(file name)", message: `slug "${slug}" is already used by ${other}`, at: { file: true } });
    else seen.set(slug, file);
  }
}

/**
 * Validates every file against its schema and the rules no schema can state; collects every
 * problem. `madeOwn` is given each listing's own warnings that the cache did not have (see listingWarnings).
 */
export function validateContent(raw: RawContent, madeOwn?: (file: string, own: OwnWarnings) => void): Validation {
  const problems = [...raw.problems];

  const site = raw.site === null ? null : check(raw.site, validators.site, problems);
  const services = raw.services === null ? null : checkServices(raw.services, problems);

  checkSlugs(raw.offerings, problems);
  if (raw.offerings.length > MAX_OFFERINGS) {
    problems.push({
      file: "offerings/",
      field: "(folder)",
      message: `holds ${raw.offerings.length} offerings; at most ${MAX_OFFERINGS} are allowed`,
    });
  }
  const offerings: Entry<OfferingFrontMatter>[] = [];
  for (const source of raw.offerings) {
    const entry = check(source, validators.offering, problems);
    if (entry !== null && entry.body === "")
      problems.push({ file: source.file, field: "(body)", message: "must hold the offering's guide in Markdown", at: { body: 0 } });
    if (entry !== null) offerings.push(entry);
  }

  checkSlugs(raw.businesses, problems);
  const ids = new Map<string, string>();
  const businesses: Entry<BusinessFrontMatter>[] = [];
  for (const source of raw.businesses) {
    const entry = check(source, validators.business, problems);
    if (entry === null) continue;
    const { file, data, body } = entry;
    if (body === "") problems.push({ file, field: "(body)", message: "must hold the listing's description", at: { body: 0 } });
    if (body.length > DESCRIPTION_MAX_LENGTH) {
      problems.push({
        file,
        field: "(body)",
        message: `is ${body.length} characters; the description may have at most ${DESCRIPTION_MAX_LENGTH}`,
        // Where it goes over.
        at: { body: DESCRIPTION_MAX_LENGTH },
      });
    }
    const id = data.id.toLowerCase();
    const other = ids.get(id);
    if (other !== undefined) problems.push({ file, field: "id", message: `is already used by ${other}`, at: { value: ["id"] } });
    else ids.set(id, file);
    businesses.push(entry);
  }

  if (services !== null) checkListingServices(businesses, services, problems);

  const warnings = [
    ...offerings.flatMap(({ file, data, body }) => placeholderWarnings(file, data, body)),
    ...listingWarnings(businesses, madeOwn),
  ];
  if (problems.length > 0 || site === null || (raw.services !== null && services === null)) {
    return { ok: false, problems, warnings };
  }
  return { ok: true, content: { site, services, offerings, businesses }, warnings };
}
