#!/bin/sh
# The redis image's entry point: a redis-server started as root drops to the redis user, owning /data first.
set -e
if [ "${1#-}" != "$1" ] || [ "${1%.conf}" != "$1" ]; then set -- redis-server "$@"; fi
# The redis image builds its server with protected mode off (only published ports reach a container); Debian's
# is on, refusing every client off loopback while the default user has no password. A setting given wins.
if [ "$1" = redis-server ] && ! printf '%s\n' "$@" | grep -q protected-mode \
    && ! { [ -f "${2:-}" ] && grep -q '^ *protected-mode' "$2"; }; then
  set -- "$@" --protected-mode no
fi
if [ "$1" = redis-server ] && [ "$(id -u)" = 0 ]; then
  find . \! -user redis -exec chown redis '{}' +
  exec setpriv --reuid=redis --regid=redis --init-groups "$0" "$@"
fi
umask 0077
exec "$@"
