// SPDX-License-Identifier: Apache-2.0
/// T-CREST formats (docs/periodic.md, "T-CREST formats"):
///  - S4NoC `.shd`: one line per route, the same routes at every node; the leading spaces are the
///    injection slot, then one letter per hop: e = dimension 0 + (x + 1), w = dimension 0 -,
///    s = dimension 1 + (y + 1), n = dimension 1 - (S4NoC's STgen: node = y * K + x, 'n' is y - 1).
///  - Poseidon schedule XML (a bi-torus or mesh): see write_poseidon.
#pragma once
#include <iosfwd>
#include <string>

#include "totex/model.hpp"
#include "totex/schedule.hpp"
#include "totex/network/topology.hpp"

namespace totex {

/// Whether `t` is a 2-D torus or mesh the T-CREST letters describe (two rings, a side of 2 being one
/// link, or two paths).
[[nodiscard]] bool shd_topology(const Topology& t);
/// Whether `t` is a 2-D torus with a processor at every node, the networks .shd describes.
[[nodiscard]] bool shd_torus(const Topology& t);

/// Reads a .shd file for `t` (a K1xK2 torus; the file carries no topology): every node injects
/// each route in its slot. Throws FileError("file:line: what") for a malformed line, UsageError
/// when `t` is not a 2-D torus. Carriage returns (the S4NoC files have CRLF ends) are ignored.
[[nodiscard]] Schedule read_shd(std::istream& in, const std::string& name, const Topology& t, Model m);
[[nodiscard]] Schedule read_shd_file(const std::string& path, const Topology& t, Model m);

/// Writes `s` as .shd: one-shot, or periodic when some starting slot lets every route end inside
/// the period (the schedule is then written from that slot). Throws UsageError, writing nothing,
/// when the routes of a periodic schedule wrap from every starting slot (.shd has no period), when
/// `s` is not translation-invariant (naming the first node whose routes differ from node 0's), or
/// when `t` is not a 2-D torus.
void write_shd(std::ostream& out, const Topology& t, const Schedule& s);

/// Reads a Poseidon-style schedule XML as write_poseidon writes it (gzip too): the tiles' routes as
/// a nic schedule whose period is the file's length. The router tables and network adapters must
/// say exactly what the routes do. Throws FileError("file:line: what") otherwise.
[[nodiscard]] Schedule read_poseidon(std::istream& in, const std::string& name);
[[nodiscard]] Schedule read_poseidon_file(const std::string& path);

/// Writes `s` as a Poseidon-style schedule XML (2-D torus or mesh; field by field in
/// docs/periodic.md). Periodic schedules give their period; one-shot ones their step count.
void write_poseidon(std::ostream& out, const Topology& t, const Schedule& s);

}  // namespace totex
