# Sourced by the end-to-end tests: dynalite on 127.0.0.1 behind the fault-injecting proxy
# (tests/servers/faults.js, which also checks every request's SigV4 signature against what
# arrived), both stopped when the test ends.
# e2e_start CREATE_MS sets work, dynalite_pid, dynalite_port, proxy_pid and http=(--endpoint-url URL), and
# exports test credentials. With E2E_TLS_CERT and E2E_TLS_KEY (PEM files) the proxy answers HTTPS. faults LINE... replaces the proxy's script (and empties its log);
# count OPERATION counts the requests the log holds; fail MESSAGE ends the test with the log.

e2e_start() {
  servers=$(cd "$(dirname "${BASH_SOURCE[0]}")/../servers" && pwd)
  # Before the proxy starts: it checks every signature with this secret.
  export AWS_ACCESS_KEY_ID=AKIDEXAMPLE AWS_SECRET_ACCESS_KEY=test-secret AWS_REGION=us-east-1
  unset AWS_PROFILE AWS_SESSION_TOKEN
  work=$(mktemp -d)
  coproc DYNALITE { exec node "$servers/start.js" dynalite "$1"; }
  dynalite_pid=$DYNALITE_PID
  local word dport pport
  read -r -t 20 word dport <&"${DYNALITE[0]}"
  [[ $word == PORT ]] || { echo "dynalite did not start"; exit 1; }
  exec {dynalite_out}<&"${DYNALITE[0]}" # keep its output open
  dynalite_port=$dport
  : > "$work/script"
  : > "$work/log"
  # The proxy reads a FIFO this script holds open: it stops itself when the script ends.
  mkfifo "$work/proxy.in"
  exec {proxy_in}<>"$work/proxy.in"
  FAULTS_TLS_CERT=${E2E_TLS_CERT:-} FAULTS_TLS_KEY=${E2E_TLS_KEY:-} \
    node "$servers/faults.js" "$dport" "$work/script" "$work/log" < "$work/proxy.in" > "$work/proxy.out" &
  proxy_pid=$!
  trap 'kill "$dynalite_pid" "$proxy_pid" 2>/dev/null || true; rm -rf "$work"' EXIT
  for _ in $(seq 100); do
    read -r word pport < "$work/proxy.out" 2>/dev/null && [[ ${word:-} == PORT ]] && break
    sleep 0.1
  done
  [[ ${word:-} == PORT ]] || { echo "the proxy did not start"; exit 1; }
  proxy_port=$pport
  http=(--endpoint-url "http${E2E_TLS_CERT:+s}://127.0.0.1:$pport")
  generation=0
}

fail() { echo "FAIL: $*"; echo "--- proxy log"; cat "$work/log"; exit 1; }
faults() { generation=$((generation + 1)); printf '%s\n' "# $generation" "$@" > "$work/script"; : > "$work/log"; }
count() { grep -c "^$1 " "$work/log" || true; }
