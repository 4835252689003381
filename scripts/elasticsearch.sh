#!/usr/bin/env bash
# Installs and starts a real Elasticsearch for tests and development, on a machine without Docker:
# Elastic's runnable distribution from Maven Central (integ-test-zip: no bundled JDK), on the newest
# JDK the machine has, as an unprivileged user (Elasticsearch refuses to run as root). Loopback
# only, single node, small heap. Idempotent: when it already answers, it only prints its URL.
#
#   scripts/elasticsearch.sh         -> prints ELASTICSEARCH_URL once the cluster is green
#   scripts/elasticsearch.sh stop    -> stops this instance (and waits until it has exited)
#
# Another instance (the outage tests stop and freeze their own): UKCD_ES_PORT and UKCD_ES_DIR. Each
# instance keeps its configuration, data, logs and pid under UKCD_ES_DIR; the installed
# distribution is shared.
set -euo pipefail

VERSION="${UKCD_ES_VERSION:-9.2.8}"
PORT="${UKCD_ES_PORT:-9299}"
BASE="${UKCD_ES_DIR:-/var/tmp/ukcd-elasticsearch}"
INSTALL="${UKCD_ES_INSTALL_DIR:-/var/tmp/ukcd-elasticsearch}"
HOME_DIR="$INSTALL/elasticsearch-$VERSION"
CONF_DIR="$BASE/config-$VERSION"
RUN_USER="${UKCD_ES_USER:-ukcd-es}"
HEAP="${UKCD_ES_HEAP:-768m}"
URL="http://127.0.0.1:$PORT"
MAVEN="https://repo1.maven.org/maven2/org/elasticsearch/distribution/integ-test-zip/elasticsearch"

healthy() { curl -sf -m 5 "$URL/_cluster/health" >/dev/null 2>&1; }

as_user() {
  if [ "$(id -un)" = "$RUN_USER" ]; then "$@"; else runuser -u "$RUN_USER" -- "$@"; fi
}

if [ "${1:-}" = stop ]; then
  if [ -f "$BASE/es.pid" ]; then
    pid=$(cat "$BASE/es.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$pid" 2>/dev/null || true
    rm -f "$BASE/es.pid"
  fi
  exit 0
fi

if healthy; then echo "$URL"; exit 0; fi

# The newest JDK on the machine: a Temurin beside Debian's OpenJDK, or Debian's own.
java_home() {
  local candidate
  for candidate in $(ls -d /usr/lib/jvm/temurin-*-jdk* /usr/lib/jvm/java-*-openjdk-* 2>/dev/null | sort -t- -k2 -V -r); do
    if [ -x "$candidate/bin/java" ]; then echo "$candidate"; return 0; fi
  done
  return 1
}
if ! JAVA=$(java_home); then
  echo "installing a JDK from Debian's packages..." >&2
  apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless >&2
  JAVA=$(java_home)
fi

id "$RUN_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin "$RUN_USER"
mkdir -p "$BASE" "$INSTALL"

if [ ! -x "$HOME_DIR/bin/elasticsearch" ]; then
  echo "downloading Elasticsearch $VERSION from Maven Central..." >&2
  zip="$INSTALL/elasticsearch-$VERSION.zip"
  curl -sfL -m 600 -o "$zip.part" "$MAVEN/$VERSION/elasticsearch-$VERSION.zip"
  # Verify against the published checksum where Maven Central has one, and the zip's own CRCs always.
  expected=$( (curl -sfL -m 60 "$MAVEN/$VERSION/elasticsearch-$VERSION.zip.sha1" || true) | cut -c1-40)
  actual=$(sha1sum "$zip.part" | cut -c1-40)
  if { [ -n "$expected" ] && [ "$expected" != "$actual" ]; } || ! unzip -tq "$zip.part" >/dev/null; then
    echo "elasticsearch-$VERSION.zip is damaged (checksum or zip test failed)" >&2
    rm -f "$zip.part"
    exit 1
  fi
  rm -rf "$HOME_DIR.tmp" && mkdir -p "$HOME_DIR.tmp"
  (cd "$HOME_DIR.tmp" && unzip -q "$zip.part")
  mv "$HOME_DIR.tmp/elasticsearch-$VERSION" "$HOME_DIR" && rm -rf "$HOME_DIR.tmp" "$zip.part"
fi
# The script owns the configuration: written on every start, so that nothing Elasticsearch
# appends (such as its security auto-configuration) survives into the next run. Each instance has
# its own copy of the distribution's other config files (JVM options, logging).
mkdir -p "$CONF_DIR"
cp -rn "$HOME_DIR/config/." "$CONF_DIR/"
cat >"$CONF_DIR/elasticsearch.yml" <<CONF
cluster.name: ukcd-test
node.name: ukcd-test-1
network.host: 127.0.0.1
http.port: $PORT
transport.port: $((PORT + 1))
discovery.type: single-node
path.data: $BASE/data
path.logs: $BASE/logs
action.destructive_requires_name: false
xpack.security.enabled: false
# A test node on a shared disk: Elasticsearch's disk watermarks (85% and 90% of the disk) would stop
# it placing new shards on a large disk that other work has filled, and the tests would time out.
cluster.routing.allocation.disk.threshold_enabled: false
# Nothing here creates an index by writing to it: a write to a missing index is a bug to report,
# not an index with default settings (one replica, which keeps a single node yellow for ever).
action.auto_create_index: false
CONF
mkdir -p "$BASE/data" "$BASE/logs"
chown -R "$RUN_USER" "$BASE"

# Only what this start logs is shown if it fails: the log keeps every earlier start's errors too.
log="$BASE/logs/ukcd-test.log"
log_lines_before=$( (wc -l <"$log") 2>/dev/null || echo 0)
as_user env JAVA_HOME="$JAVA" ES_JAVA_HOME="$JAVA" ES_JAVA_OPTS="-Xms$HEAP -Xmx$HEAP" ES_PATH_CONF="$CONF_DIR" \
  "$HOME_DIR/bin/elasticsearch" -d -p "$BASE/es.pid" >"$BASE/start.log" 2>&1 || {
  echo "Elasticsearch did not start; see $BASE/start.log and $BASE/logs:" >&2
  tail -n 30 "$BASE/start.log" >&2
  exit 1
}

# Ready when every primary shard is active (yellow): that is all a single node can promise, and an
# index left behind with a replica (by some other tool) must not make the start fail.
wait_seconds="${UKCD_ES_START_SECONDS:-180}"
deadline=$((SECONDS + wait_seconds))
while [ "$SECONDS" -lt "$deadline" ]; do
  if curl -sf -m 5 "$URL/_cluster/health?wait_for_status=yellow&timeout=1s" >/dev/null 2>&1; then
    echo "$URL"
    exit 0
  fi
  sleep 1
done
echo "Elasticsearch was not ready within $wait_seconds s; see $BASE/logs. Errors this start logged:" >&2
tail -n +"$((log_lines_before + 1))" "$log" 2>/dev/null | grep -E "ERROR|Exception" | tail -n 10 >&2 || true
curl -s -m 5 "$URL/_cluster/health?pretty" >&2 || true
exit 1
