// Timing wrapper for `retrogate emit heaps-solver` (T = 63, A = 2, M = 3): the solver has 42
// port bits, more than the UP5K's SG48 package has pins, so its 24 configuration and query inputs
// come from a shift register (pins: clock, reset, start, shift, sdata); its 15 output bits go to
// pins. Only for nextpnr's Fmax figure (docs/heaps_solver.md, "Size and speed"); the shift register
// adds 24 flip-flops that the solver alone does not have.
`default_nettype none
module heaps_solver_fmax (
    input wire clock,
    input wire reset,
    input wire start,
    input wire shift,
    input wire sdata,
    output wire busy,
    output wire done,
    output wire query_winning,
    output wire [6:0] query_depth,
    output wire query_heap,
    output wire [2:0] query_move,
    output wire query_blunder
);
    reg [23:0] config_bits = 24'd0;
    always @(posedge clock) begin
        if (shift) config_bits <= {config_bits[22:0], sdata};
    end
    heaps_solver solver (
        .clock(clock), .reset(reset),
        .adds(config_bits[1:0]), .muls(config_bits[4:2]), .target(config_bits[10:5]),
        .last_wins(config_bits[11]), .start(start), .busy(busy), .done(done),
        .query_a(config_bits[17:12]), .query_b(config_bits[23:18]),
        .query_winning(query_winning), .query_depth(query_depth), .query_heap(query_heap),
        .query_move(query_move), .query_blunder(query_blunder)
    );
endmodule
`default_nettype wire
