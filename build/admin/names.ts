/**
 * The names the editor's config (build/decap-config.ts) and its browser code (this folder) agree
 * on: what the config names, the browser code registers with Decap CMS under the same name.
 */

/** The file formats that read and write content files as `npm run new` writes them, keys in their schema's order (format.ts). */
export const CONTENT_FORMATS = { listing: "listing-file", offering: "offering-file", site: "site-file" } as const;

/** The widget of a free mapping (a listing's `private`): YAML in a text area (widgets.ts). */
export const MAPPING_WIDGET = "yaml-mapping";

/** The widget of a listing's category when services.yml gives its service one: shown, not chosen (widgets.ts). */
export const CATEGORY_WIDGET = "service-category";

/**
 * The keys a new file's slug and folder are put under just before it is saved (slug.ts), for the
 * collection's templates to read; the content format never writes them. No content file's schema
 * has them. Lower case without dots: Decap lower-cases a path template and turns its dots into
 * hyphens before it reads it.
 */
export const NEW_FILE_KEYS = { slug: "_newfileslug", folder: "_newfilefolder" } as const;

/** Where the dev server answers the slug and folder `npm run new` would choose: `?kind=listing&name=…&city=…&country=…`. */
export const NEW_SLUG_PATH = "/admin/new-slug";

/** The collections, by the name the config gives them. */
export const COLLECTIONS = { listings: "listings", offerings: "offerings", site: "site" } as const;

/** The id of the data block of /admin/ that holds the site facts of the snapshot served (data/site.json), for the preview. */
export const SITE_FACTS_ID = "site-facts";
