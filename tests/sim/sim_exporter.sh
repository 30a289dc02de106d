#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_exporter.sh - issue 21, monitoring as operators do it: ibrouter-exporter
# serves the daemon's counters and state at /metrics.  curl (a real HTTP
# client) scrapes it, prometheus_client's parser (the reference Python
# client's) reads the exposition; the figures are the daemon's own (show
# counters after 20 packets through the router); every metric the Grafana
# dashboard (etc/grafana/ibrouter.json) asks for is in a scrape; hostile or
# wrong requests get their status (400, 404, 405, 414, 431, 505) and a client
# that sends nothing holds no other; the daemon gone is ibrouter_up 0, back
# is 1; SIGTERM stops the exporter, exit 0.
BUILD=${BUILD:-$(pwd)}
. "$(dirname "$0")/lib.sh"
EXP=$BUILD/tools/ibrouter-exporter
PY=/usr/bin/python3
SRC=$(cd "$(dirname "$0")/../.." && pwd)

if ! $PY -c 'import prometheus_client' 2> /dev/null; then
	echo "SKIP: no prometheus_client for $PY (python3-prometheus-client; scripts/install-deps.sh)"
	exit 77
fi
command -v curl > /dev/null || { echo "SKIP: no curl"; exit 77; }

start_router || exit 1
"$EXP" -l 127.0.0.1:0 -s "$T/ctl.sock" 2> "$T/exp.log" &
EPID=$!
PIDS="$PIDS $EPID"
for _ in $(seq 1 100); do grep -q 'listening on' "$T/exp.log" && break; sleep 0.05; done
ADDR=$(sed -n 's/.*listening on \([^ ]*\) for .*/\1/p' "$T/exp.log")
check "the exporter listens on a free port of 127.0.0.1 (-l 127.0.0.1:0): $ADDR" \
	sh -c "echo '$ADDR' | grep -q '^127\.0\.0\.1:[1-9][0-9]*$'"
URL=http://$ADDR/metrics

# scrape: curl writes the body, the status and content type (last line)
scrape() { curl -s -o "$T/m.txt" -w '%{http_code} %{content_type}\n' "$URL"; }
# metric NAME LABELS: a sample's value, read by prometheus_client's parser
metric() {
	$PY - "$T/m.txt" "$1" "$2" << 'EOF'
import sys
from prometheus_client.parser import text_string_to_metric_families
want = dict(kv.split("=", 1) for kv in sys.argv[3].split(",") if kv)
for fam in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in fam.samples:
        if s.name == sys.argv[2] and all(s.labels.get(k) == v for k, v in want.items()):
            print(int(s.value) if s.value == int(s.value) else s.value)
            sys.exit(0)
sys.exit(1)
EOF
}

# 20 packets from a host in subnet a to one in b, through the router
recv_bg b "$T/b.peer" -q -c 20 -t 10000 --expect-count 20 --expect-dlid 5
"$HOST" -s "$T/a.src" -p "$T/a.sock" send -q --slid 3 --dlid 1 --sgid fec0::1:0:0:10:1 \
	--dgid fec0::2:0:0:11:1 -c 20
check "20 packets from a to b through the router" recv_wait b
check "GET /metrics: 200, the exposition's content type" sh -c \
	"[ \"\$(curl -s -o '$T/m.txt' -w '%{http_code} %{content_type}' '$URL')\" = '200 text/plain; version=0.0.4; charset=utf-8' ]"
check "prometheus_client parses the whole scrape" $PY -c "
import sys
from prometheus_client.parser import text_string_to_metric_families
fams = list(text_string_to_metric_families(open('$T/m.txt').read()))
print(len(fams), 'families')
assert len(fams) > 10
"
check "ibrouter_up 1" test "$(metric ibrouter_up '')" = 1
rx=$(ctl show counters a | awk 'NR == 2 { print $2 }')
check "rx packets on a: 20, as show counters says ($rx)" \
	test "$(metric ibrouter_rx_packets_total port=a)" = "$rx" -a "$rx" = 20
check "tx packets on b: 20" test "$(metric ibrouter_tx_packets_total port=b)" = 20
check "drops by reason are there (reason=hop_limit on a: 0)" sh -c \
	"[ \"\$(ctl -o prometheus show counters | grep -c '^ibrouter_drops_total{port=\"a\"')\" -gt 5 ]
	grep -q '^ibrouter_drops_total{port=\"a\",reason=' '$T/m.txt'"
check "the SMA's counters (show sma) are in it" grep -q '^ibrouter_sma_smps_total{' "$T/m.txt"
for c in counters sma sa plugins; do
	check "show $c answered in prometheus form" \
		test "$(metric ibrouter_exporter_command_success "command=show $c")" = 1
done
check "HEAD /metrics: 200, headers only" sh -c \
	"curl -s -I '$URL' > '$T/h.txt'; grep -q '^HTTP/1.1 200' '$T/h.txt' && grep -qi '^content-length: [1-9]' '$T/h.txt'"
check "GET /: a page that links /metrics" sh -c "curl -s 'http://$ADDR/' | grep -q 'href=\"/metrics\"'"

# every metric a panel of the dashboard asks for is in the scrape
check "the Grafana dashboard is JSON with panels" $PY -c "
import json; d = json.load(open('$SRC/etc/grafana/ibrouter.json')); assert len(d['panels']) >= 6"
check "every metric the dashboard's queries name is in a scrape" $PY -c "
import json, re
d = json.load(open('$SRC/etc/grafana/ibrouter.json'))
have = set(l.split()[2] if l.startswith('# TYPE ') else l.split('{')[0].split(' ')[0] for l in open('$T/m.txt') if not l.startswith('# HELP'))
names = set()
for p in d['panels']:
    for t in p.get('targets', []):
        names |= set(re.findall(r'\b(ibrouter_[a-z_]+)', t['expr']))
missing = sorted(n for n in names if n not in have)
print(len(names), 'metrics named; missing:', missing)
assert names and not missing
"

# hostile and wrong requests: raw bytes on a TCP connection
raw() { # raw STATUS 'request bytes' : the status line the exporter answers
	$PY - "${ADDR%:*}" "${ADDR##*:}" "$2" << 'EOF' > "$T/raw.out"
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
s.sendall(sys.argv[3].encode('latin-1').decode('unicode_escape').encode('latin-1'))
print(s.makefile('rb').readline().decode().strip())
EOF
	grep -q "^HTTP/1.1 $1 " "$T/raw.out" || { cat "$T/raw.out"; return 1; }
}
check "a request line of garbage: 400" raw 400 'hello\r\n\r\n'
check "a NUL in a header: 400" raw 400 'GET /metrics HTTP/1.1\r\nX: a\x00b\r\n\r\n'
check "a bare CR: 400" raw 400 'GET /metrics HTTP/1.1\rHost: x\r\n\r\n'
check "a body (Content-Length 5): 400" raw 400 'GET /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello'
check "a header without a colon: 400" raw 400 'GET /metrics HTTP/1.1\r\nHost x\r\n\r\n'
check "POST: 405" raw 405 'POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n'
check "HTTP/2.0: 505" raw 505 'GET /metrics HTTP/2.0\r\n\r\n'
check "a 300-byte path: 414" raw 414 "GET /$(printf '%0300d' 0) HTTP/1.1\r\n\r\n"
check "9000 bytes of headers: 431" raw 431 "GET /metrics HTTP/1.1\r\nX: $(printf '%09000d' 0)\r\n\r\n"
check "/nosuch: 404" raw 404 'GET /nosuch HTTP/1.0\r\n\r\n'
check "LF-only lines and a query string: 200" raw 200 'GET /metrics?x=1 HTTP/1.0\n\n'

# a client that connects and sends nothing holds no other scrape
$PY -c "
import socket, time
s = socket.create_connection(('${ADDR%:*}', ${ADDR##*:})); time.sleep(4)" &
SPID=$!
PIDS="$PIDS $SPID"
sleep 0.3
check "a silent client: another scrape still answers at once" sh -c \
	"curl -s -m 2 -o /dev/null -w '%{http_code}' '$URL' | grep -qx 200"
kill "$SPID" 2> /dev/null

kill "$RPID"
wait "$RPID" 2> /dev/null
check "the daemon stopped: 200 still, ibrouter_up 0" sh -c \
	"[ \"\$(curl -s -o '$T/m.txt' -w '%{http_code}' '$URL')\" = 200 ]"
check "... ibrouter_up 0, and only the exporter's own samples" sh -c \
	"[ \"\$($PY -c \"
from prometheus_client.parser import text_string_to_metric_families as f
s = {x.name: x.value for fam in f(open('$T/m.txt').read()) for x in fam.samples}
print(int(s['ibrouter_up']), any(k.startswith('ibrouter_rx') for k in s))\")\" = '0 False' ]"
start_router || exit 1
check "the daemon back: ibrouter_up 1" sh -c "curl -s '$URL' | grep -qx 'ibrouter_up 1'"

kill "$EPID"
wait "$EPID"
st=$?
check "SIGTERM: the exporter exits 0 (status $st)" test "$st" -eq 0
check "... saying it stopped" grep -q 'ibrouter-exporter: stopped' "$T/exp.log"
check "-l with no port: a usage error, 2" sh -c "'$EXP' -l 127.0.0.1 2> /dev/null; [ \$? -eq 2 ]"
check "-l on a taken port: an error, 1" sh -c "'$EXP' -l '$ADDR' 2> /dev/null & p=\$!; sleep 0.3;
	'$EXP' -l '$ADDR' 2> '$T/taken.err'; st=\$?; kill \$p; cat '$T/taken.err'; [ \$st -eq 1 ]"
finish
