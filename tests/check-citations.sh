#!/usr/bin/env bash
# Fails if a public header's comments cite what a reader of the repository cannot open: an issue
# number, or a document (NAME.md) that is neither in docs/ nor at the top of the tree.
# Usage: check-citations.sh ROOT
set -euo pipefail
cd "${1:?usage: check-citations.sh ROOT}"
# .md names that are not citations of ours: files of a skill workspace (skill.h), and sections
# of the Apache Parquet format specification, cited as external (parquet.h)
not_ours='^(SKILL|transcript|user_notes|Encodings|LogicalTypes|Compression)\.md$'
bad=()
while IFS=: read -r file line text; do
	bad+=("$file:$line: cites an issue number: $text")
done < <(grep -nEi 'issues? *#?[0-9]+' include/assay/*.h || true)
while IFS=: read -r file line ref; do
	name=${ref#docs/}
	[[ $name =~ $not_ours ]] && continue
	[ -e "docs/$name" ] || [ -e "$name" ] || bad+=("$file:$line: cites $ref, which is not in the repository")
done < <(grep -noE '[A-Za-z0-9_./-]+\.md' include/assay/*.h || true)
if [ ${#bad[@]} -gt 0 ]; then
	printf '%s\n' "${bad[@]}"
	echo "0 passed, 1 failed"
	exit 1
fi
echo "citations: every document include/assay/ cites is in the repository"
echo "1 passed, 0 failed"
