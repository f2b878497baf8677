import type { FromSchema } from "json-schema-to-ts";

/**
 * Request parameters of every endpoint (and of the MCP tools that mirror them).
 * Each parameter carries the rule that error messages quote, so a message always states
 * exactly the constraint the schema enforces.
 */

/** Letters (with combining marks), digits, apostrophes, periods, ampersands and hyphens. */
const WORD_CHARS = "\\p{L}\\p{M}0-9'’.&-";

export const DIRECTORY_MAX_TERMS = 6;
export const DIRECTORY_MAX_OFFSET = 1000;
export const DIRECTORY_MAX_LIMIT = 25;
export const DIRECTORY_DEFAULT_LIMIT = 10;

export interface ParameterRule {
  /** What a valid value looks like, as quoted in a 400's message. */
  readonly rule: string;
  /** What to send instead, as quoted in a 400's resolution. */
  readonly resolution: string;
}

export const directorySearchProperties = {
  q: {
    type: "string",
    maxLength: 120,
    // Terms are separated by spaces; the shape forbids a seventh term without backtracking blow-up.
    pattern: `^ *(?:[${WORD_CHARS}]+(?: +[${WORD_CHARS}]+){0,${DIRECTORY_MAX_TERMS - 1}})? *$`,
    description:
      "Up to six plain terms (letters, digits, spaces, apostrophes, periods, ampersands, hyphens), at most 120 characters. Every term must match the start of a word in the listing's name or service, case- and accent-insensitively.",
    examples: ["plumb"],
  },
  location: {
    type: "string",
    maxLength: 80,
    pattern: `^[ ${WORD_CHARS}]*$`,
    description:
      "Plain text of at most 80 characters (same characters as q), matched case- and accent-insensitively as a substring of the city, region or postal code.",
    examples: ["Leeds"],
  },
  country: {
    type: "string",
    pattern: "^[A-Za-z]{2}$",
    description: "Two-letter ISO 3166-1 country code, case-insensitive.",
    examples: ["GB"],
  },
  limit: {
    type: "integer",
    minimum: 1,
    maximum: DIRECTORY_MAX_LIMIT,
    default: DIRECTORY_DEFAULT_LIMIT,
    description: "Page size, 1 to 25.",
  },
  offset: {
    type: "integer",
    minimum: 0,
    maximum: DIRECTORY_MAX_OFFSET,
    default: 0,
    description: "Where the page starts; take it from the previous response's nextOffset.",
  },
} as const;

export const DirectorySearchQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: directorySearchProperties,
} as const;

export const directoryIdentifierProperty = {
  type: "string",
  minLength: 1,
  maxLength: 200,
  pattern: "^[A-Za-z0-9][A-Za-z0-9-]*$",
  description: "A public business slug or its UUID id.",
  examples: ["obrien-sons-plumbing-dublin"],
} as const;

export const DirectoryParamsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["identifier"],
  properties: { identifier: directoryIdentifierProperty },
} as const;

export const offeringsSearchProperties = {
  q: {
    type: "string",
    maxLength: 200,
    description:
      "Whitespace-separated terms, at most 200 characters. Every term must match the start of a word in the offering's name, description, audience or features, case- and accent-insensitively.",
    examples: ["quotes"],
  },
} as const;

export const OfferingsQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: offeringsSearchProperties,
} as const;

export const offeringSlugProperty = {
  type: "string",
  description: "An exact slug returned by the list endpoint.",
  examples: ["request-quotes"],
} as const;

export const OfferingParamsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["slug"],
  properties: { slug: offeringSlugProperty },
} as const;

const TEXT_RULE = "letters, digits, spaces, apostrophes, periods, ampersands and hyphens";

/** The rules of the directory's parameters, by name; quoted by REST and MCP error messages. */
export const DIRECTORY_RULES: Readonly<Record<string, ParameterRule>> = {
  q: {
    rule: `at most ${directorySearchProperties.q.maxLength} characters and at most ${DIRECTORY_MAX_TERMS} terms of ${TEXT_RULE}`,
    resolution: `Send at most ${DIRECTORY_MAX_TERMS} plain words made of ${TEXT_RULE}, or leave q out to browse every listing.`,
  },
  location: {
    rule: `at most ${directorySearchProperties.location.maxLength} characters of ${TEXT_RULE}`,
    resolution: "Send part of a city, region or postal code, or leave location out.",
  },
  country: {
    rule: "a two-letter country code such as GB",
    resolution: "Send a two-letter ISO 3166-1 country code such as GB, FR or DE, or leave country out.",
  },
  limit: {
    rule: `a whole number from ${directorySearchProperties.limit.minimum} to ${DIRECTORY_MAX_LIMIT}`,
    resolution: `Send a whole number from ${directorySearchProperties.limit.minimum} to ${DIRECTORY_MAX_LIMIT}, or leave limit out for ${DIRECTORY_DEFAULT_LIMIT}.`,
  },
  offset: {
    rule: `a whole number from 0 to ${DIRECTORY_MAX_OFFSET}`,
    resolution: "Use the nextOffset of the previous response, or leave offset out to start at the first result.",
  },
  identifier: {
    rule: `a business slug or UUID of at most ${directoryIdentifierProperty.maxLength} letters, digits and hyphens, starting with a letter or digit`,
    resolution: "Use the slug or id of a listing returned by the directory search.",
  },
};

/** The rules of the offerings' parameters, by name. */
export const OFFERINGS_RULES: Readonly<Record<string, ParameterRule>> = {
  q: {
    rule: `at most ${offeringsSearchProperties.q.maxLength} characters`,
    resolution: `Send at most ${offeringsSearchProperties.q.maxLength} characters of search terms, or leave q out to list every offering.`,
  },
  slug: {
    rule: "an exact offering slug",
    resolution: "Use a slug returned by the offerings list.",
  },
};

export const DIRECTORY_PARAMETER_NAMES = Object.keys(directorySearchProperties) as (keyof typeof directorySearchProperties)[];

export type DirectorySearchQuery = FromSchema<typeof DirectorySearchQuerySchema, { keepDefaultedPropertiesOptional: true }>;
export type OfferingsQuery = FromSchema<typeof OfferingsQuerySchema>;
