#!/usr/bin/env bash
# setup-db.sh — one-command local PostgreSQL + pgvector for ragd. Idempotent.
#
# 1. If RAGD_ADMIN_DATABASE_URL and RAGD_DATABASE_URL are set and reach a server
#    whose databases (theirs and the test URLs', when set) have the vector
#    extension, use them as they are.
# 2. Otherwise, when the URLs name this machine (localhost, 127.0.0.1, ::1 or
#    a socket), set that server up as below, on the URLs' port, with their
#    roles and databases; URLs naming another host are an error (this script
#    only administers a local server).
# 3. Without URLs (Debian/Ubuntu): install PostgreSQL and
#    postgresql-server-dev-<major> with apt; if the vector extension is not
#    available, build pgvector 0.8.x from Debian's source package (trixie)
#    through a private apt configuration (the system's sources are never
#    edited); start the cluster on RAGD_PGPORT (5432); create the owner and
#    application roles and the databases (RAGD_DATABASES: ragd, ragd_test,
#    ragd_bench); print the URLs.
#
# Development credentials only: the local roles get fixed passwords that the
# README documents. Production deployments create their own roles.
set -euo pipefail

OWNER=${RAGD_OWNER_ROLE:-ragd_owner}
APP=${RAGD_APP_ROLE:-ragd_app}
DBS=${RAGD_DATABASES:-"ragd ragd_test ragd_bench"}
PORT=${RAGD_PGPORT:-5432}
PGVECTOR_SUITE=${RAGD_PGVECTOR_SUITE:-trixie}
WORK=${RAGD_SETUP_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/ragd/setup}

log() { printf 'setup-db: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() {
	if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}
psql_super() { as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$PORT" "$@"; }

# --- 1. an existing server ---------------------------------------------------
# url_part URL field: user, password, host, port or database of a
# postgres://user:password@host:port/database?… URL (empty when absent).
url_part() {
	local re='^postgres(ql)?://(([^:@/]*)(:([^@/]*))?@)?(\[[^]]*\]|[^:/?]*)(:([0-9]+))?(/([^?]*))?'
	[[ $1 =~ $re ]] || return 0
	case $2 in
	user) printf '%s' "${BASH_REMATCH[3]}" ;;
	password) printf '%s' "${BASH_REMATCH[5]}" ;;
	host) printf '%s' "${BASH_REMATCH[6]}" ;;
	port) printf '%s' "${BASH_REMATCH[8]}" ;;
	database) printf '%s' "${BASH_REMATCH[10]}" ;;
	esac
}
# print_test_urls prints the test databases' URLs the caller exported, so
# that the environment can be taken from this script's output whichever
# URLs were set.
print_test_urls() {
	if [ -n "${RAGD_TEST_DATABASE_URL:-}" ]; then
		printf 'RAGD_TEST_ADMIN_DATABASE_URL=%s\nRAGD_TEST_DATABASE_URL=%s\n' "${RAGD_TEST_ADMIN_DATABASE_URL:-}" "$RAGD_TEST_DATABASE_URL"
	fi
}
has_vector() { psql -X -qtA "$1" -c "SELECT 1 FROM pg_extension WHERE extname='vector'" 2>/dev/null | grep -q 1; }
if [ -n "${RAGD_ADMIN_DATABASE_URL:-}" ] && [ -n "${RAGD_DATABASE_URL:-}" ]; then
	ready=1
	for u in "$RAGD_ADMIN_DATABASE_URL" "$RAGD_DATABASE_URL" ${RAGD_TEST_ADMIN_DATABASE_URL:+"$RAGD_TEST_ADMIN_DATABASE_URL"} ${RAGD_TEST_DATABASE_URL:+"$RAGD_TEST_DATABASE_URL"}; do
		has_vector "$u" || { ready=; break; }
	done
	if [ -n "$ready" ]; then
		log "using the configured server (vector extension present)"
		printf 'RAGD_ADMIN_DATABASE_URL=%s\nRAGD_DATABASE_URL=%s\n' "$RAGD_ADMIN_DATABASE_URL" "$RAGD_DATABASE_URL"
		print_test_urls
		exit 0
	fi
	host=$(url_part "$RAGD_ADMIN_DATABASE_URL" host)
	case "$host" in
	'' | localhost | 127.0.0.1 | '[::1]') ;;
	*) die "the configured server ($host) is unreachable, or lacks the roles, databases or vector extension; set it up there (owner and application roles, databases with CREATE EXTENSION vector; see README), or unset RAGD_ADMIN_DATABASE_URL and RAGD_DATABASE_URL for a local server" ;;
	esac
	# The local server the URLs name: their port, roles and databases.
	p=$(url_part "$RAGD_ADMIN_DATABASE_URL" port)
	PORT=${RAGD_PGPORT:-${p:-5432}}
	OWNER=$(url_part "$RAGD_ADMIN_DATABASE_URL" user); OWNER=${OWNER:-ragd_owner}
	APP=$(url_part "$RAGD_DATABASE_URL" user); APP=${APP:-ragd_app}
	OWNER_PASSWORD=$(url_part "$RAGD_ADMIN_DATABASE_URL" password)
	APP_PASSWORD=$(url_part "$RAGD_DATABASE_URL" password)
	if [ -z "${RAGD_DATABASES:-}" ]; then
		DBS=$(url_part "$RAGD_DATABASE_URL" database)
		[ -n "${RAGD_TEST_DATABASE_URL:-}" ] && DBS="$DBS $(url_part "$RAGD_TEST_DATABASE_URL" database)"
		[ -n "$DBS" ] || DBS=ragd
	fi
	log "configured URLs not ready: setting up the local server on port $PORT (roles $OWNER, $APP; databases $DBS)"
fi
if [ -z "${RAGD_ADMIN_DATABASE_URL:-}" ] && [ -n "${RAGD_TEST_DATABASE_URL:-}" ] && [ -z "${RAGD_DATABASES:-}" ]; then
	# The test pair alone (a test database of one's own beside the default
	# server): its database is made here too, and its URLs are the ones
	# printed; set alone, it had been ignored and the tests failed on a
	# database that did not exist.
	case "$(url_part "$RAGD_TEST_DATABASE_URL" host)" in
	'' | localhost | 127.0.0.1 | '[::1]')
		tdb=$(url_part "$RAGD_TEST_DATABASE_URL" database)
		[ -z "$tdb" ] || [[ " $DBS " == *" $tdb "* ]] || DBS="$DBS $tdb"
		;;
	*) die "RAGD_TEST_DATABASE_URL names another host; set RAGD_ADMIN_DATABASE_URL and RAGD_DATABASE_URL for that server too" ;;
	esac
fi
for name in "$OWNER" "$APP" $DBS; do
	[[ $name =~ ^[a-z_][a-z0-9_]*$ ]] || die "role or database name \"$name\" must be lowercase letters, digits and underscores"
done
OWNER_PASSWORD=${OWNER_PASSWORD:-$OWNER}
APP_PASSWORD=${APP_PASSWORD:-$APP}
for pw in "$OWNER_PASSWORD" "$APP_PASSWORD"; do
	[[ $pw != *"'"* ]] || die "passwords with a single quote are not supported here; create the roles yourself"
done

command -v apt-get >/dev/null || die "no apt-get: install PostgreSQL 13+ with pgvector 0.8 yourself and set RAGD_ADMIN_DATABASE_URL / RAGD_DATABASE_URL (or use docker-compose.yml)"

export DEBIAN_FRONTEND=noninteractive
apt_updated=
need_pkgs() {
	local missing=()
	for p in "$@"; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p"); done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	[ -n "$apt_updated" ] || { as_root apt-get update -qq; apt_updated=1; }
	as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# --- 2. PostgreSQL -----------------------------------------------------------
need_pkgs postgresql postgresql-contrib
MAJOR=$(ls /usr/lib/postgresql | sort -n | tail -1)
[ -n "$MAJOR" ] || die "no PostgreSQL server found under /usr/lib/postgresql"
PG_CONFIG=/usr/lib/postgresql/$MAJOR/bin/pg_config
need_pkgs "postgresql-server-dev-$MAJOR" build-essential dpkg-dev
SHAREDIR=$("$PG_CONFIG" --sharedir)

# --- 3. pgvector ---------------------------------------------------------------
if [ ! -f "$SHAREDIR/extension/vector.control" ]; then
	log "vector extension not available for PostgreSQL $MAJOR: building pgvector from Debian's $PGVECTOR_SUITE source package"
	apt_dir=$WORK/apt
	rm -rf "$apt_dir" && mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/sources.list.d" "$WORK/pgvector"
	# The mirror is read from the system's own Debian sources, so this script
	# names no host; only a deb-src line for the other suite is added, privately.
	uri=$(grep -rhoE '^URIs:[[:space:]]*\S+' /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '{print $2}' | grep -v -- '-security' | head -1 || true)
	[ -n "$uri" ] || uri=$(grep -hoE '^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?\S+' /etc/apt/sources.list 2>/dev/null | awk '{print $NF}' | grep -v -- '-security' | head -1 || true)
	[ -n "$uri" ] || die "cannot find the Debian mirror in /etc/apt sources"
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	printf 'deb-src [signed-by=%s] %s %s main\n' "$keyring" "$uri" "$PGVECTOR_SUITE" >"$apt_dir/sources.list"
	apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/sources.list.d"
		-o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache" -o "APT::Sandbox::User=root")
	as_root apt-get "${apt_opts[@]}" update -qq
	(cd "$WORK/pgvector" && rm -rf pgvector-* pgvector_* && as_root apt-get "${apt_opts[@]}" source --download-only pgvector >/dev/null)
	dsc=$(ls "$WORK"/pgvector/pgvector_*.dsc | head -1)
	(cd "$WORK/pgvector" && dpkg-source --no-check -x "$(basename "$dsc")" src >/dev/null)
	ver=$(grep -oE '^default_version = .*' "$WORK/pgvector/src/vector.control" | tr -d "' " | cut -d= -f2)
	case "$ver" in 0.8.*) ;; *) die "pgvector $ver from $PGVECTOR_SUITE is not 0.8.x";; esac
	log "building pgvector $ver"
	make -s -C "$WORK/pgvector/src" PG_CONFIG="$PG_CONFIG" -j"$(nproc)" >/dev/null
	as_root make -s -C "$WORK/pgvector/src" PG_CONFIG="$PG_CONFIG" install >/dev/null
	[ -f "$SHAREDIR/extension/vector.control" ] || die "pgvector install did not produce vector.control"
else
	log "vector extension available for PostgreSQL $MAJOR"
fi

# --- 4. the cluster ------------------------------------------------------------
# The cluster on PORT: started when it is down, created (named main, or
# ragd<port> when main exists on another port) when there is none.
cluster=$(pg_lsclusters -h 2>/dev/null | awk -v m="$MAJOR" -v p="$PORT" '$1==m && $3==p {print $2; exit}')
if [ -z "$cluster" ]; then
	cluster=main
	pg_lsclusters -h 2>/dev/null | awk -v m="$MAJOR" '$1==m && $2=="main"' | grep -q . && cluster=ragd$PORT
	log "creating PostgreSQL $MAJOR cluster $cluster on port $PORT"
	as_root pg_createcluster "$MAJOR" "$cluster" --port "$PORT" >/dev/null
fi
if ! pg_lsclusters -h | awk -v m="$MAJOR" -v c="$cluster" '$1==m && $2==c {print $4}' | grep -q online; then
	log "starting PostgreSQL $MAJOR cluster $cluster"
	as_root pg_ctlcluster "$MAJOR" "$cluster" start
fi
# --- 5. roles and databases ----------------------------------------------------
psql_super -d postgres <<SQL
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$OWNER') THEN
    CREATE ROLE $OWNER LOGIN PASSWORD '$OWNER_PASSWORD' NOSUPERUSER NOBYPASSRLS NOCREATEROLE;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$APP') THEN
    CREATE ROLE $APP LOGIN PASSWORD '$APP_PASSWORD' NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
  END IF;
END \$\$;
ALTER ROLE $APP NOSUPERUSER NOBYPASSRLS;
-- A generic plan built for one tenant must never serve another (see ARCHITECTURE.md).
ALTER ROLE $APP SET plan_cache_mode = force_custom_plan;
SQL
for db in $DBS; do
	if ! psql_super -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname='$db'" | grep -q 1; then
		psql_super -d postgres -c "CREATE DATABASE $db OWNER $OWNER"
	fi
	psql_super -d "$db" <<SQL
CREATE EXTENSION IF NOT EXISTS vector;
REVOKE ALL ON DATABASE $db FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE $db TO $APP;
GRANT CONNECT, CREATE ON DATABASE $db TO $OWNER;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
ALTER SCHEMA public OWNER TO $OWNER;
SQL
done

# Test databases per Go package are created on demand by the tests (CREATEDB is
# only needed by the owner for that).
psql_super -d postgres -c "ALTER ROLE $OWNER CREATEDB" >/dev/null

log "ready: PostgreSQL $MAJOR on port $PORT with pgvector $(psql_super -d "$(set -- $DBS; echo "$1")" -tAc "SELECT extversion FROM pg_extension WHERE extname='vector'")"
if [ -n "${RAGD_ADMIN_DATABASE_URL:-}" ] && [ -n "${RAGD_DATABASE_URL:-}" ]; then
	printf 'RAGD_ADMIN_DATABASE_URL=%s\nRAGD_DATABASE_URL=%s\n' "$RAGD_ADMIN_DATABASE_URL" "$RAGD_DATABASE_URL"
	print_test_urls
	exit 0
fi
# The URLs name the databases made here: the first for the server, and
# ragd_test for the tests when it is among them (RAGD_DATABASES=mine
# printed URLs of a ragd database it had not made).
first=$(set -- $DBS; echo "$1")
cat <<URLS
RAGD_ADMIN_DATABASE_URL=postgres://$OWNER:$OWNER_PASSWORD@127.0.0.1:$PORT/$first?sslmode=disable
RAGD_DATABASE_URL=postgres://$APP:$APP_PASSWORD@127.0.0.1:$PORT/$first?sslmode=disable
URLS
if [ -n "${RAGD_TEST_DATABASE_URL:-}" ]; then
	printf 'RAGD_TEST_ADMIN_DATABASE_URL=%s\nRAGD_TEST_DATABASE_URL=%s\n' "${RAGD_TEST_ADMIN_DATABASE_URL:-}" "$RAGD_TEST_DATABASE_URL"
elif [[ " $DBS " == *" ragd_test "* ]]; then
	cat <<URLS
RAGD_TEST_ADMIN_DATABASE_URL=postgres://$OWNER:$OWNER_PASSWORD@127.0.0.1:$PORT/ragd_test?sslmode=disable
RAGD_TEST_DATABASE_URL=postgres://$APP:$APP_PASSWORD@127.0.0.1:$PORT/ragd_test?sslmode=disable
URLS
fi
