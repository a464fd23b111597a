#!/usr/bin/env bash
# store_branch.sh restore|save STORE [BRANCH]: the results store (one SQLite file) kept on a branch of the
# repository in the working directory (default: biascheck-store), so that runs in throw-away CI jobs are
# compared with the runs before them. It is the same mechanism the release gate uses.
#   restore  copy results.sqlite from origin's BRANCH to STORE (the store starts empty when there is no branch)
#   save     commit STORE as results.sqlite on BRANCH and push it (the first save creates the branch, orphan)
# Needs push rights (GitHub Actions: `permissions: contents: write`) and one writer at a time (a
# `concurrency` group): a push that finds the branch moved is refused, and the run says so.
set -euo pipefail
action="${1:?usage: store_branch.sh restore|save STORE [BRANCH]}"
store="${2:?usage: store_branch.sh restore|save STORE [BRANCH]}"
branch="${3:-biascheck-store}"
export GIT_AUTHOR_NAME="${GIT_AUTHOR_NAME:-biascheck gate}" GIT_AUTHOR_EMAIL="${GIT_AUTHOR_EMAIL:-biascheck-gate@users.noreply.github.com}"
export GIT_COMMITTER_NAME="${GIT_COMMITTER_NAME:-$GIT_AUTHOR_NAME}" GIT_COMMITTER_EMAIL="${GIT_COMMITTER_EMAIL:-$GIT_AUTHOR_EMAIL}"
case "$action" in
  restore)
    mkdir -p "$(dirname "$store")"
    if git fetch -q --depth 1 origin "$branch" 2>/dev/null; then
      git show "FETCH_HEAD:results.sqlite" > "$store"
      echo "store_branch: restored $store from origin/$branch"
    else
      echo "store_branch: origin has no branch $branch yet: the results store starts empty"
    fi
    ;;
  save)
    if [ ! -f "$store" ]; then
      echo "store_branch: no results store at $store: nothing to save"
      exit 0
    fi
    dir="$(mktemp -d)/store-branch"
    if git fetch -q --depth 1 origin "$branch" 2>/dev/null; then
      git worktree add -q --detach "$dir" FETCH_HEAD
    else
      git worktree add -q --detach "$dir" HEAD
      git -C "$dir" checkout -q --orphan "$branch"
      git -C "$dir" rm -rq --cached .
      find "$dir" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    fi
    cp "$store" "$dir/results.sqlite"
    git -C "$dir" add results.sqlite
    if git -C "$dir" commit -q -m "biascheck results store: ${GITHUB_RUN_ID:-local} (${GITHUB_REF_NAME:-$(git rev-parse --short HEAD)})"; then
      if ! git -C "$dir" push -q origin "HEAD:refs/heads/$branch"; then
        echo "store_branch: origin's $branch moved while this run ran (another run saved); this run is not saved." \
          "Let one run write at a time (a concurrency group) and run this one again." >&2
        git worktree remove --force "$dir"
        exit 1
      fi
      echo "store_branch: saved $store to origin/$branch"
    else
      echo "store_branch: the store is unchanged: nothing to push"
    fi
    git worktree remove --force "$dir"
    ;;
  *)
    echo "store_branch.sh: unknown action '$action'; use restore or save" >&2
    exit 2
    ;;
esac
