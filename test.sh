#!/usr/bin/env bash
# Runs every test of the repository: the library and command, then the Hugo
# module's tests, which live in their own Go module (they compile Hugo).
set -euo pipefail
cd "$(dirname "$0")"
go vet ./...
go test ./...
if [ -f hugo-module/hugotest/go.mod ]; then
  (cd hugo-module/hugotest && go vet ./... && go test ./...)
fi
