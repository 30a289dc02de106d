# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# scripts/progress.sh - sourced by scripts/run: a long step that is not
# silent.
#
# step_progress LOG CMD...: run CMD with its output in LOG and, while it
# runs, a line that says where it is, redrawn every second: for autoreconf
# (autogen.sh) the tool it runs now ("autoreconf: running: automake ..."),
# for configure its checks so far, a dot every 10 ("100 checks ......"),
# then what config.status does ("config.status: executing depfiles
# commands", which can take half a minute).  Returns CMD's status (through a
# file: a pipeline's status would be the last command's).
step_progress() {
	sp_log=$1
	shift
	: > "$sp_log"
	{
		c=0
		"$@" > "$sp_log" 2>&1 || c=$?
		echo $c > "$sp_log.st"
	} &
	sp_pid=$!
	while kill -0 $sp_pid 2> /dev/null; do
		printf '\r   %s\033[K' "$(step_where "$sp_log")"
		sleep 1
	done
	wait $sp_pid || :
	printf '\r   %s\033[K\n' "$(step_where "$sp_log")"
	sp_st=$(cat "$sp_log.st" 2> /dev/null || echo 1)
	rm -f "$sp_log.st"
	return "$sp_st"
}

# step_where LOG: the line step_progress shows, from what LOG has so far
step_where() {
	awk '
		/^autoreconf: running: / { tool = $3 " " $4 }
		/^checking / { n++ }
		/^config\.status: / { cs = $0 }
		END {
			if (cs != "") { print cs; exit }
			if (n) { s = ""; for (i = 0; i < n / 10; i++) s = s "."; print n " checks " s; exit }
			if (tool != "") { print "autoreconf: running " tool; exit }
			print "starting"
		}' "$1" 2> /dev/null | cut -c 1-100
}
