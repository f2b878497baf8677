/**
 * The MCP App for directory results (MCP Apps, SEP-1865), bundled by build/mcp-app.ts into one
 * HTML document with @modelcontextprotocol/ext-apps. The host hands it a tool's result: a page of
 * search_businesses ({items, limit, offset, nextOffset}) or get_business's one listing, drawn as
 * cards. Everything else goes through the host: "Request a quote" asks it to open the listing's
 * quoteUrl (ui/open-link), and paging and the refined search ask it to call search_businesses
 * again (tools/call). The app itself fetches nothing.
 */
import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
  PostMessageTransport,
} from "@modelcontextprotocol/ext-apps";
import type { AppConfig } from "./config.ts";
import { actionButton, card, isListing, type Listing } from "./view.ts";

declare const MCP_APP_CONFIG: AppConfig;
const CONFIG = MCP_APP_CONFIG;

type ToolResult = Parameters<NonNullable<App["ontoolresult"]>>[0];

/** The search's own filters, as search_businesses takes them. */
interface Filters {
  q?: string;
  location?: string;
  country?: string;
}
const FILTERS = ["q", "location", "country"] as const;

interface Page {
  readonly items: readonly Listing[];
  readonly limit: number;
  readonly offset: number;
  readonly nextOffset: number | null;
}

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the document has no #${id}`);
  return found as T;
}

const form = byId<HTMLFormElement>("search");
const status = byId<HTMLParagraphElement>("status");
const list = byId<HTMLUListElement>("cards");
const pages = byId<HTMLElement>("pages");

const app = new App({ name: CONFIG.name, version: CONFIG.version }, {});

/** The filters of the results shown: the tool call's, then the refined search's. */
let filters: Filters = {};
/** The page shown, when the result is a page. */
let shown: Page | null = null;

/** The filters among a call's arguments (get_business's identifier is none). */
function filtersOf(args: Record<string, unknown> | undefined): Filters {
  const found: Filters = {};
  for (const name of FILTERS) {
    const value = args?.[name];
    if (typeof value === "string" && value.trim() !== "") found[name] = value.trim();
  }
  return found;
}

function isPage(value: unknown): value is Page {
  if (typeof value !== "object" || value === null) return false;
  const page = value as Record<string, unknown>;
  return (
    Array.isArray(page.items) &&
    page.items.every(isListing) &&
    typeof page.limit === "number" &&
    typeof page.offset === "number" &&
    (page.nextOffset === null || typeof page.nextOffset === "number")
  );
}

function say(text: string): void {
  status.textContent = text;
}

function fillForm(values: Filters): void {
  for (const name of FILTERS) {
    const input = form.elements.namedItem(name);
    if (input instanceof HTMLInputElement) input.value = values[name] ?? "";
  }
}

/** Whether a call to the host is under way: another click waits for it to end. */
let busy = false;

function setBusy(value: boolean): void {
  busy = value;
  list.setAttribute("aria-busy", String(value));
}

/** Asks the host to open a listing's quote page: the app never opens or fetches it itself. */
async function requestQuote(url: string): Promise<void> {
  try {
    const { isError } = await app.openLink({ url });
    if (isError === true) say(`The host did not open the quote page. Its address is ${url}`);
  } catch {
    say(`The host could not open the quote page. Its address is ${url}`);
  }
}

/** Asks the host to call search_businesses with `next` filters from `offset`, and shows what it answers. */
async function search(next: Filters, offset: number): Promise<void> {
  if (busy) return;
  const args: Record<string, unknown> = { ...next, ...(shown === null ? {} : { limit: shown.limit }), offset };
  setBusy(true);
  say("Searching…");
  let result: ToolResult;
  try {
    result = await app.callServerTool({ name: CONFIG.searchTool, arguments: args });
  } catch {
    setBusy(false);
    say("The host could not run the search. Try again.");
    return;
  }
  setBusy(false);
  filters = next;
  fillForm(filters);
  show(result);
}

function drawCards(listings: readonly Listing[]): void {
  list.replaceChildren(...listings.map((listing) => card(listing, (url) => void requestQuote(url))));
}

function drawPage(page: Page): void {
  shown = page;
  drawCards(page.items);
  const { offset, limit, nextOffset, items } = page;
  say(items.length === 0 ? "No listing matches this search." : `Listings ${offset + 1} to ${offset + items.length}, in name order.`);
  pages.replaceChildren(
    actionButton("Previous page", offset > 0 ? () => void search(filters, Math.max(0, offset - limit)) : null),
    actionButton("Next page", nextOffset === null ? null : () => void search(filters, nextOffset)),
  );
}

/** A tool's result: a page, one listing, or an error the server explained. */
function show(result: ToolResult): void {
  const content: unknown = result.structuredContent;
  if (result.isError === true) {
    const error = (content as { error?: { message?: unknown; resolution?: unknown } } | undefined)?.error;
    const explained = typeof error?.message === "string" && typeof error.resolution === "string";
    say(explained ? `${error.message} ${error.resolution}` : "The search failed.");
    return;
  }
  if (isPage(content)) {
    drawPage(content);
  } else if (isListing(content)) {
    shown = null;
    drawCards([content]);
    pages.replaceChildren();
    say("One listing.");
  } else {
    say("This result has no listing to show.");
  }
}

function applyContext(context: McpUiHostContext): void {
  if (context.theme !== undefined) applyDocumentTheme(context.theme);
  if (context.styles?.variables !== undefined) applyHostStyleVariables(context.styles.variables);
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const values = new FormData(form);
  void search(filtersOf(Object.fromEntries([...values.entries()].map(([name, value]) => [name, String(value)]))), 0);
});

// Handlers first, so that nothing the host sends after the handshake is missed.
app.ontoolinput = ({ arguments: args }) => {
  filters = filtersOf(args);
  fillForm(filters);
};
app.ontoolresult = show;
app.ontoolcancelled = () => say("The search was cancelled.");
app.onhostcontextchanged = applyContext;
app.onteardown = async () => ({});

void app.connect(new PostMessageTransport(window.parent, window.parent)).then(
  () => {
    const context = app.getHostContext();
    if (context !== undefined) applyContext(context);
  },
  () => say("This view needs a host that supports MCP Apps."),
);
