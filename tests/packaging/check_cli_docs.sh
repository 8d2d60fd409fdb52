#!/usr/bin/env bash
# Checks that the command line's documentation keeps up with the command line itself:
# every command that `linescope-cli --help` lists, and every long option (--name) that
# `linescope-cli COMMAND --help` lists, must appear in the manual page
# (docs/man/linescope-cli.1) and in the reference (docs/cli.md); and the manual page
# must render with groff without a warning.
#
#   check_cli_docs.sh LINESCOPE_CLI [SOURCE_DIR]
#
# SOURCE_DIR is the repository root (default: two folders above this script). Prints
# every problem, naming the command and the option, and exits 1 if there is any.
# Exits 77 (CTest: skipped) when everything else passed but groff is not installed.
set -uo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 LINESCOPE_CLI [SOURCE_DIR]" >&2
  exit 2
fi
cli=$1
src=${2:-$(cd "$(dirname "$0")/../.." && pwd)}
man_page=$src/docs/man/linescope-cli.1
reference=$src/docs/cli.md

for f in "$cli" "$man_page" "$reference"; do
  [ -e "$f" ] || { echo "check_cli_docs: missing $f" >&2; exit 1; }
done

# The man page as plain text: font changes (\fB, \fR, \f(CW, \f[B]), the zero-width \&
# and the hyphenation guard \% dropped, and roff's minus \- turned into a dash.
man_text=$(sed -e 's/\\f\[[^]]*\]//g' -e 's/\\f([A-Za-z][A-Za-z]//g' -e 's/\\f[A-Za-z1-9]//g' \
                -e 's/\\&//g' -e 's/\\%//g' -e 's/\\-/-/g' "$man_page")
reference_text=$(cat "$reference")

failures=0
problem() {
  echo "check_cli_docs: $*"
  failures=$((failures + 1))
}

# mentions TEXT WORD: WORD occurs in TEXT not followed by a letter, digit or dash (so that
# --svg is not found inside --svg-image).
mentions() {
  grep -Eq -- "$(printf '%s' "$2" | sed 's/[.[\*^$]/\\&/g')([^A-Za-z0-9-]|\$)" <<<"$1"
}

# The commands: the lines of the "commands:" section of --help that start with two spaces
# and a word; the first column, split at commas ("open, close, erode, dilate, tophat").
main_help=$("$cli" --help) || { echo "check_cli_docs: '$cli --help' failed" >&2; exit 1; }
commands=$(awk '/^commands:/ { inside = 1; next }
                inside && /^$/ { exit }
                inside && /^  [a-z]/ { sub(/^  /, ""); sub(/  .*/, ""); gsub(/,/, " "); print }' <<<"$main_help")
commands=$(tr -s ' \n' '\n' <<<"$commands" | sed '/^$/d')
if [ -z "$commands" ]; then
  echo "check_cli_docs: found no commands in '$cli --help'" >&2
  exit 1
fi

command_count=0
option_count=0
for cmd in $commands; do
  command_count=$((command_count + 1))
  mentions "$man_text" "$cmd" || problem "command '$cmd' is missing from $man_page"
  mentions "$reference_text" "$cmd" || problem "command '$cmd' is missing from $reference"
  help=$("$cli" "$cmd" --help) || { problem "'$cli $cmd --help' failed"; continue; }
  options=$(grep -oE -- '--[a-z][a-z0-9-]*' <<<"$help" | sort -u)
  [ -n "$options" ] || problem "'$cmd --help' lists no options"
  for opt in $options; do
    option_count=$((option_count + 1))
    mentions "$man_text" "$opt" || problem "option '$opt' of '$cmd' is missing from $man_page"
    mentions "$reference_text" "$opt" || problem "option '$opt' of '$cmd' is missing from $reference"
  done
done
echo "check_cli_docs: checked $command_count commands and $option_count options against $man_page and $reference"

groff_skipped=0
if command -v groff >/dev/null 2>&1; then
  warnings=$(groff -man -ww -z "$man_page" 2>&1)
  if [ -n "$warnings" ]; then
    problem "groff -man -ww -z $man_page warns:"
    printf '%s\n' "$warnings"
  fi
else
  echo "check_cli_docs: groff is not installed: the manual page's rendering was not checked"
  groff_skipped=1
fi

if [ "$failures" -gt 0 ]; then
  echo "check_cli_docs: $failures problem(s)"
  exit 1
fi
[ "$groff_skipped" -eq 0 ] || exit 77
echo "check_cli_docs: all documented"
