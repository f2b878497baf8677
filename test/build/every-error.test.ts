import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { tempDir } from "../helpers/snapshot.ts";
import { BASIC_SERVICES, checkEdited } from "./edited-check.ts";

/**
 * Every error in one run (interface §2): a file that fails its schema still gets every check that
 * can be made of it, and none that would repeat what its schema said.
 */

let work: { path: string; remove: () => Promise<void> };
before(async () => {
  work = await tempDir("every-error-");
});
after(async () => {
  await work.remove();
});

const LISTING = "businesses/gb/leeds-plumbing-heating.md";
const OTHER_LISTING = "businesses/gb/joes-handyman.md";
const OFFERING = "offerings/request-quotes.md";

/** `npm run check` of the basic fixture with each file's text edited, in a folder of its own: its lines (see checkEdited). */
const errorsAfter = (name: string, edits: Record<string, (text: string) => string>) => checkEdited(join(work.path, name), edits);

/** The file's text with its body replaced. */
const withBody = (body: string) => (text: string) => `${text.slice(0, text.lastIndexOf("---\n"))}---\n${body}`;

test("a listing that fails its schema still has its description and its id checked", async () => {
  const otherId = "0b3a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a04";
  const errors = await errorsAfter("listing", {
    [LISTING]: (text) => withBody("\n")(text.replace("status: approved", "status: live").replace(/^id: .*$/m, `id: ${otherId}`)),
  });
  assert.deepEqual(errors, [
    `${LISTING}:2:5: id: is already used by ${OTHER_LISTING}`,
    `${LISTING}:12:9: status: must be one of approved, pending, rejected, suspended`,
    `${LISTING}:17:1: (body): must hold the listing's description`,
    `${work.path}/listing: 3 content errors; nothing was written.`,
  ]);
});

test("a listing with an unknown key and a description over the limit is told of both", async () => {
  const errors = await errorsAfter("too-long", {
    [LISTING]: (text) => withBody("x".repeat(3001))(text.replace("status:", "phone: 1\nstatus:")),
  });
  assert.deepEqual(errors, [
    `${LISTING}:12:1: phone: is not a known key (check its spelling)`,
    `${LISTING}:18:3001: (body): is 3001 characters; the description may have at most 3000`,
    `${work.path}/too-long: 2 content errors; nothing was written.`,
  ]);
});

test("an offering that fails its schema still has its guide checked", async () => {
  const errors = await errorsAfter("offering", { [OFFERING]: (text) => withBody("")(text.replace("order: 1", "order: first")) });
  assert.deepEqual(errors, [
    `${OFFERING}:7:8: order: must be a whole number`,
    `${OFFERING}:24:1: (body): must hold the offering's guide in Markdown`,
    `${work.path}/offering: 2 content errors; nothing was written.`,
  ]);
});

test("an id or service of the wrong type is named once, by its schema, not again as a duplicate or an unknown service", async () => {
  const errors = await errorsAfter("types", {
    [LISTING]: (text) => text.replace(/^id: .*$/m, "id: 42").replace("service: Plumbing", "service: [Plumbing]"),
    [OTHER_LISTING]: (text) => text.replace(/^id: .*$/m, "id: 42"),
    // The rest of the file is still checked: its description is empty.
    "businesses/gb/evergreen-gardens-york.md": (text) => withBody("")(text.replace(/^id: .*$/m, "id: not-a-uuid")),
    "businesses/ie/evergreen-gardens-cork.md": (text) => text.replace(/^id: .*$/m, "id: not-a-uuid"),
    "services.yml": () => BASIC_SERVICES.map((service) => `- name: ${service}\n`).join(""),
  });
  assert.deepEqual(errors, [
    "businesses/gb/evergreen-gardens-york.md:2:5: id: must be a UUID such as 1b4e28ba-2fa1-41d2-883f-0016d3cca427",
    "businesses/gb/evergreen-gardens-york.md:15:1: (body): must hold the listing's description",
    "businesses/gb/joes-handyman.md:2:5: id: must be a string (put it in quotes)",
    `${LISTING}:2:5: id: must be a string (put it in quotes)`,
    `${LISTING}:4:10: service: must be a string`,
    "businesses/ie/evergreen-gardens-cork.md:2:5: id: must be a UUID such as 1b4e28ba-2fa1-41d2-883f-0016d3cca427",
    `${work.path}/types: 6 content errors; nothing was written.`,
  ]);
});
