#!/usr/bin/env bash
# Provisions real Apache Artemis brokers for development and tests (docs/adr/0003-broker-provisioning.md).
#
#   scripts/artemis.sh fetch                  download the pinned binary distribution into the cache
#   scripts/artemis.sh start  <profile>       create (if needed) and start every node, wait until serving
#   scripts/artemis.sh stop   <profile>       stop every node and wait for the JVMs to exit
#   scripts/artemis.sh status <profile>       one line per node: running or stopped
#   scripts/artemis.sh env    <profile>       the node's URLs and credentials as shell variables
#   scripts/artemis.sh kill   <profile> <node>  SIGKILL one node's JVM (failover tests)
#   scripts/artemis.sh reset  <profile>       stop and delete the instances (next start recreates them)
#
# Profiles (ports never touch RabbitMQ's 5672 or Mosquitto's 1883: only the multi-protocol acceptor
# is created and AMQP 1.0 is dialled on it):
#   dev   one broker  "dev":  acceptor 61616, Jolokia http://127.0.0.1:8161/console/jolokia
#   test  one broker  "test": acceptor 61716, Jolokia http://127.0.0.1:8261/console/jolokia
#   pair  replication pair "primary" (61816 / 8361) and "backup" (61817 / 8362)
#   bench one broker "bench": acceptor 61916, Jolokia http://127.0.0.1:8461 (benchmarks fill it)
#   faults replication pair "primary" (62016 / 8561) and "backup" (62017 / 8562) for the fault
#         suite, apart from "pair" so that it never kills a broker a test is using
#   cluster symmetric cluster of two live nodes "node1" (62116 / 8661) and "node2" (62117 / 8662):
#         a static cluster connection, ON_DEMAND, max-hops 1; redistribution off (the broker's
#         default) but on addresses "redistributed.#" (redistribution-delay 0); 512M heap each
#   cluster-ha the same cluster with a replica backup for each live node: "node1" (62216 / 8761)
#         with "node1-backup" (62217 / 8762), "node2" (62218 / 8763) with "node2-backup"
#         (62219 / 8764), each backup paired with its live node by group name; 512M heap each
#
# The distribution and the instances live outside the repository, in $ARTEMIS_STUDIO_HOME
# (default ~/.cache/artemis-studio). Every instance is bound to loopback.
set -euo pipefail

ARTEMIS_VERSION="2.40.0"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
FIXTURES="$HERE/artemis"
STUDIO_HOME="${ARTEMIS_STUDIO_HOME:-$HOME/.cache/artemis-studio}"
DIST="$STUDIO_HOME/apache-artemis-$ARTEMIS_VERSION"
INSTANCES="$STUDIO_HOME/instances"
READY_TIMEOUT_SECONDS="${ARTEMIS_READY_TIMEOUT_SECONDS:-120}"

BROKER_USER="studio"
BROKER_PASSWORD="studio"
# A user without the notification permissions, for capability tests.
OBSERVER_USER="observer"
OBSERVER_PASSWORD="observer"

die() { echo "artemis.sh: $*" >&2; exit 1; }
log() { echo "artemis.sh: $*" >&2; }

require() {
  command -v "$1" >/dev/null 2>&1 || die "$1 is required ($2) but was not found on PATH"
}

# profile -> "node:offset[:role]" list
nodes_of() {
  case "$1" in
    dev) echo "dev:0" ;;
    test) echo "test:100" ;;
    pair) echo "primary:200:primary backup:201:backup" ;;
    bench) echo "bench:300" ;;
    faults) echo "primary:400:primary backup:401:backup" ;;
    cluster) echo "node1:500:member node2:501:member" ;;
    cluster-ha) echo "node1:600:member-primary node1-backup:601:member-backup node2:602:member-primary node2-backup:603:member-backup" ;;
    *) die "unknown profile '$1' (dev, test, pair, bench, faults, cluster, cluster-ha)" ;;
  esac
}

fetch() {
  [ -x "$DIST/bin/artemis" ] && return 0
  require mvn "Maven fetches the broker from Maven Central"
  require tar "to unpack the distribution"
  mkdir -p "$STUDIO_HOME"
  local tmp
  tmp="$(mktemp -d "$STUDIO_HOME/fetch.XXXXXX")"
  log "fetching org.apache.activemq:apache-artemis:$ARTEMIS_VERSION:tar.gz:bin from Maven Central"
  mvn -B -q dependency:copy \
    -Dartifact="org.apache.activemq:apache-artemis:$ARTEMIS_VERSION:tar.gz:bin" \
    -DoutputDirectory="$tmp" >"$tmp/mvn.log" 2>&1 || { cat "$tmp/mvn.log" >&2; die "Maven could not fetch the distribution"; }
  tar xzf "$tmp/apache-artemis-$ARTEMIS_VERSION-bin.tar.gz" -C "$tmp"
  # A rename is atomic, so a concurrent or interrupted fetch never leaves half a distribution.
  mv "$tmp/apache-artemis-$ARTEMIS_VERSION" "$DIST" 2>/dev/null || [ -x "$DIST/bin/artemis" ]
  rm -rf "$tmp"
}

# The fixture's fingerprint: an instance created from other fixtures or another version is recreated.
fingerprint() {
  cat "$HERE/artemis.sh" "$FIXTURES"/*.xml | sha256sum | cut -c1-16
}

insert_before() { # file, marker line regex, snippet file: inserts the snippet before the first match
  local out
  out="$(mktemp)"
  awk -v snippet="$3" -v marker="$2" '
    !done && $0 ~ marker { while ((getline line < snippet) > 0) print line; done = 1 }
    { print }
    END { if (!done) exit 3 }' "$1" >"$out" || die "marker '$2' not found in $1"
  mv "$out" "$1"
}

create_node() { # profile name offset role
  local profile="$1" name="$2" offset="$3" role="${4:-}"
  local dir="$INSTANCES/$profile/$name"
  local args=(
    create "$dir" --silent --force --name "$name"
    --user "$BROKER_USER" --password "$BROKER_PASSWORD" --role amq --require-login
    --host 127.0.0.1 --http-host 127.0.0.1 --port-offset "$offset"
    --no-amqp-acceptor --no-mqtt-acceptor --no-stomp-acceptor --no-hornetq-acceptor
    --java-memory "$(heap "$profile")" --nio
  )
  # A pair talks over an acceptor of its own (the client port + 1000): see below.
  local cluster_port=$((62616 + offset))
  case "$role" in
    primary) args+=(--replicated --cluster-user cluster --cluster-password cluster
                    --static-cluster "tcp://127.0.0.1:$((cluster_port + 1))") ;;
    backup) args+=(--replicated --backup --cluster-user cluster --cluster-password cluster
                   --static-cluster "tcp://127.0.0.1:$((cluster_port - 1))") ;;
    # A member of a symmetric cluster: every other member of the profile as a static connector.
    # `--max-hops 1`: create writes 0 unless told, and with 0 the members connect but never learn
    # each other's queues, so nothing is load-balanced or redistributed (ARTEMIS-NOTES).
    member) args+=(--clustered --cluster-user cluster --cluster-password cluster
                   --static-cluster "$(member_connectors "$profile" "$name")"
                   --max-hops 1 --message-load-balancing ON_DEMAND) ;;
    # A member that is one of a replication pair: the same cluster connection, and replication.
    member-primary|member-backup)
      args+=(--replicated --clustered --cluster-user cluster --cluster-password cluster
             --static-cluster "$(member_connectors "$profile" "$name")"
             --max-hops 1 --message-load-balancing ON_DEMAND)
      [ "$role" = member-primary ] || args+=(--backup) ;;
  esac
  rm -rf "$dir"
  mkdir -p "$(dirname "$dir")"
  "$DIST/bin/artemis" "${args[@]}" >"$INSTANCES/$profile/$name.create.log" 2>&1 \
    || { cat "$INSTANCES/$profile/$name.create.log" >&2; die "artemis create failed for $profile/$name"; }

  local xml="$dir/etc/broker.xml"
  insert_before "$xml" '^[[:space:]]*</core>' "$FIXTURES/notification-plugin.xml"
  insert_before "$xml" '<security-setting match="#">' "$FIXTURES/notification-security.xml"
  if [ "${role%%-*}" = member ]; then
    insert_before "$xml" '<address-setting match="#">' "$FIXTURES/cluster-address-settings.xml"
    [ "$role" = member ] && [ "$name" = node1 ] && insert_before "$xml" '^[[:space:]]*</core>' "$FIXTURES/cluster-broker-connection.xml"
  fi
  if [ "$role" = member-primary ] || [ "$role" = member-backup ]; then
    # Without a group name a backup replicates whichever live node answers first, so both backups
    # could serve node1 and leave node2 without one; "node1-backup" is node1's.
    local group="${name%-backup}"
    sed -i "/<replication>/,/<\/replication>/ { s|<primary>|&<group-name>$group</group-name>|; s|<backup>|&<group-name>$group</group-name>|; s|<backup/>|<backup><group-name>$group</group-name></backup>| }" "$xml"
    grep -q "<group-name>$group</group-name>" "$xml" || die "could not set the replication group in $xml"
  fi
  if [ "$role" = primary ] || [ "$role" = member-primary ]; then
    # Fail back to the primary when it returns, so failover tests can run more than once. Without
    # it the returning primary starts active beside the backup that took over: two live brokers
    # (AMQ222294 "possible split brain"). <replication> and <primary> are on lines of their own.
    sed -i '/<replication>/,/<\/replication>/ s|<primary>|&<check-for-active-server>true</check-for-active-server>|' "$xml"
    grep -q '<check-for-active-server>true' "$xml" || die "could not enable failback in $xml"
  elif [ "$role" = backup ] || [ "$role" = member-backup ]; then
    # And the backup hands back: without it, it says AMQ224056 "will not fail-back automatically".
    sed -i '/<replication>/,/<\/replication>/ { s|<backup/>|<backup><allow-failback>true</allow-failback></backup>|; s|</group-name></backup>|</group-name><allow-failback>true</allow-failback></backup>| }' "$xml"
    grep -q '<allow-failback>true' "$xml" || die "could not enable failback in $xml"
  fi
  if [ -n "$role" ]; then
    # Replication and the pair's announcements get an acceptor (and so network threads) of their
    # own. On the one acceptor, a failback under load deadlocked: the active broker held its journal
    # while waiting for the returning one's reply, every network thread was blocked routing a
    # notification behind that journal lock, so the reply was never read; Artemis then shut the
    # broker down (AMQ229114, AMQ222010), leaving the pair without a backup (docs/benchmarks.md).
    insert_before "$xml" '^[[:space:]]*</acceptors>' <(
      printf '         <acceptor name="cluster">tcp://127.0.0.1:%s?protocols=CORE;useEpoll=true</acceptor>\n' "$cluster_port"
    )
    sed -i "s|<connector name=\"artemis\">tcp://127.0.0.1:[0-9]*</connector>|<connector name=\"artemis\">tcp://127.0.0.1:$cluster_port</connector>|" "$xml"
    grep -q "<connector name=\"artemis\">tcp://127.0.0.1:$cluster_port<" "$xml" || die "could not move the pair's traffic to its own acceptor in $xml"
  fi
  # The generated files end without a newline: start ours on a line of its own.
  printf '\n%s = %s\n' "$OBSERVER_USER" "$OBSERVER_PASSWORD" >>"$dir/etc/artemis-users.properties"
  printf '\nviewer = %s\n' "$OBSERVER_USER" >>"$dir/etc/artemis-roles.properties"
  fingerprint >"$dir/.studio-fingerprint"
}

member_connectors() { # profile name -> the cluster acceptors of the profile's other members, comma-separated
  local spec other offset role urls=()
  for spec in $(nodes_of "$1"); do
    IFS=: read -r other offset role <<<"$spec"
    [ "$other" = "$2" ] || urls+=("tcp://127.0.0.1:$((62616 + offset))")
  done
  (IFS=,; echo "${urls[*]}")
}

pid_of() { # instance dir -> pid of a live JVM, or nothing
  local pidfile="$1/data/artemis.pid"
  [ -f "$pidfile" ] || return 0
  local pid
  pid="$(cat "$pidfile")"
  if kill -0 "$pid" 2>/dev/null; then echo "$pid"; fi
}

# Jolokia answers HTTP (any status but a missing servlet's 404): the web server logs AMQ241002
# before its Jolokia servlet is set up, and a call made at once failed with a reset connection
# (the end-to-end run's first ring cleanup after the integration run restarted the broker).
jolokia_answers() { # url
  local code
  command -v curl >/dev/null || return 0
  code="$(curl -s -o /dev/null -m 5 -w '%{http_code}' "$1/version" 2>/dev/null || true)"
  [ -n "$code" ] && [ "$code" != 000 ] && [ "$code" != 404 ]
}

wait_ready() { # dir name role jolokia-url
  local dir="$1" name="$2" role="$3" jolokia="$4" deadline=$((SECONDS + READY_TIMEOUT_SECONDS)) log
  # AMQ221007: the server is active. A passive backup never logs it; it logs AMQ221024 when its
  # replica is synchronised. The broker is active before its web server is up, so Jolokia
  # (AMQ241002) is waited for too: a first scrape would otherwise be refused.
  local pattern='AMQ221007'
  case "$role" in backup|member-backup) pattern='AMQ221024|AMQ221007' ;; esac
  while [ $SECONDS -lt $deadline ]; do
    log="$(cat "$dir/log/artemis.log" 2>/dev/null || true)"
    if grep -qE "$pattern" <<<"$log" && grep -q 'AMQ241002' <<<"$log" && jolokia_answers "$jolokia"; then return 0; fi
    [ -n "$(pid_of "$dir")" ] || { tail -n 40 "$dir/log/artemis.log" >&2 || true; die "$name exited during start-up"; }
    sleep 0.25
  done
  tail -n 40 "$dir/log/artemis.log" >&2 || true
  die "$name was not ready within ${READY_TIMEOUT_SECONDS}s"
}

start_profile() {
  local profile="$1" spec name offset role dir
  require java "a JDK 17 runs the broker"
  fetch
  for spec in $(nodes_of "$profile"); do
    IFS=: read -r name offset role <<<"$spec"
    dir="$INSTANCES/$profile/$name"
    if [ ! -f "$dir/.studio-fingerprint" ] || [ "$(cat "$dir/.studio-fingerprint")" != "$(fingerprint)" ]; then
      [ -z "$(pid_of "$dir" 2>/dev/null)" ] || stop_node "$dir" "$name"
      log "creating $profile/$name"
      create_node "$profile" "$name" "$offset" "$role"
    fi
    # The heap the caller asks for (ARTEMIS_JAVA_MEMORY), at every start: an instance made for
    # another caller keeps its data but not its heap. A bench asking 1G once got a running 512M
    # broker made by another bench, and ran out of memory making its queues.
    if ! heap_matches "$dir" "$profile"; then
      [ -z "$(pid_of "$dir")" ] || { log "$profile/$name runs with another heap; restarting it"; stop_node "$dir" "$name"; }
      set_heap "$dir" "$profile"
    fi
    if [ -n "$(pid_of "$dir")" ]; then log "$profile/$name already running"; continue; fi
    mkdir -p "$dir/log"
    # Each start reads a log of its own. Counting the old log's lines and reading past them failed
    # the first start after midnight: the broker rolls artemis.log over by date when it first
    # writes, the new file is shorter than the count, and readiness was never seen.
    [ -f "$dir/log/artemis.log" ] && mv "$dir/log/artemis.log" "$dir/log/artemis.previous.log"
    log "starting $profile/$name"
    "$dir/bin/artemis-service" start >/dev/null
    wait_ready "$dir" "$name" "$role" "http://127.0.0.1:$((8161 + offset))/console/jolokia"
    log "$profile/$name is ready"
  done
}

# The heap asked for, or the profile's own: the bench profile keeps the 10,000 queues of the
# console-queues bench between runs, and a 512M broker cannot even load that journal.
heap() { # [profile]
  if [ -n "${ARTEMIS_JAVA_MEMORY:-}" ]; then echo "$ARTEMIS_JAVA_MEMORY"
  elif [ "${1:-}" = bench ]; then echo 1G
  else echo 512M; fi
}

heap_matches() { # dir profile: whether the instance is configured with the heap asked for
  grep -q -- "-Xmx$(heap "$2") " "$1/etc/artemis.profile" 2>/dev/null || grep -q -- "-Xmx$(heap "$2")\"" "$1/etc/artemis.profile" 2>/dev/null
}

set_heap() { # dir profile: the asked-for heap in the instance's JVM arguments (-Xms as artemis create sets it too)
  sed -i -E "s/-Xms[0-9]+[KkMmGg]?/-Xms$(heap "$2")/g; s/-Xmx[0-9]+[KkMmGg]?/-Xmx$(heap "$2")/g" "$1/etc/artemis.profile"
  heap_matches "$1" "$2" || die "could not set the heap to $(heap "$2") in $1/etc/artemis.profile"
}

stop_node() { # dir name
  local dir="$1" name="$2" pid deadline
  pid="$(pid_of "$dir")"
  [ -n "$pid" ] || return 0
  "$dir/bin/artemis-service" stop >/dev/null 2>&1 || kill "$pid" 2>/dev/null || true
  deadline=$((SECONDS + 60))
  while kill -0 "$pid" 2>/dev/null; do
    if [ $SECONDS -ge $deadline ]; then log "$name did not stop in 60s; killing"; kill -9 "$pid" 2>/dev/null || true; fi
    sleep 0.2
  done
}

stop_profile() {
  local profile="$1" spec name offset role nodes
  # Stop in reverse order: a backup first, so stopping the primary does not trigger a failover.
  nodes="$(nodes_of "$profile" | tr ' ' '\n' | tac)"
  for spec in $nodes; do
    IFS=: read -r name offset role <<<"$spec"
    stop_node "$INSTANCES/$profile/$name" "$name"
    log "$profile/$name stopped"
  done
}

status_profile() {
  local profile="$1" spec name offset role pid
  for spec in $(nodes_of "$profile"); do
    IFS=: read -r name offset role <<<"$spec"
    pid="$(pid_of "$INSTANCES/$profile/$name")"
    if [ -n "$pid" ]; then echo "$profile/$name running pid=$pid"; else echo "$profile/$name stopped"; fi
  done
}

env_profile() {
  local profile="$1" spec name offset role i=0
  echo "ARTEMIS_USER=$BROKER_USER"
  echo "ARTEMIS_PASSWORD=$BROKER_PASSWORD"
  echo "ARTEMIS_OBSERVER_USER=$OBSERVER_USER"
  echo "ARTEMIS_OBSERVER_PASSWORD=$OBSERVER_PASSWORD"
  for spec in $(nodes_of "$profile"); do
    IFS=: read -r name offset role <<<"$spec"
    echo "ARTEMIS_NODE${i}_NAME=$name"
    echo "ARTEMIS_NODE${i}_JOLOKIA_URL=http://127.0.0.1:$((8161 + offset))/console/jolokia"
    echo "ARTEMIS_NODE${i}_AMQP_URL=amqp://127.0.0.1:$((61616 + offset))"
    echo "ARTEMIS_NODE${i}_HOME=$INSTANCES/$profile/$name"
    i=$((i + 1))
  done
}

kill_node() {
  local profile="$1" name="$2" pid
  pid="$(pid_of "$INSTANCES/$profile/$name")"
  [ -n "$pid" ] || die "$profile/$name is not running"
  kill -9 "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
}

cmd="${1:-}"
case "$cmd" in
  fetch) fetch ;;
  start) start_profile "${2:?profile}" ;;
  stop) stop_profile "${2:?profile}" ;;
  status) status_profile "${2:?profile}" ;;
  env) env_profile "${2:?profile}" ;;
  kill) kill_node "${2:?profile}" "${3:?node}" ;;
  reset) stop_profile "${2:?profile}"; rm -rf "${INSTANCES:?}/${2}" ;;
  *) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
