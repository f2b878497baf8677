import type { FromSchema } from "json-schema-to-ts";

const FeatureLinkSchema = {
  type: "object",
  additionalProperties: false,
  required: ["href", "label"],
  properties: {
    href: { type: "string", minLength: 1 },
    label: { type: "string", minLength: 1 },
  },
} as const;

const FeatureSchema = {
  type: "object",
  additionalProperties: false,
  required: ["title", "text"],
  properties: {
    title: { type: "string", minLength: 1 },
    text: { type: "string", minLength: 1 },
    link: FeatureLinkSchema,
  },
} as const;

const QuestionSchema = {
  type: "object",
  additionalProperties: false,
  required: ["question", "answer"],
  properties: {
    question: { type: "string", minLength: 1 },
    answer: { type: "string", minLength: 1 },
  },
} as const;

/** The parts of an offering an editor writes; the build derives the rest. */
export const offeringEditorialProperties = {
  name: { type: "string", minLength: 1 },
  description: { type: "string", minLength: 1 },
  audience: { type: "string", minLength: 1, description: "Who the offering is for." },
  action: { type: "string", minLength: 1, description: "The call-to-action label." },
  access: {
    type: "string",
    minLength: 1,
    description: "Access conditions: who may use it and on what terms.",
  },
  features: { type: "array", items: FeatureSchema },
  steps: { type: "array", items: { type: "string", minLength: 1 } },
  questions: { type: "array", items: QuestionSchema, description: "FAQ entries." },
} as const;

export const OfferingSchema = {
  type: "object",
  additionalProperties: false,
  required: [
    "slug",
    "name",
    "description",
    "audience",
    "href",
    "action",
    "access",
    "url",
    "guideUrl",
    "markdownUrl",
    "features",
    "steps",
    "questions",
  ],
  properties: {
    slug: {
      type: "string",
      pattern: "^[a-z0-9][a-z0-9-]*$",
      description: "Identifier used in the path of the single-offering endpoint.",
      examples: ["request-quotes"],
    },
    name: offeringEditorialProperties.name,
    description: offeringEditorialProperties.description,
    audience: offeringEditorialProperties.audience,
    href: {
      type: "string",
      pattern: "^/",
      description: "Site-relative path of the offering's page.",
      examples: ["/offerings/request-quotes"],
    },
    action: offeringEditorialProperties.action,
    access: offeringEditorialProperties.access,
    url: { type: "string", format: "uri", description: "Absolute URL where the offering is used." },
    guideUrl: { type: "string", format: "uri", description: "Absolute URL of the offering's guide page." },
    markdownUrl: { type: "string", format: "uri", description: "The guide as Markdown." },
    features: offeringEditorialProperties.features,
    steps: offeringEditorialProperties.steps,
    questions: offeringEditorialProperties.questions,
  },
} as const;

export type Offering = FromSchema<typeof OfferingSchema>;
