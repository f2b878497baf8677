import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import { buildApplication } from "../../src/application.ts";
import { readConfig } from "../../src/config.ts";
import { MAX_EVENT_LOOP_DELAY_MS } from "../../src/http/hooks/limits.ts";
import { loadSnapshot } from "../../src/snapshot/load.ts";
import { SnapshotView } from "../../src/snapshot/view.ts";
import { buildSnapshot, FIXTURES, TEST_BASE_URL, tempDir } from "../helpers/snapshot.ts";

/** Load shedding (src/http/hooks/limits.ts) acts on the event loop's delay, but not on the delay of the server's own start-up. */

/** Longer than the delay that sheds load, as a start-up on a busy machine can be. */
const SLOW_START_MS = 1.5 * MAX_EVENT_LOOP_DELAY_MS;

test("a replica whose start-up held the event loop for 1.5 s answers its first requests instead of shedding them", async () => {
  const work = await tempDir();
  try {
    await buildSnapshot(`${FIXTURES}basic`, join(work.path, "dist"));
    const config = readConfig({ BASE_URL: TEST_BASE_URL, RATE_LIMIT_MAX: "0", DIST_DIR: join(work.path, "dist") });
    const snapshot = await loadSnapshot(config.distDir);
    const view = new SnapshotView(snapshot);
    const app = await buildApplication({ served: { current: () => view }, config });
    // A start-up that keeps the event loop busy after the load-shedding plugin began measuring.
    const until = performance.now() + SLOW_START_MS;
    while (performance.now() < until) {}
    await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      const address = app.server.address();
      assert.ok(address !== null && typeof address === "object");
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const response = await fetch(`http://127.0.0.1:${address.port}/api/offerings`);
        await response.arrayBuffer();
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [200, 200, 200, 200, 200]);
    } finally {
      await app.close();
    }
  } finally {
    await work.remove();
  }
});
