// SPDX-License-Identifier: Apache-2.0
/// The CLI side of totex/hw_schema.hpp: every field of a schema that has help text becomes a
/// flag `--key` of a subcommand, its value checked by the field's range or names (CLI11 reports a
/// bad one as for any flag, exit 2) and stored into `target` by the field's parser.
#pragma once
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "totex/hw_schema.hpp"

namespace totex::cli {

/// Adds the flags of `S`'s fields that have help text; returns them (for excludes/needs).
template <class S>
std::vector<CLI::Option*> add_schema_options(CLI::App* app, S& target) {
  std::vector<CLI::Option*> added;
  for (const schema::Field<S>& f : schema::Of<S>::fields()) {
    if (f.help.empty() || !f.key) continue;
    const schema::Field<S> field = f;
    CLI::Option* opt = app->add_option_function<std::string>(
        std::string("--") + f.key, [&target, field](const std::string& v) { schema::set_field(field, target, v); },
        f.help);
    if (f.numeric == schema::Numeric::Int) opt->check(integer_in(f.lo, f.hi));
    added.push_back(opt);
  }
  return added;
}

/// The fields of `s` into `j` (schema::json_fields: numbers as numbers).
template <class S>
void put_schema_json(json& j, const S& s) {
  for (const schema::JsonField& f : schema::json_fields(s))
    j[f.name] = f.number ? json(std::stoll(f.value)) : json(f.value);
}

}  // namespace totex::cli
