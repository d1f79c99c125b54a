# pypi_venv TAG PACKAGE VERSION VENV [BINARY] (source it): PyPI PACKAGE==VERSION in its own venv at VENV,
# skipped when that version is already there (and, given BINARY, VENV/bin/BINARY exists). Used by the
# scripts/setup.d steps that need a Python tool.
pypi_venv() {
  local tag=$1 package=$2 version=$3 venv=$4 binary=${5:-}
  local installed='import importlib.metadata as m, sys; print(m.version(sys.argv[1]))'
  if [ "$("$venv/bin/python" -c "$installed" "$package" 2>/dev/null)" = "$version" ] \
    && { [ -z "$binary" ] || [ -x "$venv/bin/$binary" ]; }; then
    printf '[setup %s] ready: PyPI %s %s in %s\n' "$tag" "$package" "$version" "$venv"
    return 0
  fi
  printf '[setup %s] installing PyPI %s %s into %s\n' "$tag" "$package" "$version" "$venv"
  mkdir -p "$(dirname "$venv")"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "$package==$version"
  printf '[setup %s] ready: PyPI %s %s\n' "$tag" "$package" "$("$venv/bin/python" -c "$installed" "$package")"
}
