/**
 * `npm run new`: starts a content file, as `hugo new` does, so editors never copy one by hand
 * (and its id with it).
 *
 *   npm run new -- listing "Name" --service Plumbing --city Leeds --country GB
 *                  [--region "West Yorkshire"] [--postcode "LS1 4DT"] [--quote-url https://…]
 *                  [--category "…"] [--slug name-city]
 *   npm run new -- offering "Name" [--slug name]
 *
 * Writes a valid file at the conventional path (content/businesses/<country>/<slug>.md or
 * content/offerings/<slug>.md) with a fresh UUID, a slug no other file has, `status: pending` and
 * every required key, then prints its path. What the command was not told is written as the
 * placeholder TODO, which `npm run check` warns about until it is replaced. A clash or a bad
 * value is an error that writes nothing (exit 1); a usage mistake exits 2.
 */
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import matter from "gray-matter";
import { ConfigError, readConfig } from "../src/config.ts";
import { MAX_OFFERINGS } from "../src/contract.ts";
import { closest } from "../src/core/closest.ts";
import type { ServiceEntry } from "../src/schemas/content.ts";
import { isCountryCode } from "../src/schemas/countries.ts";
import { fold } from "../src/snapshot/text.ts";
import { type ContentProblem, readServices } from "./content.ts";
import { fileText } from "./content-file.ts";
import { unknownOption } from "./options.ts";
import { displayPath } from "./report.ts";
import { countryCodeProblem } from "./schema-errors.ts";
import { listingFolder, listingSlugWords, newSlug, slugsIn } from "./slug.ts";
import { checkServices, frontMatterProblems, SLUG_PATTERN, serviceWithAlias, UUID_LIKE } from "./validate.ts";
import { PLACEHOLDER } from "./warnings.ts";

/** A mistake in what was asked; nothing is written. */
class NewFileError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.exitCode = exitCode;
  }
}

const USAGE = `Usage:
  npm run new -- listing "Business name" --service <service> --city <city> --country <code>
                 [--region <region>] [--postcode <postal code>] [--quote-url <https URL>] [--category <category>] [--slug <slug>]
  npm run new -- offering "Offering name" [--slug <slug>]`;

/** The slug asked for, checked, or one made from `words` that no file has. */
function chooseSlug(asked: string | undefined, fallbackWords: string, taken: ReadonlySet<string>, kind: string): string {
  if (asked !== undefined) {
    if (!SLUG_PATTERN.test(asked) || UUID_LIKE.test(asked)) {
      throw new NewFileError(
        `--slug "${asked}" must be lower-case letters, digits and hyphens, starting with a letter or digit, and not a UUID.`,
      );
    }
    if (taken.has(asked)) throw new NewFileError(`--slug "${asked}" is already the slug of another ${kind}; choose another.`);
    return asked;
  }
  return newSlug(fallbackWords, taken, kind);
}

/** The vocabulary's service named (exactly, in other case, or by one of its aliases), or an error naming the closest. */
function serviceNamed(asked: string, vocabulary: readonly ServiceEntry[]): ServiceEntry {
  const key = fold(asked.trim());
  const found =
    vocabulary.find((service) => service.name === asked) ??
    vocabulary.find((service) => fold(service.name) === key) ??
    serviceWithAlias(asked, vocabulary);
  if (found !== undefined) return found;
  const suggestion = closest(
    asked,
    vocabulary.map((service) => service.name),
  );
  throw new NewFileError(
    `--service "${asked}" is not a service in services.yml${suggestion === undefined ? "; add it there first" : `; did you mean "${suggestion}"?`}`,
  );
}

/** The file's text read back as the build reads it: its problems, if any (none is ever written). */
function readBack(kind: "business" | "offering", file: string, text: string): ContentProblem[] {
  const data = matter(text, {}).data as Record<string, unknown>;
  return frontMatterProblems(kind, file, data);
}

/** The problems of a front matter the command built, as one message. */
function rejectProblems(problems: readonly ContentProblem[]): void {
  if (problems.length > 0) {
    throw new NewFileError(
      problems.map(({ field, message }) => `${field === "location.country" ? "--country" : field}: ${message}`).join("\n"),
    );
  }
}

interface Written {
  readonly path: string;
  /** What the editor still has to write. */
  readonly todo: readonly string[];
  /** When the file reaches the public. */
  readonly published: string;
}

function newListing(contentDir: string, name: string, options: Record<string, string | undefined>): Written {
  const required = { service: options.service, city: options.city, country: options.country };
  const missing = Object.entries(required).filter(([, value]) => value === undefined || value.trim() === "");
  if (missing.length > 0) {
    throw new NewFileError(`a listing needs ${missing.map(([option]) => `--${option}`).join(", ")}.\n${USAGE}`, 2);
  }
  const city = (options.city ?? "").trim();
  const country = (options.country ?? "").trim().toUpperCase();
  if (!isCountryCode(country)) {
    throw new NewFileError(`--country "${options.country}" ${countryCodeProblem(country)}.`);
  }

  const problems: ContentProblem[] = [];
  const source = readServices(contentDir, problems);
  const vocabulary = source === null ? null : checkServices(source, problems);
  if (problems.length > 0) throw new NewFileError(`services.yml has errors; run npm run check and fix them first.`);
  let service = (options.service ?? "").trim();
  let category = options.category?.trim();
  if (vocabulary !== null) {
    const entry = serviceNamed(service, vocabulary);
    service = entry.name;
    if (entry.category !== undefined) {
      if (category !== undefined && category !== entry.category) {
        throw new NewFileError(`--category must be "${entry.category}" for ${service} (services.yml), or left out.`);
      }
      category = entry.category;
    }
  }
  if (category === undefined || category === "") {
    throw new NewFileError(
      vocabulary === null
        ? `--category is needed: there is no services.yml to give ${service}'s category.`
        : `--category is needed: services.yml gives no category for ${service}.`,
    );
  }

  const dir = join(contentDir, "businesses");
  const slug = chooseSlug(options.slug, listingSlugWords(name, city), slugsIn(dir), "listing");
  const todo: string[] = [];
  const given = (option: string, field: string): string => {
    const value = options[option]?.trim();
    if (value !== undefined && value !== "") return value;
    todo.push(field);
    return PLACEHOLDER;
  };
  const data = {
    id: randomUUID(),
    name,
    service,
    category,
    location: { city, region: given("region", "location.region"), postalCode: given("postcode", "location.postalCode"), country },
    quoteUrl: given("quote-url", "quoteUrl").replace(/^TODO$/, `https://example.com/${PLACEHOLDER}`),
    status: "pending",
  };
  const file = `businesses/${listingFolder(country)}/${slug}.md`;
  todo.push("the description");
  const body = `${PLACEHOLDER}: describe the business in plain text: what it does, where, and for how long (at most 3,000 characters).`;
  const text = fileText(data, body);
  rejectProblems(readBack("business", file, text));
  return { path: write(contentDir, file, text), todo, published: "It stays unpublished until its status is approved." };
}

function newOffering(contentDir: string, name: string, options: Record<string, string | undefined>): Written {
  const dir = join(contentDir, "offerings");
  const taken = slugsIn(dir);
  if (taken.size >= MAX_OFFERINGS)
    throw new NewFileError(`offerings/ already holds ${taken.size} offerings; at most ${MAX_OFFERINGS} are allowed.`);
  const slug = chooseSlug(options.slug, name, taken, "offering");
  const data = {
    name,
    description: `${PLACEHOLDER}: one or two sentences on what it is and what it does for people.`,
    audience: `${PLACEHOLDER}: who it is for`,
    action: `${PLACEHOLDER}: the button label, such as Request quotes`,
    access: `${PLACEHOLDER}: who may use it and on what terms`,
    features: [{ title: PLACEHOLDER, text: PLACEHOLDER }],
    steps: [PLACEHOLDER],
    questions: [{ question: PLACEHOLDER, answer: PLACEHOLDER }],
  };
  const file = `offerings/${slug}.md`;
  const body = `${PLACEHOLDER}: the offering's guide in Markdown.\n\n## How it works\n\n${PLACEHOLDER}`;
  const text = fileText(data, body);
  rejectProblems(readBack("offering", file, text));
  return {
    path: write(contentDir, file, text),
    todo: ["every value that reads TODO", "the guide"],
    published: "Offerings have no status: the next build publishes it, so finish it before you commit it.",
  };
}

/** Writes a new file; one that appeared meanwhile is not overwritten. */
function write(contentDir: string, file: string, text: string): string {
  const path = join(contentDir, file);
  mkdirSync(join(path, ".."), { recursive: true });
  try {
    writeFileSync(path, text, { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") throw new NewFileError(`${displayPath(contentDir, file)} already exists.`);
    throw error;
  }
  return displayPath(contentDir, file);
}

const OPTIONS = {
  service: { type: "string" },
  city: { type: "string" },
  country: { type: "string" },
  region: { type: "string" },
  postcode: { type: "string" },
  "quote-url": { type: "string" },
  category: { type: "string" },
  slug: { type: "string" },
} as const;

function main(): void {
  const args = process.argv.slice(2);
  const unknown = unknownOption(args, OPTIONS);
  if (unknown !== undefined) throw new NewFileError(`${unknown}\n${USAGE}`, 2);
  const parse = () => parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    throw new NewFileError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`, 2);
  }
  const [kind, name, ...rest] = parsed.positionals;
  if ((kind !== "listing" && kind !== "offering") || name === undefined || name.trim() === "" || rest.length > 0) {
    throw new NewFileError(USAGE, 2);
  }
  // A name is one line of text: a line break would put it on two lines of every page and list.
  if (/\p{Cc}/u.test(name)) throw new NewFileError("the name must be one line of text, without line breaks or control characters.");
  const { contentDir } = readConfig();
  // A mistyped CONTENT_DIR would otherwise get a new folder tree of its own.
  if (!existsSync(join(contentDir, "site.md"))) {
    throw new NewFileError(`${contentDir} has no site.md: is it the content folder? (CONTENT_DIR chooses it.)`);
  }
  const written = (kind === "listing" ? newListing : newOffering)(contentDir, name.trim(), parsed.values);
  console.log(written.path);
  console.error(`Fill in ${written.todo.join(", ")}; npm run check warns until no TODO is left. ${written.published}`);
}

try {
  main();
} catch (error) {
  if (error instanceof NewFileError) {
    console.error(`npm run new: ${error.message}`);
    process.exitCode = error.exitCode;
  } else {
    console.error(`npm run new: ${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
