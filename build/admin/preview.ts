/**
 * The preview of a listing: its profile page as the site renders it, made in the browser by the
 * site's own renderer (src/render/business.ts) from the form's values, with the site's stylesheet.
 * The page's body is put in the preview frame, and its language and title on the frame's
 * document, so the frame reads as the page does (to a screen reader, to axe). The renderer escapes
 * every field the business supplied, as it does for the site; and markup set as innerHTML runs no
 * script.
 */
import { STYLESHEET_PATH } from "../../src/contract.ts";
import { profileHtml } from "../../src/render/business.ts";
import type { BusinessFrontMatter, SiteInfo } from "../../src/schemas/content.ts";
import { toPublicBusiness } from "../public-business.ts";
import { component, type PreviewProps } from "./decap.ts";
import { COLLECTIONS, SITE_FACTS_ID } from "./names.ts";
import { plain } from "./widgets.ts";

/** The site facts /admin/ was served with; null before the first build. */
function siteFacts(): SiteInfo | null {
  const text = document.getElementById(SITE_FACTS_ID)?.textContent;
  return text === undefined || text === null ? null : (JSON.parse(text) as SiteInfo | null);
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

/** The form's values as a listing's front matter: a field not filled in yet reads as empty. */
function frontMatter(data: Record<string, unknown>): BusinessFrontMatter {
  const location = (data.location ?? {}) as Record<string, unknown>;
  return {
    id: text(data.id),
    name: text(data.name),
    service: text(data.service),
    category: text(data.category),
    location: {
      city: text(location.city),
      region: text(location.region),
      postalCode: text(location.postalCode),
      // Any text: the page names a country it does not know by its code.
      country: text(location.country) as BusinessFrontMatter["location"]["country"],
    },
    quoteUrl: text(data.quoteUrl),
    status: "approved",
  };
}

/** The listing's slug: its file's name once saved; a new one's is chosen at the save (slug.ts), and is in no visible text. */
function slugOf(path: unknown): string {
  return typeof path === "string" ? (path.split("/").pop() ?? "").replace(/\.md$/, "") : "new-listing";
}

interface Page {
  readonly lang: string;
  readonly title: string;
  readonly body: string;
}

/** The listing's page, as the site would serve it now; null before the first build. */
function listingPage({ entry }: PreviewProps): Page | null {
  const site = siteFacts();
  if (site === null) return null;
  const data = (plain(entry.get("data")) ?? {}) as Record<string, unknown>;
  const business = toPublicBusiness(site.baseUrl, {
    slug: slugOf(entry.get("path")),
    data: frontMatter(data),
    body: text(data.body).trim(),
  });
  // Parsed, never run: a document made by DOMParser runs no script and loads nothing.
  const page = new DOMParser().parseFromString(profileHtml(site, business), "text/html");
  return { lang: page.documentElement.lang, title: page.title, body: page.body.innerHTML };
}

const ListingPreview = component<PreviewProps>()({
  componentDidMount() {
    this.describeFrame();
  },
  componentDidUpdate() {
    this.describeFrame();
  },
  /** The frame's document takes the page's language and title. */
  describeFrame() {
    const page = listingPage(this.props);
    this.props.document.documentElement.lang = page?.lang ?? "en";
    this.props.document.title = page?.title ?? "Preview";
  },
  render() {
    const page = listingPage(this.props);
    if (page === null) {
      return window.h(
        "main",
        null,
        window.h("h1", null, "No preview yet"),
        window.h(
          "p",
          null,
          "The preview shows the listing's page once the site has been built: fix what npm run dev reports, then reload this page.",
        ),
      );
    }
    return window.h("div", { dangerouslySetInnerHTML: { __html: page.body } });
  },
});

export function registerPreview(): void {
  window.CMS.registerPreviewStyle(STYLESHEET_PATH);
  window.CMS.registerPreviewTemplate(COLLECTIONS.listings, ListingPreview);
}
