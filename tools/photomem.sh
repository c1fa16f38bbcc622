#!/usr/bin/env bash
# Kept in the repository: docs/performance-history.md ("Photo memory") cites its figures.
# tools/photomem.sh BIN IMAGE N: peak RSS of N concurrent uploads of IMAGE (docs/performance.md, "Photo memory").
set -euo pipefail
BIN=$1 IMG=$2 N=$3 PORT=$((20000 + RANDOM % 10000))
D=$(mktemp -d)
cd "$D"
LOCATOR_DATABASE_URL=sqlite:$D/l.db LOCATOR_ADDR=127.0.0.1:$PORT LOCATOR_MAIL_DIR=$D/mail "$BIN" serve --demo-stores 50 >"$D/log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; rm -rf "$D"' EXIT
until curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null; do sleep 0.5; done
curl -sf -d '{"store_name":"M","email":"m@example.com","password":"tulip-lamp-7","phone_number":"1"}' \
  -H 'Content-Type: application/json' "http://127.0.0.1:$PORT/api/store/create-user" >/dev/null
# Proof of mailbox: the link mailed to data/mail (no SMTP configured), followed with the password.
until [ -n "$(ls "$D/mail" 2>/dev/null)" ]; do sleep 0.5; done
TOKEN=$(python3 -c 'import email,glob,re,sys
m=email.message_from_binary_file(open(glob.glob(sys.argv[1]+"/*.eml")[0],"rb"))
body="".join(p.get_payload(decode=True).decode() for p in m.walk() if p.get_content_type()=="text/plain")
print(re.search(r"token=([A-Za-z0-9_-]+)",body).group(1))' "$D/mail")
curl -sf -c jar -H 'Content-Type: application/json' -d "{\"token\":\"$TOKEN\",\"password\":\"tulip-lamp-7\"}" \
  "http://127.0.0.1:$PORT/api/business/email-proof/confirm" >/dev/null
LOCATOR_DATABASE_URL=sqlite:$D/l.db "$BIN" claims link 1 m@example.com >/dev/null
base=$(grep VmRSS /proc/$PID/status | awk '{print $2}')
echo 5 > /proc/$PID/clear_refs
start=$(date +%s.%N)
pids=()
for i in $(seq "$N"); do
  curl -s -o /dev/null -w '%{http_code} ' -b jar -H 'Content-Type: image/jpeg' --data-binary @"$IMG" \
    "http://127.0.0.1:$PORT/api/business/stores/1/photo" &
  pids+=($!)
done
wait "${pids[@]}"
end=$(date +%s.%N)
peak=$(grep VmHWM /proc/$PID/status | awk '{print $2}')
printf '\n%s x%s: %.1f s, peak %d MB (base %d MB)\n' "$(basename "$IMG")" "$N" "$(echo "$end - $start" | bc)" $((peak / 1024)) $((base / 1024))
