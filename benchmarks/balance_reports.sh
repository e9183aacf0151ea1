#!/bin/sh
# The balance reports in docs/balance/ (one per game, every player count) and the tournaments in
# docs/tournaments/, as committed (2026-11-30, the 2-core EPYC VM):
#   sh benchmarks/balance_reports.sh > docs/balance/run.txt 2>&1
set -e
M=.venv/bin/merchantry
$M balance byzanz --compare players=3,4,5,6 --games 1000 --workers 2 --report docs/balance/byzanz
$M balance grand_bazaar --compare players=2,3,4,5,6,7 --games 1000 --workers 2 --report docs/balance/grand_bazaar
$M balance grand_bazaar --bot random --compare players=2,3,4,5,6,7 --games 1000 --workers 2 --report docs/balance/grand_bazaar-random
$M balance samarkand --compare players=2,3,4,5 --games 1000 --workers 2 --report docs/balance/samarkand
$M balance money --compare players=3,4,5 --games 400 --workers 2 --report docs/balance/money
# the tournaments in docs/tournaments/ (README shows Samarkand's ratings)
for game in money byzanz grand_bazaar samarkand; do
  $M tournament $game --players 4 --bots random,greedy --games 200 --workers 2 --report docs/tournaments/$game
done
