// SPDX-License-Identifier: Apache-2.0
// Pin-light synthesis wrapper of a TDM tile or of the reference crossbar for rtl/synth/tdm_synth.sh
// (docs/tdm-tile.md). Yosys 0.23 portable subset.
//
// The design's link ports are looped back (output link o drives input link o), as a neighbour's
// registered outputs would drive them in a network: no wrapper logic on the links, and every link
// path starts and ends at a design register. The local and control inputs (the s_axis lanes, the
// m_axis_tready bits, the table write port, run_i, period_last_i; the crossbar's local input link)
// come from a serial-in shift register (one flip-flop per bit), and the local outputs (the m_axis
// lanes, the s_axis_tready bits, missed_o, error_o; the crossbar's local output link) are
// parallel-loaded (load_i) into a serial-out shift register, in the layout of totex_tdm_pkg's io_*
// functions. So every path starts and ends at a flip-flop, nothing is constant (the table is loaded
// at run time) and the design fits the 39 IO of the iCE40UP5K-SG48. Not a functional top: for
// resources and timing.

/// A TDM tile (Kind: totex_tdm_pkg::KIND_NIC, KIND_ALLPORT, KIND_SINGLE) or the crossbar
/// (KIND_XBAR) with looped-back links and serialised local/control IO.
module totex_synth_tdm #(
  /// The design: totex_tdm_tile, totex_tdm_allport_tile, totex_tdm_single_tile or totex_tdm_xbar.
  parameter int unsigned Kind = totex_tdm_pkg::KIND_NIC,
  /// The design's parameters (NodeW, TableFile, BitsInFlops: not the crossbar's; BufDepth: the
  /// single-port tile's only).
  parameter int unsigned NumPorts = 32'd4,
  parameter int unsigned PayloadW = 32'd32,
  parameter int unsigned NodeW = 32'd6,
  parameter int unsigned Depth = 32'd128,
  parameter int unsigned BufDepth = 32'd64,
  parameter TableFile = "",
  parameter bit BitsInFlops = 1'b0,
  /// 1 (Kind KIND_NIC only): the nic tile with its control port and shadow bank
  /// (totex_tdm_ctl_tile); the AXI4-Lite inputs (awvalid, awaddr, wvalid, wdata, bready, arvalid,
  /// araddr, rready) follow the serial input's other bits, its outputs (awready, wready, bvalid,
  /// arready, rvalid, rdata) the serial output's; the table write port's bits are left unused.
  parameter bit Ctl = 1'b0,
  /// The tile's NIC queue depth (QueueDepth of totex_tdm_tile, totex_tdm_allport_tile,
  /// totex_tdm_single_tile; not with Ctl, not the crossbar's): above 1 the entry has its last bits
  /// and m_axis_tlast (a bit per lane) follows the serial output's other bits.
  parameter int unsigned QueueDepth = 32'd1,
  /// Bits of missed_o; do not overwrite.
  localparam int unsigned MissW = 32'd16,
  /// Streams of the local side; do not overwrite.
  localparam int unsigned Lanes = totex_tdm_pkg::lanes(Kind, NumPorts),
  /// Bits of a table entry, a slot number, the serial input and output; do not overwrite.
  localparam int unsigned LastW = totex_tdm_pkg::last_width(Kind, NumPorts, QueueDepth),
  localparam int unsigned EntryW = totex_tdm_pkg::kind_entry_width(Kind, NumPorts, NodeW,
                                                                   totex_pkg::idx_width(BufDepth))
                                   + LastW,
  localparam int unsigned SlotW = totex_pkg::idx_width(Depth),
  localparam int unsigned BaseInW = totex_tdm_pkg::io_in_width(Kind, NumPorts, PayloadW, NodeW,
                                                             SlotW, EntryW),
  localparam int unsigned BaseOutW = totex_tdm_pkg::io_out_width(Kind, NumPorts, PayloadW, NodeW,
                                                               MissW) + LastW,
  /// The control port's address bits and serial bits (Ctl); do not overwrite.
  localparam int unsigned AxAddrW = ((SlotW > 32'd5) ? SlotW : 32'd5) + 32'd3,
  localparam int unsigned CtlInW = Ctl ? 32'd37 + 32'd2 * AxAddrW : 32'd0,
  localparam int unsigned CtlOutW = Ctl ? 32'd37 : 32'd0,
  localparam int unsigned InW = BaseInW + CtlInW,
  localparam int unsigned OutW = BaseOutW + CtlOutW
) (
  /// Clock, rising edge.
  input  logic clk_i,
  /// Asynchronous active-low reset.
  input  logic rst_ni,
  /// Serial input (shifted in every cycle).
  input  logic sin_i,
  /// Load the outputs into the serial output register.
  input  logic load_i,
  /// Serial output.
  output logic sout_o
);
  localparam int unsigned W = PayloadW;
  localparam int unsigned P = NumPorts;
  if (Kind > totex_tdm_pkg::KIND_XBAR) begin : gen_kind_err
    $error("totex_synth_tdm: Kind must be one of totex_tdm_pkg::KIND_*");
  end
  if (QueueDepth > 32'd1 && (Kind == totex_tdm_pkg::KIND_XBAR || Ctl)) begin : gen_queue_err
    $error("totex_synth_tdm: QueueDepth > 1 is the tiles' (not the ctl tile's or the crossbar's)");
  end
  localparam int unsigned LaneW = totex_tdm_pkg::io_lane_width(Kind, PayloadW, NodeW);
  localparam int unsigned RdyLsb = totex_tdm_pkg::io_ready_lsb(Kind, NumPorts, PayloadW, NodeW);
  localparam int unsigned TblLsb = totex_tdm_pkg::io_table_lsb(Kind, NumPorts, PayloadW, NodeW);
  localparam int unsigned RunLsb = totex_tdm_pkg::io_run_lsb(Kind, NumPorts, PayloadW, NodeW, SlotW,
                                                            EntryW);
  logic [InW-1:0]  in_q;
  logic [OutW-1:0] out_d;
  totex_synth_sipo #(.Width(InW)) u_in (.clk_i, .rst_ni, .sin_i, .q_o(in_q));
  totex_synth_piso #(.Width(OutW)) u_out (.clk_i, .rst_ni, .load_i, .d_i(out_d), .sout_o);

  // The control inputs, named as the designs' ports (connected by name below).
  logic              tbl_we_i, run_i;
  logic [SlotW-1:0]  tbl_addr_i, period_last_i;
  logic [EntryW-1:0] tbl_data_i;
  assign {tbl_data_i, tbl_addr_i, tbl_we_i} = in_q[TblLsb +: EntryW + SlotW + 32'd1];
  assign {period_last_i, run_i}             = in_q[RunLsb +: SlotW + 32'd1];

  if (Kind == totex_tdm_pkg::KIND_XBAR) begin : gen_xbar
    // Port P of the crossbar is the local one: its input and output are the serial lane.
    logic [P:0]         in_valid_i, out_valid_o;
    logic [(P+1)*W-1:0] in_data_i, out_data_o;
    assign in_valid_i = {in_q[0], out_valid_o[P-1:0]};
    assign in_data_i  = {in_q[1 +: W], out_data_o[P*W-1:0]};
    assign out_d      = {out_data_o[P*W +: W], out_valid_o[P]};
    totex_tdm_xbar #(.NumPorts(P), .PayloadW(W), .Depth(Depth)) u_dut (.*);
  end else begin : gen_tile
    logic [P-1:0]           in_valid_i, out_valid_o;
    logic [P*W-1:0]         in_data_i, out_data_o;
    logic [Lanes-1:0]       s_axis_tvalid, s_axis_tready, m_axis_tvalid, m_axis_tready;
    logic [Lanes*W-1:0]     s_axis_tdata, m_axis_tdata;
    logic [Lanes*NodeW-1:0] s_axis_tdest, m_axis_tid;
    logic [Lanes-1:0]       m_axis_tlast;
    logic [MissW-1:0]       missed_o;
    logic                   error_o;
    assign in_valid_i = out_valid_o;
    assign in_data_i  = out_data_o;
    for (genvar l = 0; l < Lanes; l++) begin : gen_lane_io
      assign {s_axis_tdest[l*NodeW +: NodeW], s_axis_tdata[l*W +: W], s_axis_tvalid[l]}
        = in_q[l*LaneW +: LaneW];
      assign out_d[l*LaneW +: LaneW]
        = {m_axis_tid[l*NodeW +: NodeW], m_axis_tdata[l*W +: W], m_axis_tvalid[l]};
    end
    assign m_axis_tready = in_q[RdyLsb +: Lanes];
    assign out_d[RdyLsb +: Lanes + MissW + 32'd1] = {error_o, missed_o, s_axis_tready};
    // m_axis_tlast, one bit per lane: into the outputs where a NIC queue numbers a message's flits.
    if (LastW != 32'd0) begin : gen_last
      assign out_d[BaseOutW - LastW +: LastW] = m_axis_tlast;
    end else begin : gen_no_last
      // Waiver: with one message per destination every flit is its message's last (constant).
      /* verilator lint_off UNUSEDSIGNAL */
      logic unused_tlast;
      assign unused_tlast = ^m_axis_tlast;
      /* verilator lint_on UNUSEDSIGNAL */
    end
    // One labelled block per kind (an else-if chain would add an unnamed genblk level).
    if (Kind == totex_tdm_pkg::KIND_NIC && Ctl) begin : gen_ctl
      logic                s_axil_awvalid, s_axil_awready, s_axil_wvalid, s_axil_wready;
      logic                s_axil_bvalid, s_axil_bready, s_axil_arvalid, s_axil_arready;
      logic                s_axil_rvalid, s_axil_rready;
      logic [AxAddrW-1:0]  s_axil_awaddr, s_axil_araddr;
      logic [31:0]         s_axil_wdata, s_axil_rdata;
      logic [2:0]          s_axil_awprot, s_axil_arprot;
      logic [3:0]          s_axil_wstrb;
      // Waiver: the responses are always OKAY, and the table write port's bits are not used.
      /* verilator lint_off UNUSEDSIGNAL */
      logic [1:0]          s_axil_bresp, s_axil_rresp;
      logic                unused_tbl;
      assign unused_tbl = ^{tbl_we_i, tbl_addr_i, tbl_data_i, s_axil_bresp, s_axil_rresp};
      /* verilator lint_on UNUSEDSIGNAL */
      assign {s_axil_rready, s_axil_araddr, s_axil_arvalid, s_axil_bready, s_axil_wdata,
              s_axil_wvalid, s_axil_awaddr, s_axil_awvalid} = in_q[BaseInW +: CtlInW];
      assign s_axil_awprot = 3'd0;
      assign s_axil_arprot = 3'd0;
      assign s_axil_wstrb  = 4'hf;
      assign out_d[BaseOutW +: CtlOutW] = {s_axil_rdata, s_axil_rvalid, s_axil_arready,
                                           s_axil_bvalid, s_axil_wready, s_axil_awready};
      assign m_axis_tlast = 1'b1;  // the ctl tile has none: one message per destination
      totex_tdm_ctl_tile #(.NumPorts(P), .PayloadW(W), .NodeW(NodeW), .Depth(Depth),
        .TableFile(TableFile), .MissW(MissW), .BitsInFlops(BitsInFlops)) u_dut (.*);
    end
    if (Kind == totex_tdm_pkg::KIND_NIC && !Ctl) begin : gen_nic
      totex_tdm_tile #(.NumPorts(P), .PayloadW(W), .NodeW(NodeW), .Depth(Depth),
        .TableFile(TableFile), .MissW(MissW), .BitsInFlops(BitsInFlops),
        .QueueDepth(QueueDepth)) u_dut (.*);
    end
    if (Kind == totex_tdm_pkg::KIND_ALLPORT) begin : gen_allport
      totex_tdm_allport_tile #(.NumPorts(P), .PayloadW(W), .NodeW(NodeW), .Depth(Depth),
        .TableFile(TableFile), .MissW(MissW), .BitsInFlops(BitsInFlops),
        .QueueDepth(QueueDepth)) u_dut (.*);
    end
    if (Kind == totex_tdm_pkg::KIND_SINGLE) begin : gen_single
      totex_tdm_single_tile #(.NumPorts(P), .PayloadW(W), .NodeW(NodeW), .Depth(Depth),
        .BufDepth(BufDepth), .TableFile(TableFile), .MissW(MissW), .BitsInFlops(BitsInFlops),
        .QueueDepth(QueueDepth)) u_dut (.*);
    end
  end
endmodule
