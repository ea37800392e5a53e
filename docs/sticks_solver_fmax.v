// Timing wrapper for `retrogate emit solver --max-count 255 --max-take 8`: the solver has 46
// ports, more than the UP5K's SG48 package has pins, so its 25 configuration and query inputs
// come from a shift register (pins: clock, reset, start, shift, sdata); its 15 outputs go to
// pins. Only for nextpnr's Fmax figure (README, "The on-chip solver"); the shift register adds
// 25 flip-flops that the solver alone does not have.
`default_nettype none
module sticks_solver_fmax (
    input wire clock,
    input wire reset,
    input wire start,
    input wire shift,
    input wire sdata,
    output wire busy,
    output wire done,
    output wire query_winning,
    output wire [7:0] query_depth,
    output wire [3:0] query_take
);
    reg [24:0] config_bits = 25'd0;
    always @(posedge clock) begin
        if (shift) config_bits <= {config_bits[23:0], sdata};
    end
    sticks_solver solver (
        .clock(clock), .reset(reset),
        .take_set(config_bits[7:0]), .count(config_bits[15:8]), .last_wins(config_bits[16]),
        .start(start), .busy(busy), .done(done), .query(config_bits[24:17]),
        .query_winning(query_winning), .query_depth(query_depth), .query_take(query_take)
    );
endmodule
`default_nettype wire
