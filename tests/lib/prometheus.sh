# SPDX-License-Identifier: GPL-2.0-or-later
# Sourced by the tests that run a real Prometheus (after functions.sh):
# a free port, a fetch that fails quietly (for wait_for), and a Prometheus
# on 127.0.0.1 scraping one target every second.

# free_port: a TCP port of 127.0.0.1 free at the moment
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# fetch URL OUT: the body into OUT; fails quietly (for wait_for)
fetch() {
	python3 - "$1" "$2" <<'PY' 2>/dev/null
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=5) as r:
    open(sys.argv[2], "wb").write(r.read())
PY
}

# prom_start JOB TARGET [RULES]: a Prometheus in $TMP scraping TARGET
# (host:port) as job JOB every second, evaluating the rules file RULES if
# given; its port in $pr_port, its process in $prom, ready when it returns
prom_start() {
	pr_port=$(free_port)
	{
		printf 'global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n'
		[ -z "${3:-}" ] || printf 'rule_files:\n  - %s\n' "$3"
		printf 'scrape_configs:\n  - job_name: %s\n' "$1"
		printf '    static_configs:\n      - targets: [%s]\n' "'$2'"
	} >"$TMP/prometheus.yml"
	bg_start prom prometheus --config.file="$TMP/prometheus.yml" \
		--storage.tsdb.path="$TMP/tsdb" \
		--web.listen-address="127.0.0.1:$pr_port"
	prom=$BG_PID
	wait_for -t 30 fetch "http://127.0.0.1:$pr_port/-/ready" "$TMP/ready"
}
