#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB
# sim_exporter.sh - issue 21, monitoring as operators do it: ibrouter-exporter
# serves the daemon's counters and state at /metrics.  curl (a real HTTP
# client) scrapes it, prometheus_client's parser (the reference Python
# client's) reads the exposition; the figures are the daemon's own (show
# counters after 20 packets through the router); every metric the Grafana
# dashboard (etc/grafana/ibrouter.json) asks for is in a scrape; hostile or
# wrong requests get their status (400, 404, 405, 414, 431, 505) as whole
# answers (no reset; 503 when every slot is taken, too); a client that sends
# nothing holds no other, one that sends too slowly is cut at the deadline;
# the daemon gone is ibrouter_up 0, back is 1; SIGTERM stops the exporter,
# exit 0.
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

# hostile and wrong requests: raw bytes on a TCP connection; the HTTP/1.1 ones
# carry the Host that RFC 9112 (3.2) requires, so that each is refused for its own fault
raw() { # raw STATUS 'request bytes' : the status line the exporter answers
	$PY - "${ADDR%:*}" "${ADDR##*:}" "$2" << 'EOF' > "$T/raw.out"
import socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
s.sendall(sys.argv[3].encode('latin-1').decode('unicode_escape').encode('latin-1'))
print(s.makefile('rb').readline().decode().strip())
EOF
	grep -q "^HTTP/1.1 $1 " "$T/raw.out" || { cat "$T/raw.out"; return 1; }
}
check "a request line of garbage: 400" raw 400 'hello world\r\n\r\n'
check "HTTP/1.1 without Host: 400" raw 400 'GET /metrics HTTP/1.1\r\n\r\n'
check "a NUL in a header's name: 400" raw 400 'GET /metrics HTTP/1.1\r\nHost: x\r\nX\x00: a\r\n\r\n'
check "a bare CR: 400" raw 400 'GET /metrics HTTP/1.1\rHost: x\r\n\r\n'
check "a body (Content-Length 5): 400" raw 400 'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello'
check "a chunked body: 400" raw 400 'GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'
check "a header without a colon: 400" raw 400 'GET /metrics HTTP/1.1\r\nHost: x\r\nX y\r\n\r\n'
check "POST: 405" raw 405 'POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n'
check "HTTP/2.0: 505" raw 505 'GET /metrics HTTP/2.0\r\n\r\n'
check "a 300-byte path: 414" raw 414 "GET /$(printf '%0300d' 0) HTTP/1.1\r\nHost: x\r\n\r\n"
check "9000 bytes of headers: 431" raw 431 "GET /metrics HTTP/1.1\r\nHost: x\r\nX: $(printf '%09000d' 0)\r\n\r\n"
head=$(printf 'GET /metrics HTTP/1.1\r\nHost: %s\r\nUser-Agent: Prometheus/2.45.0\r\nAccept: text/plain;version=0.0.4\r\nX-Prometheus-Scrape-Timeout-Seconds: 10\r\nX-Pad: ' "$ADDR")
check "8192 bytes of request line and headers in Prometheus's fields: 200" \
	raw 200 "$head$(printf '%0*d' $((8192 - ${#head} - 4)) 0)\r\n\r\n"
check "/nosuch: 404" raw 404 'GET /nosuch HTTP/1.0\r\n\r\n'
check "LF-only lines and a query string: 200" raw 200 'GET /metrics?x=1 HTTP/1.0\n\n'
check "the absolute form: 200" raw 200 'GET http://router:9731/metrics HTTP/1.1\r\nHost: router:9731\r\n\r\n'

# A refused request's answer reaches the client whole: status line, a body of
# its Content-Length, then the end of the stream, not a reset (a socket closed
# with unread input sends one, which can destroy the answer before it is read).
# big: 64 KiB of headers, 431; busy: every slot held by a silent client, the
# exporter stopped while one more connects and asks (its request is in before
# the exporter sees it), 503; bare: a request line of one word, which
# libmicrohttpd 0.9.75 closes unanswered: a 400 or no answer, but no reset.
whole() {
	$PY - "${ADDR%:*}" "${ADDR##*:}" "$1" "$EPID" << 'EOF' > "$T/whole.out" 2>&1
import os, signal, socket, sys, time
host, port, mode, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
held, want = [], {'big': 431, 'busy': 503, 'bare': None}[mode]  # None: 400 or no answer
if mode == 'busy':
    held = [socket.create_connection((host, port), timeout=5) for _ in range(16)]
    time.sleep(0.5)
    os.kill(pid, signal.SIGSTOP)
    try:
        s = socket.create_connection((host, port), timeout=5)
        s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n')
        time.sleep(0.2)
    finally:
        os.kill(pid, signal.SIGCONT)
else:
    s = socket.create_connection((host, port), timeout=5)
    s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\nX: ' + b'a' * 65536 + b'\r\n\r\n'
              if mode == 'big' else b'hello\r\n\r\n')
time.sleep(0.5)  # answered and closed by now: a reset, if one comes, is in
data = b''
while True:
    try:
        b = s.recv(65536)
    except ConnectionResetError:
        sys.exit('a reset after %d bytes: %r' % (len(data), data[:60]))
    if not b:
        break
    data += b
if want is None and not data:
    print('the end of the stream, no answer')
    sys.exit(0)
head, _, body = data.partition(b'\r\n\r\n')
lines = head.decode('latin-1').split('\r\n')
clen = [int(l.split(':', 1)[1]) for l in lines[1:] if l.lower().startswith('content-length:')]
print(lines[0], '-', len(body), 'bytes of body, Content-Length', clen)
assert lines[0].startswith('HTTP/1.1 %d ' % (want or 400)), lines[0]
assert clen == [len(body)] and body, (clen, len(body))
EOF
	st=$?
	cat "$T/whole.out"
	return $st
}
check "64 KiB of headers: a whole 431, then the end (no reset)" whole big
check "every slot (16) held: one more client reads a whole 503, then the end (no reset)" whole busy
check "a request line of one word: 400 or closed unanswered, the end (no reset)" whole bare

# a client that sends its request a byte every 0.5 s, never whole: its idle
# time is short, but the deadline (10 s from its connection) cuts it
$PY - "${ADDR%:*}" "${ADDR##*:}" << 'EOF' > "$T/slow.out" 2>&1 &
import socket, sys, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
t0 = time.monotonic()
s.sendall(b'GET /metrics HTTP/1.1\r\nHost: x\r\nX: ')
s.settimeout(0.5)
while time.monotonic() - t0 < 15:
    try:
        s.send(b'a')
        if not s.recv(100):
            break
    except socket.timeout:
        continue
    except OSError:
        break
print('%.1f' % (time.monotonic() - t0))
EOF
DPID=$!
PIDS="$PIDS $DPID"

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

wait "$DPID"
check "a request a byte every 0.5 s: cut at the deadline, 10 s ($(cat "$T/slow.out") s)" \
	awk '{ exit !($1 >= 9.5 && $1 < 12) }' "$T/slow.out"

kill "$EPID"
wait "$EPID"
st=$?
check "SIGTERM: the exporter exits 0 (status $st)" test "$st" -eq 0
check "... saying it stopped" grep -q 'ibrouter-exporter: stopped' "$T/exp.log"
check "-l with no port: a usage error, 2" sh -c "'$EXP' -l 127.0.0.1 2> /dev/null; [ \$? -eq 2 ]"
check "-l on a taken port: an error, 1" sh -c "'$EXP' -l '$ADDR' 2> /dev/null & p=\$!; sleep 0.3;
	'$EXP' -l '$ADDR' 2> '$T/taken.err'; st=\$?; kill \$p; cat '$T/taken.err'; [ \$st -eq 1 ]"
finish
