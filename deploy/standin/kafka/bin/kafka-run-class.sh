#!/bin/bash
# Runs a class of the broker's class path, as the apache/kafka image's script of the same name does: with the tools'
# logging unless KAFKA_LOG4J_OPTS says otherwise (the broker's run script does).
heap=${KAFKA_HEAP_OPTS:--Xmx256m}
log4j=${KAFKA_LOG4J_OPTS:--Dlog4j2.configurationFile=/opt/kafka/config/tools-log4j2.properties}
exec java $heap $log4j $KAFKA_OPTS -cp '/opt/kafka/libs/*' "$@"
