#!/bin/sh
# The metrics endpoint and push (--metrics-listen, --metrics-push,
# src/live/): /metrics while the job runs and after it, nothing else
# served, a client that never sends or never reads stalls nothing, the
# text promtool accepts, OpenMetrics for a scraper that asks for it,
# and the real consumers: Debian's prometheus
# scraping every second and prometheus-pushgateway.
. "$(dirname "$0")/test-lib.sh"

RUN="$TEST_DIR/live/metrics_run.py"
T="--ioengine=null --thinktime=2ms --thinktime_blocks=2000"

test_expect_success_if PYTHON3 'the endpoint: counters, 404, 405, a silent client' '
	python3 "$RUN" endpoint "$IOLITE" --name=a $T --rw=randrw \
		--size=1g --time_based --runtime=1500ms
'

test_expect_success_if PYTHON3,PROMTOOL 'promtool accepts the text' '
	promtool check metrics <final.txt
'

test_expect_success_if PYTHON3,PROMETHEUS_CLIENT 'the OpenMetrics answer passes a strict parser' '
	python3 -c "
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as fams
f = {m.name: m for m in fams(open(\"final.om\").read())}
print(sorted(f))
sys.exit(not (f[\"iolite_ios\"].type == \"counter\" and
              f[\"iolite_clat_seconds\"].type == \"histogram\"))"
'

test_expect_success_if PROMETHEUS 'prometheus scraping every second agrees with the stream and report' '
	python3 "$RUN" prom "$IOLITE" --name=a --ioengine=psync --filename=f \
		--size=4m --rw=randrw --time_based --runtime=6s \
		--rate_iops=2000,2000
'

test_expect_success_if PUSHGATEWAY 'the final metrics pushed to a Pushgateway' '
	python3 "$RUN" push "$IOLITE" --name=a --ioengine=null --size=64m \
		--rw=randrw
'

test_done
