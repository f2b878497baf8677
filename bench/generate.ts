/**
 * A deterministic generator of content folders with N synthetic listings in the interface §2
 * format: the sample content's site.md and offerings, and N listing files with realistic names,
 * services, places (accents and apostrophes included), descriptions and statuses. The same N and
 * seed always give the same files.
 *
 *   npx tsx bench/generate.ts --listings 100000 --out /tmp/content-100k [--seed 1]
 */
import { copyFile, mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sameNameKey } from "../build/warnings.ts";

/** mulberry32: a small seeded PRNG, good enough for test data and stable across Node versions. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const SERVICES: readonly (readonly [service: string, category: string, noun: string, jobs: readonly string[]])[] = [
  ["Plumbing", "Repairs & maintenance", "plumber", ["leaking taps", "burst pipes", "toilet repairs", "outside taps"]],
  ["Roofing", "Building & structural", "roofer", ["slipped tiles", "flat roof replacement", "lead flashing", "guttering"]],
  ["Electrical", "Electrical & energy", "electrician", ["rewiring", "fuse board upgrades", "EV chargers", "safety checks"]],
  ["Window Cleaning", "Cleaning & pest control", "window cleaner", ["pure-water pole cleaning", "conservatory roofs", "gutter clearing"]],
  ["Landscaping", "Outdoor & garden", "landscaper", ["patios", "turfing", "raised beds", "garden design"]],
  ["Handyman", "Repairs & maintenance", "handyman", ["flat-pack assembly", "shelving", "small repairs", "door hanging"]],
  ["Tiling", "Interiors & finishing", "tiler", ["bathroom walls", "kitchen splashbacks", "floor tiling"]],
  ["Bricklaying", "Building & structural", "bricklayer", ["garden walls", "extensions", "repointing"]],
  ["Appliance Repair", "Repairs & maintenance", "appliance engineer", ["washing machines", "ovens", "dishwashers"]],
  ["Solar Installation", "Electrical & energy", "solar installer", ["roof panels", "battery storage", "inverter swaps"]],
  ["Locksmith", "Repairs & maintenance", "locksmith", ["lock changes", "emergency entry", "uPVC door locks"]],
  ["Chimney Sweep", "Building & structural", "chimney sweep", ["flue sweeping", "bird guards", "CCTV surveys"]],
  ["Carpentry & Joinery", "Interiors & finishing", "joiner", ["staircases", "fitted wardrobes", "sash windows"]],
  ["Removals", "Moving & storage", "removals team", ["house moves", "packing", "storage"]],
  ["Pest Control", "Cleaning & pest control", "pest controller", ["wasp nests", "mice", "bed bugs"]],
  ["House Cleaning", "Cleaning & pest control", "cleaner", ["weekly cleans", "end-of-tenancy cleans", "oven cleaning"]],
  ["Drainage", "Repairs & maintenance", "drainage engineer", ["blocked drains", "CCTV drain surveys", "soakaways"]],
  ["Damp Proofing", "Building & structural", "damp specialist", ["rising damp", "condensation", "tanking"]],
  ["Bathroom Fitting", "Kitchens & bathrooms", "bathroom fitter", ["walk-in showers", "full refits", "wet rooms"]],
  ["Painting & Decorating", "Interiors & finishing", "decorator", ["interior painting", "wallpapering", "exterior render"]],
  ["Plastering", "Building & structural", "plasterer", ["skimming", "artex removal", "rendering"]],
  ["Flooring", "Interiors & finishing", "floor fitter", ["engineered oak", "LVT", "floor sanding"]],
  ["Fencing", "Outdoor & garden", "fencer", ["panel fences", "gates", "post replacement"]],
  ["Heating & Boilers", "Electrical & energy", "heating engineer", ["boiler servicing", "radiators", "heat pumps"]],
  ["Tree Surgery", "Outdoor & garden", "tree surgeon", ["crown reductions", "felling", "stump grinding"]],
  ["Kitchen Fitting", "Kitchens & bathrooms", "kitchen fitter", ["worktops", "full kitchens", "appliance fitting"]],
  ["Glazing", "Building & structural", "glazier", ["double glazing", "misted units", "bifold doors"]],
];

type Place = readonly [city: string, region: string, country: string, postcode: (next: () => number) => string];

const letter = (next: () => number) => String.fromCharCode(65 + Math.floor(next() * 26));
const digit = (next: () => number) => String(Math.floor(next() * 10));
const digits = (next: () => number, count: number) => Array.from({ length: count }, () => digit(next)).join("");
const ukPostcode = (area: string) => (next: () => number) =>
  `${area}${1 + Math.floor(next() * 19)} ${digit(next)}${letter(next)}${letter(next)}`;
const numeric = (prefix: string, count: number) => (next: () => number) => `${prefix}${digits(next, count)}`;
const eircode = (area: string) => (next: () => number) => `${area} ${letter(next)}${digits(next, 2)}${letter(next)}`;
const canadian = (area: string) => (next: () => number) =>
  `${area}${digit(next)}${letter(next)} ${digit(next)}${letter(next)}${digit(next)}`;

export const PLACES: readonly Place[] = [
  ["London", "Greater London", "GB", ukPostcode("SW")],
  ["London", "Greater London", "GB", ukPostcode("N")],
  ["Manchester", "Greater Manchester", "GB", ukPostcode("M")],
  ["Leeds", "West Yorkshire", "GB", ukPostcode("LS")],
  ["Birmingham", "West Midlands", "GB", ukPostcode("B")],
  ["Bristol", "City of Bristol", "GB", ukPostcode("BS")],
  ["Brighton", "East Sussex", "GB", ukPostcode("BN")],
  ["Bath", "Somerset", "GB", ukPostcode("BA")],
  ["York", "North Yorkshire", "GB", ukPostcode("YO")],
  ["Newcastle upon Tyne", "Tyne and Wear", "GB", ukPostcode("NE")],
  ["Edinburgh", "City of Edinburgh", "GB", ukPostcode("EH")],
  ["Glasgow", "Glasgow City", "GB", ukPostcode("G")],
  ["Cardiff", "Cardiff", "GB", ukPostcode("CF")],
  ["Belfast", "County Antrim", "GB", ukPostcode("BT")],
  ["Dublin", "County Dublin", "IE", eircode("D02")],
  ["Cork", "County Cork", "IE", eircode("T12")],
  ["Galway", "County Galway", "IE", eircode("H91")],
  ["Dún Laoghaire", "County Dublin", "IE", eircode("A96")],
  ["Paris", "Île-de-France", "FR", numeric("750", 2)],
  ["Lyon", "Auvergne-Rhône-Alpes", "FR", numeric("6900", 1)],
  ["Annecy", "Auvergne-Rhône-Alpes", "FR", numeric("740", 2)],
  ["Bordeaux", "Nouvelle-Aquitaine", "FR", numeric("330", 2)],
  ["Berlin", "Berlin", "DE", numeric("10", 3)],
  ["München", "Bayern", "DE", numeric("80", 3)],
  ["Köln", "Nordrhein-Westfalen", "DE", numeric("50", 3)],
  ["Düsseldorf", "Nordrhein-Westfalen", "DE", numeric("40", 3)],
  ["Toronto", "Ontario", "CA", canadian("M")],
  ["Montréal", "Québec", "CA", canadian("H")],
  ["Vancouver", "British Columbia", "CA", canadian("V")],
  ["Sydney", "New South Wales", "AU", numeric("20", 2)],
  ["Melbourne", "Victoria", "AU", numeric("30", 2)],
  ["Adelaide", "South Australia", "AU", numeric("50", 2)],
  ["Auckland", "Auckland", "NZ", numeric("10", 2)],
  ["Wellington", "Wellington", "NZ", numeric("60", 2)],
];

export const SURNAMES = [
  "Smith",
  "Jones",
  "Taylor",
  "Brown",
  "Wilson",
  "Evans",
  "Thomas",
  "Johnson",
  "Roberts",
  "Walker",
  "Wright",
  "Robinson",
  "Thompson",
  "White",
  "Hughes",
  "Edwards",
  "Green",
  "Hall",
  "Wood",
  "Harris",
  "Lewis",
  "Martin",
  "Jackson",
  "Clarke",
  "O'Brien",
  "O'Neill",
  "McCarthy",
  "Murphy",
  "Kelly",
  "Byrne",
  "Ó Súilleabháin",
  "Müller",
  "Schäfer",
  "Weiß",
  "Becker",
  "Dubois",
  "Lefèvre",
  "Moreau",
  "Girard",
  "Côté",
  "Tremblay",
  "Gagnon",
  "Nguyen",
  "Patel",
  "Singh",
  "Kowalski",
  "Nowak",
  "Ferreira",
  "Rossi",
  "Ngata",
  "Te Rangi",
  "Whitfield",
  "Sutcliffe",
  "Abbott",
  "Keane",
  "Jarvis",
  "Kerr",
];
const FIRST_NAMES = [
  "Alex",
  "Sam",
  "Jo",
  "Chris",
  "Pat",
  "Niamh",
  "Siobhán",
  "Zoë",
  "Chloé",
  "Jürgen",
  "Ana",
  "Tom",
  "Ravi",
  "Mei",
  "Kai",
  "Aroha",
];
export const ADJECTIVES = [
  "Reliable",
  "Premier",
  "Local",
  "Express",
  "Family",
  "Trusted",
  "Quality",
  "Budget",
  "Precision",
  "Allround",
  "Green",
  "Northern",
  "Coastal",
  "City",
  "Heritage",
  "Modern",
  "Rapid",
  "Bright",
  "Safe",
  "Honest",
  "1st Choice",
  "A1",
  "24/7",
  "Café Crème",
];
const SUFFIXES = ["", " Ltd", " & Sons", " & Co", " Services", " Solutions", " Specialists", " Team", " Pros", " Experts"];
const OPENERS = [
  "Looking for {a noun} in {city}?",
  "{name} is an independent {noun} serving {city} and the surrounding area.",
  "We are a friendly {noun} business based in {region}.",
  "Need {a noun} you can trust in {city}?",
];
const MIDDLES = [
  "Typical jobs include {job1}, {job2} and {job3}.",
  "We have been looking after local homes for {years} years.",
  "Every job comes with a written quote and a clear start date.",
  "Before-and-after photos are sent for every job, so you can see exactly what was done.",
  "We are fully insured and happy to show our certificates.",
  "Evening and weekend appointments are available on request.",
];
const CLOSERS = ["Thanks for looking, and we hope to hear from you.", "Ask us for a free quote.", "No call-out charge within {city}."];

function pick<T>(next: () => number, items: readonly T[]): T {
  return items[Math.floor(next() * items.length)] as T;
}

function slugify(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/ß/g, "ss")
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function uuid(next: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = "4";
  hex[16] = ((Number.parseInt(hex[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  const h = hex.join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function yamlString(text: string): string {
  return JSON.stringify(text);
}

export interface GeneratedListing {
  readonly folder: string;
  readonly slug: string;
  readonly text: string;
  /** Its name in its town, as `npm run check` tells listings apart (build/warnings.ts). */
  readonly sameness: string;
}

/** The `index`-th listing of a generated directory: its folder, file slug, file text and name in its town. */
export function listing(next: () => number, index: number): GeneratedListing {
  const [service, category, noun, jobs] = pick(next, SERVICES);
  const [city, region, country, postcode] = pick(next, PLACES);
  const style = next();
  const surname = pick(next, SURNAMES);
  const name =
    style < 0.35
      ? `${surname}${pick(next, SUFFIXES)} ${service}`
      : style < 0.6
        ? `${pick(next, ADJECTIVES)} ${service}${pick(next, SUFFIXES)}`
        : style < 0.8
          ? `${pick(next, FIRST_NAMES)} ${surname} ${service}`
          : `${city} ${service}${pick(next, SUFFIXES)}`;
  const slug = `${slugify(`${name} ${city}`)}-${index.toString(36)}`;
  const fill = (template: string) =>
    template
      .replace("{a noun}", `${/^[aeiou]/i.test(noun) ? "an" : "a"} ${noun}`)
      .replace("{noun}", noun)
      .replace("{city}", city)
      .replace("{region}", region)
      .replace("{name}", name)
      .replace("{years}", String(2 + Math.floor(next() * 40)))
      .replace("{job1}", pick(next, jobs))
      .replace("{job2}", pick(next, jobs))
      .replace("{job3}", pick(next, jobs));
  const description = [pick(next, OPENERS), pick(next, MIDDLES), pick(next, MIDDLES), pick(next, CLOSERS)].map(fill).join(" ");
  const roll = next();
  const status = roll < 0.9 ? "approved" : roll < 0.94 ? "pending" : roll < 0.97 ? "rejected" : "suspended";
  const text = `---
id: "${uuid(next)}"
name: ${yamlString(name)}
service: ${yamlString(service)}
category: ${yamlString(category)}
location:
  city: ${yamlString(city)}
  region: ${yamlString(region)}
  postalCode: ${yamlString(postcode(next))}
  country: ${country}
quoteUrl: https://hearthway.example/quotes/new?business=${slug}
status: ${status}
private:
  phone: "07700 9${digits(next, 5)}"
  email: "office@${slug}.example"
---
${description}
`;
  return { folder: country.toLowerCase(), slug, text, sameness: sameNameKey(name, { city, country }) };
}

const SAMPLE = new URL("../content/", import.meta.url).pathname;

/** Draws of a listing before a name already taken in its town is kept (only when a town's names run out). */
const MAX_DRAWS = 50;

/** Writes a content folder at `dir`: the sample's site.md and offerings, and `count` generated listings. */
export async function generateContent(dir: string, count: number, seed = 1): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(join(dir, "offerings"), { recursive: true });
  await copyFile(join(SAMPLE, "site.md"), join(dir, "site.md"));
  for (const file of await readdir(join(SAMPLE, "offerings"))) {
    if (file.endsWith(".md")) await copyFile(join(SAMPLE, "offerings", file), join(dir, "offerings", file));
  }
  const next = random(seed);
  const folders = new Set<string>();
  const named = new Set<string>();
  /** A listing whose name is not yet taken in its town: a real directory seldom has two (check warns of them). */
  const distinct = (index: number) => {
    let item = listing(next, index);
    for (let draw = 1; named.has(item.sameness) && draw < MAX_DRAWS; draw += 1) item = listing(next, index);
    named.add(item.sameness);
    return item;
  };
  const BATCH = 256;
  for (let start = 0; start < count; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => distinct(start + i));
    for (const { folder } of batch) {
      if (!folders.has(folder)) {
        await mkdir(join(dir, "businesses", folder), { recursive: true });
        folders.add(folder);
      }
    }
    await Promise.all(batch.map(({ folder, slug, text }) => writeFile(join(dir, "businesses", folder, `${slug}.md`), text)));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { listings: { type: "string" }, out: { type: "string" }, seed: { type: "string" } } });
  const count = Number(values.listings ?? 1000);
  const out = values.out;
  if (!Number.isInteger(count) || count < 0 || out === undefined) {
    console.error("usage: tsx bench/generate.ts --listings N --out DIR [--seed S]");
    process.exitCode = 2;
  } else {
    const started = performance.now();
    await generateContent(out, count, Number(values.seed ?? 1));
    console.log(`${out}: ${count} listings in ${Math.round(performance.now() - started)} ms`);
  }
}
