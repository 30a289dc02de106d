#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_prom_state.sh - show sa and show plugins in Prometheus text format
# (0.0.4), read with a real parser (python3-prometheus-client's), against
# the JSON form of the same command:
#   1. port a's SA client (mad = ibsim, attached at router node RtrA of an
#      ibsim subnet without an SM: phase down), port b without one: every
#      ibrouter_sa_* family with HELP and TYPE, one sample set for a, none
#      for b; the values those of show sa; "show sa a" only a's, "show sa b"
#      valid and empty; without ibsim, only the empty forms;
#   2. no plugin: every ibrouter_plugin_* family, no sample;
#   3. two fake OpenSM plugins (this script's, speaking lib/ibr_plug.h) in
#      b's subnet, a master and a standby with a gap in its message numbers
#      and an OpenSM version with a double quote and a backslash:
#      ibrouter_plugin_info with the labels escaped, ibrouter_plugin_feeds 1
#      for the master and 0 for the standby on port b, every other value
#      that of show plugins, the times Unix times of its ages.
# A SA client that syncs with a real OpenSM (ready, subscribed, end ports,
# reports) is the lab's: tests/lab/lab_sa.sh.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3

if ! $PY -c 'import prometheus_client.parser' 2> /dev/null; then
	echo "SKIP: $PY has no prometheus_client (apt-get install python3-prometheus-client)"
	exit 77
fi

# ---- an ibsim subnet for port a's SA client (no SM: the client polls its PortInfo) ----
IBSIM_SOCK="ibrprom$$"
if command -v ibsim > /dev/null 2>&1; then
	cat > "$T/net" <<EOF
rtguid=0x300000
Switch 8 "SwA"
[1] "HcaA1"[1]
[3] "RtrA"[1]

Hca 1 "HcaA1"
[1] "SwA"[1]

Rt 1 "RtrA"
[1] "SwA"[3]
EOF
	mkfifo "$T/console"
	# a holder keeps the console fifo open: ibsim ends at its end of file
	sleep 100000 > "$T/console" < /dev/null &
	PIDS="$PIDS $!"
	IBSIM_SOCKNAME=$IBSIM_SOCK ibsim -s "$T/net" < "$T/console" > "$T/ibsim.out" 2>&1 &
	PIDS="$PIDS $!"
	for _ in $(seq 1 50); do grep -q listen "$T/ibsim.out" 2> /dev/null && break; sleep 0.05; done
	PORT_A_MAD="mad = ibsim
	ibsim-socket = \"$IBSIM_SOCK\"
	ibsim-node = \"RtrA\""
	HAVE_SA=1
else
	echo "# no ibsim: port a has no SA client either, only the empty forms are checked"
	PORT_A_MAD="lid = 1
	subnet-prefix = \"fec0:0:0:1::\""
	HAVE_SA=0
fi

PORT_A_ADDR=$PORT_A_MAD
EXTRA_CONF="learning {
	osm-plugin = true
}"
start_router
check "the daemon answers" ctl version

# ---- the checker: python3-prometheus-client's parser, and the JSON form ----
cat > "$T/check.py" <<'EOF'
import datetime, json, sys, time
from prometheus_client.parser import text_string_to_metric_families

SA = {  # metric: (type, JSON column, how a JSON value becomes the metric's)
    "ibrouter_sa_lid": ("gauge", "lid", lambda v: int(v, 16)),
    "ibrouter_sa_sm_lid": ("gauge", "sm_lid", lambda v: int(v, 16)),
    "ibrouter_sa_end_ports": ("gauge", "end_ports", int),
    "ibrouter_sa_groups": ("gauge", "groups", int),
    "ibrouter_sa_syncs_total": ("counter", "syncs", int),
    "ibrouter_sa_sync_failures_total": ("counter", "failures", int),
    "ibrouter_sa_last_sync_duration_seconds": ("gauge", "last_sync_ms", lambda v: float(v) / 1e3),
    "ibrouter_sa_reports_total": ("counter", "reports", int),
    "ibrouter_sa_subscribed": ("gauge", "subscribed", int),
    "ibrouter_sa_gettable": ("gauge", "tables", lambda v: int(v == "gettable")),
    "ibrouter_sa_query_timeouts_total": ("counter", "timeouts", int),
    "ibrouter_sa_mads_sent_total": ("counter", "mad_sent", int),
    "ibrouter_sa_mads_received_total": ("counter", "mad_recv", int),
    "ibrouter_sa_last_report_timestamp_seconds": ("gauge", "last_report", "time"),
    "ibrouter_sa_last_change_timestamp_seconds": ("gauge", "last_change", "time"),
    "ibrouter_sa_announcements_sent_total": ("counter", "ad_sent", int),
    "ibrouter_sa_announcement_failures_total": ("counter", "ad_failed", int),
    "ibrouter_sa_peers": ("gauge", "peers", int),
    "ibrouter_sa_peer_records_received_total": ("counter", "peer_records", int),
    "ibrouter_sa_peer_expired_total": ("counter", "peer_expired", int),
    "ibrouter_sa_phase": ("gauge", None, None),
    "ibrouter_sa_prefix_info": ("gauge", None, None),
}
PLUGIN = {
    "ibrouter_plugin_sm_lid": ("gauge", "sm_lid", lambda v: int(v, 16)),
    "ibrouter_plugin_master": ("gauge", "master", int),
    "ibrouter_plugin_end_ports": ("gauge", "end_ports", int),
    "ibrouter_plugin_groups": ("gauge", "groups", int),
    "ibrouter_plugin_messages_total": ("counter", "messages", int),
    "ibrouter_plugin_snapshots_total": ("counter", "snapshots", int),
    "ibrouter_plugin_deltas_total": ("counter", "deltas", int),
    "ibrouter_plugin_gaps_total": ("counter", "gaps", int),
    "ibrouter_plugin_dropped_messages_total": ("counter", "dropped", int),
    "ibrouter_plugin_queue_length": ("gauge", "queue", lambda v: int(v.split("/")[0])),
    "ibrouter_plugin_queue_limit": ("gauge", "queue", lambda v: int(v.split("/")[1])),
    "ibrouter_plugin_routes_sent": ("gauge", "routes_sent", int),
    "ibrouter_plugin_osm_routes": ("gauge", "osm_routes", int),
    "ibrouter_plugin_shadowed_routes": ("gauge", "shadowed", int),
    "ibrouter_plugin_sweeps_total": ("counter", "sweeps", int),
    "ibrouter_plugin_joins_sent_total": ("counter", "joins", int),
    "ibrouter_plugin_connected_timestamp_seconds": ("gauge", "connected_s", "age"),
    "ibrouter_plugin_last_message_timestamp_seconds": ("gauge", "idle_s", "age"),
    "ibrouter_plugin_info": ("gauge", None, None),
    "ibrouter_plugin_feeds": ("gauge", None, None),
}

def die(msg):
    print(msg)
    sys.exit(1)

def parse(path):
    """{metric: (type, help, [(labels, value)])}; every sample in a family with HELP and TYPE."""
    text = open(path).read()
    if text and not text.endswith("\n"):
        die("the exposition does not end in a newline")
    fams = {}
    for f in text_string_to_metric_families(text):
        if f.type in ("unknown", "untyped") or not f.documentation:
            die("family %s: no HELP or TYPE" % f.name)
        name = f.name + "_total" if f.type == "counter" else f.name
        if name in fams:
            die("family %s twice" % name)
        for s in f.samples:
            if s.name != name:
                die("sample %s in family %s" % (s.name, name))
        fams[name] = (f.type, f.documentation, [(s.labels, s.value) for s in f.samples])
    return fams

def iso(v):
    return datetime.datetime.strptime(v, "%Y-%m-%dT%H:%M:%S.%f%z").timestamp()

def check_families(fams, want, prefix):
    for m, (typ, _, _) in want.items():
        if m not in fams:
            die("no family %s" % m)
        if fams[m][0] != typ:
            die("%s: type %s, not %s" % (m, fams[m][0], typ))
    extra = [m for m in fams if m.startswith(prefix) and m not in want]
    if extra:
        die("families not checked here: %s" % extra)

def between(m, got, a, b, slack=0.0):
    lo, hi = min(a, b) - slack, max(a, b) + slack
    if not lo <= got <= hi:
        die("%s = %r, the JSON form says %r then %r" % (m, got, a, b))

def value_of(conv, row, col, t):
    v = row[col]
    if conv == "time":
        return 0.0 if v is None else iso(v)
    if conv == "age":
        return t - v
    return conv(v)

def compare(fams, want, key, rows0, rows1, t0, t1):
    """Each metric's sample of row `id` lies between the two JSON answers around the scrape."""
    for m, (_, col, conv) in want.items():
        if col is None:
            continue
        samples = {s[0][key]: s[1] for s in fams[m][2]}
        if set(samples) != set(rows0):
            die("%s: samples for %s, rows for %s" % (m, sorted(samples), sorted(rows0)))
        for k, got in samples.items():
            # an age is whole seconds: the time it counts from is within a second of it
            slack = 1.5 if conv == "age" else 1e-3 if conv == "time" else 5e-5
            a = value_of(conv, rows0[k], col, t0)
            b = value_of(conv, rows1[k], col, t1)
            between("%s{%s=%s}" % (m, key, k), got, a, b, slack)

def load_rows(path, key):
    return {str(r[key]): r for r in json.load(open(path))}

def main():
    what, prom = sys.argv[1], sys.argv[2]
    fams = parse(prom)
    want, prefix, key = (SA, "ibrouter_sa_", "port") if what.startswith("sa") else \
        (PLUGIN, "ibrouter_plugin_", "plugin")
    check_families(fams, want, prefix)
    if what in ("sa-empty", "plugins-empty"):
        for m in want:
            if fams[m][2]:
                die("%s has samples: %s" % (m, fams[m][2]))
        return
    j0, j1 = sys.argv[3], sys.argv[4]
    t0, t1 = float(open(j0 + ".t").read()), float(open(j1 + ".t").read())
    jkey = "port" if key == "port" else "id"  # show plugins: the label plugin is the column id
    rows0, rows1 = load_rows(j0, jkey), load_rows(j1, jkey)
    compare(fams, want, key, rows0, rows1, t0, t1)
    if what == "sa":
        for port, r in rows0.items():
            ph = {s[0]["phase"]: s[1] for s in fams["ibrouter_sa_phase"][2] if s[0]["port"] == port}
            if set(ph) != {"down", "sync", "ready", "backoff"} or sum(ph.values()) != 1 \
                    or ph[r["phase"]] != 1:
                die("ibrouter_sa_phase{port=%s}: %s, the JSON form says %s" % (port, ph, r["phase"]))
            info = [s for s in fams["ibrouter_sa_prefix_info"][2] if s[0]["port"] == port]
            if len(info) != 1 or info[0][1] != 1 or info[0][0]["prefix"] != (r["prefix"] or ""):
                die("ibrouter_sa_prefix_info{port=%s}: %s, prefix %s" % (port, info, r["prefix"]))
        return
    for pid, r in rows0.items():
        info = [s[0] for s in fams["ibrouter_plugin_info"][2] if s[0]["plugin"] == pid]
        want_info = {"plugin": pid, "pid": str(r["pid"]), "opensm": r["opensm"] or "",
                     "prefix": r["prefix"] or "", "ports": r["ports"] or ""}
        if info != [want_info]:
            die("ibrouter_plugin_info{plugin=%s}: %s, not %s" % (pid, info, want_info))
        feeds = {s[0]["port"]: s[1] for s in fams["ibrouter_plugin_feeds"][2]
                 if s[0]["plugin"] == pid}
        want_feeds = {p.rstrip("*"): 0 if p.endswith("*") else 1
                      for p in (r["ports"] or "").split(",") if p}
        if feeds != want_feeds:
            die("ibrouter_plugin_feeds{plugin=%s}: %s, not %s" % (pid, feeds, want_feeds))
    # what the test's own plugins make: the label as OpenSM's version has it, unescaped
    if what == "plugins-fake":
        got = sorted((s[0]["opensm"], s[0]["ports"]) for s in fams["ibrouter_plugin_info"][2])
        if got != [('3.3"q\\z', "b"), ('3.3"s\\z', "b*")]:
            die("the fake plugins' labels: %s" % got)
        if '{plugin="%s",pid="4242",opensm="3.3\\"q\\\\z"' % min(rows0, key=int) not in \
                open(prom).read():
            die("the label is not escaped as the exposition format wants")

main()
EOF

# ctl_json FILE CMD...: the rows of a command's JSON form, and when they were asked for (FILE.t)
ctl_json() {
	f=$1; shift
	date +%s.%N > "$f.t"
	ctl -j "$@" > "$f.raw" &&
		$PY -c 'import json, sys; json.dump(json.load(sys.stdin)["data"], sys.stdout)' \
			< "$f.raw" > "$f"
}
# scrape NAME CMD...: the JSON form before and after the Prometheus form
scrape() {
	n=$1; shift
	ctl_json "$T/$n.j0" "$@" && ctl "$@" -o prometheus > "$T/$n.prom" && ctl_json "$T/$n.j1" "$@"
}
pcheck() { $PY "$T/check.py" "$@"; }

# ---- 1. show sa ----
if [ "$HAVE_SA" = 1 ]; then
	# the client has polled its PortInfo (mad_sent counts it) before the checks
	for _ in $(seq 1 50); do ctl show sa a | grep -q '^a ' && break; sleep 0.1; done
	scrape sa show sa
	check "1: show sa -o prometheus: every family, a's values those of show sa" \
		pcheck sa "$T/sa.prom" "$T/sa.j0" "$T/sa.j1"
	check "1: port a's client shows in it (phase down, no SM)" \
		grep -q '^ibrouter_sa_phase{port="a",phase="down"} 1$' "$T/sa.prom"
	check "1: port b (no SA client) has no sample" sh -c "! grep -q 'port=\"b\"' '$T/sa.prom'"
	scrape saa show sa a
	check "1: show sa a -o prometheus: a's values" pcheck sa "$T/saa.prom" "$T/saa.j0" "$T/saa.j1"
else
	ctl show sa -o prometheus > "$T/sa.prom"
	check "1: show sa -o prometheus without SA clients: valid, no sample" \
		pcheck sa-empty "$T/sa.prom"
fi
ctl show sa b -o prometheus > "$T/sab.prom"
check "1: show sa b -o prometheus (no SA client): valid, every family, no sample" \
	pcheck sa-empty "$T/sab.prom"
check "1: show sa nosuch -o prometheus: refused (ENOENT)" \
	sh -c "! '$CTL' -s '$T/ctl.sock' show sa nosuch -o prometheus 2>&1 | grep -q '^#' &&
		'$CTL' -s '$T/ctl.sock' show sa nosuch -o prometheus 2>&1 | grep -q ENOENT"

# ---- 2. show plugins, none connected ----
ctl show plugins -o prometheus > "$T/p0.prom"
check "2: show plugins -o prometheus, no plugin: valid, every family, no sample" \
	pcheck plugins-empty "$T/p0.prom"

# ---- 3. two fake plugins in b's subnet ----
cat > "$T/plug.py" <<'EOF'
# plug.py SOCKET SM_STATE OSM_VERSION SKIP_SEQ: an OpenSM plugin's session as
# lib/ibr_plug.h has it, then it reads the daemon's messages until the
# daemon goes, printing "alive" for its answer to the stats (type 66).
import socket, struct, sys
sock, sm_state, osmver, skip = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode(), int(sys.argv[4])
PREFIX = 0xfec0000000000002
seq = 0
def msg(typ, fixed, recs=b"", count=0):
    global seq
    m = struct.pack(">HBBHHII", 0x4950, 1, typ, 0, count, 16 + len(fixed) + len(recs), seq) + fixed + recs
    seq += 1 + skip  # a gap: messages "dropped" by the plugin
    s.send(m)
def port(guid, lid, node_type):
    return struct.pack(">QQHBBBB2x", guid, guid, lid, 0, node_type, 1, 0)
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.connect(sock)
s.send(b"plugin hello 1")
r = s.recv(65536)
if b'"ok":true' not in r:
    sys.exit("refused: %r" % r)
hello = osmver.ljust(32, b"\0") + b"ibrouter-osm".ljust(16, b"\0") + \
    struct.pack(">QQHBBII4x", PREFIX, 0x1001, 1, sm_state, 1 if sm_state == 3 else 0, 4242, 128)
msg(1, hello)
snap = lambda n: struct.pack(">IIIH2xQ", 1, n, 0, 1, PREFIX)
msg(2, snap(0))
msg(3, b"", port(0x110001, 5, 1) + port(0x110002, 6, 1), 2)
msg(7, snap(2))
msg(3, b"", port(0x110003, 7, 1), 1)  # a delta: trap 64
stats = struct.pack(">QQQ8I", 10, 9, 5 + skip, 1, 1, 3, 128, 2, 1, 7, 1) + bytes([sm_state]) + bytes(7)
msg(8, stats)
print("ready", flush=True)
while True:
    m = s.recv(65536)
    if not m:
        break
    if len(m) == 16 and m[3] == 66:
        print("alive", flush=True)
EOF
$PY "$T/plug.py" "$T/ctl.sock" 3 'OpenSM 3.3"q\z' 0 > "$T/plug1.out" 2>&1 &
PIDS="$PIDS $!"
for _ in $(seq 1 50); do grep -q ready "$T/plug1.out" && break; sleep 0.1; done
$PY "$T/plug.py" "$T/ctl.sock" 2 'OpenSM 3.3"s\z' 1 > "$T/plug2.out" 2>&1 &
PIDS="$PIDS $!"
for _ in $(seq 1 50); do grep -q ready "$T/plug2.out" && break; sleep 0.1; done
check "3: both fake plugins are through their snapshot and stats" \
	sh -c "grep -q ready '$T/plug1.out' && grep -q ready '$T/plug2.out'"
# the daemon reads them on its loop: wait until show plugins has both, stats and all
for _ in $(seq 1 50); do
	[ "$(ctl show plugins | awk 'NR > 1 && $14 > 0' | wc -l)" = 2 ] && break
	sleep 0.1
done
sleep 1.1 # an age of at least a second: the timestamps' check is not only 0 = 0
scrape p show plugins
check "3: show plugins -o prometheus: every family, the values those of show plugins" \
	pcheck plugins-fake "$T/p.prom" "$T/p.j0" "$T/p.j1"
check "3: the master feeds b, the standby is bound to it only" sh -c \
	"grep -q '^ibrouter_plugin_feeds{plugin=\"1\",port=\"b\"} 1$' '$T/p.prom' &&
	 grep -q '^ibrouter_plugin_feeds{plugin=\"2\",port=\"b\"} 0$' '$T/p.prom'"
check "3: the standby's gap and drops are counted" sh -c \
	"grep -q '^ibrouter_plugin_gaps_total{plugin=\"2\"} [1-9]' '$T/p.prom' &&
	 grep -q '^ibrouter_plugin_dropped_messages_total{plugin=\"2\"} 6$' '$T/p.prom'"
check "3: the daemon answered each fake plugin's stats with alive (a header alone)" \
	sh -c "grep -q '^alive' '$T/plug1.out' && grep -q '^alive' '$T/plug2.out'"
check "3: show plugins extra -o prometheus: a usage error" \
	sh -c "'$CTL' -s '$T/ctl.sock' show plugins extra -o prometheus; test \$? -eq 2"

finish
