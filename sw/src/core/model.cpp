// SPDX-License-Identifier: Apache-2.0
#include "totex/model.hpp"

#include "totex/error.hpp"

namespace totex {

std::string to_string(Model m) {
  switch (m) {
    case Model::SinglePort: return "single-port";
    case Model::AllPort: return "all-port";
    case Model::Nic: return "nic";
  }
  return "?";
}

Model parse_model(std::string_view text) {
  if (text == "single-port") return Model::SinglePort;
  if (text == "all-port") return Model::AllPort;
  if (text == "nic") return Model::Nic;
  throw UsageError("unknown model '" + std::string(text) + "': expected single-port | all-port | nic");
}

}  // namespace totex
