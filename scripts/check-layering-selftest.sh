#!/usr/bin/env bash
# The layering check must refuse a wrong edge, not only pass the right ones:
# runs it on Tests/Fixtures/LayeringViolation (an adapter depending on the
# engine layer) and fails unless it is refused with the reason.
set -euo pipefail
cd "$(dirname "$0")/../Tests/Fixtures/LayeringViolation"
if output=$(swift package plugin --allow-writing-to-package-directory check-layering 2>&1); then
  echo "check-layering-selftest: the check passed a package whose adapter depends on the engine layer" >&2
  echo "$output" >&2
  exit 1
fi
if ! grep -q "Radio (adapter) -> Errands (engine): the adapter layer may not depend on the engine layer" <<<"$output"; then
  echo "check-layering-selftest: the check failed, but not for the wrong edge:" >&2
  echo "$output" >&2
  exit 1
fi
echo "check-layering-selftest: a wrong edge is refused"
