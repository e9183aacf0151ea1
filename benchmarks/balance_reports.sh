#!/bin/sh
# The balance reports in docs/balance/ (one per game, every player count), as committed:
#   sh benchmarks/balance_reports.sh > docs/balance/run.txt 2>&1
set -e
M=.venv/bin/merchantry
$M balance byzanz --compare players=3,4,5,6 --games 1000 --workers 2 --report docs/balance/byzanz
$M balance grand_bazaar --compare players=2,3,4,5,6,7 --games 1000 --workers 2 --report docs/balance/grand_bazaar
$M balance grand_bazaar --bot random --compare players=2,3,4,5,6,7 --games 1000 --workers 2 --report docs/balance/grand_bazaar-random
$M balance samarkand --compare players=2,3,4,5 --games 1000 --workers 2 --report docs/balance/samarkand
$M balance money --compare players=3,4,5 --games 400 --workers 2 --report docs/balance/money
