import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { request } from "node:http";
import { after, before, describe, test } from "node:test";
import { parse } from "yaml";
import { type DevProcess, startDev } from "../helpers/dev-process.ts";
import { listeningAddresses, processTree } from "../helpers/listening.ts";
import { FIXTURES, tempDir } from "../helpers/snapshot.ts";

/**
 * The editors' form writes files and has no login, so `npm run dev` serves it only on a loopback
 * address, and its backend listens on 127.0.0.1 alone.
 */

const status = async (url: string) => (await fetch(url)).status;

describe("npm run dev with HOST=0.0.0.0", () => {
  let work: { path: string; remove: () => Promise<void> };
  let dev: DevProcess;
  before(async () => {
    work = await tempDir("dev-host-");
    dev = await startDev(`${FIXTURES}basic`, `${work.path}/dist`, { HOST: "0.0.0.0" });
  });
  after(async () => {
    assert.equal(await dev.stop(), 0);
    await work.remove();
  });

  test("serves the site without the editors' form: /admin/ is a 404, one line says why, and no port but PORT is open", async () => {
    const answers = await Promise.all(
      ["/", "/admin/", "/admin/config.yml", "/admin/decap-cms.js"].map((path) => status(`${dev.url}${path}`)),
    );
    assert.deepEqual(answers, [200, 404, 404, 404]);
    assert.deepEqual(
      dev.logs.lines.filter((line) => line.msg.includes("/admin/")).map((line) => line.msg),
      [
        "the editors' form (/admin/) is off: HOST 0.0.0.0 is not a loopback address, and the form writes files without a login; run with HOST=127.0.0.1 to edit in the browser",
      ],
    );
    assert.deepEqual(await listeningAddresses(dev.pid), [`0.0.0.0:${dev.port}`]);
  });
});

describe("npm run dev with HOST=127.0.0.1", () => {
  let work: { path: string; remove: () => Promise<void> };
  let dev: DevProcess;
  before(async () => {
    work = await tempDir("dev-host-");
    dev = await startDev(`${FIXTURES}basic`, `${work.path}/dist`);
  });
  after(async () => {
    await work.remove();
  });

  test("serves the form at /admin/, and the form's backend and the site's server listen on 127.0.0.1 alone", async () => {
    assert.deepEqual([await status(`${dev.url}/admin/`), await status(`${dev.url}/admin`)], [200, 200]);
    const config = parse(await (await fetch(`${dev.url}/admin/config.yml`)).text()) as { local_backend: { url: string } };
    const backend = /^http:\/\/127\.0\.0\.1:(\d+)\/api\/v1$/.exec(config.local_backend.url);
    assert.ok(backend !== null, config.local_backend.url);
    const listening = await listeningAddresses(dev.pid);
    assert.equal(listening.length, 3, listening.join(", "));
    assert.deepEqual(
      listening.filter((address) => !address.startsWith("127.0.0.1:")),
      [],
    );
    assert.ok(listening.includes(`127.0.0.1:${dev.port}`) && listening.includes(`127.0.0.1:${backend[1]}`), listening.join(", "));
  });

  test("answers /admin/ only when asked by a name of this machine: another Host (a rebound DNS name) is refused", async () => {
    const statusFor = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const asked = request(`${dev.url}/admin/config.yml`, { headers: { host } }, (answer) => {
          answer.resume();
          resolve(answer.statusCode ?? 0);
        });
        asked.on("error", reject);
        asked.end();
      });
    const hosts = [`127.0.0.1:${dev.port}`, `localhost:${dev.port}`, `[::1]:${dev.port}`, `rebound.example:${dev.port}`];
    assert.deepEqual(await Promise.all(hosts.map(statusFor)), [200, 200, 200, 403]);
  });

  test("stops with its backend and the site's server: npm run dev exits 0 and neither is left running", async () => {
    const command = (pid: number) => readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "");
    const processes = await processTree(dev.pid);
    const own = [];
    for (const pid of processes) if (/decap-server|src\/server\.ts/.test(await command(pid))) own.push(pid);
    assert.equal(own.length, 2);
    assert.equal(await dev.stop(), 0);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    assert.deepEqual(own.filter(alive), []);
  });
});
