#!/usr/bin/env bash
# A real Medusa v2 server for the locator's products sync test (make
# test-medusa; docs/products.md, "From the marketplace (Medusa)").
#
#   medusa.sh install        npm ci of package-lock.json into the cache, once per lock file
#   medusa.sh template       a migrated database with the admin user, once per lock file
#   medusa.sh start STATE    a fresh database copied from the template, the server on a free
#                            port; writes STATE/url, STATE/pid, STATE/db, STATE/medusa.log
#   medusa.sh stop STATE     stops that server and drops its database
#   medusa.sh test           all of it around the Go test of the sync (what make test-medusa runs)
#
# Cost: a cold install is minutes (about a thousand packages), db:migrate over a minute;
# both are keyed by the lock file's hash, so a clean clone on a warm machine pays only the
# start. node_modules live in ${XDG_CACHE_HOME:-~/.cache}/locator/medusa-<hash> (outside
# the clone, like Go's module cache), the migrated template in the database
# medusa_tpl_<hash> of the local PostgreSQL (LOCATOR_MEDUSA_PG).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
pg="${LOCATOR_MEDUSA_PG:-postgres://postgres@127.0.0.1:5432}"
hash="$(sha256sum "$here/package-lock.json" | cut -c1-16)"
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/locator"
cache="$cache_root/medusa-$hash"
template="medusa_tpl_$hash"
admin_email="admin@locator.test"
admin_password="locator-medusa-test"
export MEDUSA_DISABLE_TELEMETRY=true NEXT_TELEMETRY_DISABLED=1

log() { echo "medusa: $*" >&2; }

# psql against the maintenance database.
q() { psql "$pg/postgres" -v ON_ERROR_STOP=1 -qtAc "$1"; }

# The project's files beside the cached node_modules: Medusa reads its
# configuration and resolves its packages from its working folder.
project_files() {
	cp "$here/medusa-config.ts" "$here/tsconfig.json" "$here/package.json" "$1/"
}

install() {
	if [ -f "$cache/node_modules/.locator-installed" ]; then
		project_files "$cache"
		return
	fi
	mkdir -p "$cache_root"
	exec 9>"$cache.lock"
	flock 9
	if [ ! -f "$cache/node_modules/.locator-installed" ]; then
		log "installing Medusa's packages into $cache (cold: minutes)"
		local tmp="$cache.tmp.$$"
		rm -rf "$tmp" && mkdir -p "$tmp"
		cp "$here/package.json" "$here/package-lock.json" "$tmp/"
		(cd "$tmp" && nice -n 10 npm ci --no-audit --no-fund --loglevel=error)
		touch "$tmp/node_modules/.locator-installed"
		rm -rf "$cache" && mv "$tmp" "$cache"
	fi
	flock -u 9
	project_files "$cache"
}

medusa() { (cd "$cache" && DATABASE_URL="$1" NODE_ENV=development node_modules/.bin/medusa "${@:2}"); }

template() {
	install
	if [ "$(q "SELECT 1 FROM pg_database WHERE datname = '$template'")" = "1" ]; then
		return
	fi
	exec 8>"$cache.db.lock"
	flock 8
	if [ "$(q "SELECT 1 FROM pg_database WHERE datname = '$template'")" != "1" ]; then
		local tmp="${template}_new"
		log "migrating a template database $template (over a minute, once per lock file)"
		q "DROP DATABASE IF EXISTS $tmp"
		q "CREATE DATABASE $tmp"
		medusa "$pg/$tmp" db:migrate >"$cache/migrate.log" 2>&1 || { tail -n 40 "$cache/migrate.log" >&2; exit 1; }
		medusa "$pg/$tmp" user -e "$admin_email" -p "$admin_password" >>"$cache/migrate.log" 2>&1 || { tail -n 40 "$cache/migrate.log" >&2; exit 1; }
		# Renamed only once complete: a template that exists is whole.
		q "ALTER DATABASE $tmp RENAME TO $template"
	fi
	flock -u 8
}

free_port() {
	node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

start() {
	local state="$1"
	template
	mkdir -p "$state"
	local db="medusa_run_$$_$RANDOM"
	q "CREATE DATABASE $db TEMPLATE $template"
	echo "$db" >"$state/db"
	local port
	port="$(free_port)"
	# The server leads a process group of its own (setsid) and writes its
	# own pid, so that stop ends it and whatever it started.
	(cd "$cache" && DATABASE_URL="$pg/$db" NODE_ENV=development PIDFILE="$state/pid" PORT_="$port" \
		setsid bash -c 'echo $$ >"$PIDFILE"; exec node_modules/.bin/medusa start -H 127.0.0.1 -p "$PORT_"' \
		>"$state/medusa.log" 2>&1 &)
	local waited=0
	until [ -s "$state/pid" ] || [ $waited -ge 50 ]; do sleep 0.1; waited=$((waited + 1)); done
	local url="http://127.0.0.1:$port"
	local began=$SECONDS
	local deadline=$((SECONDS + ${LOCATOR_MEDUSA_START_TIMEOUT:-180}))
	until curl -fsS -o /dev/null "$url/health" 2>/dev/null; do
		if ! kill -0 "$(cat "$state/pid")" 2>/dev/null; then
			log "the server stopped while starting:"; tail -n 40 "$state/medusa.log" >&2; return 1
		fi
		if [ $SECONDS -ge $deadline ]; then
			log "no answer from $url/health in time:"; tail -n 40 "$state/medusa.log" >&2; return 1
		fi
		sleep 0.5
	done
	echo "$url" >"$state/url"
	log "up at $url (database $db) after $((SECONDS - began)) s"
}

stop() {
	local state="$1"
	if [ -f "$state/pid" ]; then
		local pid
		pid="$(cat "$state/pid")"
		# setsid made the server the leader of its own group: end the group.
		kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
		kill -KILL -- "-$pid" 2>/dev/null || true
		rm -f "$state/pid"
	fi
	if [ -f "$state/db" ]; then
		q "DROP DATABASE IF EXISTS $(cat "$state/db") WITH (FORCE)" || true
		rm -f "$state/db"
	fi
}

run_test() {
	local root state status=0
	root="$(cd "$here/../.." && pwd)"
	state="$(mktemp -d)"
	# Expanded now: the function's locals are gone when the shell exits.
	trap "stop '$state'; rm -rf '$state'" EXIT
	# A process of its own, so that errexit holds inside start (it does not
	# in a function called as an if's condition).
	if ! bash "$0" start "$state"; then
		if [ "${CI:-}" = "true" ]; then
			log "Medusa did not start: under CI=true that fails the run"
			exit 1
		fi
		log "Medusa did not start here; the real-server test is skipped (it fails under CI=true)"
		exit 0
	fi
	(cd "$root" && LOCATOR_TEST_MEDUSA_URL="$(cat "$state/url")" LOCATOR_TEST_MEDUSA_EMAIL="$admin_email" \
		LOCATOR_TEST_MEDUSA_PASSWORD="$admin_password" ${GO:-go} test -count=1 -run 'TestRealMedusa' -v ./internal/medusa/) || status=$?
	return $status
}

case "${1:-}" in
install) install ;;
template) template ;;
start) start "${2:?STATE folder}" ;;
stop) stop "${2:?STATE folder}" ;;
test) run_test ;;
*) sed -n '2,17p' "$0" >&2; exit 2 ;;
esac
