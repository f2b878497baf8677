import type { FromSchema } from "json-schema-to-ts";
import {
  BUSINESS_IDENTIFIER_MAX_LENGTH,
  DIRECTORY_DEFAULT_LIMIT,
  DIRECTORY_LOCATION_MAX_LENGTH,
  DIRECTORY_MAX_LIMIT,
  DIRECTORY_MAX_OFFSET,
  DIRECTORY_MIN_LIMIT,
  DIRECTORY_Q_MAX_LENGTH,
  DIRECTORY_Q_MAX_TERMS,
  OFFERINGS_Q_MAX_LENGTH,
  RELEASES_PATH,
  VERSION_PATTERN,
} from "../contract.ts";

/**
 * Request parameters of every endpoint, and the arguments of the MCP tools that mirror them.
 * Each parameter carries the rule that error messages quote, so a message always states
 * exactly the constraint the schema enforces.
 */

/** Letters (with combining marks), digits, apostrophes, periods, ampersands and hyphens. */
const WORD_CHARS = "\\p{L}\\p{M}0-9'’.&-";
const TEXT_RULE = "letters, digits, spaces, apostrophes, periods, ampersands and hyphens";

interface ParameterRule {
  /** What a valid value looks like, as quoted in a 400's message. */
  readonly rule: string;
  /** What to send instead, as quoted in a 400's resolution. */
  readonly resolution: string;
}

export type ParameterRules = Readonly<Record<string, ParameterRule>>;

/** An object schema with no properties: a route that takes no query parameters. */
export const NoParametersSchema = { type: "object", additionalProperties: false, properties: {} } as const;

export const directorySearchProperties = {
  q: {
    type: "string",
    maxLength: DIRECTORY_Q_MAX_LENGTH,
    // Terms are separated by spaces; the shape forbids a seventh term without backtracking blow-up.
    pattern: `^ *(?:[${WORD_CHARS}]+(?: +[${WORD_CHARS}]+){0,${DIRECTORY_Q_MAX_TERMS - 1}})? *$`,
    description: `Up to ${DIRECTORY_Q_MAX_TERMS} plain terms (letters, digits, spaces, apostrophes, periods, ampersands, hyphens), at most ${DIRECTORY_Q_MAX_LENGTH} characters. Every term must match the start of a word in the listing's name, its service or one of the words people use for the service (plumber for Plumbing), case- and accent-insensitively.`,
    examples: ["plumb"],
  },
  location: {
    type: "string",
    maxLength: DIRECTORY_LOCATION_MAX_LENGTH,
    pattern: `^[ ${WORD_CHARS}]*$`,
    description: `Plain text of at most ${DIRECTORY_LOCATION_MAX_LENGTH} characters (same characters as q), matched case- and accent-insensitively as a substring of the city, region or postal code.`,
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
    minimum: DIRECTORY_MIN_LIMIT,
    maximum: DIRECTORY_MAX_LIMIT,
    default: DIRECTORY_DEFAULT_LIMIT,
    description: `Page size, ${DIRECTORY_MIN_LIMIT} to ${DIRECTORY_MAX_LIMIT}; in a URL, decimal digits only.`,
  },
  offset: {
    type: "integer",
    minimum: 0,
    maximum: DIRECTORY_MAX_OFFSET,
    default: 0,
    description: "Where the page starts; take it from the previous response's nextOffset. In a URL, decimal digits only.",
  },
} as const;

export const DirectorySearchQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: directorySearchProperties,
} as const;

/** The facets' parameters: the search's own filters, without its paging. */
export const DirectoryFacetsQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    q: directorySearchProperties.q,
    location: directorySearchProperties.location,
    country: directorySearchProperties.country,
  },
} as const;

export const directoryIdentifierProperty = {
  type: "string",
  minLength: 1,
  maxLength: BUSINESS_IDENTIFIER_MAX_LENGTH,
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

/** The offerings' search terms: `q` on REST, `query` on MCP (interface §6). */
const offeringsTermsProperty = {
  type: "string",
  maxLength: OFFERINGS_Q_MAX_LENGTH,
  description: `Whitespace-separated terms, at most ${OFFERINGS_Q_MAX_LENGTH} characters. Every term must match the start of a word in the offering's name, description, audience or features, case- and accent-insensitively.`,
  examples: ["quotes"],
} as const;

export const OfferingsQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: { q: offeringsTermsProperty },
} as const;

/** The arguments of the MCP tool search_offerings: its input is named `query` (interface §6). */
export const OfferingsSearchArgumentsSchema = {
  type: "object",
  additionalProperties: false,
  properties: { query: offeringsTermsProperty },
} as const;

const offeringSlugProperty = {
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

/** The change feed's one parameter: the release the client's copy of the directory is at. */
export const ChangesQuerySchema = {
  type: "object",
  additionalProperties: false,
  required: ["since"],
  properties: {
    since: {
      type: "string",
      pattern: VERSION_PATTERN,
      description: `A release's version (16 lowercase hexadecimal digits): ${RELEASES_PATH}'s current when the copy was downloaded, then the \`to\` of the last answer applied.`,
      examples: ["63a255c6c7eb6c05"],
    },
  },
} as const;

/** The rules of the change feed's parameter. */
export const CHANGES_RULES: ParameterRules = {
  since: {
    rule: `a release's version: 16 lowercase hexadecimal digits, as ${RELEASES_PATH} writes it`,
    resolution: `Send since=<version>: ${RELEASES_PATH}'s current when you downloaded the directory, then the \`to\` of the last answer you applied.`,
  },
};

/** The rules of the directory's parameters, by name; quoted by REST and MCP error messages. */
export const DIRECTORY_RULES: ParameterRules = {
  q: {
    rule: `at most ${DIRECTORY_Q_MAX_LENGTH} characters and at most ${DIRECTORY_Q_MAX_TERMS} terms of ${TEXT_RULE}`,
    resolution: `Send at most ${DIRECTORY_Q_MAX_TERMS} plain words made of ${TEXT_RULE}, or leave q out to browse every listing.`,
  },
  location: {
    rule: `at most ${DIRECTORY_LOCATION_MAX_LENGTH} characters of ${TEXT_RULE}`,
    resolution: "Send part of a city, region or postal code, or leave location out.",
  },
  country: {
    rule: "a two-letter country code such as GB",
    resolution: "Send a two-letter ISO 3166-1 country code such as GB, FR or DE, or leave country out.",
  },
  limit: {
    rule: `a whole number from ${DIRECTORY_MIN_LIMIT} to ${DIRECTORY_MAX_LIMIT}`,
    resolution: `Send a whole number from ${DIRECTORY_MIN_LIMIT} to ${DIRECTORY_MAX_LIMIT}, or leave limit out for ${DIRECTORY_DEFAULT_LIMIT}.`,
  },
  offset: {
    rule: `a whole number from 0 to ${DIRECTORY_MAX_OFFSET}`,
    resolution: "Use the nextOffset of the previous response, or leave offset out to start at the first result.",
  },
  identifier: {
    rule: `a business slug or UUID of at most ${BUSINESS_IDENTIFIER_MAX_LENGTH} letters, digits and hyphens, starting with a letter or digit`,
    resolution: "Use the slug or id of a listing returned by the directory search.",
  },
};

function termsRule(name: string): ParameterRule {
  return {
    rule: `at most ${OFFERINGS_Q_MAX_LENGTH} characters`,
    resolution: `Send at most ${OFFERINGS_Q_MAX_LENGTH} characters of search terms, or leave ${name} out to list every offering.`,
  };
}

/** The rules of the offerings' parameters (and of search_offerings' `query`), by name. */
export const OFFERINGS_RULES: ParameterRules = {
  q: termsRule("q"),
  query: termsRule("query"),
  slug: {
    rule: "an exact offering slug",
    resolution: "Use a slug returned by the offerings list.",
  },
};

export type DirectorySearchQuery = FromSchema<typeof DirectorySearchQuerySchema, { keepDefaultedPropertiesOptional: true }>;
