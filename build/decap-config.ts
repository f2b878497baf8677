/**
 * The editors' form (Decap CMS's config.yml, served by `npm run dev` at /admin/config.yml), made
 * from the schemas the build validates with (src/schemas/content.ts) as schemas/ is: a field added
 * there is in the form (build/decap-fields.ts). What a schema cannot say, and so the form cannot
 * check, stays with `npm run check`: content/README.md, "Editing in the browser", names it.
 */
import { stringify } from "yaml";
import { DESCRIPTION_MAX_LENGTH, MAX_OFFERINGS } from "../src/contract.ts";
import { countryName } from "../src/render/listing-text.ts";
import {
  BusinessFrontMatterSchema,
  NOT_BLANK_PATTERN,
  OfferingFrontMatterSchema,
  type ServiceEntry,
  SiteFrontMatterSchema,
} from "../src/schemas/content.ts";
import { CATEGORY_WIDGET, COLLECTIONS, CONTENT_FORMATS, NEW_FILE_KEYS } from "./admin/names.ts";
import { type FormField, formFields, type Overrides } from "./decap-fields.ts";

export interface FormOptions {
  /** The content folder, as a path from the folder the form's backend writes in: `content`. */
  readonly contentFolder: string;
  /** content/services.yml's services, or null when there is no such file (services are then free text). */
  readonly services: readonly ServiceEntry[] | null;
  /** The form's backend (decap-server's API): `http://127.0.0.1:<port>/api/v1`. */
  readonly backendUrl: string;
  /** The site's address, for the editor's link back to it. */
  readonly siteUrl: string;
}

/** A collection of the form: a folder of files of one kind, or named files. */
export interface FormCollection {
  readonly name: string;
  readonly fields?: readonly FormField[];
  readonly files?: readonly { readonly name: string; readonly fields: readonly FormField[]; readonly [option: string]: unknown }[];
  readonly [option: string]: unknown;
}

export interface FormConfig {
  readonly collections: readonly FormCollection[];
  readonly [option: string]: unknown;
}

/** Where services.yml gives the choices: its names for `service`, and each one's category. */
function serviceOverrides(services: readonly ServiceEntry[] | null): Overrides {
  if (services === null) return {};
  const categories = Object.fromEntries(
    services.flatMap((service) => (service.category === undefined ? [] : [[service.name, service.category]])),
  );
  return {
    service: ({ pattern: _free, ...field }) => ({ ...field, widget: "select", options: services.map((service) => service.name) }),
    category: (field) => ({ ...field, widget: CATEGORY_WIDGET, categories, service_field: "service" }),
  };
}

const COUNTRY_OPTIONS = BusinessFrontMatterSchema.properties.location.properties.country.enum
  .map((code) => ({ label: `${countryName(code)} (${code})`, value: code }))
  .sort((a, b) => a.label.localeCompare(b.label, "en"));

const DESCRIPTION_PATTERN: [string, string] = [
  // Not blank, and at most DESCRIPTION_MAX_LENGTH characters once trimmed, as the build counts them.
  `^\\s*(?=\\S)(?=[\\s\\S]{1,${DESCRIPTION_MAX_LENGTH}}\\s*$)`,
  `not blank, and at most ${DESCRIPTION_MAX_LENGTH.toLocaleString("en")} characters`,
];

/** The Markdown body of a file, edited as typed: Decap's rich-text mode would rewrite its Markdown. */
function markdownBody(label: string, hint: string): FormField {
  return {
    name: "body",
    label,
    widget: "markdown",
    required: true,
    hint,
    modes: ["raw", "rich_text"],
    pattern: [NOT_BLANK_PATTERN, "not blank"],
  };
}

/** Decap's collections: listings (by country, as their folders are), offerings, and the site's own page. */
function collections(options: FormOptions): FormCollection[] {
  const content = options.contentFolder;
  const listingFields = formFields(BusinessFrontMatterSchema, {
    ...serviceOverrides(options.services),
    "location.country": (field) => ({ ...field, options: COUNTRY_OPTIONS }),
    status: (field) => ({ ...field, default: "pending" }),
  });
  return [
    {
      name: COLLECTIONS.listings,
      label: "Business listings",
      label_singular: "Business listing",
      description: "One file per business, in its country's folder. Only approved listings are published; Private is never published.",
      folder: `${content}/businesses`,
      format: CONTENT_FORMATS.listing,
      extension: "md",
      create: true,
      identifier_field: "name",
      // The folder and the name npm run new would choose (build/admin/slug.ts).
      path: `{{${NEW_FILE_KEYS.folder}}}/{{slug}}`,
      slug: `{{${NEW_FILE_KEYS.slug}}}`,
      summary: "{{name}}: {{location.city}}, {{location.country}} ({{status}})",
      sortable_fields: ["name", "location.city", "status"],
      view_groups: [
        { label: "Country", field: "location.country" },
        { label: "Status", field: "status" },
      ],
      fields: [
        ...listingFields,
        {
          name: "body",
          label: "Description",
          widget: "text",
          required: true,
          hint: "The business's own words, shown as plain text.",
          pattern: DESCRIPTION_PATTERN,
        },
      ],
    },
    {
      name: COLLECTIONS.offerings,
      label: "Offerings",
      label_singular: "Offering",
      description: `The catalog: at most ${MAX_OFFERINGS} offerings, each with its guide. Offerings have no status: a saved offering is published.`,
      folder: `${content}/offerings`,
      format: CONTENT_FORMATS.offering,
      extension: "md",
      create: true,
      limit: MAX_OFFERINGS,
      identifier_field: "name",
      slug: `{{${NEW_FILE_KEYS.slug}}}`,
      summary: "{{name}}",
      fields: [...formFields(OfferingFrontMatterSchema), markdownBody("Guide", "The offering's guide in Markdown, with ## headings.")],
    },
    {
      name: COLLECTIONS.site,
      label: "Site",
      description: "The facts every page shows, and the homepage's text.",
      files: [
        {
          name: "site",
          label: "Site name, contact and homepage",
          file: `${content}/site.md`,
          format: CONTENT_FORMATS.site,
          fields: [...formFields(SiteFrontMatterSchema), markdownBody("Homepage text", "The homepage's introduction, in Markdown.")],
        },
      ],
    },
  ];
}

/** The form's config as Decap CMS reads it. */
export function formConfig(options: FormOptions): FormConfig {
  return {
    // The local backend is the one backend: decap-server, on this machine (scripts/dev-admin/).
    backend: { name: "proxy", proxy_url: options.backendUrl },
    local_backend: { url: options.backendUrl },
    publish_mode: "simple",
    site_url: options.siteUrl,
    display_url: options.siteUrl,
    media_folder: `${options.contentFolder}/media`,
    show_preview_links: false,
    collections: collections(options),
  };
}

/** config.yml's text. */
export function formConfigYaml(options: FormOptions): string {
  return `# Made by npm run dev from src/schemas/content.ts (build/decap-config.ts); not a file to edit.\n${stringify(formConfig(options), { lineWidth: 0 })}`;
}
