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
import { fold } from "../src/snapshot/text.ts";
import type { CachedFile } from "./cache.ts";
import type { ContentProblem, RawContent, ServicesFile, SourceFile } from "./content.ts";
import { describe, fieldOf, knownKeyLike, pointerOf, valueAt } from "./schema-errors.ts";
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
// verbose gives each error the schema it failed, whose keys an unknown key is compared with ("did you mean").
const ajv = createAjv({ allErrors: true, verbose: true });
const validators = {
  site: ajv.compile<SiteFrontMatter>(SiteFrontMatterSchema),
  offering: ajv.compile<OfferingFrontMatter>(OfferingFrontMatterSchema),
  business: ajv.compile<BusinessFrontMatter>(BusinessFrontMatterSchema),
  services: ajv.compile<ServiceEntry[]>(ServiceVocabularySchema),
};

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
export const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/**
 * The entries of a vocabulary that failed its schema as far as listings can still be checked
 * against them (their names, aliases and categories, where those are text). Null unless it is a
 * list whose every entry has a name: an entry without one may be the service a listing means,
 * which would be called unknown.
 */
function readableEntries(data: unknown): ServiceEntry[] | null {
  if (!Array.isArray(data)) return null;
  const entries: ServiceEntry[] = [];
  for (const item of data as unknown[]) {
    const { name, aliases, category } = (item !== null && typeof item === "object" ? item : {}) as Record<string, unknown>;
    if (typeof name !== "string" || !/\S/.test(name)) return null;
    const words = Array.isArray(aliases) ? aliases.filter((alias): alias is string => typeof alias === "string") : [];
    entries.push({ name, aliases: words, ...(typeof category === "string" && /\S/.test(category) ? { category } : {}) });
  }
  return entries;
}

/**
 * The vocabulary checked against its schema and for duplicate names, and its entries, which
 * listings are checked against: when the file has errors, as far as they can be read (null when
 * they cannot), so that its listings' errors are found in the same run.
 */
export function checkServices(source: ServicesFile, problems: ContentProblem[]): ServiceEntry[] | null {
  const { file, data } = source;
  const valid = validators.services(data);
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
  const seen = new Map<string, number>();
  for (const [i, item] of (Array.isArray(data) ? (data as unknown[]) : []).entries()) {
    const name = (item as { name?: unknown } | null)?.name;
    if (typeof name !== "string") continue;
    const first = seen.get(name);
    if (first !== undefined)
      problems.push({ file, field: `[${i}].name`, message: `"${name}" is already listed at [${first}]`, at: { value: [i, "name"] } });
    else seen.set(name, i);
  }
  return valid ? data : readableEntries(data);
}

/** The service whose alias `text` is, compared case- and accent-insensitively, if there is one. */
export function serviceWithAlias(text: string, vocabulary: readonly ServiceEntry[]): ServiceEntry | undefined {
  const key = fold(text.trim());
  return vocabulary.find((service) => (service.aliases ?? []).some((alias) => fold(alias) === key));
}

/**
 * A listing's service is in the vocabulary, and in the category the vocabulary gives it. Either
 * is undefined when it failed its own schema, which has said what is wrong with it.
 */
function checkListingService(
  file: string,
  { service, category }: { service: string | undefined; category: string | undefined },
  services: { readonly list: readonly ServiceEntry[]; readonly byName: ReadonlyMap<string, ServiceEntry> },
  problems: ContentProblem[],
): void {
  if (service === undefined) return;
  const entry = services.byName.get(service);
  if (entry === undefined) {
    const owner = serviceWithAlias(service, services.list);
    const suggestion = owner === undefined ? closest(service, services.byName.keys()) : undefined;
    const hint =
      owner !== undefined
        ? `; it is an alias of "${owner.name}": use that name`
        : suggestion === undefined
          ? "; add it there or use one of its names"
          : `; did you mean "${suggestion}"?`;
    problems.push({ file, field: "service", message: `"${service}" is not a service in services.yml${hint}`, at: { value: ["service"] } });
  } else if (category !== undefined && entry.category !== undefined && entry.category !== category) {
    problems.push({
      file,
      field: "category",
      message: `must be "${entry.category}" for ${service} (services.yml)`,
      at: { value: ["category"] },
    });
  }
}

/** The problems of one listing's or offering's front matter alone, as the build reports them (no positions). */
export function frontMatterProblems(kind: "business" | "offering", file: string, data: Record<string, unknown>): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const validate: ValidateFunction<unknown> = validators[kind];
  check({ file, slug: "", data, body: "" }, validate, problems);
  return problems;
}

/**
 * A file checked against its schema: its entry when it is valid, and in any case its top-level
 * text values that passed their own schema, for the checks that can still be made of an invalid
 * file (its service, its id), so that every error is reported in one run.
 */
interface Checked<T> {
  readonly entry: Entry<T> | null;
  readonly text: (key: string) => string | undefined;
}

function check<T>(source: SourceFile, validate: ValidateFunction<T>, problems: ContentProblem[]): Checked<T> {
  const textOf = (key: string) => {
    const value = source.data[key];
    return typeof value === "string" ? value : undefined;
  };
  if (source.cached !== undefined || validate(source.data)) {
    const entry = { file: source.file, slug: source.slug, data: source.data as T, body: source.body.trim() };
    return { entry: source.cached === undefined ? entry : { ...entry, cached: source.cached }, text: textOf };
  }
  const failed = new Set<string>();
  const errors = validate.errors ?? [];
  // A misspelt required key (quoteURL) is named once, with the key it meant: not again as that key missing.
  const meant = new Set<string>();
  for (const error of errors) {
    const key = error.keyword === "additionalProperties" ? knownKeyLike(error) : undefined;
    if (key !== undefined) meant.add(`${error.instancePath}/${key}`);
  }
  // A value can fail two keywords that say the same to an editor (a URL's format and its pattern): once is enough.
  const said = new Set<string>();
  for (const error of errors) {
    failed.add(error.instancePath.split("/")[1] ?? "");
    if (
      error.keyword === "required" &&
      meant.has(`${error.instancePath}/${(error.params as { missingProperty: string }).missingProperty}`)
    ) {
      continue;
    }
    const field = fieldOf(error);
    const message = describe(error, field, valueAt(source.data, error.instancePath));
    if (said.has(`${field}\n${message}`)) continue;
    said.add(`${field}\n${message}`);
    problems.push({ file: source.file, field, message, at: pointerOf(error) });
  }
  return { entry: null, text: (key) => (failed.has(key) ? undefined : textOf(key)) };
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

  const site = raw.site === null ? null : check(raw.site, validators.site, problems).entry;
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
    const { entry } = check(source, validators.offering, problems);
    if (source.body.trim() === "")
      problems.push({ file: source.file, field: "(body)", message: "must hold the offering's guide in Markdown", at: { body: 0 } });
    if (entry !== null) offerings.push(entry);
  }

  checkSlugs(raw.businesses, problems);
  const vocabulary = services === null ? null : { list: services, byName: new Map(services.map((service) => [service.name, service])) };
  const ids = new Map<string, string>();
  const businesses: Entry<BusinessFrontMatter>[] = [];
  for (const source of raw.businesses) {
    const { entry, text } = check(source, validators.business, problems);
    const { file } = source;
    const body = entry?.body ?? source.body.trim();
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
    const id = text("id")?.toLowerCase();
    const other = id === undefined ? undefined : ids.get(id);
    if (other !== undefined) problems.push({ file, field: "id", message: `is already used by ${other}`, at: { value: ["id"] } });
    else if (id !== undefined) ids.set(id, file);
    if (vocabulary !== null) checkListingService(file, { service: text("service"), category: text("category") }, vocabulary, problems);
    if (entry !== null) businesses.push(entry);
  }

  const warnings = [
    ...offerings.flatMap(({ file, data, body }) => placeholderWarnings(file, data, body)),
    ...listingWarnings(businesses, madeOwn),
  ];
  if (problems.length > 0 || site === null || (raw.services !== null && services === null)) {
    return { ok: false, problems, warnings };
  }
  return { ok: true, content: { site, services, offerings, businesses }, warnings };
}
