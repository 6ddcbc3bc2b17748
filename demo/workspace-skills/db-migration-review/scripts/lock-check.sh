#!/usr/bin/env bash
# Lists statements in a migration that take strong locks.
set -euo pipefail
grep -nE 'ALTER TABLE|CREATE INDEX [^C]|DROP|ADD CONSTRAINT' "$1" | grep -v CONCURRENTLY || echo "no strong locks found"
