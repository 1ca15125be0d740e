// SPDX-License-Identifier: Apache-2.0
/// Pipelined lookup of one bit of the NIC's valid vector (v_i[d], one bit per destination) for a
/// stream of destinations d, with the bit's changes tracked while the lookup is in flight.
///
/// A d entering at an edge with adv_i high is looked up in Stages = ceil(NodeW/2) register stages
/// (a 4:1 mux of two index bits each, so every path is one or two LUT levels); all stages move
/// together when adv_i is high and hold otherwise. A lookup reads v_i in the cycle d enters; the
/// set and clear events (set_en_i/set_d_i, clr_en_i/clr_d_i: v[d] is set / cleared at the end of
/// this cycle; a set wins over a clear of the same d) of that and every later cycle are compared
/// with each stage's d and folded into a known/value pair. So out_busy_o == v_i[out_d_o] in every
/// cycle in which out_valid_o is high, however long the output stage is held: the lookup is exact,
/// not a stale snapshot.
`default_nettype none

module totex_tdm_lookup #(
  /// Bits of a destination id; the vector has 2**NodeW bits.
  parameter int unsigned NodeW = 32'd6,
  /// Bits carried along with each d (not interpreted).
  parameter int unsigned TagW = 32'd1,
  /// Bits of the valid vector; do not overwrite.
  localparam int unsigned Nodes = 32'd1 << NodeW,
  /// Register stages; do not overwrite.
  localparam int unsigned Stages = totex_tdm_pkg::lookup_stages(NodeW)
) (
  /// Clock, rising edge.
  input  logic             clk_i,
  /// Asynchronous active-low reset (valid bits only).
  input  logic             rst_ni,
  /// Drop every lookup in flight (valid bits cleared at this edge).
  input  logic             flush_i,
  /// All stages advance (the input enters, the output leaves) at this edge.
  input  logic             adv_i,
  /// The input carries a d to look up.
  input  logic             in_valid_i,
  /// The d to look up.
  input  logic [NodeW-1:0] in_d_i,
  /// Carried along.
  input  logic [TagW-1:0]  in_tag_i,
  /// The valid vector (registered in the parent).
  input  logic [Nodes-1:0] v_i,
  /// v[set_d_i] is set at the end of this cycle.
  input  logic             set_en_i,
  /// Destination set.
  input  logic [NodeW-1:0] set_d_i,
  /// v[clr_d_i] is cleared at the end of this cycle (unless also set).
  input  logic             clr_en_i,
  /// Destination cleared.
  input  logic [NodeW-1:0] clr_d_i,
  /// The output stage holds a lookup.
  output logic             out_valid_o,
  /// Its d.
  output logic [NodeW-1:0] out_d_o,
  /// Its tag.
  output logic [TagW-1:0]  out_tag_o,
  /// v[out_d_o] in this cycle.
  output logic             out_busy_o
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

  logic [Stages-1:0]       vld_d, vld_q, kn_d, kn_q, vl_d, vl_q;
  logic [Stages*NodeW-1:0] d_d, d_q;
  logic [Stages*TagW-1:0]  tag_d, tag_q;
  logic [TotP-1:0]         p_d, p_q;

  for (genvar s = 0; s < Stages; s++) begin : gen_stage
    localparam int unsigned B0 = (s == 0) ? 32'd0 : bits_after(s - 1);
    localparam int unsigned FanW = bits_after(s) - B0;
    localparam int unsigned Fan = 32'd1 << FanW;
    localparam int unsigned PW = pw(s);
    localparam int unsigned SrcW = PW * Fan;
    // The stage in front of this one (the input for stage 0).
    logic             pv, pkn, pvl;
    logic [NodeW-1:0] pd;
    logic [TagW-1:0]  ptag;
    logic [SrcW-1:0]  psrc;
    if (s == 0) begin : gen_first
      assign pv   = in_valid_i;
      assign pd   = in_d_i;
      assign ptag = in_tag_i;
      assign pkn  = 1'b0;
      assign pvl  = 1'b0;
      assign psrc = v_i;
    end else begin : gen_next
      assign pv   = vld_q[s-1];
      assign pd   = d_q[(s-1)*NodeW +: NodeW];
      assign ptag = tag_q[(s-1)*TagW +: TagW];
      assign pkn  = kn_q[s-1];
      assign pvl  = vl_q[s-1];
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
    // Events against the d that will be in this stage after the edge.
    logic [NodeW-1:0] ed;
    logic ekn, evl, sh, ch;
    assign ed  = adv_i ? pd : d_q[s*NodeW +: NodeW];
    assign ekn = adv_i ? pkn : kn_q[s];
    assign evl = adv_i ? pvl : vl_q[s];
    assign sh  = set_en_i && (ed == set_d_i);
    assign ch  = clr_en_i && (ed == clr_d_i);
    always_comb begin
      vld_d[s]                  = vld_q[s];
      d_d[s*NodeW +: NodeW]     = d_q[s*NodeW +: NodeW];
      tag_d[s*TagW +: TagW]     = tag_q[s*TagW +: TagW];
      p_d[off(s) +: PW]         = p_q[off(s) +: PW];
      if (adv_i) begin
        vld_d[s]                = pv;
        d_d[s*NodeW +: NodeW]   = pd;
        tag_d[s*TagW +: TagW]   = ptag;
        p_d[off(s) +: PW]       = pn;
      end
      kn_d[s] = ekn | sh | ch;
      vl_d[s] = sh | (evl & ~ch);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)      vld_q <= '0;
    else if (flush_i) vld_q <= '0;
    else              vld_q <= vld_d;
  end
  // Datapath: no reset (the known bits are only read together with a valid bit).
  always_ff @(posedge clk_i) begin
    d_q   <= d_d;
    tag_q <= tag_d;
    p_q   <= p_d;
    kn_q  <= kn_d;
    vl_q  <= vl_d;
  end

  assign out_valid_o = vld_q[Stages-1];
  assign out_d_o     = d_q[(Stages-1)*NodeW +: NodeW];
  assign out_tag_o   = tag_q[(Stages-1)*TagW +: TagW];
  assign out_busy_o  = kn_q[Stages-1] ? vl_q[Stages-1] : p_q[TotP-1];

endmodule
