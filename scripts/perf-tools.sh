# Sourced by the profiling scripts: installs Debian's linux-perf when perf is missing.
ensure_perf() {
    perf --version >/dev/null 2>&1 && return
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing linux-perf" >&2
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends linux-perf >/dev/null
}
