# retrogate: `make` sets up a fresh Debian/Ubuntu machine and runs the main job;
# `make test` sets it up and runs every test, external tools included.

CARGO   ?= cargo
# Debian packages for the external tools, and one command each provides (ccache only makes the
# tests' Verilator builds share their C++ objects: src/flow/verilator.rs).
PACKAGES := yosys nextpnr-ice40 fpga-icestorm iverilog verilator graphviz z3 ccache
TOOLS    := yosys yosys-smtbmc yosys-abc nextpnr-ice40 icepack iceunpack icebox_vlog icetime iverilog verilator dot z3 ccache
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all prog tools test generated docs bench clean

# The board and design `make` builds; e.g. `make BOARD=go-board DESIGN=jr01`.
BOARD  ?= icebreaker
DESIGN ?= sticks

# The main job: the stick game's bitstream for the board, in build/$(BOARD)/$(DESIGN)/.
all: tools
	$(CARGO) run --release --quiet -- build --board $(BOARD) --design $(DESIGN)

# Build, then program the board with iceprog.
prog: tools
	$(CARGO) run --release --quiet -- build --board $(BOARD) --design $(DESIGN) --program

# Install whatever is missing: the FPGA tools from Debian packages, the crates via cargo.
tools:
	@command -v $(CARGO) >/dev/null || { echo "error: cargo not found: install Rust with rustup (https://rustup.rs), then run make again" >&2; exit 1; }
	@missing=""; for t in $(TOOLS); do command -v $$t >/dev/null || missing="$$missing $$t"; done; \
	if [ -n "$$missing" ]; then \
	  echo "missing tools:$$missing; installing Debian packages: $(PACKAGES)"; \
	  if command -v apt-get >/dev/null; then \
	    $(SUDO) apt-get update && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y $(PACKAGES) || exit 1; \
	  else \
	    echo "error: no apt-get here: install these packages (or your system's equivalents) yourself: $(PACKAGES)" >&2; exit 1; \
	  fi; \
	fi
	@command -v cargo-nextest >/dev/null || { echo "cargo-nextest missing; installing it with cargo install"; $(CARGO) install --locked cargo-nextest || exit 1; }
	$(CARGO) fetch --quiet

# Clippy lints retrogate's own targets while the test build compiles them (warnings denied):
# Cargo runs scripts/rustc-with-clippy in place of rustc for them, so the dependencies are
# compiled once, not also checked by a separate `cargo clippy`. The benchmarks, which the tests
# do not build, are built the same way first. Tests run under cargo-nextest (.config/nextest.toml:
# TEST_THREADS at a time across all test binaries), built with the fast-build profile (release at
# opt-level 1, retrogate at 0; Cargo.toml says why), sharing tool results through the
# content-addressed cache in target/tool-cache (and Verilator's C++ objects through ccache in
# target/tool-cache/ccache); the doc tests (which nextest does not run) follow.
LINTED := RUSTC_WORKSPACE_WRAPPER='$(CURDIR)/scripts/rustc-with-clippy'
# One test more than the machine has cores, so that a core left idle while a test reads,
# writes or starts its next tool goes to the extra one (on the 2-core machine, 3 at a time took
# a clean clone's make test from 14 min 47 s to 14 min 17 s, 2026-12-05; four took 15 min 11 s).
TEST_THREADS := $(shell echo $$(( $$(nproc) + 1 )))
test: tools
	$(CARGO) fmt --all -- --check
	$(LINTED) $(CARGO) build --profile fast-build --benches --features external-tools
	$(LINTED) RETROGATE_TOOL_CACHE='$(CURDIR)/target/tool-cache' $(CARGO) nextest run --cargo-profile fast-build --features external-tools --test-threads $(TEST_THREADS)
	$(LINTED) $(CARGO) test --profile fast-build --features external-tools --doc

# Regenerate the committed outputs (hdl/, sim/, constraints/ and the README's waveform);
# tests/up_to_date.rs fails when they are stale.
generated:
	$(CARGO) run --release --quiet -- emit jr01 --out hdl --sim sim --constraints constraints
	$(CARGO) run --release --quiet -- emit sticks --impl logic --out hdl --constraints constraints
	$(CARGO) run --release --quiet -- emit solver --max-count 255 --max-take 8 --out hdl --constraints constraints
	$(CARGO) run --release --quiet -- emit heaps-solver --out hdl
	$(CARGO) run --release --quiet -- emit heaps-game --out hdl --constraints constraints
	$(CARGO) run --release --quiet -- wave sticks --count 20 --moves 1,3,2 --out docs/sticks-wave.svg --gtkw

# The README's picture of the J.R. 01 circuit as gates (Graphviz dot); tests/up_to_date.rs checks it.
docs: tools
	$(CARGO) run --release --quiet -- schematic jr01 --out docs/jr01-schematic.svg

bench: tools
	$(CARGO) bench

clean:
	$(CARGO) clean
	rm -rf build
