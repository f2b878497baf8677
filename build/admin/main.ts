/**
 * The editors' form's own code, bundled by build/admin.ts and loaded by /admin/ after Decap CMS
 * (which then reads config.yml): the content files' format, the widgets, the new files' names and
 * the listing's preview.
 */
import { BusinessFrontMatterSchema, OfferingFrontMatterSchema, SiteFrontMatterSchema } from "../../src/schemas/content.ts";
import { contentFormat } from "./format.ts";
import { CONTENT_FORMATS } from "./names.ts";
import { registerPreview } from "./preview.ts";
import { registerNewSlugs } from "./slug.ts";
import { registerWidgets } from "./widgets.ts";

window.CMS.registerCustomFormat(CONTENT_FORMATS.listing, "md", contentFormat(BusinessFrontMatterSchema));
window.CMS.registerCustomFormat(CONTENT_FORMATS.offering, "md", contentFormat(OfferingFrontMatterSchema));
window.CMS.registerCustomFormat(CONTENT_FORMATS.site, "md", contentFormat(SiteFrontMatterSchema));
registerWidgets();
registerNewSlugs();
registerPreview();
