//! The play rules of a stick-game controller, written once: [`play_update!`] generates the
//! `#[hdl_gen]` `update()` of both controllers, [`super::SticksCore`] (the `sticks_game`
//! logic, its game fixed at build time) and
//! [`SticksSolverGame`](crate::circuit::sticks_solver_game::SticksSolverGame) (the game sampled
//! at run time and solved on the chip), so the two play every game by one state machine.
//!
//! # The state machine
//! Registers: `sticks_left`, `last_machine_take`, `waiting_for_human`, `thinking`, `won`,
//! `refused` (the `illegal` pulse) and the think timer. Every output is a register (or, for
//! `game_over`, a function of registers), all 0 at power-on: no game.
//!
//! * A start (`reset` or `new_game`) is each controller's own (`start:`): `sticks_game` starts
//!   the game at once, the solver's game samples its game and solves it first (`solving:`, a
//!   phase before play).
//! * While `waiting_for_human`: a `take_valid` with a legal `take` (`move_check.legal`) makes
//!   the move (`sticks_left` becomes `move_check.after`), loads the think timer, and either
//!   ends the game, when the machine then has no move (`move_check.ends`): the human wins unless
//!   the pile is empty under last-loses; or hands the turn to the machine (`thinking`). An
//!   illegal take raises `illegal` for a cycle and changes nothing.
//! * While `thinking`: a `take_valid` raises `illegal`; at a `tick` with the timer done the
//!   machine moves its move (`machine_take:`) if it is legal (`machine_legal:`), and either ends
//!   the game when the human then has no move (`machine_ends:`): the human wins only on an
//!   empty pile (`machine_empties:`) under last-loses; or hands the turn back. With no legal
//!   move the machine is at an end position and its lookup's verdict decides
//!   (`machine_winning:`).
//! * Otherwise (game over): a `take_valid` raises `illegal`.
//!
//! The hooks are token lists spliced into the one body, so each controller's Verilog is
//! exactly what its hand-written `update()` gave (the committed `hdl/sticks_game.v` and the
//! board tops are byte for byte the same). The caller writes the attribute and the receiver
//! (`#[hdl_gen] fn update(&mut self);`): macro hygiene keeps a method's `self` apart from a
//! `self` written in a macro, and `#[hdl_gen]` generates `connect()` in the attribute's
//! context, so both must come from the caller, like the hooks.

/// The `#[hdl_gen] fn update(&mut self)` of a stick-game controller (see the module docs),
/// invoked as `play_update! { #[hdl_gen] fn update(&mut self); dffs: [...], ... }`:
///
/// * `dffs` / `clocked`: the controller's own registers and clocked blocks, after the shared
///   ones (`sticks_left` .. `won`; `refused`, `timer`);
/// * `wiring`: statements before the move check's inputs (the lookup's or the solver's);
/// * `machine_take`: the machine's move (an expression), both for the subtractor and for
///   `last_machine_take`;
/// * `checks`: statements after the move check's inputs (run-time take set, ...);
/// * `game_over`: the `game_over` output (an expression);
/// * `outputs`: the controller's own outputs;
/// * `start`: the body of a start (`reset` or `new_game`);
/// * `solving` (optional): a condition and body of a phase between a start and play;
/// * `last_loses`, `machine_legal`, `machine_ends`, `machine_empties`, `machine_winning`:
///   expressions;
/// * `after`: statements after the state machine.
macro_rules! play_update {
    (
        $hash:tt $attr:tt
        fn update(&mut $s:tt);
        dffs: [$($dff:ident),* $(,)?],
        clocked: [$($clk:ident),* $(,)?],
        wiring: { $($wiring:tt)* },
        machine_take: { $($machine_take:tt)+ },
        checks: { $($checks:tt)* },
        game_over: { $($game_over:tt)+ },
        outputs: { $($outputs:tt)* },
        start: { $($start:tt)* },
        $(solving: { $($solving_if:tt)+ } { $($solving:tt)* },)?
        last_loses: { $($last_loses:tt)+ },
        machine_legal: { $($machine_legal:tt)+ },
        machine_ends: { $($machine_ends:tt)+ },
        machine_empties: { $($machine_empties:tt)+ },
        machine_winning: { $($machine_winning:tt)+ },
        after: { $($after:tt)* } $(,)?
    ) => {
        $hash $attr
        fn update(&mut $s) {
            dff_setup!(
                $s,
                clock,
                sticks_left,
                last_machine_take,
                waiting_for_human,
                thinking,
                won
                $(, $dff)*
            );
            clock!($s, clock, refused, timer $(, $clk)*);
            $($wiring)*
            $s.move_check.remaining.next = $s.sticks_left.q.val();
            $s.move_check.take.next = $s.take.val();
            $s.move_check.made.next = $s.take.val();
            if $s.thinking.q.val() {
                $s.move_check.made.next = $($machine_take)+;
            }
            $($checks)*
            $s.timer.tick.next = $s.tick.val();
            $s.timer.load.next = false;
            $s.remaining.next = $s.sticks_left.q.val();
            $s.human_turn.next = $s.waiting_for_human.q.val();
            $s.machine_take.next = $s.last_machine_take.q.val();
            $s.game_over.next = $($game_over)+;
            $s.human_won.next = $s.won.q.val();
            $s.illegal.next = $s.refused.q.val();
            $($outputs)*
            $s.refused.d.next = false;
            if $s.reset.val() | $s.new_game.val() {
                $($start)*
            } $(else if $($solving_if)+ {
                $($solving)*
            })? else if $s.waiting_for_human.q.val() {
                if $s.take_valid.val() {
                    if $s.move_check.legal.val() {
                        $s.sticks_left.d.next = $s.move_check.after.val();
                        $s.waiting_for_human.d.next = false;
                        $s.timer.load.next = true;
                        if $s.move_check.ends.val() {
                            $s.thinking.d.next = false;
                            $s.won.d.next = !($($last_loses)+ & $s.move_check.empties.val());
                        } else {
                            $s.thinking.d.next = true;
                        }
                    } else {
                        $s.refused.d.next = true;
                    }
                }
            } else if $s.thinking.q.val() {
                $s.refused.d.next = $s.take_valid.val();
                if $s.tick.val() & $s.timer.done.val() {
                    $s.thinking.d.next = false;
                    if $($machine_legal)+ {
                        $s.sticks_left.d.next = $s.move_check.after.val();
                        $s.last_machine_take.d.next = $($machine_take)+;
                        if $($machine_ends)+ {
                            $s.waiting_for_human.d.next = false;
                            $s.won.d.next = $($last_loses)+ & $($machine_empties)+;
                        } else {
                            $s.waiting_for_human.d.next = true;
                        }
                    } else {
                        $s.won.d.next = !$($machine_winning)+;
                    }
                }
            } else {
                $s.refused.d.next = $s.take_valid.val();
            }
            $($after)*
        }
    };
}

pub(crate) use play_update;
