/**
 * `npm run dev`'s public listener while the editors' form is on: /admin/ is answered here
 * (routes.ts), everything else is passed to the site's server, which listens on 127.0.0.1 on a
 * port of its own, as it came (method, path, headers, body) and its answer back as it comes. So
 * src/ holds nothing of the form and no other command can serve it.
 */
import { createServer, request as forward, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIPv4, isIPv6 } from "node:net";
import { ADMIN_PATH } from "./routes.ts";

/** host:port as a URL writes it. */
export function hostPort(host: string, port: number): string {
  return isIPv6(host) ? `[${host}]:${port}` : `${host}:${port}`;
}

/** Whether only this machine can reach an address: 127.0.0.0/8, ::1 (or 127.x mapped into IPv6), or `localhost`. */
export function isLoopback(host: string): boolean {
  if (host === "localhost") return true;
  if (isIPv4(host)) return host.startsWith("127.");
  if (!isIPv6(host)) return false;
  const lower = host.toLowerCase();
  return /^(0{0,4}:){2,7}0{0,3}1$/.test(lower) || /^::ffff:127\./.test(lower);
}

/**
 * Whether a request was made to a name of this machine. A browser sends the name it was given:
 * another one is a page of another site whose name was made to point here (DNS rebinding), which
 * must not read config.yml and learn where the backend listens.
 */
function askedOfThisMachine(request: IncomingMessage): boolean {
  try {
    return isLoopback(new URL(`http://${request.headers.host ?? ""}`).hostname.replace(/^\[|\]$/g, ""));
  } catch {
    return false;
  }
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  response.end(`${text}\n`);
}

/** Passes a request on to the site's server on 127.0.0.1:`port`, and its answer back. */
function pass(request: IncomingMessage, response: ServerResponse, port: number): void {
  const upstream = forward({ host: "127.0.0.1", port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
    answer.pipe(response);
    answer.on("error", () => response.destroy());
  });
  upstream.on("error", () => {
    // Refused: the first build has not finished, or the server stopped (npm run dev says why).
    if (!response.headersSent) plain(response, 503, "The site is not being served just now: see npm run dev's terminal.");
    else response.destroy();
  });
  request.pipe(upstream);
  // A client that goes away takes its request to the server with it.
  response.on("close", () => {
    if (!response.writableFinished) upstream.destroy();
  });
}

/** Listens on `host`:`port`; rejects with the server's own words for an address it cannot take. */
export async function listenFront(
  host: string,
  port: number,
  sitePort: number,
  admin: (request: IncomingMessage, response: ServerResponse) => Promise<void>,
): Promise<Server> {
  const front = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0] ?? "/";
    if (path === ADMIN_PATH.slice(0, -1)) {
      response.writeHead(308, { location: ADMIN_PATH });
      response.end();
    } else if (path.startsWith(ADMIN_PATH) && !askedOfThisMachine(request)) {
      plain(response, 403, "The editors' form answers only at this machine's own address: 127.0.0.1, localhost or [::1].");
    } else if (path.startsWith(ADMIN_PATH)) {
      admin(request, response).catch((error: unknown) => {
        console.error(`/admin/: ${error instanceof Error ? error.message : String(error)}`);
        if (!response.headersSent) plain(response, 500, "The editor could not answer: see npm run dev's terminal.");
        else response.destroy();
      });
    } else {
      pass(request, response, sitePort);
    }
  });
  await new Promise<void>((resolve, reject) => {
    front.once("error", (error: NodeJS.ErrnoException) => {
      const at = `cannot listen on ${hostPort(host, port)}`;
      reject(
        new Error(
          error.code === "EADDRINUSE" ? `${at} (HOST, PORT): the address is already in use` : `${at} (HOST, PORT): ${error.message}`,
        ),
      );
    });
    front.listen(port, host, resolve);
  });
  return front;
}
