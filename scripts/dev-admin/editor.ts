/**
 * The editors' form under `npm run dev` (issue 44): on when HOST is a loopback address, since the
 * form writes files and has no login; then this process listens on HOST:PORT itself (front.ts),
 * serves /admin/, starts decap-server on 127.0.0.1 (backend.ts), and the site's server listens on
 * 127.0.0.1 on a port of its own.
 */
import { dirname, resolve } from "node:path";
import { Transform } from "node:stream";
import type { Config } from "../../src/config.ts";
import { type Backend, freeLoopbackPort, startBackend } from "./backend.ts";
import { hostPort, isLoopback, listenFront } from "./front.ts";
import { ADMIN_PATH, adminRoutes } from "./routes.ts";

export interface Editor {
  /** What the site's server is started with: on 127.0.0.1, on its own port, with the public base URL. */
  readonly serverEnv: Readonly<Record<string, string>>;
  /** The server's log, its "Server listening at" line naming the address people open. */
  publicLog(): Transform;
  /** Stops listening and stops the backend; resolves once the backend has exited. */
  stop(): Promise<void>;
}

/** The lines of `text` naming `from` in the server's listening line, naming `to` instead. */
function listeningAt(from: string, to: string): Transform {
  let pending = "";
  const rewrite = (line: string) => (line.includes("Server listening at") ? line.replaceAll(from, to) : line);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const lines = (pending + chunk.toString("utf8")).split("\n");
      pending = lines.pop() ?? "";
      done(null, lines.map((line) => `${rewrite(line)}\n`).join(""));
    },
    flush(done) {
      done(null, rewrite(pending));
    },
  });
}

/** Starts the form, or says in one line why it stays off; rejects when HOST:PORT cannot be listened on. */
export async function startEditor(config: Config, contentDir: string): Promise<Editor | null> {
  if (!isLoopback(config.host)) {
    console.log(
      `the editors' form (${ADMIN_PATH}) is off: HOST ${config.host} is not a loopback address, and the form writes files without a login; run with HOST=127.0.0.1 to edit in the browser`,
    );
    return null;
  }
  const sitePort = await freeLoopbackPort();
  const absolute = resolve(contentDir);
  const backend = startBackend(dirname(absolute));
  // Said when it is asked for (config.yml); until then, not a reason to stop.
  backend.catch(() => {});
  const admin = adminRoutes({ contentDir: absolute, distDir: config.distDir, baseUrl: config.baseUrl, backend });
  const front = await listenFront(config.host, config.port, sitePort, admin).catch(async (error: unknown) => {
    await (await backend.catch(() => null))?.stop();
    throw error;
  });
  const address = front.address();
  const publicAt =
    typeof address === "object" && address !== null ? hostPort(address.address, address.port) : hostPort(config.host, config.port);
  console.log(`the editors' form: http://${publicAt}${ADMIN_PATH}`);
  return {
    serverEnv: { HOST: "127.0.0.1", PORT: String(sitePort), BASE_URL: config.baseUrl },
    publicLog: () => listeningAt(`127.0.0.1:${sitePort}`, publicAt),
    stop: () => {
      front.close();
      return backend.then(
        (started: Backend) => started.stop(),
        () => {},
      );
    },
  };
}
