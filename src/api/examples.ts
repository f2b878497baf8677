import type { PublicBusiness } from "../schemas/business.ts";
import type { Offering } from "../schemas/offering.ts";
import type { DirectoryFacets } from "../schemas/responses.ts";

/** Example bodies shown in the OpenAPI document (validated against their schemas by its linters and tests). */

export const EXAMPLE_BUSINESS: PublicBusiness = {
  id: "1b4e28ba-2fa1-41d2-883f-0016d3cca427",
  slug: "obrien-sons-plumbing-dublin",
  name: "O'Brien & Sons Plumbing",
  service: "Plumbing",
  category: "Repairs & maintenance",
  description: "Family plumbers covering Dublin city and county since 1998.",
  location: { city: "Dublin", region: "County Dublin", postalCode: "D02 X285", country: "IE" },
  profileUrl: "https://directory.example/businesses/obrien-sons-plumbing-dublin",
  markdownUrl: "https://directory.example/businesses/obrien-sons-plumbing-dublin/index.md",
  quoteUrl: "https://hearthway.example/quotes/new?business=obrien-sons-plumbing-dublin",
};

export const EXAMPLE_OFFERING: Offering = {
  slug: "request-quotes",
  name: "Request quotes",
  description: "Describe a job once and hear back from up to three local trades.",
  audience: "Homeowners and tenants",
  href: "/offerings/request-quotes",
  action: "Request quotes",
  access: "Free for homeowners. Sending a request needs a free account.",
  url: "https://directory.example/offerings/request-quotes",
  guideUrl: "https://directory.example/offerings/request-quotes",
  markdownUrl: "https://directory.example/offerings/request-quotes/index.md",
  features: [
    { title: "One form", text: "Describe the job once.", link: { href: "https://hearthway.example/quotes/new", label: "Start a request" } },
  ],
  steps: ["Describe the job", "Compare the quotes"],
  questions: [{ question: "Does it cost anything?", answer: "No, requesting quotes is free." }],
};

/** The facets of `GET /api/facets?q=plumb&country=IE` over a small directory. */
export const EXAMPLE_FACETS: DirectoryFacets = {
  total: 14,
  service: [{ value: "Plumbing", count: 14 }],
  category: [{ value: "Repairs & maintenance", count: 14 }],
  country: [{ value: "IE", count: 14 }],
  city: [
    { value: "Dublin", count: 9 },
    { value: "Cork", count: 3 },
    { value: "Galway", count: 2 },
  ],
};

/** The first line of `GET /api/changes?since=…`: two listings changed and one left since that release. */
export const EXAMPLE_CHANGES_HEADER = { from: "63a255c6c7eb6c05", to: "9c0e5d2b7a4f1e38", upserts: 2, removals: 1 };
