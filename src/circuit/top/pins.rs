//! The pin wrapper: a board top assembled from a design's [`Layout`] on a board.
//!
//! [`PinPlan`] resolves the layout against the board's resources and says, for each
//! top-level port (named after the board's PCF pin), which `keys` bit of the
//! design's [`BoardCore`] an input feeds, and what an output shows, with the
//! pin's polarity; a design's role types say that by implementing [`InRole`] and
//! [`OutRole`]. [`BoardTop`] is the top: the core plus the plan. It emits
//! one Verilog module whose ports are the pins (inversions and output
//! selection as `assign`s, input buses through a [`PullDownEmulator`] each,
//! whose `SB_IO` pads also emulate pull-downs where the board needs them),
//! and it simulates the same wrapper in Rust around the rust-hdl core, so the
//! trace tests compare the two cycle by cycle. The file carries the waivers of
//! [`crate::verilog::WAIVERS`] (among them the top's wires of the core outputs a board does not
//! show and of the input-bus bits no key reads), so the top lints clean (issue 21).
//!
//! ```text
//!   board pins ──▶ invert / SB_IO ──▶ keys ──▶ BoardCore ──▶ role outputs
//!   board pins ◀── invert ◀── select bit, game-over blink, held light ◀──┘
//! ```

use std::fmt::Write as _;

use rust_hdl::prelude::*;

use super::layout::{Layout, Port};
use crate::board::{Board, PinDef, Pll};
use crate::circuit::board_io::{PullDownEmulator, PullDownTiming};
use crate::verilog::{
    design_file, emit_modules, module_ports, waive_declfilename, waive_unused, ModulePort, PortDir,
    VerilogError,
};

/// What the pin wrapper needs of a design's core: its clock, its `keys` input and its
/// outputs by name. The core's ports are abstract (`keys` in, role-named outputs out, all
/// active high); the wrapper names them after a board's pins.
pub trait BoardCore: Block {
    /// Width of `keys`.
    const KEYS: usize;
    /// The child-block output wires (rust-hdl's `child$port` stubs, in any module of the core)
    /// the core leaves unread on purpose: their declarations carry Verilator's UNUSEDSIGNAL
    /// waiver ([`crate::verilog::waive_unused`]).
    const UNREAD: &'static [&'static str];
    /// The clock input.
    fn clock(&mut self) -> &mut Signal<In, Clock>;
    /// Set the `keys` input (active high).
    fn set_keys(&mut self, keys: u64);
    /// The value of output `port` (panics on an unknown name: a bug in the design's
    /// [`OutRole`]).
    fn output(&self, port: &str) -> u64;
}

/// A design input role: which `keys` bit of the core it drives (`None`: unused).
pub(crate) trait InRole: Copy {
    fn key(self) -> Option<usize>;
}

/// A design output role: which core output bit it shows (`None`: dark), and whether it is
/// an LED that blinks at game over (the core's `game_over` and `blink` outputs).
pub(crate) trait OutRole: Copy {
    fn source(self) -> Option<(&'static str, usize)>;
    fn blinks(self) -> bool;
}

/// One output bit: what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OutBit {
    /// Core output port and bit; `None`: 0.
    source: Option<(&'static str, usize)>,
    /// At game over, show the core's `blink` instead.
    blinks: bool,
    /// Lit while the core's `holding` is high.
    held: bool,
    /// The pin is active low.
    invert: bool,
}

/// One top-level port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PlanPort {
    /// A one-bit input feeding `keys[key]`.
    Input {
        name: &'static str,
        key: Option<usize>,
        invert: bool,
    },
    /// An inout bus read through a pull-down emulator; bit `i` feeds
    /// `keys[keys[i]]`.
    Bank {
        name: &'static str,
        keys: Vec<Option<usize>>,
        invert: Vec<bool>,
        /// Drive the pins low between samples (pins without pull-downs).
        emulate: bool,
    },
    /// An output, one bit or a bus.
    Output {
        name: &'static str,
        bus: bool,
        bits: Vec<OutBit>,
    },
}

/// The design clock from an iCE40 PLL: the core (and the pull-down emulators) run on the
/// PLL's output, and the core's reset key is held until the PLL reports `LOCK`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PllPlan {
    /// The PLL's dividers and output frequency (board data).
    pll: Pll,
    /// The `keys` bit that resets the core (a reset request while the PLL is not locked).
    reset_key: usize,
}

/// The wrapper of one design on one board, from the board data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PinPlan {
    clock: &'static str,
    ports: Vec<PlanPort>,
    keys: usize,
    pll: Option<PllPlan>,
}

impl PinPlan {
    /// The plan for `layout` on `board`, for a core with `keys` key bits. Where the layout
    /// runs the design from a PLL ([`Layout::pll_hz`]), `reset_key` is the `keys` bit held until
    /// the PLL locks.
    ///
    /// # Panics
    /// If the board cannot serve the layout, or a PLL-clocked layout has no `reset_key` (the
    /// layout tests check every design on every board).
    pub(crate) fn new<I: InRole, O: OutRole>(
        board: &'static Board,
        layout: &Layout<I, O>,
        keys: usize,
        reset_key: Option<usize>,
    ) -> Self {
        let held = |pin: &str| layout.held_lights.contains(&pin);
        let out_bit = |pin: &PinDef, role: O| OutBit {
            source: role.source(),
            blinks: role.blinks(),
            held: held(pin.name),
            invert: pin.is_active_low(),
        };
        let ports = layout
            .ports(board)
            .unwrap_or_else(|e| panic!("layout data: {e}"))
            .into_iter()
            .map(|port| match port {
                Port::Input(pin, role) => PlanPort::Input {
                    name: pin.name,
                    key: role.key(),
                    invert: pin.is_active_low(),
                },
                Port::Output(pin, role) => PlanPort::Output {
                    name: pin.name,
                    bus: false,
                    bits: vec![out_bit(pin, role)],
                },
                Port::InputBus(name, bits) => PlanPort::Bank {
                    name,
                    keys: bits.iter().map(|(_, r)| r.key()).collect(),
                    invert: bits.iter().map(|(p, _)| p.is_active_low()).collect(),
                    emulate: bits.iter().any(|(p, _)| p.needs_pull_down_emulation),
                },
                Port::OutputBus(name, bits) => PlanPort::Output {
                    name,
                    bus: true,
                    bits: bits.iter().map(|&(p, r)| out_bit(p, r)).collect(),
                },
            })
            .collect();
        let pll = layout.pll_hz.map(|hz| {
            let pll = *board
                .pll_at(hz)
                .unwrap_or_else(|| panic!("board data: {} has no PLL for {hz} Hz", board.id));
            let reset_key = reset_key.expect("a PLL-clocked design names its reset key");
            assert!(reset_key < keys, "the reset key is a key bit");
            PllPlan { pll, reset_key }
        });
        PinPlan {
            clock: board.clock.pin,
            ports,
            keys,
            pll,
        }
    }

    /// Input, inout and output port names with widths, in port order
    /// (the clock first).
    fn names(&self) -> Vec<&'static str> {
        std::iter::once(self.clock)
            .chain(self.ports.iter().map(|p| match p {
                PlanPort::Input { name, .. }
                | PlanPort::Bank { name, .. }
                | PlanPort::Output { name, .. } => *name,
            }))
            .collect()
    }
}

/// A pull-down emulator of one of the widths the boards use.
enum Bank {
    W3(PullDownEmulator<3>),
    W5(PullDownEmulator<5>),
    W8(PullDownEmulator<8>),
    W24(PullDownEmulator<24>),
}

macro_rules! each_bank {
    ($bank:expr, $e:ident => $body:expr) => {
        match $bank {
            Bank::W3($e) => $body,
            Bank::W5($e) => $body,
            Bank::W8($e) => $body,
            Bank::W24($e) => $body,
        }
    };
}

impl Bank {
    fn new(width: usize, timing: PullDownTiming, emulate: bool) -> Self {
        fn make<const N: usize>(timing: PullDownTiming, emulate: bool) -> PullDownEmulator<N> {
            let e = PullDownEmulator::new(timing);
            if emulate {
                e
            } else {
                e.passive()
            }
        }
        match width {
            3 => Bank::W3(make(timing, emulate)),
            5 => Bank::W5(make(timing, emulate)),
            8 => Bank::W8(make(timing, emulate)),
            24 => Bank::W24(make(timing, emulate)),
            w => panic!("board data: no pull-down emulator for a {w}-bit bus (add one in pins.rs)"),
        }
    }

    fn width(&self) -> usize {
        match self {
            Bank::W3(_) => 3,
            Bank::W5(_) => 5,
            Bank::W8(_) => 8,
            Bank::W24(_) => 24,
        }
    }

    fn verilog(&self, module: &str) -> Result<String, VerilogError> {
        each_bank!(self, e => emit_modules(e, module))
    }

    #[cfg(test)]
    fn driving(&self) -> bool {
        each_bank!(self, e => e.driving())
    }

    #[cfg(test)]
    fn set_pins(&mut self, value: u64) {
        each_bank!(self, e => e.pins.next = value.into())
    }

    fn value(&self) -> u64 {
        each_bank!(self, e => e.value.val().to_u64())
    }

    fn set_clock(&mut self, clock: Clock) {
        each_bank!(self, e => e.clock.next = clock)
    }

    fn update_all(&mut self) {
        each_bank!(self, e => e.update_all())
    }

    fn has_changed(&self) -> bool {
        each_bank!(self, e => e.has_changed())
    }

    fn connect_all(&mut self) {
        each_bank!(self, e => e.connect_all())
    }
}

/// A board top: a design's [`BoardCore`] wrapped by a [`PinPlan`].
///
/// In simulation, set pins with [`BoardTop::set`] and read them with
/// [`BoardTop::get`] (by PCF name); [`BoardTop::verilog`] emits the top.
pub struct BoardTop<C: BoardCore> {
    /// The design's core.
    pub core: C,
    plan: PinPlan,
    banks: Vec<Bank>,
    /// Values of the one-bit input pins, in port order.
    inputs: Vec<u64>,
    /// Board clock cycles completed (falling edges seen), up to [`PLL_LOCK_CYCLES`]: the
    /// model of the PLL's `LOCK`, as the simulations' behavioural PLL (`flow::equiv`) has it.
    pll_cycles: u32,
    /// The clock level at the last update.
    last_clock: bool,
}

/// Board clock cycles after which the simulation model of the iCE40 PLL raises `LOCK` (the
/// silicon takes up to 50 us); until then the core's reset key is held.
pub const PLL_LOCK_CYCLES: u32 = 3;

/// The net of a top's PLL output clock (the core's clock when the design has a PLL).
pub const PLL_CLOCK: &str = "design_clock";

impl<C: BoardCore> BoardTop<C> {
    pub(crate) fn new(core: C, plan: PinPlan, pull_down: PullDownTiming) -> Self {
        let mut banks = Vec::new();
        let mut inputs = Vec::new();
        for port in &plan.ports {
            match port {
                PlanPort::Bank { keys, emulate, .. } => {
                    banks.push(Bank::new(keys.len(), pull_down, *emulate))
                }
                PlanPort::Input { .. } => inputs.push(0),
                PlanPort::Output { .. } => {}
            }
        }
        BoardTop {
            core,
            plan,
            banks,
            inputs,
            pll_cycles: 0,
            last_clock: false,
        }
    }

    /// The clock input.
    pub fn clock(&mut self) -> &mut Signal<In, Clock> {
        self.core.clock()
    }

    /// The clock pin's name.
    pub fn clock_name(&self) -> &'static str {
        self.plan.clock
    }

    fn input_index(&self, pin: &str) -> usize {
        self.plan
            .ports
            .iter()
            .filter(|p| matches!(p, PlanPort::Input { .. }))
            .position(|p| matches!(p, PlanPort::Input { name, .. } if *name == pin))
            .unwrap_or_else(|| panic!("no input pin {pin}"))
    }

    /// Drive one-bit input pin `pin` (its electrical level).
    pub fn set(&mut self, pin: &str, value: u64) {
        let k = self.input_index(pin);
        self.inputs[k] = value & 1;
    }

    /// The level of output `pin` (a bus as a number, bit 0 = `pin[0]`).
    pub fn get(&self, pin: &str) -> u64 {
        self.plan
            .ports
            .iter()
            .find_map(|p| match p {
                PlanPort::Output { name, bits, .. } if *name == pin => Some(self.output(bits)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no output pin {pin}"))
    }

    /// The one-bit input pins, in port order.
    #[cfg(test)]
    pub(crate) fn input_names(&self) -> Vec<&'static str> {
        self.plan
            .ports
            .iter()
            .filter_map(|p| match p {
                PlanPort::Input { name, .. } => Some(*name),
                _ => None,
            })
            .collect()
    }

    /// The inout buses (name, width), in port order.
    pub(crate) fn bank_names(&self) -> Vec<(&'static str, usize)> {
        self.plan
            .ports
            .iter()
            .filter_map(|p| match p {
                PlanPort::Bank { name, keys, .. } => Some((*name, keys.len())),
                _ => None,
            })
            .collect()
    }

    /// The outputs (name, width), in port order.
    #[cfg(test)]
    pub(crate) fn output_names(&self) -> Vec<(&'static str, usize)> {
        self.plan
            .ports
            .iter()
            .filter_map(|p| match p {
                PlanPort::Output { name, bits, .. } => Some((*name, bits.len())),
                _ => None,
            })
            .collect()
    }

    /// Set the one-bit inputs from `row`, in port order.
    #[cfg(test)]
    pub(crate) fn apply_inputs(&mut self, row: &[u64]) {
        for (k, v) in row.iter().take(self.inputs.len()).enumerate() {
            self.inputs[k] = v & 1;
        }
    }

    /// Every output, in port order.
    #[cfg(test)]
    pub(crate) fn sample_outputs(&self) -> Vec<u64> {
        self.plan
            .ports
            .iter()
            .filter_map(|p| match p {
                PlanPort::Output { bits, .. } => Some(self.output(bits)),
                _ => None,
            })
            .collect()
    }

    /// Whether inout bus `k` is driven by the design right now.
    #[cfg(test)]
    pub(crate) fn bank_driving(&self, k: usize) -> bool {
        self.banks[k].driving()
    }

    /// The level on inout bus `k` when the design does not drive it.
    #[cfg(test)]
    pub(crate) fn bank_set(&mut self, k: usize, value: u64) {
        self.banks[k].set_pins(value);
    }

    /// The PLL's `LOCK` as modelled (always locked without a PLL).
    fn pll_locked(&self) -> bool {
        self.plan.pll.is_none() || self.pll_cycles >= PLL_LOCK_CYCLES
    }

    fn keys(&self) -> u64 {
        let mut keys = 0u64;
        if let Some(pll) = &self.plan.pll {
            if !self.pll_locked() {
                keys |= 1 << pll.reset_key;
            }
        }
        let (mut input, mut bank) = (0, 0);
        for port in &self.plan.ports {
            match port {
                PlanPort::Input { key, invert, .. } => {
                    if let Some(k) = key {
                        keys |= (self.inputs[input] ^ u64::from(*invert)) << k;
                    }
                    input += 1;
                }
                PlanPort::Bank {
                    keys: bits, invert, ..
                } => {
                    let value = self.banks[bank].value();
                    for (i, key) in bits.iter().enumerate() {
                        if let Some(k) = key {
                            keys |= ((value >> i & 1) ^ u64::from(invert[i])) << k;
                        }
                    }
                    bank += 1;
                }
                PlanPort::Output { .. } => {}
            }
        }
        keys
    }

    fn output(&self, bits: &[OutBit]) -> u64 {
        bits.iter().enumerate().fold(0, |acc, (i, b)| {
            let mut v = match b.source {
                Some((port, bit)) => self.core.output(port) >> bit & 1,
                None => 0,
            };
            if b.blinks && self.core.output("game_over") != 0 {
                v = self.core.output("blink");
            }
            if b.held {
                v |= self.core.output("holding");
            }
            acc | (v ^ u64::from(b.invert)) << i
        })
    }

    /// The top as Verilog: module `module` with the pins as ports, the core
    /// as `<module>_core`, each input bus's emulator as
    /// `<module>_<bus>_pull_down`.
    pub fn verilog(&self, module: &str) -> Result<String, VerilogError> {
        let core_module = format!("{module}_core");
        let core = waive_unused(&emit_modules(&self.core, &core_module)?, C::UNREAD);
        let core_ports =
            module_ports(&core, &core_module).expect("rust-hdl declares every port of the core");
        let range = |w: usize| {
            if w == 1 {
                String::new()
            } else {
                format!(" [{}:0]", w - 1)
            }
        };
        let width_of = |port: &str| {
            core_ports
                .iter()
                .find(|p| p.name == port)
                .map(|p| p.width)
                .unwrap_or_else(|| panic!("{core_module} has no port {port}"))
        };
        let core_bit = |port: &str, bit: usize| {
            if width_of(port) == 1 {
                format!("core_{port}")
            } else {
                format!("core_{port}[{bit}]")
            }
        };
        let board_clock = self.plan.clock;
        // The core's clock: the board clock, or the PLL's output.
        let clock = if self.plan.pll.is_some() {
            PLL_CLOCK
        } else {
            board_clock
        };
        let mut v = String::new();
        let _ = writeln!(v, "\n\nmodule {module}({});", self.plan.names().join(","));
        let _ = writeln!(v, "\n    // Board pins");
        let _ = writeln!(v, "    input wire {board_clock};");
        let mut keys = vec!["1'b0".to_string(); self.plan.keys];
        let mut assigns = Vec::new();
        let mut instances = Vec::new();
        let mut locals = Vec::new();
        // The core output bits the board shows.
        let mut read: Vec<(&str, usize)> = Vec::new();
        // The input-bus wires with a bit no key reads.
        let mut unread: Vec<String> = Vec::new();
        for port in &self.plan.ports {
            match port {
                PlanPort::Input { name, key, invert } => {
                    let _ = writeln!(v, "    input wire {name};");
                    if let Some(k) = key {
                        keys[*k] = format!("{}{name}", if *invert { "~" } else { "" });
                    }
                }
                PlanPort::Bank {
                    name,
                    keys: bits,
                    invert,
                    ..
                } => {
                    let w = bits.len();
                    let _ = writeln!(v, "    inout wire{} {name};", range(w));
                    locals.push(format!("    wire{} {name}_value;", range(w)));
                    instances.push(format!(
                        "    {module}_{name}_pull_down {name}_pull_down(.clock({clock}), .pins({name}), .value({name}_value));"
                    ));
                    for (i, key) in bits.iter().enumerate() {
                        if let Some(k) = key {
                            keys[*k] =
                                format!("{}{name}_value[{i}]", if invert[i] { "~" } else { "" });
                        }
                    }
                    if bits.iter().any(Option::is_none) {
                        unread.push(format!("{name}_value"));
                    }
                }
                PlanPort::Output { name, bus, bits } => {
                    let _ = writeln!(
                        v,
                        "    output wire{} {name};",
                        range(if *bus { bits.len() } else { 1 })
                    );
                    for (i, b) in bits.iter().enumerate() {
                        let mut e = match b.source {
                            Some((port, bit)) => {
                                read.push((port, bit));
                                core_bit(port, bit)
                            }
                            None => "1'b0".to_string(),
                        };
                        if b.blinks {
                            read.extend([("game_over", 0), ("blink", 0)]);
                            e = format!("(core_game_over ? core_blink : {e})");
                        }
                        if b.held {
                            read.push(("holding", 0));
                            e = format!("(core_holding | {e})");
                        }
                        if b.invert {
                            e = format!("~{e}");
                        }
                        let target = if *bus {
                            format!("{name}[{i}]")
                        } else {
                            name.to_string()
                        };
                        assigns.push(format!("    assign {target} = {e};"));
                    }
                }
            }
        }
        if let Some(PllPlan { pll, reset_key }) = self.plan.pll {
            let _ = writeln!(
                v,
                "\n    // Design clock: {} MHz from the board clock by the PLL (icepll's dividers); the\n    \
                 // core is held in reset until the PLL locks.",
                f64::from(pll.hz) / 1e6
            );
            let _ = writeln!(
                v,
                "    wire {PLL_CLOCK};\n    wire pll_lock;\n    wire unused_pll_core_clock;\n    wire unused_pll_sdo;"
            );
            let _ = writeln!(
                v,
                "    SB_PLL40_CORE #(.FEEDBACK_PATH(\"SIMPLE\"), .DIVR(4'd{}), .DIVF(7'd{}), .DIVQ(3'd{}), \
                 .FILTER_RANGE(3'd{})) pll(.REFERENCECLK({board_clock}), .PLLOUTGLOBAL({PLL_CLOCK}), \
                 .LOCK(pll_lock), .RESETB(1'b1), .BYPASS(1'b0), .EXTFEEDBACK(1'b0), \
                 .DYNAMICDELAY(8'd0), .LATCHINPUTVALUE(1'b0), .SDI(1'b0), .SCLK(1'b0), \
                 .PLLOUTCORE(unused_pll_core_clock), .SDO(unused_pll_sdo));",
                pll.divr, pll.divf, pll.divq, pll.filter_range
            );
            keys[reset_key] = format!("({} | ~pll_lock)", keys[reset_key]);
        }
        let _ = writeln!(v, "\n    // Design core");
        let mut conns = vec![format!(".clock({clock})")];
        for p in &core_ports {
            match p.dir {
                PortDir::Output => {
                    let _ = writeln!(v, "    wire{} core_{};", range(p.width), p.name);
                    conns.push(format!(".{0}(core_{0})", p.name));
                }
                _ if p.name == "keys" => {
                    let _ = writeln!(v, "    wire{} core_keys;", range(p.width));
                    conns.push(".keys(core_keys)".to_string());
                }
                _ => {}
            }
        }
        for l in &locals {
            let _ = writeln!(v, "{l}");
        }
        let _ = writeln!(v, "    {core_module} core({});", conns.join(", "));
        for i in &instances {
            let _ = writeln!(v, "{i}");
        }
        keys.reverse();
        let _ = writeln!(v, "    assign core_keys = {{{}}};", keys.join(", "));
        let _ = writeln!(v, "\n    // Outputs");
        for a in &assigns {
            let _ = writeln!(v, "{a}");
        }
        let _ = writeln!(v, "endmodule // {module}");
        v.push_str("\n\n");
        v.push_str(&core);
        let mut bank = 0;
        for port in &self.plan.ports {
            if let PlanPort::Bank { name, .. } = port {
                let m = format!("{module}_{name}_pull_down");
                debug_assert_eq!(self.banks[bank].width(), self.bank_names()[bank].1);
                v.push_str("\n\n");
                v.push_str(&self.banks[bank].verilog(&m)?);
                bank += 1;
            }
        }
        let what = format!("board top around {}", core_name::<C>());
        unread.extend(unread_outputs(&core_ports, &read));
        let unread: Vec<&str> = unread.iter().map(String::as_str).collect();
        Ok(waive_declfilename(&waive_unused(
            &design_file(module, &what, &v),
            &unread,
        )))
    }
}

/// The top's wires of the core outputs with a bit not in `read` (`core_<port>`).
fn unread_outputs(ports: &[ModulePort], read: &[(&str, usize)]) -> Vec<String> {
    ports
        .iter()
        .filter(|p| p.dir == PortDir::Output)
        .filter(|p| (0..p.width).any(|bit| !read.contains(&(p.name.as_str(), bit))))
        .map(|p| format!("core_{}", p.name))
        .collect()
}

/// The core's type name without its module path (`SticksBoardCore<5, 2, 4>`), for the top's
/// header: it names the core and its widths, and stays the same when the code moves.
fn core_name<C>() -> &'static str {
    let full = std::any::type_name::<C>();
    let generics = full.find('<').unwrap_or(full.len());
    let start = full[..generics].rfind("::").map_or(0, |i| i + 2);
    &full[start..]
}

impl<C: BoardCore> Logic for BoardTop<C> {
    fn update(&mut self) {
        let clock = self.core.clock().val();
        // The PLL model counts completed board clock cycles (falling edges), so the key it
        // holds changes while the clock is low, like the other inputs.
        if self.last_clock && !clock.clk && self.pll_cycles < PLL_LOCK_CYCLES {
            self.pll_cycles += 1;
        }
        self.last_clock = clock.clk;
        for bank in &mut self.banks {
            bank.set_clock(clock);
        }
        let keys = self.keys();
        self.core.set_keys(keys);
    }
}

impl<C: BoardCore> Block for BoardTop<C> {
    fn connect_all(&mut self) {
        self.core.connect_all();
        for bank in &mut self.banks {
            bank.connect_all();
        }
    }

    fn update_all(&mut self) {
        self.update();
        self.core.update_all();
        for bank in &mut self.banks {
            bank.update_all();
        }
    }

    fn has_changed(&self) -> bool {
        self.core.has_changed() || self.banks.iter().any(Bank::has_changed)
    }

    fn accept(&self, name: &str, probe: &mut dyn Probe) {
        self.core.accept(name, probe);
    }
}
