#!/usr/bin/env bash
# setup.sh — everything a fresh Debian/Ubuntu machine needs for ragd, idempotent:
# PostgreSQL + pgvector + roles + databases (setup-db.sh), the offline embedding
# model (fetch-model.sh), the PostgreSQL manual used by the demo and the
# acceptance tests (Debian's postgresql-doc-15), and the PDF manual of the
# demo's second tenant (Debian's libtasn1-doc).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

"$here/setup-db.sh"
"$here/fetch-model.sh" >/dev/null

# The demo corpora: the PostgreSQL manual (HTML) and a PDF manual
# (libtasn1-doc, tenants/manuals).
missing=()
for doc_pkg in "${RAGD_DOC_PACKAGE:-postgresql-doc-15}" libtasn1-doc; do
	dpkg-query -W -f='${Status}' "$doc_pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$doc_pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]} (the demo corpora)" >&2
	sudo_cmd=; [ "$(id -u)" = 0 ] || sudo_cmd=sudo
	$sudo_cmd apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: done" >&2
