#!/usr/bin/env bash
# Builds the image from the Dockerfile as it is with buildah, then starts it the way its own config
# says (entrypoint and CMD, USER, WORKDIR, ENV, read with `buildah inspect`) and checks it from
# outside: /readyz, a directory search, a HEAD request, the image's HEALTHCHECK, the server's uid,
# and that SIGTERM stops it with exit code 0 within 10 s. Prints the image's size and build time.
#   NODE_IMAGE      the base image; unset, scripts/container-base-image.sh assembles a local
#                   stand-in for node:24-slim (for machines that reach no container registry).
#                   NODE_IMAGE=node:24-slim uses the real one where a registry is reachable.
#   CONTAINER_IMAGE the name to build (localhost/hearthway-directory:test).
# buildah runs with chroot isolation (`podman run` needs a runtime able to set rlimits), so the
# server shares the machine's network: it listens on 127.0.0.1 (the image's HOST=0.0.0.0 is
# overridden) on a free port (PORT overridden). Needs root (sudo otherwise); every wait is bounded.
# shellcheck disable=SC2016 # the programs given to sh -c and node -e are single-quoted on purpose
set -euo pipefail
cd "$(dirname "$0")/.."

image=${CONTAINER_IMAGE:-localhost/hearthway-directory:test}
# An array, not a function: a command run in the background is then the process $! names.
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo -n); fi
# True while the process exists and has not exited (a zombie has exited); works for any owner.
running() {
  local stat
  stat=$(cat "/proc/$1/stat" 2> /dev/null) || return 1
  stat=${stat##*) }
  [ "${stat%% *}" != Z ]
}

node_image=${NODE_IMAGE:-}
if [ -z "$node_image" ]; then
  bash scripts/container-base-image.sh
  node_image=${NODE_STANDIN_IMAGE:-localhost/node-standin:24-slim}
fi

# The server: the first process under `buildah run` whose argv[0] is node (the entrypoint execs it).
find_server() {
  node -e '
const fs = require("node:fs");
const children = new Map();
for (const name of fs.readdirSync("/proc")) {
  if (!/^\d+$/.test(name)) continue;
  let stat;
  try { stat = fs.readFileSync(`/proc/${name}/stat`, "utf8"); } catch { continue; }
  const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
}
const queue = [Number(process.argv[1])];
while (queue.length > 0) {
  for (const pid of children.get(queue.shift()) ?? []) {
    let argv0 = "";
    try { argv0 = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]; } catch {}
    if (argv0 === "node" || argv0.endsWith("/node")) { console.log(pid); process.exit(0); }
    queue.push(pid);
  }
}
' "$run_pid"
}

work=$(mktemp -d)
ctr=""
run_pid=""
server_pid=""
cleanup() {
  if [ -n "$run_pid" ] && running "$run_pid"; then
    if [ -z "$server_pid" ]; then server_pid=$(find_server || true); fi
    if [ -n "$server_pid" ]; then "${as_root[@]}" kill -KILL "$server_pid" 2> /dev/null || true; fi
    # On SIGTERM, buildah run kills its chroot subprocess itself; SIGKILL only if that hangs.
    "${as_root[@]}" kill -TERM "$run_pid" 2> /dev/null || true
    local deadline=$((SECONDS + 10))
    while running "$run_pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
    if running "$run_pid"; then "${as_root[@]}" kill -KILL "$run_pid" 2> /dev/null || true; fi
  fi
  if [ -n "$run_pid" ]; then wait "$run_pid" 2> /dev/null || true; fi
  if [ -n "$ctr" ]; then "${as_root[@]}" buildah rm "$ctr" > /dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# --format docker keeps the HEALTHCHECK (the OCI format has no field for it).
echo "== container: building $image on $node_image"
previous=$("${as_root[@]}" buildah images --quiet --no-trunc "$image" 2> /dev/null || true)
started=$SECONDS
if ! "${as_root[@]}" timeout 1800 buildah bud --isolation chroot --format docker \
  --build-arg "NODE_IMAGE=$node_image" -t "$image" . > "$work/build.log" 2>&1; then
  tail -n 30 "$work/build.log" >&2
  echo "the image did not build (the last 30 lines of the build are above)" >&2
  exit 1
fi
build_seconds=$((SECONDS - started))
current=$("${as_root[@]}" buildah images --quiet --no-trunc "$image")
if [ -n "$previous" ] && [ "$previous" != "$current" ]; then "${as_root[@]}" buildah rmi "$previous" > /dev/null 2>&1 || true; fi
size=$("${as_root[@]}" buildah images --format '{{.Size}}' "$image" | head -n 1)

# The image's own config: each list is written NUL-separated, for mapfile.
"${as_root[@]}" buildah inspect --type image "$image" > "$work/image.json"
node -e '
const fs = require("node:fs");
const [file, out] = process.argv.slice(1);
const image = JSON.parse(fs.readFileSync(file, "utf8"));
const config = image.OCIv1.config ?? {};
const write = (name, list) => fs.writeFileSync(`${out}/${name}`, list.map((item) => `${item}\0`).join(""));
write("command", [...(config.Entrypoint ?? []), ...(config.Cmd ?? [])]);
write("user", [config.User ?? ""]);
write("workdir", [config.WorkingDir ?? ""]);
write("env", config.Env ?? []);
write("healthcheck", image.Docker?.config?.Healthcheck?.Test ?? []);
' "$work/image.json" "$work"
mapfile -d '' -t command < "$work/command"
mapfile -d '' -t user < "$work/user"
mapfile -d '' -t workdir < "$work/workdir"
mapfile -d '' -t env < "$work/env"
mapfile -d '' -t healthcheck < "$work/healthcheck"
if [ "${#command[@]}" -eq 0 ]; then echo "the image has neither ENTRYPOINT nor CMD" >&2; exit 1; fi

run_args=(--isolation chroot --network host)
if [ -n "${user[0]}" ]; then run_args+=(--user "${user[0]}"); fi
if [ -n "${workdir[0]}" ]; then run_args+=(--workingdir "${workdir[0]}"); fi
for variable in "${env[@]}"; do run_args+=(--env "$variable"); done
# The image keeps the Dockerfile's default BASE_URL (so its layers are reused from run to run); the
# port is chosen only now, just before the server starts, and nothing checked depends on BASE_URL.
port=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
base="http://127.0.0.1:$port"
run_args+=(--env "PORT=$port" --env HOST=127.0.0.1)

ctr=$("${as_root[@]}" buildah from --pull=never --quiet "$image")
echo "== container: running ${command[*]} as user ${user[0]:-root} in ${workdir[0]:-/} on $base"
"${as_root[@]}" buildah run "${run_args[@]}" "$ctr" -- "${command[@]}" > "$work/server.log" 2>&1 &
run_pid=$!
checks_started=$SECONDS
if ! BASE="$base" timeout 90 node --input-type=module -e '
const base = process.env.BASE;
for (let tries = 0; ; tries += 1) {
  try { if ((await fetch(`${base}/readyz`)).ok) break; } catch {}
  if (tries > 600) throw new Error("the server in the container did not become ready within 60 s");
  await new Promise((resolve) => setTimeout(resolve, 100));
}
const ready = await fetch(`${base}/readyz`);
const readiness = await ready.json();
if (ready.status !== 200 || readiness.status !== "ready") throw new Error(`/readyz: ${ready.status} ${JSON.stringify(readiness)}`);
console.log(`ok GET /readyz: ${readiness.status}, snapshot ${readiness.version}`);
const search = await fetch(`${base}/api/directory?q=plumb&limit=2`);
const found = await search.json();
if (search.status !== 200 || !(found.items?.length > 0)) throw new Error(`/api/directory?q=plumb&limit=2: ${search.status} ${JSON.stringify(found).slice(0, 200)}`);
console.log(`ok GET /api/directory?q=plumb&limit=2: ${found.items.length} items`);
const head = await fetch(`${base}/`, { method: "HEAD" });
const body = await head.text();
if (head.status !== 200 || body !== "") throw new Error(`HEAD /: ${head.status}, ${body.length} bytes of body`);
console.log(`ok HEAD /: ${head.status}, ${head.headers.get("content-type")}`);
'; then
  tail -n 20 "$work/server.log" >&2
  echo "the container failed its checks (the last 20 lines of its log are above)" >&2
  exit 1
fi

server_pid=$(find_server)
if [ -z "$server_pid" ]; then echo "no node process under buildah run (pid $run_pid)" >&2; exit 1; fi
uids=$(awk '$1 == "Uid:" { print $2, $3, $4, $5 }' "/proc/$server_pid/status")
if [ "$uids" != "1000 1000 1000 1000" ]; then echo "the server runs with uids $uids, not 1000" >&2; exit 1; fi
echo "ok the server (pid $server_pid) runs as uid 1000"

# The image's HEALTHCHECK, run in the same container with the same user and environment.
case "${healthcheck[0]:-NONE}" in
  CMD) probe=("${healthcheck[@]:1}") ;;
  CMD-SHELL) probe=(/bin/sh -c "${healthcheck[1]}") ;;
  *) echo "the image has no HEALTHCHECK" >&2; exit 1 ;;
esac
if ! "${as_root[@]}" timeout 30 buildah run "${run_args[@]}" "$ctr" -- "${probe[@]}" > "$work/healthcheck.log" 2>&1; then
  tail -n 5 "$work/healthcheck.log" >&2
  echo "the image's HEALTHCHECK failed" >&2
  exit 1
fi
echo "ok HEALTHCHECK"

# SIGTERM goes to the node process itself: `buildah run` does not forward it (it kills its chroot
# subprocess and exits 1), while a signal to node makes `buildah run` exit with node's code.
stopping=$EPOCHREALTIME
"${as_root[@]}" kill -TERM "$server_pid"
deadline=$((SECONDS + 10))
while running "$run_pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
if running "$run_pid"; then echo "the container did not stop within 10 s of SIGTERM" >&2; exit 1; fi
set +e
wait "$run_pid"
code=$?
set -e
run_pid=""
server_pid=""
stop_ms=$(((${EPOCHREALTIME/./} - ${stopping/./}) / 1000))
if [ "$code" -ne 0 ]; then
  tail -n 20 "$work/server.log" >&2
  echo "the container exited with code $code on SIGTERM" >&2
  exit 1
fi
echo "ok SIGTERM: exit code 0 after $stop_ms ms"
echo "container: $image is $size, built in $build_seconds s, checked in $((SECONDS - checks_started)) s"
