import type { EmptySearchHelp } from "../core/suggest.ts";
import type { DirectoryFacets, DirectoryPage } from "../schemas/responses.ts";
import { type CountryChoice, countryOptionsHtml, type FormValues, type PageField } from "./directory-form.ts";
import type { DirectorySummary } from "./directory-lists.ts";
import type { RenderedCards } from "./page-model.ts";

/**
 * What the directory page (directory.ts) is built from: what it shows, the choices it offers and
 * the next steps after a search that found nothing.
 */

/** What a search that found nothing offers next (src/core/suggest.ts), with the services to browse and their counts. */
export interface EmptySearchOffer extends EmptySearchHelp {
  readonly services: DirectoryChoices["services"];
}

/**
 * What the directory has to choose from: its countries and services, each with its count of
 * listings and the list of exactly those listings (`path`, its page; `markdownPath`, the same
 * page in Markdown), so a count and the page it links always agree.
 */
export interface DirectoryChoices {
  readonly countries: readonly { readonly code: string; readonly total: number; readonly path: string; readonly markdownPath: string }[];
  readonly services: readonly { readonly name: string; readonly total: number; readonly path: string; readonly markdownPath: string }[];
  /** The countries as the search form offers them. */
  readonly form: CountryChoice;
}

/** The choices of a directory summary (src/render/directory-lists.ts); the form's options are rendered each time they are asked for. */
export function choicesOf(summary: DirectorySummary): DirectoryChoices {
  const countries = summary.countries.map(({ code, total, pathOf, pagePathOf }) => ({
    code,
    total,
    path: pagePathOf(1),
    markdownPath: pathOf(1),
  }));
  return {
    countries,
    services: summary.services.map(({ name, total, pathOf, pagePathOf }) => ({
      name,
      total,
      path: pagePathOf(1),
      markdownPath: pathOf(1),
    })),
    form: { codes: new Set(countries.map(({ code }) => code)), options: (chosen) => countryOptionsHtml(countries, chosen) },
  };
}

/** A page of results as cards rendered before it (src/http/page-parts.ts), with its paging. */
type CardPage = Omit<DirectoryPage, "items"> & { readonly cards: RenderedCards };

/** What the directory page shows: results, a problem with the input, or an unavailable directory. */
export type DirectoryView =
  | {
      kind: "results";
      form: FormValues;
      searched: boolean;
      /** The listings shown, as they are (the build's first page) or as their cards (a search's page). */
      page: DirectoryPage | CardPage;
      /** How many listings match in all (the page shows it and numbers its pages). */
      total: number;
      /** The search's own counts by service and country (GET /api/facets), linked as narrower searches; none on an unsearched page. */
      facets?: Pick<DirectoryFacets, "service" | "country">;
      offer?: EmptySearchOffer;
    }
  | { kind: "invalid"; form: FormValues; field: PageField; message: string }
  | { kind: "unavailable"; form: FormValues };
