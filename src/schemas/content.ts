import type { FromSchema } from "json-schema-to-ts";
import { LocationSchema } from "./business.ts";
import { COUNTRY_CODES } from "./countries.ts";
import { offeringEditorialProperties } from "./offering.ts";

/**
 * Front matter of editors' files (interface §2). Unknown keys are errors, so typos never
 * pass silently. The Markdown body is checked by the build, not here.
 */

export const LISTING_STATUSES = ["approved", "pending", "rejected", "suspended"] as const;

/** Text that is not blank. */
export const NOT_BLANK_PATTERN = "\\S";
const nonEmpty = { type: "string", minLength: 1, pattern: NOT_BLANK_PATTERN } as const;

/** Text on one line, not blank: a line break in a name would split it across every page and list. */
export const ONE_LINE_PATTERN = "^[^\\r\\n]*\\S[^\\r\\n]*$";
const oneLine = { type: "string", minLength: 1, pattern: ONE_LINE_PATTERN } as const;

/** A listing's location as editors write it: the country one of the assigned codes. */
const FrontMatterLocationSchema = {
  ...LocationSchema,
  properties: {
    ...LocationSchema.properties,
    city: { ...LocationSchema.properties.city, ...oneLine },
    region: { ...LocationSchema.properties.region, ...oneLine },
    postalCode: { ...LocationSchema.properties.postalCode, ...oneLine },
    country: { ...LocationSchema.properties.country, enum: COUNTRY_CODES },
  },
} as const;

export const BusinessFrontMatterSchema = {
  type: "object",
  additionalProperties: false,
  required: ["id", "name", "service", "category", "location", "quoteUrl", "status"],
  properties: {
    id: { type: "string", format: "uuid", description: "A UUID of its own, never copied from another file (npm run new makes one)." },
    name: { ...oneLine, description: "The business's name, written as the business writes it." },
    service: { ...oneLine, description: "Exactly one service name from content/services.yml." },
    category: { ...oneLine, description: "The category content/services.yml gives the service." },
    location: FrontMatterLocationSchema,
    quoteUrl: {
      type: "string",
      format: "uri",
      pattern: "^https?://[^/?#\\s]+",
      description: "Where people ask the business for a quote: an absolute https: URL.",
    },
    status: { type: "string", enum: LISTING_STATUSES, description: "Only approved listings are published." },
    private: { type: "object", description: "Editors' notes and contacts: never published." },
  },
} as const;

export const OfferingFrontMatterSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name", "description", "audience", "action", "access", "features", "steps", "questions"],
  properties: {
    ...offeringEditorialProperties,
    name: nonEmpty,
    description: nonEmpty,
    audience: nonEmpty,
    action: nonEmpty,
    access: nonEmpty,
    order: { type: "integer" },
    url: { type: "string", format: "uri", pattern: "^https?://[^/?#\\s]+" },
  },
} as const;

const yesOrNo = { type: "string", enum: ["yes", "no"] } as const;
/** The uses of content a Content-Signal speaks of (contentsignals.org), in the order it writes them. */
const contentSignalProperties = {
  search: { ...yesOrNo, description: "Building a search index and showing links and short excerpts (not AI summaries)." },
  "ai-input": { ...yesOrNo, description: "Giving the content to AI models as input for an answer (grounding, retrieval)." },
  "ai-train": { ...yesOrNo, description: "Training or fine-tuning AI models." },
} as const;
const CONTENT_SIGNALS = Object.keys(contentSignalProperties) as (keyof typeof contentSignalProperties)[];

/**
 * site.md's `contentSignal` when it has none: the site is there to be found and read by people
 * and agents (`search`, `ai-input`), while training models on it, with the businesses' own
 * descriptions, is left for the operator to allow (`ai-train=no`).
 */
const DEFAULT_CONTENT_SIGNAL = { search: "yes", "ai-input": "yes", "ai-train": "no" } as const;

export const SiteFrontMatterSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name", "summary", "operator", "contact"],
  properties: {
    name: nonEmpty,
    summary: nonEmpty,
    operator: nonEmpty,
    contact: {
      type: "object",
      additionalProperties: false,
      required: ["email"],
      properties: {
        email: { type: "string", format: "email" },
        hours: nonEmpty,
        responseTime: nonEmpty,
        address: nonEmpty,
      },
    },
    licence: {
      type: "object",
      additionalProperties: false,
      required: ["name", "url"],
      description: "The terms the published data may be reused under (the OpenAPI document's licence).",
      properties: {
        name: nonEmpty,
        url: { type: "string", format: "uri", pattern: "^https?://[^/?#\\s]+" },
      },
    },
    contentSignal: {
      type: "object",
      additionalProperties: false,
      description: `What may be done with the site's content, sent as the Content-Signal header of every page (contentsignals.org): yes or no for each use; a use left out is no preference. Without it: ${CONTENT_SIGNALS.map((use) => `${use}: ${DEFAULT_CONTENT_SIGNAL[use]}`).join(", ")}.`,
      properties: contentSignalProperties,
    },
  },
} as const;

/** The longest alias of a service (interface §2). */
const SERVICE_ALIAS_MAX_LENGTH = 60;

/**
 * One service of `content/services.yml`, the service vocabulary (interface §2): the exact
 * `service` value listings use, the words people use for it, and optionally its category and
 * a sentence for people browsing by service.
 */
const ServiceEntrySchema = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: nonEmpty,
    aliases: {
      type: "array",
      items: {
        type: "string",
        maxLength: SERVICE_ALIAS_MAX_LENGTH,
        // Letters (with combining marks), digits, spaces, apostrophes and hyphens, and at least one letter or digit.
        pattern: "^(?=.*[\\p{L}\\p{N}])[\\p{L}\\p{M}\\p{N} '’-]+$",
      },
    },
    category: nonEmpty,
    description: nonEmpty,
  },
} as const;

export const ServiceVocabularySchema = { type: "array", items: ServiceEntrySchema } as const;

/** The site facts every page shows, as the snapshot publishes them: the front matter of site.md and the base URL. */
export const SiteInfoSchema = {
  type: "object",
  additionalProperties: false,
  required: ["baseUrl", ...SiteFrontMatterSchema.required],
  properties: {
    baseUrl: { type: "string", format: "uri" },
    ...SiteFrontMatterSchema.properties,
  },
} as const;

export type BusinessFrontMatter = FromSchema<typeof BusinessFrontMatterSchema>;
export type OfferingFrontMatter = FromSchema<typeof OfferingFrontMatterSchema>;
export type SiteFrontMatter = FromSchema<typeof SiteFrontMatterSchema>;
export type SiteInfo = FromSchema<typeof SiteInfoSchema>;
export type ServiceEntry = FromSchema<typeof ServiceEntrySchema>;

/**
 * The `Content-Signal` value of the site's setting (contentsignals.org: `search=yes, ai-input=yes,
 * ai-train=no`), in the proposal's order; undefined when the setting expresses no preference at all.
 */
export function contentSignalOf(site: SiteInfo): string | undefined {
  const setting = site.contentSignal ?? DEFAULT_CONTENT_SIGNAL;
  const parts = CONTENT_SIGNALS.filter((use) => setting[use] !== undefined).map((use) => `${use}=${setting[use]}`);
  return parts.length === 0 ? undefined : parts.join(", ");
}
