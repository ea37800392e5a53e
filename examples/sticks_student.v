// A hand-written Fort Boyard controller (18 sticks, take 1 to 3, whoever takes the last stick
// loses), as a student might write it: check it against the solver with
//   retrogate verify sticks --dut examples/sticks_student.v
// The port contract (README, "Port contracts"): the sticks_game controller ports. Outputs are
// registered; at power-on there is no game (game_over = 1, remaining = 0).
// THINK is the machine's think time in clock cycles (verify's --think-cycles, 2 by default).
`default_nettype none
module sticks_student #(
    parameter THINK = 2
) (
    input  wire       clock,
    input  wire       reset,
    input  wire       new_game,
    input  wire       machine_first,
    input  wire [1:0] take,
    input  wire       take_valid,
    output reg  [4:0] remaining,
    output wire       human_turn,
    output reg  [1:0] machine_take,
    output wire       game_over,
    output reg        human_won,
    output reg        illegal
);
    localparam [4:0] COUNT = 5'd18;
    // Whose turn: no game (the power-on value), the human's, or the machine's.
    localparam [1:0] OVER = 2'd0, HUMAN = 2'd1, MACHINE = 2'd2;
    // The think countdown, sized for THINK.
    localparam WAIT_BITS = (THINK > 1) ? $clog2(THINK + 1) : 1;
    localparam [WAIT_BITS-1:0] THINK_TIME = THINK;
    localparam [WAIT_BITS-1:0] ONE = 1;

    reg [1:0]           phase = OVER;
    reg [WAIT_BITS-1:0] wait_count = 0;
    initial begin
        remaining    = 5'd0;
        machine_take = 2'd0;
        human_won    = 1'b0;
        illegal      = 1'b0;
    end

    assign human_turn = (phase == HUMAN);
    assign game_over  = (phase == OVER);

    // The human's move is legal when it is 1 to 3 and at most the sticks left.
    wire [4:0] human_move = {3'b000, take};
    wire       human_ok   = (take != 2'd0) && (human_move <= remaining);

    // The machine leaves the human 1 more than a multiple of 4: it takes (n - 1) mod 4. When
    // that is 0 the machine is losing and takes 1, which makes the game last longest.
    wire [1:0] residue = remaining[1:0] - 2'd1;  // (n - 1) mod 4
    wire [1:0] machine_move = (residue == 2'd0) ? 2'd1 : residue;
    wire [4:0] machine_sticks = {3'b000, machine_move};

    always @(posedge clock) begin
        illegal <= 1'b0;
        if (reset || new_game) begin
            remaining    <= COUNT;
            machine_take <= 2'd0;
            human_won    <= 1'b0;
            wait_count   <= THINK_TIME;
            phase        <= machine_first ? MACHINE : HUMAN;
        end else begin
            case (phase)
                HUMAN:
                    if (take_valid) begin
                        if (human_ok) begin
                            remaining <= remaining - human_move;
                            if (human_move == remaining) begin
                                phase <= OVER;  // the human took the last stick and loses
                            end else begin
                                phase      <= MACHINE;
                                wait_count <= THINK_TIME;
                            end
                        end else begin
                            illegal <= 1'b1;
                        end
                    end
                MACHINE: begin
                    illegal <= take_valid;  // not the human's turn
                    if (wait_count != 0) begin
                        wait_count <= wait_count - ONE;
                    end else begin
                        remaining    <= remaining - machine_sticks;
                        machine_take <= machine_move;
                        if (machine_sticks == remaining) begin
                            phase     <= OVER;  // the machine took the last stick
                            human_won <= 1'b1;
                        end else begin
                            phase <= HUMAN;
                        end
                    end
                end
                default: illegal <= take_valid;  // no game
            endcase
        end
    end
endmodule
`default_nettype wire
