import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { tempDir } from "../helpers/snapshot.ts";
import { BASIC_SERVICES, checkEdited } from "./edited-check.ts";

/** Errors that name the fix when it is known: the key an unknown key meant, the missing line that closes a front matter. */

let work: { path: string; remove: () => Promise<void> };
before(async () => {
  work = await tempDir("did-you-mean-");
});
after(async () => {
  await work.remove();
});

const LISTING = "businesses/gb/leeds-plumbing-heating.md";
const OFFERING = "offerings/request-quotes.md";

/** `npm run check` of the basic fixture with each file's text edited, in a folder of its own: its lines (see checkEdited). */
const errorsAfter = (name: string, edits: Record<string, (text: string) => string>) => checkEdited(join(work.path, name), edits);

test("an unknown key names the known key it most likely meant, in any mapping of any file, but not one the mapping has, and that key is not said again to be missing", async () => {
  const errors = await errorsAfter("keys", {
    [LISTING]: (text) => text.replace("quoteUrl:", "quoteURL:").replace("postalCode:", "postcode:").replace("status:", "phone: 1\nstatus:"),
    // quoteURL beside quoteUrl is a key written twice: naming the other would not help.
    "businesses/gb/joes-handyman.md": (text) => text.replace("status:", "quoteURL: https://fixture.example/q\nstatus:"),
    [OFFERING]: (text) => text.replace("text: Describe the job once", "txt: Describe the job once"),
    "site.md": (text) => text.replace("contact:", "contentSignal:\n  ai_input: yes\ncontact:"),
    "services.yml": () =>
      BASIC_SERVICES.map((service) => `- name: ${service}\n${service === "Roofing" ? "  alias: [roofer]\n" : ""}`).join(""),
  });
  assert.deepEqual(errors, [
    "businesses/gb/joes-handyman.md:12:1: quoteURL: is not a known key (check its spelling)",
    `${LISTING}:9:3: location.postcode: is not a known key; did you mean "postalCode"?`,
    `${LISTING}:11:1: quoteURL: is not a known key; did you mean "quoteUrl"?`,
    `${LISTING}:12:1: phone: is not a known key (check its spelling)`,
    `${OFFERING}:11:5: features[0].txt: is not a known key; did you mean "text"?`,
    'services.yml:8:3: [6].alias: is not a known key; did you mean "aliases"?',
    'site.md:6:3: contentSignal.ai_input: is not a known key; did you mean "ai-input"?',
    `${work.path}/keys: 7 content errors; nothing was written.`,
  ]);
});

test("a front matter without its closing line is named as such, at the line where the body begins", async () => {
  const unclosed = (body: string) => (text: string) => `${text.slice(0, text.lastIndexOf("---\n"))}${body}`;
  const errors = await errorsAfter("unclosed", {
    // The description runs on from the last key: YAML would speak of implicit keys.
    [LISTING]: unclosed("Leaks fixed the same day.\n"),
    // With a colon, after a blank line: YAML would read the sentence as a key.
    "businesses/gb/joes-handyman.md": unclosed("\nOpen on Saturdays: no call-out fee.\n"),
    // No body at all: after the last text.
    "businesses/ie/obrien-sons-plumbing.md": unclosed(""),
    [OFFERING]: unclosed("Describe the job once.\n\n## How it works\n"),
  });
  assert.deepEqual(errors, [
    'businesses/gb/joes-handyman.md:15:1: (front matter): has no closing "---" line: end it with a line of three hyphens before the description',
    `${LISTING}:16:1: (front matter): has no closing "---" line: end it with a line of three hyphens before the description`,
    'businesses/ie/obrien-sons-plumbing.md:15:69: (front matter): has no closing "---" line: end it with a line of three hyphens before the description',
    `${OFFERING}:23:1: (front matter): has no closing "---" line: end it with a line of three hyphens before the guide`,
    `${work.path}/unclosed: 4 content errors; nothing was written.`,
  ]);
});
