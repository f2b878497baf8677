import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { CHANGES_FILE_PATTERN, JSON_TYPE, NDJSON_TYPE, RELEASES_PATH } from "../../contract.ts";
import { type AnswerCache, type Kept, keptLater } from "../../core/answer-cache.ts";
import { changesFileOf, changesSince } from "../../core/changes.ts";
import { servedView } from "../../core/served.ts";
import { isVersion } from "../../snapshot/releases.ts";
import type { Part, ServedView, SnapshotView } from "../../snapshot/view.ts";
import { renderedOnce } from "../documents.ts";
import { documentFile, keyedTag, sendKept } from "../kept.ts";
import { sendNotFound } from "../page-replies.ts";
import { readOnlyRoute } from "./read-only.ts";

/**
 * The release history over HTTP (interface §8): the change feed `GET /api/changes` (a route of the
 * table, registered by rest.ts with this handler), and the history's plain files, the same bytes
 * a static host serves from dist/. Every answer is kept in the view's answer cache like a search.
 */

/** An NDJSON answer as it is sent. */
function ndjsonKept(body: Buffer, tag: string): Kept {
  return {
    body,
    headers: [
      ["content-type", NDJSON_TYPE],
      ["etag", tag],
    ],
  };
}

/**
 * What a history answer is tagged by besides the snapshot's version: `key` and the history itself
 * (releases.json's digest), since two builds of the same listings can hold different histories.
 */
function historyKey(view: SnapshotView, key: string): string {
  return `${key} ${view.snapshot.manifest.files.releases.sha256}`;
}

/** Sends the net change since release `since` (checked by the route's schema), kept under it. */
export async function sendChanges(view: SnapshotView, answers: Part<AnswerCache | null>, since: string, reply: FastifyReply) {
  const answer = await keptLater(view.get(answers), `changes ${since}`, async () =>
    ndjsonKept(await changesSince(view, since), keyedTag(view, "c", historyKey(view, since))),
  );
  return sendKept(reply, answer);
}

/** /data/releases.json and /data/changes/<version>.ndjson, as the build wrote them (each checked against its digest). */
export function registerReleaseFiles(app: FastifyInstance, served: ServedView, answers: Part<AnswerCache | null>): void {
  const cacheable = { cacheable: true };
  readOnlyRoute(app, {
    url: RELEASES_PATH,
    config: cacheable,
    handler: async (_request, reply) => {
      const view = servedView(served);
      const document = renderedOnce(view, RELEASES_PATH, () => view.snapshot.releases.bytes.toString("utf8"));
      return sendKept(reply, documentFile(document, JSON_TYPE));
    },
  });
  readOnlyRoute(app, {
    url: CHANGES_FILE_PATTERN,
    config: cacheable,
    handler: async (request: FastifyRequest, reply) => {
      const view = servedView(served);
      const { version } = request.params as { version: string };
      if (!isVersion(version) || !Object.hasOwn(view.snapshot.releases.changes, version)) return sendNotFound(view, request, reply);
      const answer = await keptLater(view.get(answers), `changes file ${version}`, async () =>
        ndjsonKept(await changesFileOf(view, version), keyedTag(view, "f", historyKey(view, version))),
      );
      return sendKept(reply, answer);
    },
  });
}
