#!/bin/bash
# Runs a class of the broker's class path, as the apache/kafka image's script of the same name does.
heap=${KAFKA_HEAP_OPTS:--Xmx256m}
exec java $heap -Dlog4j2.configurationFile=/opt/kafka/config/log4j2.properties $KAFKA_OPTS -cp '/opt/kafka/libs/*' "$@"
