#!/usr/bin/env bash
# check-tracked.sh — fail when git tracks a built artefact: an executable
# (ELF, Mach-O or PE/COFF, recognised by its magic bytes) or any file larger
# than MAX_BYTES that is not listed in ALLOWED_LARGE below. Built outputs
# belong in bin/ (ignored, removed by `make clean`); a binary in git is stale
# against the source the moment the source changes, and it bloats every clone.
# Checks the index (what a commit would contain), not the work tree.
# Called by `make check`.
set -euo pipefail
cd "$(dirname "$0")/.."

MAX_BYTES=${MAX_BYTES:-$((4 * 1024 * 1024))}
# Known data files allowed above MAX_BYTES, one path per line (none today).
ALLOWED_LARGE=()

is_allowed() {
	local p
	for p in "${ALLOWED_LARGE[@]+"${ALLOWED_LARGE[@]}"}"; do
		[ "$p" = "$1" ] && return 0
	done
	return 1
}

bad=0
# Mode 120000 entries are symbolic links and 160000 submodules: not blobs to inspect.
while IFS= read -r -d '' entry; do
	meta=${entry%%$'\t'*} path=${entry#*$'\t'}
	read -r mode sha _ <<<"$meta"
	[ "$mode" = 120000 ] || [ "$mode" = 160000 ] && continue
	size=$(git cat-file -s "$sha")
	# head closes the pipe early: the writer's SIGPIPE is expected.
	magic=$( (git cat-file blob "$sha" || true) | head -c 4 | od -An -tx1 | tr -d ' \n')
	kind=
	case "$magic" in
	7f454c46) kind="ELF executable" ;;
	feedface | feedfacf | cefaedfe | cffaedfe | cafebabe) kind="Mach-O executable" ;;
	4d5a*)
		# An MZ header points at offset 0x3c to the "PE\0\0" signature.
		off=$( (git cat-file blob "$sha" || true) | od -An -tu4 -j 60 -N 4 | tr -d ' \n')
		if [ -n "$off" ] && [ "$off" -lt "$size" ] &&
			[ "$( (git cat-file blob "$sha" || true) | od -An -tx1 -j "$off" -N 4 | tr -d ' \n')" = 50450000 ]; then
			kind="PE/COFF (Windows) executable"
		fi
		;;
	esac
	if [ -n "$kind" ]; then
		echo "check-tracked: $path is a tracked $kind: git rm --cached it and build into bin/" >&2
		bad=1
	elif [ "$size" -gt "$MAX_BYTES" ] && ! is_allowed "$path"; then
		echo "check-tracked: $path is $size bytes (> $MAX_BYTES): not a known data file (ALLOWED_LARGE in $0)" >&2
		bad=1
	fi
done < <(git ls-files -s -z)
exit "$bad"
