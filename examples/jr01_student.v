// A hand-written J.R. 01 strategy circuit, as a student might write it: check it against the
// solver with
//   retrogate verify jr01 --dut examples/jr01_student.v
// The port contract (README, "Port contracts"): inputs a b c, outputs x y z, one bit each.
// The module may have any name (give it with --top when the file has several top modules).
`default_nettype none
module jr01_student (
    input  wire a,
    input  wire b,
    input  wire c,
    output wire x,
    output wire y,
    output wire z
);
    assign x = a | (b & c);
    assign y = (b ^ c) | (a & ~c);
    assign z = ~(a | b) | (b & ~c);
endmodule
`default_nettype wire
