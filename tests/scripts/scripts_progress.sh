#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# scripts_progress.sh - the long steps of a build from a fresh clone say what
# runs: autogen.sh names autoreconf's tools as each starts, and scripts/run
# shows, while a step runs, the tool autoreconf is in, configure's checks,
# then what config.status does (scripts/progress.sh), with fakes that take
# their time in place of autoreconf and configure.
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$(pwd)}
# a private $T, check and finish, cleaned up on exit (tests/sim/lib.sh)
. "$(dirname "$0")/../sim/lib.sh"

# autogen.sh, with an autoreconf that says what it runs when given -v
mkdir "$T/bin" "$T/src"
cp "$SRC/autogen.sh" "$T/src/"
cat > "$T/bin/autoreconf" << 'EOS'
#!/bin/sh
echo "$*" > "$ARGS"
case $1 in *v*) echo "autoreconf: running: aclocal --force -I m4" >&2 ;; esac
EOS
chmod +x "$T/bin/autoreconf"
ARGS=$T/args PATH="$T/bin:$PATH" sh "$T/src/autogen.sh" > "$T/ag.out" 2> "$T/ag.err"
check "autogen.sh: says it runs autoreconf and its tools, before they run" \
	grep -q '^autogen.sh: autoreconf -fiv: aclocal, libtoolize, autoconf, autoheader, automake$' "$T/ag.err"
check "autogen.sh: autoreconf -v, so that each tool is named as it starts" \
	sh -c "grep -qx -- '-fiv' '$T/args' && grep -q '^autoreconf: running: aclocal' '$T/ag.err'"

# scripts/run's progress line, from scripts/progress.sh
check "scripts/progress.sh is there for scripts/run" test -f "$SRC/scripts/progress.sh"
[ -f "$SRC/scripts/progress.sh" ] && . "$SRC/scripts/progress.sh"
cat > "$T/configure" << 'EOS'
#!/bin/sh
for i in $(seq 1 25); do echo "checking for thing $i... yes"; done
sleep 1.5
echo "configure: creating ./config.status"
echo "config.status: creating Makefile"
echo "config.status: executing depfiles commands"
sleep 2.5
exit ${CONF_ST:-0}
EOS
chmod +x "$T/configure"
step_progress "$T/conf.log" "$T/configure" > "$T/conf.progress" 2>&1
check "configure: its status (0)" test $? -eq 0
check "configure: its checks shown while they run (25, a dot every 10)" \
	grep -q '25 checks \.\.\.' "$T/conf.progress"
check "configure: then what config.status does, while it does it" \
	grep -q 'config.status: executing depfiles commands' "$T/conf.progress"
check "configure: its output kept in the log" grep -q '^checking for thing 25' "$T/conf.log"
CONF_ST=3 step_progress "$T/conf.log" "$T/configure" > /dev/null 2>&1
check "a failing step: its status (3)" test $? -eq 3
cat > "$T/autoreconf" << 'EOS'
#!/bin/sh
echo "autoreconf: running: aclocal --force -I m4" >&2
sleep 1.5
echo "autoreconf: running: automake --add-missing --copy --force-missing" >&2
sleep 2
EOS
chmod +x "$T/autoreconf"
step_progress "$T/ag.log" "$T/autoreconf" > "$T/ag.progress" 2>&1
check "autoreconf: the tool running shown (aclocal, then automake)" \
	sh -c "grep -q 'autoreconf: running aclocal --force' '$T/ag.progress' && grep -q 'autoreconf: running automake --add-missing' '$T/ag.progress'"
finish
