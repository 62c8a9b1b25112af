#!/usr/bin/env bash
# Runs the production deployment for real: builds the images from this checkout's Dockerfiles, brings up
# docker-compose.yml in a container engine by the README's compose walk-through (its shell blocks, run as written),
# drives it through the APIs with authentication on, kills the processor and then Redis and checks the stack
# recovers by itself with nothing lost, checks what production needs of the images, then runs the main integration
# tests on Testcontainers (Kafka and Redis in containers of the same images), and tears everything down.
# `deploy/test-compose.sh testcontainers` runs only those tests.
#
# Engine: Docker with Compose v2 when one answers; otherwise, on Debian as root, podman serving the Docker API
# (installed here), with Compose v2 taken from Debian's next release. Base images Docker Hub cannot give are built
# locally under the same names from Debian packages and Maven Central (deploy/standin/); they stay in the engine's
# store, so later runs reuse them. Exit status: 0 passed, 1 failed, 3 no engine can run here (nothing was tested).
#
# Settings (environment): READMARK_COMPOSE_STATE, the work directory (/var/cache/readmark-compose);
# READMARK_COMPOSE_KEEP=1 leaves the stack running for a look.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
STATE=${READMARK_COMPOSE_STATE:-/var/cache/readmark-compose}
RUN=$STATE/run/readmark
START=$SECONDS

log() { printf 'test-compose [%3ds] %s\n' $((SECONDS - START)) "$*"; }
fail() { log "FAILED: $*"; exit 1; }
cannot_run() { log "NOT RUN: $* (no container engine can run here; nothing was tested)"; exit 3; }

# Polls a shell condition every second until it holds, up to a deadline: the script never sleeps to synchronise.
await() {
    local seconds=$1 what=$2; shift 2
    local deadline=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || fail "$what: not within ${seconds}s"
        sleep 1
    done
    log "$what"
}

# ---- the engine ------------------------------------------------------------------------------------------------

PODMAN_PID=
TICKER_PID=

use_podman() {
    [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null || cannot_run "no Docker, and podman needs root on Debian"
    if ! command -v podman >/dev/null || ! command -v runc >/dev/null; then
        log "installing podman and runc"
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq podman runc >/dev/null) \
            || cannot_run "apt-get could not install podman"
    fi
    mkdir -p "$STATE/docker-config/cli-plugins"
    # crun and the default ulimits fail on hosts with hybrid cgroups and low hard limits; runc and these do not.
    cat > "$STATE/containers.conf" <<'EOF'
[containers]
default_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
EOF
    # Short names resolve on Docker Hub, as Docker resolves them.
    printf 'unqualified-search-registries = ["docker.io"]\nshort-name-mode = "permissive"\n' > "$STATE/registries.conf"
    [[ -f $STATE/docker-config/config.json ]] || echo '{}' > "$STATE/docker-config/config.json"
    export CONTAINERS_CONF=$STATE/containers.conf CONTAINERS_REGISTRIES_CONF=$STATE/registries.conf
    export DOCKER_CONFIG=$STATE/docker-config DOCKER_HOST=unix://$STATE/podman.sock
    # The classic builder API: podman serves no BuildKit.
    export DOCKER_BUILDKIT=0
    rm -f "$STATE/podman.sock"
    podman system service --time=0 "$DOCKER_HOST" > "$STATE/podman-service.log" 2>&1 &
    PODMAN_PID=$!
    await 30 "podman serves the Docker API at $DOCKER_HOST" docker version
    if ! docker compose version >/dev/null 2>&1; then
        # Bookworm's docker-compose is v1, which rejects this compose file; trixie's is v2, a static Go binary.
        log "fetching Compose v2 (Debian trixie's docker-compose)"
        local apt=$STATE/apt-trixie
        mkdir -p "$apt/lists/partial" "$apt/archives/partial"
        echo 'deb http://deb.debian.org/debian trixie main' > "$apt/sources.list"
        local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
                    -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache::Archives=$apt/archives")
        (apt-get "${opts[@]}" update -qq && cd "$apt" && rm -f docker-compose_*.deb \
            && apt-get "${opts[@]}" download -qq docker-compose >/dev/null 2>&1 && dpkg -x docker-compose_*.deb x) \
            || cannot_run "no Compose v2 for the docker CLI"
        cp "$apt/x/usr/libexec/docker/cli-plugins/docker-compose" "$DOCKER_CONFIG/cli-plugins/"
    fi
    # Podman runs health checks from systemd timers; without systemd nothing runs them, and every
    # "condition: service_healthy" would wait forever. This loop is those timers.
    (while sleep 3; do
        for id in $(podman ps -q); do
            timeout 20 podman healthcheck run "$id" >/dev/null 2>&1 &
        done
        wait
    done) &
    TICKER_PID=$!
}

choose_engine() {
    command -v docker >/dev/null || [[ $(id -u) == 0 ]] || cannot_run "no docker CLI"
    if [[ -z ${DOCKER_HOST:-} ]] && docker info >/dev/null 2>&1 && docker compose version >/dev/null 2>&1; then
        log "engine: Docker"
    else
        use_podman
        log "engine: podman $(podman version -f '{{.Server.Version}}' 2>/dev/null) via its Docker API"
    fi
}

# ---- base images -----------------------------------------------------------------------------------------------

have_image() { docker image inspect "$1" >/dev/null 2>&1; }

debian_rootfs() {
    have_image localhost/readmark-standin-debian:bookworm && return
    command -v debootstrap >/dev/null \
        || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
    log "stand-in: a Debian bookworm root filesystem (debootstrap)"
    local rootfs=$STATE/rootfs
    rm -rf "$rootfs"
    debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" http://deb.debian.org/debian \
        > "$STATE/debootstrap.log" 2>&1 || fail "debootstrap: $(tail -3 "$STATE/debootstrap.log")"
    # The stand-ins download at build time through this host's network, so they trust what this host trusts
    # beyond Debian's authorities (a TLS-inspecting proxy's, say); on most hosts there is none.
    cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/" 2>/dev/null \
        && chroot "$rootfs" update-ca-certificates >/dev/null 2>&1
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* "$rootfs"/usr/share/{doc,man,locale}
    tar -C "$rootfs" -c . | podman import --change "LABEL io.readmark.standin=$STANDIN" --change 'CMD ["/bin/bash"]' \
        - localhost/readmark-standin-debian:bookworm >/dev/null 2>&1
    rm -rf "$rootfs"
}

# A Temurin JDK under the image's JAVA_HOME: this host's, else Debian's; its trust store copied, not linked.
standin_temurin() {
    local tag=$1 ctx=$STATE/ctx-$1 jdk
    jdk=$(ls -d /usr/lib/jvm/temurin-2[1-9]*-jdk-* 2>/dev/null | head -1)
    [[ -n $jdk ]] || fail "no Temurin JDK 21+ under /usr/lib/jvm to put in the eclipse-temurin stand-in"
    rm -rf "$ctx" && mkdir -p "$ctx"
    cp "$ROOT/deploy/standin/temurin/Containerfile" "$ctx/"
    if [[ $tag == 21-jdk ]]; then
        cp -a "$jdk" "$ctx/java"
        rm -rf "$ctx/java/lib/src.zip" "$ctx/java/jmods"
    else
        # A JRE as Temurin's: the Java SE and runtime modules, not the development tools.
        local mods
        mods=$("$jdk/bin/java" --list-modules | sed 's/@.*//' \
            | grep -vE '^jdk\.(compiler|javadoc|jshell|jlink|jpackage|jdeps|jartool|jstatd|hotspot\.agent|editpad|jconsole|jcmd|jdi|jdwp\.agent|internal\.(ed|jvmstat|opt|le))$' \
            | paste -sd,)
        "$jdk/bin/jlink" --add-modules "$mods" --strip-debug --no-man-pages --no-header-files --output "$ctx/java" 2>/dev/null
    fi
    rm -f "$ctx/java/lib/security/cacerts" && cp -L "$jdk/lib/security/cacerts" "$ctx/java/lib/security/cacerts"
    podman build -q --network host --label "io.readmark.standin=$STANDIN" -t "docker.io/library/eclipse-temurin:$tag" "$ctx" >/dev/null
    rm -rf "$ctx"
}

standin_kafka() {
    local ctx=$STATE/ctx-kafka
    rm -rf "$ctx" && cp -a "$ROOT/deploy/standin/kafka" "$ctx" && rm "$ctx/pom.xml"
    "$ROOT/mvnw" -B -q -f "$ROOT/deploy/standin/kafka/pom.xml" dependency:copy-dependencies \
        -DincludeScope=runtime -DoutputDirectory="$ctx/libs" 2>&1 | grep -v '^WARNING\|^mvnw' || true
    podman build -q --label "io.readmark.standin=$STANDIN" -t docker.io/apache/kafka:4.3.1 "$ctx" >/dev/null
    rm -rf "$ctx"
}

standin_redis() {
    podman build -q --network host --label "io.readmark.standin=$STANDIN" -t docker.io/library/redis:7.4 "$ROOT/deploy/standin/redis" >/dev/null
}

# A stand-in built from other files than deploy/standin's present ones is built again; a pulled image is kept.
standin_label() { docker image inspect -f '{{index .Config.Labels "io.readmark.standin"}}' "$1" 2>/dev/null; }

base_images() {
    local image label
    STANDIN=$(cd "$ROOT" && find deploy/standin -type f | sort | xargs cat | sha256sum | cut -c1-16)
    for image in localhost/readmark-standin-debian:bookworm eclipse-temurin:21-jdk eclipse-temurin:21-jre redis:7.4 \
            apache/kafka:4.3.1; do
        label=$(standin_label "$image" || true)
        if [[ -n $label && $label != "$STANDIN" ]]; then docker rmi -f "$image" >/dev/null; fi
    done
    for image in eclipse-temurin:21-jdk eclipse-temurin:21-jre redis:7.4 apache/kafka:4.3.1; do
        have_image "$image" && continue
        if timeout 60 docker pull -q "$image" >/dev/null 2>&1; then log "pulled $image"; continue; fi
        [[ -n $PODMAN_PID ]] || fail "cannot pull $image"
        log "cannot pull $image: building a stand-in under that name (deploy/standin)"
        debian_rootfs
        case $image in
            eclipse-temurin:*) standin_temurin "${image#*:}" ;;
            redis:*) standin_redis ;;
            apache/kafka:*) have_image eclipse-temurin:21-jre || standin_temurin 21-jre; standin_kafka ;;
        esac
    done
}

# ---- the walk-through ------------------------------------------------------------------------------------------

# The n-th ```sh block of the README's compose section.
readme_block() {
    awk -v want="$1" '/^## Run with Docker Compose/ {in_section = 1; next}
        in_section && /^## / {exit}
        in_section && /^```sh$/ {n++; inside = (n == want); next}
        in_section && /^```$/ {inside = 0; next}
        inside {print}' "$ROOT/README.md"
}

teardown() {
    local status=$?
    set +e
    if [[ -d $RUN && ${READMARK_COMPOSE_KEEP:-0} != 1 ]]; then
        (cd "$RUN" && docker compose down -v --remove-orphans >/dev/null 2>&1)
    fi
    # Containers the tests' JVMs did not stop (a JVM killed, say), this run's only.
    if [[ $TC_STARTED == 1 ]]; then
        local left
        left=$(comm -13 <(echo "$TC_BEFORE") <(docker ps -aq --filter label=org.testcontainers=true | sort))
        [[ -z $left ]] || docker rm -f $left >/dev/null 2>&1
    fi
    [[ -n $TICKER_PID ]] && kill "$TICKER_PID" 2>/dev/null
    [[ -n $PODMAN_PID && ${READMARK_COMPOSE_KEEP:-0} != 1 ]] && kill "$PODMAN_PID" 2>/dev/null && wait "$PODMAN_PID" 2>/dev/null
    log "$( ((status == 0)) && echo PASSED || echo "exit status $status")"
}

healthy() {
    local ids id line bad=0
    ids=$(docker compose ps -q) || return 1
    [[ $(wc -w <<<"$ids") -ge 5 ]] || return 1
    for id in $ids; do
        line=$(docker inspect -f '{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}' "$id")
        [[ $line == "running healthy" ]] || bad=1
    done
    return $bad
}

publish() {
    curl -sf --max-time 10 -XPOST localhost:8080/v1/events -H "Authorization: Bearer $PUBLISH" -H 'Content-Type: application/json' -d "$1" >/dev/null
}

post_blog() {
    publish "{\"type\":\"BlogPublished\",\"eventId\":\"p-$1\",\"blogId\":$1,\"authorId\":7,\"publishedAt\":\"2026-01-01T12:$(printf %02d $(($1 % 60))):00Z\"}"
}

total_is() {
    curl -sf --max-time 10 localhost:8081/v1/users/101/unread -H "Authorization: Bearer $USER_101" | grep -q "\"total\":$1,"
}

pid_of() { docker inspect -f '{{.State.Pid}}' "$(docker compose ps -q "$1")"; }

restarts_of() { docker inspect -f '{{.RestartCount}}' "$(docker compose ps -q "$1")"; }
export -f restarts_of

# A crash, not a stop: the engine restarts a container whose process died, not one it was told to stop.
crash() {
    local before
    before=$(restarts_of "$1")
    kill -9 "$(pid_of "$1")"
    await 60 "$1 killed (SIGKILL) and restarted by the engine" bash -c "(( \$(restarts_of $1) > $before ))"
}

# ---- the Testcontainers backend --------------------------------------------------------------------------------

# The integration tests that matter most, on Kafka and Redis in containers of the same images: the backend, the
# processor's exact counts, the view API's reads and push, and the pipeline end to end.
TC_MODULES=lab/embedded-infra,stream-processor,view-api,end-to-end
TC_TESTS=SharedInfrastructureIT,UnreadTopologyIT,FollowOrderIT,UnreadCountsIT,UnreadItemsIT,UnreadPagesIT,UnreadStreamIT,PipelineIT,UnreadSemanticsIT,UnreadStreamPipelineIT,ReplayIT
TC_BEFORE=
TC_STARTED=0

testcontainers_run() {
    log "the integration tests on Testcontainers (READMARK_TEST_INFRA=testcontainers): $TC_TESTS"
    TC_BEFORE=$(docker ps -aq --filter label=org.testcontainers=true | sort)
    TC_STARTED=1
    local t0=$SECONDS status=0 runs
    # Ryuk, Testcontainers' reaper, is an image of its own, which a host that cannot pull lacks; this script
    # removes what the tests leave instead (teardown). The tests' own servers are left out of the environment.
    (cd "$ROOT" && env -u KAFKA_BOOTSTRAP_SERVERS -u REDIS_URL READMARK_TEST_INFRA=testcontainers \
        TESTCONTAINERS_RYUK_DISABLED=true READMARK_KAFKA_IMAGE=apache/kafka:4.3.1 READMARK_REDIS_IMAGE=redis:7.4 \
        ./mvnw -B -q verify -pl "$TC_MODULES" -am -Dtest=none -Dit.test="$TC_TESTS" \
        -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false) > "$STATE/testcontainers.log" 2>&1 \
        || status=$?
    ((status == 0)) || fail "integration tests on Testcontainers: $(grep -E 'ERROR|Tests run' "$STATE/testcontainers.log" | head -20)"
    # Each module's tests ran on containers, none on an embedded server instead.
    runs=$(grep -c 'Test infrastructure: Testcontainers' "$STATE/testcontainers.log" || true)
    local modules summaries=() module
    IFS=, read -ra modules <<<"$TC_MODULES"
    ((runs == ${#modules[@]})) || fail "$runs test JVMs on Testcontainers, not one per module"
    for module in "${modules[@]}"; do summaries+=("$ROOT/$module/target/failsafe-reports/failsafe-summary.xml"); done
    log "integration tests on Testcontainers passed: $(cat "${summaries[@]}" \
        | sed -n 's/.*<completed>\([0-9]*\)<.*/\1/p' | awk '{n += $1} END {print n}') tests in $((SECONDS - t0))s"
}

main() {
    trap teardown EXIT
    choose_engine
    base_images
    if [[ ${1:-} == testcontainers ]]; then testcontainers_run; return; fi

    log "a copy of the checkout in $RUN (its files as they are, not ignored ones)"
    if [[ -d $RUN ]]; then (cd "$RUN" && docker compose down -v --remove-orphans >/dev/null 2>&1 || true); fi
    rm -rf "$RUN" && mkdir -p "$RUN"
    (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard | tar --null -T - -c) | tar -x -C "$RUN"
    cd "$RUN"

    log "README, compose block 1: keys, .env, docker compose up --build -d"
    # Builds one image at a time: the three share their build stage, so the second and third reuse the first's.
    COMPOSE_PARALLEL_LIMIT=1 bash -euo pipefail -c "$(readme_block 1)" > "$STATE/up.log" 2>&1 \
        || fail "compose up: $(tail -20 "$STATE/up.log")"
    await 300 "all five services running and healthy" healthy

    log "README, compose block 2: the metrics from the management port"
    bash -euo pipefail -c "$(readme_block 2)" | grep -q '^readmark_' || fail "no readmark_ metrics from the view API"

    log "README, compose block 3: tokens, events in by HTTP and a Kafka client, counts out (without its final 'down')"
    local block3
    block3=$(readme_block 3 | grep -v '^docker compose down')
    # The block's own lines, then the state it leaves, for the checks below.
    eval "$block3" > "$STATE/walkthrough.log" 2>&1 || fail "walk-through: $(cat "$STATE/walkthrough.log")"
    [[ -n ${PUBLISH:-} && -n ${USER_101:-} ]] || fail "the walk-through signed no tokens"
    tail -1 "$STATE/walkthrough.log" | grep -q '401$' || fail "a publishing token read the view API: $(tail -1 "$STATE/walkthrough.log")"
    await 180 "the README's answer, the Kafka client's post counted too: user 101 has 2 unread" total_is 2
    [[ $(curl -s --max-time 10 -o /dev/null -w '%{http_code}' localhost:8081/v1/users/101/unread) == 401 ]] || fail "no token, not 401"

    log "the push stream"
    rm -f "$STATE/stream.log"   # else the await below could read the last run's stream before curl truncates it
    curl -sN --max-time 60 localhost:8081/v1/users/101/unread/stream -H "Authorization: Bearer $USER_101" > "$STATE/stream.log" &
    local stream=$!
    await 20 "the stream opens with the counts" grep -q '^event: counts' "$STATE/stream.log"
    post_blog 1002
    await 30 "the stream pushes blog 1002's delivery" grep -q '"kind":"delivered","authorId":7,"blogId":1002' "$STATE/stream.log"
    kill "$stream" 2>/dev/null || true

    local blog
    crash stream-processor
    for blog in $(seq 1003 1012); do post_blog "$blog" || fail "producer API refused blog $blog"; done
    await 180 "the processor back and healthy" healthy
    await 60 "every event published while it was down counted: 13 unread" total_is 13

    crash redis
    for blog in $(seq 1013 1022); do post_blog "$blog" || fail "producer API refused blog $blog"; done
    await 180 "the stack healthy again after Redis' restart" healthy
    await 120 "nothing lost across the Redis crash: 23 unread" total_is 23
    local page
    page=$(curl -sf --max-time 10 'localhost:8081/v1/users/101/unread/items?limit=20' -H "Authorization: Bearer $USER_101")
    [[ $(grep -o '"blogId"' <<<"$page" | wc -l) == 20 && $page == *'"nextCursor":"'* ]] || fail "first page: $page"
    [[ $page == *'"blogId":1022,'* ]] || fail "newest first: $page"

    log "what production needs"
    local service size
    for service in producer-api view-api stream-processor; do
        [[ $(docker compose exec -T "$service" id -u) == 10001 ]] || fail "$service does not run as uid 10001"
        size=$(docker compose exec -T "$service" stat -c %s /app/readmark.jar)
        log "$service: uid 10001, image $(docker image inspect -f '{{.Size}}' "readmark-$service" | numfmt --to=iec), jar $(numfmt --to=iec "$size")"
    done
    docker compose exec -T stream-processor sh -c 'test -w /var/lib/readmark && test -n "$(ls /var/lib/readmark)"' \
        || fail "the processor's state volume is not written"

    # A read-only root filesystem: the three recreated with one (and /tmp in memory) come up and keep working.
    printf 'services:\n' > "$STATE/read-only.yml"
    for service in producer-api view-api stream-processor; do
        printf '  %s: {read_only: true, tmpfs: [/tmp]}\n' "$service" >> "$STATE/read-only.yml"
    done
    docker compose -f docker-compose.yml -f "$STATE/read-only.yml" up -d --no-build producer-api view-api stream-processor \
        > "$STATE/read-only.log" 2>&1 || fail "read-only up: $(tail -5 "$STATE/read-only.log")"
    for service in producer-api view-api stream-processor; do
        [[ $(docker inspect -f '{{.HostConfig.ReadonlyRootfs}}' "$(docker compose ps -q "$service")") == true ]] \
            || fail "$service was not recreated read-only"
    done
    # Through the APIs: podman may call a container just recreated healthy before its first check.
    await 180 "the producer API takes events on a read-only root filesystem" post_blog 1023
    await 120 "the processor and the view API count them: 24 unread" total_is 24

    # Each service stopped alone, dependents first: within its grace period, by its own hand (not SIGKILL). The
    # grace is given (its stop_grace_period, else Docker's 10 s): podman's Docker API takes none as 0 and kills.
    local grace t0 code id
    for service in view-api producer-api stream-processor kafka redis; do
        grace=10; [[ $service == stream-processor ]] && grace=45
        id=$(docker compose ps -q "$service")
        t0=$SECONDS
        docker compose stop -t "$grace" "$service" >/dev/null 2>&1
        code=$(docker inspect -f '{{.State.ExitCode}}' "$id")
        ((SECONDS - t0 < grace)) || fail "$service took $((SECONDS - t0))s to stop (grace ${grace}s)"
        [[ $code != 137 ]] || fail "$service was killed at the end of its grace period"
        log "$service stopped in $((SECONDS - t0))s, exit status $code"
    done

    testcontainers_run
}

main "$@"
