#!/usr/bin/env bash
# End-to-end test against a real Matrix homeserver: installs Synapse from PyPI into a virtualenv, starts it on
# 127.0.0.1 with SQLite and the bot's application service registration, starts the bot, and has a real user
# invite the bot and talk to it. Skipped, saying so, only when Synapse cannot be installed.
# Usage: Tests/e2e/matrix-synapse.sh [path/to/ggtracker]
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${1:-.build/debug/ggtracker}"
WORK="$(mktemp -d)"
VENV="${SYNAPSE_VENV:-.build-synapse/venv}"
HS_PORT=18008
BOT_PORT=18080
started=$(date +%s)

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    [ -n "${KEEP_E2E:-}" ] && echo "kept $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT

if [ ! -x "$VENV/bin/python" ] || ! "$VENV/bin/python" -c "import synapse" 2>/dev/null; then
    echo "matrix e2e: installing matrix-synapse into $VENV"
    if ! { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q matrix-synapse; }; then
        echo "matrix e2e: SKIPPED — matrix-synapse could not be installed from PyPI"
        exit 0
    fi
fi

AS_TOKEN="as-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
HS_TOKEN="hs-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export MATRIX_AS_TOKEN="$AS_TOKEN" MATRIX_HS_TOKEN="$HS_TOKEN" MATRIX_HOMESERVER_URL="http://127.0.0.1:$HS_PORT"
export GGTRACKER_PORT="$BOT_PORT" GGTRACKER_HOST=127.0.0.1 GGTRACKER_DATABASE="$WORK/bot.sqlite"
"$BIN" matrix registration > "$WORK/registration.yaml"

# Synapse writes its own log (homeserver.log) in its working directory: that is the scratch folder, not the checkout.
python="$(cd "$(dirname "$VENV/bin/python")" && pwd)/python"
(cd "$WORK" && "$python" -m synapse.app.homeserver --server-name localhost \
    --config-path "$WORK/homeserver.yaml" --data-directory "$WORK" --generate-config --report-stats=no > /dev/null)
echo >> "$WORK/homeserver.yaml"
cat >> "$WORK/homeserver.yaml" <<YAML
trusted_key_servers: []
suppress_key_server_warning: true
app_service_config_files: ["$WORK/registration.yaml"]
rc_message: {per_second: 1000, burst_count: 1000}
rc_joins: {local: {per_second: 1000, burst_count: 1000}}
rc_login: {address: {per_second: 1000, burst_count: 1000}, account: {per_second: 1000, burst_count: 1000}}
YAML
# Listen on loopback only, on our port.
sed -i "s/port: 8008/port: $HS_PORT/; /- ::1/d" "$WORK/homeserver.yaml"

(cd "$WORK" && exec "$python" -m synapse.app.homeserver --config-path "$WORK/homeserver.yaml" > "$WORK/synapse.log" 2>&1) &
pids+=($!)
"$BIN" serve > "$WORK/bot.log" 2>&1 &
pids+=($!)

for _ in $(seq 1 120); do
    if curl -fsS "http://127.0.0.1:$HS_PORT/health" > /dev/null 2>&1 && curl -fsS "http://127.0.0.1:$BOT_PORT/healthz" > /dev/null 2>&1; then
        break
    fi
    sleep 0.5
done
curl -fsS "http://127.0.0.1:$HS_PORT/health" > /dev/null || { echo "synapse did not start"; tail -30 "$WORK/synapse.log"; exit 1; }
curl -fsS "http://127.0.0.1:$BOT_PORT/healthz" > /dev/null || { echo "the bot did not start"; tail -30 "$WORK/bot.log"; exit 1; }

"$VENV/bin/register_new_matrix_user" -u alice -p "correct horse battery" --no-admin -c "$WORK/homeserver.yaml" \
    "http://127.0.0.1:$HS_PORT" > /dev/null

if ! "$VENV/bin/python" Tests/e2e/matrix_client.py "http://127.0.0.1:$HS_PORT"; then
    echo "--- bot log"; tail -40 "$WORK/bot.log"
    echo "--- synapse log"; grep -i -E "error|warn|appservice" "$WORK/synapse.log" | tail -30
    exit 1
fi
echo "matrix e2e: passed in $(( $(date +%s) - started )) s"
