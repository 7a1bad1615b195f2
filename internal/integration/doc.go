// Package integration tests textfrag as the tools that adopt it run it: the
// pre-commit hooks of .pre-commit-hooks.yaml, run by the real pre-commit on a
// sample repository, and the GitHub Action of action.yml, whose steps (the
// scripts in scripts/action) run here with the environment variables the
// Actions runner sets, so the action is tested without GitHub.
//
//	.pre-commit-hooks.yaml ─ pre-commit clones a snapshot of this tree ─ go install ./... ─ git commit in a sample repo
//	action.yml ─ each step's run: and env: ─ bash, as the runner runs it ─ GITHUB_OUTPUT, GITHUB_PATH, GITHUB_STEP_SUMMARY
//
// The package has no code of its own; it holds only tests. They need git,
// pre-commit and jq (scripts/install-test-deps installs the last two);
// TEXTFRAG_SKIP_PRECOMMIT=1 skips the pre-commit tests, saying so.
package integration
