#!/usr/bin/env bash
# Generates the Python package's client code (clients/python/titlecard, all but the hand-written
# render_links.py and py.typed) from the OpenAPI document the server serves, with openapi-python-client.
#   scripts/python-client.sh            rewrite the generated files
#   scripts/python-client.sh --check    fail when the committed files differ from what it writes
# Needs openapi-python-client and ruff (it formats with ruff) on PATH, at the versions .ci/run installs.
set -euo pipefail
cd "$(dirname "$0")/.."
pkg=clients/python
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# File parts are marked with OpenAPI 3.1's contentMediaType; openapi-python-client reads only 3.0's
# `format: binary` (without it an upload is typed as a string), so the generator's copy gets both.
node --import tsx -e "
  import('./src/api/openapi.ts').then((m) => process.stdout.write(JSON.stringify(m.buildOpenApiDocument(), (k, v) =>
    v && v.contentMediaType === 'application/octet-stream' ? { ...v, format: 'binary' } : v)));
" > "$work/openapi.json"
openapi-python-client generate --path "$work/openapi.json" --config "$pkg/openapi-python-client.yaml" \
  --custom-template-path "$pkg/templates" --meta none --output-path "$work/titlecard" > "$work/log" 2>&1 ||
  { cat "$work/log"; exit 1; }
if grep -q "WARNING" "$work/log"; then cat "$work/log"; echo "!! openapi-python-client left something out"; exit 1; fi
rm -rf "$work/titlecard/.ruff_cache"
# The hand-written files: the render link's signature, webhook verification, and the PEP 561
# marker of a typed package.
cp "$pkg/titlecard/render_links.py" "$pkg/titlecard/webhooks.py" "$pkg/titlecard/py.typed" "$work/titlecard/"
if [ "${1:-}" = "--check" ]; then
  if ! diff -r -x __pycache__ -x .ruff_cache "$work/titlecard" "$pkg/titlecard" > "$work/diff"; then
    head -50 "$work/diff"
    echo "!! clients/python/titlecard is not what scripts/python-client.sh generates: run it and commit"
    exit 1
  fi
  echo "clients/python/titlecard is current"
else
  rm -rf "$pkg/titlecard"
  cp -r "$work/titlecard" "$pkg/titlecard"
  echo "wrote $pkg/titlecard"
fi
