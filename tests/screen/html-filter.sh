#!/bin/sh
# A stand-in for w3m in the screen tests: says it ran, with its
# arguments, drops the tags, and writes an escape sequence, which the
# screen must show as text rather than obey.
printf '[stand-in filter: %s]\n' "$*"
printf 'escape: \033[2J\n'
sed -e 's/<[^>]*>//g' -e '/^[[:space:]]*$/d'
