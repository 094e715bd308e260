#!/usr/bin/env bash
# setup.sh — everything a fresh Debian/Ubuntu machine needs for ragd, idempotent:
# PostgreSQL + pgvector + roles + databases (setup-db.sh), the offline embedding
# model (fetch-model.sh), and the PostgreSQL manual used by the demo and the
# acceptance tests (Debian's postgresql-doc-15).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

"$here/setup-db.sh"
"$here/fetch-model.sh" >/dev/null

doc_pkg=${RAGD_DOC_PACKAGE:-postgresql-doc-15}
if ! dpkg-query -W -f='${Status}' "$doc_pkg" 2>/dev/null | grep -q 'install ok installed'; then
	echo "setup: installing $doc_pkg (the demo corpus)" >&2
	sudo_cmd=; [ "$(id -u)" = 0 ] || sudo_cmd=sudo
	$sudo_cmd apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "$doc_pkg" >/dev/null
fi
echo "setup: done" >&2
