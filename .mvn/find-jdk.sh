# shellcheck shell=sh
# Finds a JDK 21 or newer; sourced (POSIX sh) by ./mvnw and ./readmark, so both look in the same places.
#   find_jdk NAME   keeps JAVA_HOME if it is a JDK 21+, else exports the first JDK 21+ of: the `java` on PATH,
#                   then the newest under /usr/lib/jvm, /Library/Java/JavaVirtualMachines, /opt/java (one line to
#                   stderr says which). With none, prints one line saying what to install and returns 1.
#   java_version BIN   the major version of the java binary BIN, or nothing.
# READMARK_JDK_DIRS replaces the list of install folders (tests point it at fake JDKs).

java_version() {
    "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p'
}

# Prints "MAJOR HOME" for the JDK (it must have javac) whose java binary is $1, or nothing.
_jdk_probe() {
    [ -n "$1" ] && [ -x "$1" ] || return 0
    _jdk_props=$("$1" -XshowSettings:properties -version 2>&1 || true)
    _jdk_major=$(printf '%s\n' "$_jdk_props" | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p')
    # java.home, not the binary's folder: the java on PATH is usually a symlink (/usr/bin/java, macOS stubs).
    _jdk_home=$(printf '%s\n' "$_jdk_props" | sed -n 's/^ *java\.home = \(.*\)$/\1/p')
    [ -n "$_jdk_home" ] || _jdk_home=$(cd "$(dirname "$1")/.." && pwd)
    if [ -n "$_jdk_major" ] && [ -x "$_jdk_home/bin/javac" ]; then
        echo "$_jdk_major $_jdk_home"
    fi
}

find_jdk() {
    _jdk_current=$(_jdk_probe "${JAVA_HOME:+$JAVA_HOME/bin/java}")
    if [ -n "$_jdk_current" ] && [ "${_jdk_current%% *}" -ge 21 ]; then
        return 0
    elif [ -n "$_jdk_current" ]; then
        _jdk_was="JAVA_HOME is JDK ${_jdk_current%% *}"
    elif [ -n "${JAVA_HOME:-}" ]; then
        _jdk_was="JAVA_HOME is not a JDK"
    else
        _jdk_was=""
    fi

    _jdk_best=$(_jdk_probe "$(command -v java 2>/dev/null || true)")
    if [ -n "$_jdk_best" ] && [ "${_jdk_best%% *}" -ge 21 ]; then
        JAVA_HOME=${_jdk_best#* }
        export JAVA_HOME
        # Silent when nothing was overridden: the default java is what anyone would expect to be used.
        [ -z "$_jdk_was" ] || echo "$1: using JDK ${_jdk_best%% *} at $JAVA_HOME, the java on PATH ($_jdk_was)" >&2
        return 0
    fi

    _jdk_best=""
    # mvnw runs with globbing off (set -f); the folders below need it, so it is on just for this loop.
    case $- in *f*) _jdk_noglob=1; set +f ;; *) _jdk_noglob="" ;; esac
    for _jdk_dir in ${READMARK_JDK_DIRS-/usr/lib/jvm /Library/Java/JavaVirtualMachines /opt/java}; do
        for _jdk_java in "$_jdk_dir"/*/bin/java "$_jdk_dir"/*/Contents/Home/bin/java; do
            _jdk_found=$(_jdk_probe "$_jdk_java")
            if [ -n "$_jdk_found" ] && [ "${_jdk_found%% *}" -ge 21 ] \
                    && { [ -z "$_jdk_best" ] || [ "${_jdk_found%% *}" -gt "${_jdk_best%% *}" ]; }; then
                _jdk_best=$_jdk_found
            fi
        done
    done
    [ -z "$_jdk_noglob" ] || set -f

    if [ -z "$_jdk_best" ]; then
        echo "$1: needs a JDK 21 or newer; install one (e.g. apt-get install openjdk-21-jdk / temurin-21) or set JAVA_HOME" >&2
        return 1
    fi
    JAVA_HOME=${_jdk_best#* }
    export JAVA_HOME
    echo "$1: using JDK ${_jdk_best%% *} at $JAVA_HOME (${_jdk_was:-JAVA_HOME is unset}; no java 21+ on PATH)" >&2
}
