#!/bin/bash
# The apache/kafka image's environment contract, as far as docker-compose.yml uses it: every KAFKA_* variable
# becomes a line of server.properties (KAFKA_ dropped, lower case, "___" to "-", "__" to "_", "_" to "."), the
# variables that tune the JVM excepted; the log directories are formatted once with CLUSTER_ID; then the broker
# runs in the foreground, so the engine's SIGTERM reaches it.
set -euo pipefail
props=/opt/kafka/config/server.properties
: > "$props"
while IFS='=' read -r name _; do
  case "$name" in
    KAFKA_HEAP_OPTS|KAFKA_OPTS|KAFKA_LOG4J_OPTS|KAFKA_JMX_OPTS|KAFKA_JVM_PERFORMANCE_OPTS|KAFKA_GC_LOG_OPTS|KAFKA_LOG4J_ROOT_LOGLEVEL|KAFKA_VERSION) continue ;;
    KAFKA_*) ;;
    *) continue ;;
  esac
  key=$(printf '%s' "${name#KAFKA_}" | tr '[:upper:]' '[:lower:]' | sed -e 's/___/-/g' -e 's/__/@/g' -e 's/_/./g' -e 's/@/_/g')
  printf '%s=%s\n' "$key" "${!name}" >> "$props"
done < <(env)
: "${CLUSTER_ID:?the apache/kafka image needs CLUSTER_ID}"
/opt/kafka/bin/kafka-storage.sh format --ignore-formatted --cluster-id "$CLUSTER_ID" --config "$props"
KAFKA_LOG4J_OPTS=${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=/opt/kafka/config/log4j2.properties} \
  KAFKA_HEAP_OPTS=${KAFKA_HEAP_OPTS:--Xmx1G -Xms1G} exec /opt/kafka/bin/kafka-run-class.sh kafka.Kafka "$props"
