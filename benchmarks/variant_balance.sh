#!/bin/sh
# The variants' effects in docs/balance.md ("Variants"): greedy in every seat, 4 players, seed 0, the
# rulebook's value first (2026-12-01, the 2-core EPYC VM, shared with other work):
#   sh benchmarks/variant_balance.sh > benchmarks/results/variant-balance.txt 2>&1
set -e
M=".venv/bin/merchantry balance"
echo "\$ $M samarkand --players 4 --compare late_start_money=0,1,2 --games 1000 --workers 2"
$M samarkand --players 4 --compare late_start_money=0,1,2 --games 1000 --workers 2
echo "\$ $M samarkand --players 4 --compare hand_limit --games 400 --workers 2"
$M samarkand --players 4 --compare hand_limit --games 400 --workers 2
echo "\$ $M byzanz --players 4 --compare hand_limit --games 400 --workers 2"
$M byzanz --players 4 --compare hand_limit --games 400 --workers 2
echo "\$ $M byzanz --players 4 --compare merchant_profit --games 400 --workers 2"
$M byzanz --players 4 --compare merchant_profit --games 400 --workers 2
echo "\$ $M grand_bazaar --players 4 --compare start_cash --games 400 --workers 2"
$M grand_bazaar --players 4 --compare start_cash --games 400 --workers 2
echo "\$ $M grand_bazaar --players 4 --compare market_size --games 400 --workers 2"
$M grand_bazaar --players 4 --compare market_size --games 400 --workers 2
echo "\$ $M money --players 4 --compare penalty --games 400 --workers 2"
$M money --players 4 --compare penalty --games 400 --workers 2
echo "\$ $M money --players 4 --compare trio_bonus --games 400 --workers 2"
$M money --players 4 --compare trio_bonus --games 400 --workers 2
