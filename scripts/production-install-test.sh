#!/usr/bin/env bash
# Proves that the runtime needs no dev dependency, as the container's runtime stage assumes: a
# fresh `npm ci --omit=dev` copy (no tsx, no TypeScript) serves a built dist/ with plain node,
# answers REST, pages and MCP, and stops with exit code 0 on SIGTERM. Listens on 127.0.0.1 only;
# every wait is bounded.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ]; then kill -KILL "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

port=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
base="http://127.0.0.1:$port"

# A fresh folder holding only what the container's runtime stage holds: package.json,
# package-lock.json, the compiled server and a built dist/. The server is compiled straight into it
# (a full compile: no stale file of the working tree's server/ comes along).
timeout 300 npx --no-install tsc -p tsconfig.build.json --outDir "$work/server" --tsBuildInfoFile "$work/tsbuildinfo"
rm -f "$work/tsbuildinfo"
DIST_DIR="$work/dist" BASE_URL="$base" timeout 300 npm run --silent build > /dev/null
cp package.json package-lock.json "$work/"
(cd "$work" && timeout 300 npm ci --omit=dev --no-audit --no-fund --loglevel=error)
# Not one dev dependency (tsx, typescript, biome, the type provider, json-schema-to-ts, ...) is there.
node -e '
const dev = Object.keys(require("./package.json").devDependencies);
const present = dev.filter((name) => require("node:fs").existsSync(`${process.argv[1]}/node_modules/${name}`));
if (present.length > 0) { console.error(`the production install has dev dependencies: ${present.join(", ")}`); process.exit(1); }
' "$work"

(cd "$work" && DIST_DIR="$work/dist" BASE_URL="$base" HOST=127.0.0.1 PORT="$port" LOG_LEVEL=warn exec node server/server.js) &
pid=$!

BASE="$base" SERVER_PID="$pid" timeout 60 node --input-type=module -e '
const base = process.env.BASE;
const alive = () => { try { process.kill(Number(process.env.SERVER_PID), 0); return true; } catch { return false; } };
for (let tries = 0; ; tries += 1) {
  try { if ((await fetch(`${base}/readyz`)).ok) break; } catch {}
  if (!alive()) throw new Error("the production server exited before it was ready");
  if (tries > 300) throw new Error("the production server did not become ready");
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const expect = async (what, response, check = () => true) => {
  const text = await response.text();
  if (response.status !== 200 || !check(text)) throw new Error(`${what}: ${response.status} ${text.slice(0, 200)}`);
  console.log(`ok ${what}`);
};
await expect("GET /api/offerings", await fetch(`${base}/api/offerings`), (t) => JSON.parse(t).items.length > 0);
await expect("GET /api/directory?q=plumb", await fetch(`${base}/api/directory?q=plumb`), (t) => JSON.parse(t).items.length > 0);
await expect("GET /api/facets?q=plumb", await fetch(`${base}/api/facets?q=plumb`), (t) => JSON.parse(t).total > 0);
await expect("GET /llms.txt", await fetch(`${base}/llms.txt`), (t) => t.startsWith("# "));
await expect("GET /businesses?q=plumb (HTML)", await fetch(`${base}/businesses?q=plumb`), (t) => t.startsWith("<!doctype html>"));
const mcp = (body) => fetch(`${base}/mcp`, {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
  body: JSON.stringify(body),
});
await expect("MCP initialize", await mcp({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "ci", version: "1" } } }), (t) => JSON.parse(t).result.protocolVersion === "2025-11-25");
await expect("MCP tools/list", await mcp({ jsonrpc: "2.0", id: 2, method: "tools/list" }), (t) => JSON.parse(t).result.tools.map((tool) => tool.name).join(" ") === "search_businesses directory_facets get_business search_offerings get_offering");
// The editors' form is npm run dev's alone (scripts/dev-admin/): nothing of it is served here.
for (const path of ["/admin/", "/admin/config.yml"]) {
  const response = await fetch(`${base}${path}`);
  if (response.status !== 404) throw new Error(`GET ${path}: ${response.status}, not 404`);
  console.log(`ok GET ${path}: 404`);
}
'

kill -TERM "$pid"
deadline=$((SECONDS + 10))
while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then echo "the production server did not stop within 10 s of SIGTERM" >&2; exit 1; fi
set +e
wait "$pid"
code=$?
set -e
pid=""
if [ "$code" -ne 0 ]; then echo "the production server exited with code $code on SIGTERM" >&2; exit 1; fi
echo "ok production install: served with plain node and stopped with exit code 0"
