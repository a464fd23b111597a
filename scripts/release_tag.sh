#!/usr/bin/env bash
# The release workflow's step (.github/workflows/release.yml): tag v<pyproject.toml's version> on HEAD and
# create its GitHub release, unless the tag exists. Prints the tag. RELEASE_CMD replaces `gh release create`
# (tests). Needs GH_TOKEN with contents: write.
set -euo pipefail
version="$(python3 -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["version"])')"
tag="v$version"
if git rev-parse -q --verify "refs/tags/$tag" >/dev/null || git ls-remote --exit-code --tags origin "$tag" >/dev/null 2>&1; then
  echo "release: $tag exists already; nothing to do"
  exit 0
fi
${RELEASE_CMD:-gh release create} "$tag" --target "$(git rev-parse HEAD)" --title "biascheck $tag" --generate-notes
echo "release: created $tag"
