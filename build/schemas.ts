/**
 * `npm run schemas`: writes the JSON Schemas of editors' files to schemas/, for other tools (an
 * editor's completion and checks, a CMS, a linter). They are made from the same schema sources
 * the build validates with (src/schemas/content.ts), and a test checks the files match them.
 * `npm run check` checks more than a schema can say (ids and slugs unique across files, assigned
 * country codes, services in the vocabulary, the Markdown body), so it stays the final word.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import {
  BusinessFrontMatterSchema,
  OfferingFrontMatterSchema,
  ServiceVocabularySchema,
  SiteFrontMatterSchema,
} from "../src/schemas/content.ts";

/** Where the schemas are written, from the repository's root. */
export const SCHEMAS_DIR = "schemas";

const DRAFT = "http://json-schema.org/draft-07/schema#";

/** Each schema file's name and text. */
export function editorSchemas(): Map<string, string> {
  const schemas: [string, string, string, object][] = [
    [
      "listing.schema.json",
      "A business listing",
      "The YAML front matter of content/businesses/**/*.md. The Markdown body below it is the listing's plain-text description.",
      BusinessFrontMatterSchema,
    ],
    [
      "offering.schema.json",
      "An offering",
      "The YAML front matter of content/offerings/*.md. The Markdown body below it is the offering's guide.",
      OfferingFrontMatterSchema,
    ],
    [
      "site.schema.json",
      "The site",
      "The YAML front matter of content/site.md. The Markdown body below it is the homepage text.",
      SiteFrontMatterSchema,
    ],
    [
      "services.schema.json",
      "The service vocabulary",
      "content/services.yml: every service listings may name, with the words people use for it.",
      ServiceVocabularySchema,
    ],
  ];
  return new Map(
    schemas.map(([file, title, description, schema]) => [
      file,
      `${JSON.stringify({ $schema: DRAFT, title, description, ...schema }, null, 2)}\n`,
    ]),
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  mkdirSync(SCHEMAS_DIR, { recursive: true });
  for (const [file, text] of editorSchemas()) {
    writeFileSync(join(SCHEMAS_DIR, file), text);
    console.log(join(SCHEMAS_DIR, file));
  }
}
