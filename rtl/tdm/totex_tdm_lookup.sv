// SPDX-License-Identifier: Apache-2.0
/// Pipelined lookup of one bit of the NIC's valid vector (v_i[d], one bit per destination) for a
/// stream of destinations d: Stages = ceil(NodeW/2) register stages, a 4:1 mux of two index bits
/// each, so every path is at most two LUT4 levels. All stages move together when adv_i is high
/// and hold otherwise.
///
/// The result (out_view_o) is v_i[d] as it was in the cycle d entered: a view, Stages or more
/// cycles old. The tile makes the views safe (docs/tdm-tile.md): a view is only trusted in the
/// direction the other side can change the bit, and in_flags_i (one bit per possible conflict:
/// an earlier d of the same stream still in flight, or just decided, with the same value) marks
/// the entries whose own stream changed the bit since; they come out with out_conf_o high.
/// Stage contents are visible (stage_*_o) for those comparisons.
`default_nettype none

module totex_tdm_lookup #(
  /// Bits of a destination id; the vector has 2**NodeW bits.
  parameter int unsigned NodeW = 32'd6,
  /// Bits carried along with each d (not interpreted).
  parameter int unsigned TagW = 32'd1,
  /// Conflict flags of an entering d (ORed into out_conf_o).
  parameter int unsigned FlagN = 32'd1,
  /// Bits of the valid vector; do not overwrite.
  localparam int unsigned Nodes = 32'd1 << NodeW,
  /// Register stages; do not overwrite.
  localparam int unsigned Stages = totex_tdm_pkg::lookup_stages(NodeW)
) (
  /// Clock, rising edge.
  input  logic                    clk_i,
  /// Asynchronous active-low reset (valid and key bits only).
  input  logic                    rst_ni,
  /// Drop every lookup in flight (valid and key bits cleared at this edge).
  input  logic                    flush_i,
  /// All stages advance (the input enters, the output leaves) at this edge.
  input  logic                    adv_i,
  /// The input carries a d to look up.
  input  logic                    in_valid_i,
  /// A bit carried with the entry and shown per stage (qualifies it for conflict checks).
  input  logic                    in_key_i,
  /// The d to look up.
  input  logic [NodeW-1:0]        in_d_i,
  /// Carried along.
  input  logic [TagW-1:0]         in_tag_i,
  /// Conflict flags of the entering d.
  input  logic [FlagN-1:0]        in_flags_i,
  /// The valid vector (registered in the parent).
  input  logic [Nodes-1:0]        v_i,
  /// Stage s holds an entry (s = Stages-1 is the output stage).
  output logic [Stages-1:0]       stage_valid_o,
  /// Stage s's key bit (0 when the stage is empty).
  output logic [Stages-1:0]       stage_key_o,
  /// Stage s's d at stage_d_o[s*NodeW +: NodeW].
  output logic [Stages*NodeW-1:0] stage_d_o,
  /// The output stage holds an entry.
  output logic                    out_valid_o,
  /// Its d.
  output logic [NodeW-1:0]        out_d_o,
  /// Its tag.
  output logic [TagW-1:0]         out_tag_o,
  /// v_i[out_d_o] in the cycle the entry entered.
  output logic                    out_view_o,
  /// Some conflict flag of the entry was set.
  output logic                    out_conf_o
);

  /// Index bits consumed after stage s (0-based).
  function automatic int unsigned bits_after(input int unsigned s);
    bits_after = (32'd2 * (s + 32'd1) < NodeW) ? 32'd2 * (s + 32'd1) : NodeW;
  endfunction
  /// Partial-vector width of stage s.
  function automatic int unsigned pw(input int unsigned s);
    pw = 32'd1 << (NodeW - bits_after(s));
  endfunction
  /// Offset of stage s in the flat partial vector.
  function automatic int unsigned off(input int unsigned s);
    off = 32'd0;
    for (int unsigned j = 0; j < s; j++) off = off + pw(j);
  endfunction
  localparam int unsigned TotP = off(Stages);

  logic [Stages-1:0]       vld_d, vld_q, key_d, key_q, cf_d, cf_q;
  logic [Stages*NodeW-1:0] d_d, d_q;
  logic [Stages*TagW-1:0]  tag_d, tag_q;
  logic [TotP-1:0]         p_d, p_q;
  logic [FlagN-1:0]        fl_q;

  for (genvar s = 0; s < Stages; s++) begin : gen_stage
    localparam int unsigned B0 = (s == 0) ? 32'd0 : bits_after(s - 1);
    localparam int unsigned FanW = bits_after(s) - B0;
    localparam int unsigned Fan = 32'd1 << FanW;
    localparam int unsigned PW = pw(s);
    localparam int unsigned SrcW = PW * Fan;
    // The stage in front of this one (the input for stage 0).
    logic             pv, pk, pcf;
    logic [NodeW-1:0] pd;
    logic [TagW-1:0]  ptag;
    logic [SrcW-1:0]  psrc;
    if (s == 0) begin : gen_first
      assign pv   = in_valid_i;
      assign pk   = in_key_i;
      assign pd   = in_d_i;
      assign ptag = in_tag_i;
      assign pcf  = 1'b0;
      assign psrc = v_i;
    end else if (s == 1) begin : gen_second
      assign pv   = vld_q[0];
      assign pk   = key_q[0];
      assign pd   = d_q[0 +: NodeW];
      assign ptag = tag_q[0 +: TagW];
      assign pcf  = |fl_q;
      assign psrc = p_q[0 +: SrcW];
    end else begin : gen_next
      assign pv   = vld_q[s-1];
      assign pk   = key_q[s-1];
      assign pd   = d_q[(s-1)*NodeW +: NodeW];
      assign ptag = tag_q[(s-1)*TagW +: TagW];
      assign pcf  = cf_q[s-1];
      assign psrc = p_q[off(s-1) +: SrcW];
    end
    logic [FanW-1:0] sel;
    assign sel = pd[B0 +: FanW];
    logic [PW-1:0] pn;
    for (genvar j = 0; j < PW; j++) begin : gen_mux
      logic [Fan-1:0] grp;
      assign grp   = psrc[j*Fan +: Fan];
      assign pn[j] = grp[sel];
    end
    assign vld_d[s]              = pv;
    assign key_d[s]              = pk & pv;
    assign d_d[s*NodeW +: NodeW] = pd;
    assign tag_d[s*TagW +: TagW] = ptag;
    assign cf_d[s]               = pcf;
    assign p_d[off(s) +: PW]     = pn;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      vld_q <= '0;
      key_q <= '0;
    end else if (flush_i) begin
      vld_q <= '0;
      key_q <= '0;
    end else if (adv_i) begin
      vld_q <= vld_d;
      key_q <= key_d;
    end
  end
  // Datapath: no reset (only read together with a valid bit).
  always_ff @(posedge clk_i) begin
    if (adv_i) begin
      d_q   <= d_d;
      tag_q <= tag_d;
      p_q   <= p_d;
      cf_q  <= cf_d;
      fl_q  <= in_flags_i;
    end
  end

  assign stage_valid_o = vld_q;
  assign stage_key_o   = key_q;
  assign stage_d_o     = d_q;
  assign out_valid_o   = vld_q[Stages-1];
  assign out_d_o       = d_q[(Stages-1)*NodeW +: NodeW];
  assign out_tag_o     = tag_q[(Stages-1)*TagW +: TagW];
  assign out_view_o    = p_q[TotP-1];
  if (Stages == 1) begin : gen_conf_direct
    logic unused_cf;
    assign unused_cf  = ^cf_q;   // no stage carries a reduced flag
    assign out_conf_o = |fl_q;
  end else begin : gen_conf_reg
    assign out_conf_o = cf_q[Stages-1];
  end

endmodule
