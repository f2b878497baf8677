import { businessPagePath, markdownPath } from "../src/contract.ts";
import type { PublicBusiness } from "../src/schemas/business.ts";
import type { BusinessFrontMatter } from "../src/schemas/content.ts";

/** A listing as the build has read it: its slug, front matter and trimmed body. */
interface ListingFile {
  readonly slug: string;
  readonly data: BusinessFrontMatter;
  readonly body: string;
}

/**
 * Only the approved public fields: `status` and `private` never leave the build. Pure, as the
 * editors' form's preview (build/admin/) makes a listing's page in the browser with it too.
 */
export function toPublicBusiness(baseUrl: string, { slug, data, body }: ListingFile): PublicBusiness {
  const profileUrl = `${baseUrl}${businessPagePath(slug)}`;
  const { city, region, postalCode, country } = data.location;
  return {
    id: data.id.toLowerCase(),
    slug,
    name: data.name,
    service: data.service,
    category: data.category,
    description: body,
    location: { city, region, postalCode, country },
    profileUrl,
    markdownUrl: `${baseUrl}${markdownPath(businessPagePath(slug))}`,
    quoteUrl: data.quoteUrl,
  };
}
