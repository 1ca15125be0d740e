// SPDX-License-Identifier: Apache-2.0
/// The `totex` command line: bound, schedule, verify, load, sim, plot, fpga (the contract, every
/// option, JSON key and exit code, is in docs/cli.md).
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <new>
#include <stdexcept>
#include <string>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "commands.hpp"
#include "totex/error.hpp"

namespace {

/// One line for stderr: bytes outside printable ASCII escaped; with `cut`, every run of
/// non-blank characters longer than 70 shortened to 60 + "..." (CLI11 quotes arguments verbatim;
/// tokens totex shortened already, 60 + "..." in quotes, stay as they are).
std::string one_line(const std::string& text, bool cut) {
  if (!cut) return totex::printable(text, text.size());
  std::string out, word;
  for (const char c : text + ' ') {
    if (c != ' ') {
      word += c;
      continue;
    }
    out += totex::printable(word, word.size() > 70 ? 60 : word.size()) + ' ';
    word.clear();
  }
  out.pop_back();
  return out;
}

int fail(const std::string& text, int code, bool cut = false) {
  std::cerr << "totex: " << one_line(text, cut) << '\n';
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"totex: optimal all-to-all personalized exchange schedules, verified and simulated", "totex"};
  app.set_version_flag("--version", std::string("totex ") + TOTEX_VERSION);
  app.require_subcommand(1);
  const totex::cli::Commands commands(app);
  totex::cli::Actions exports;  // `totex rtl` (rtl_command.cpp), registered after the others
  totex::cli::register_rtl(app, exports);
  // A first word that is not a subcommand: say which ones there are (CLI11 would only say one is required).
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') continue;
    std::string names;
    bool known = false;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      names += (names.empty() ? "" : " | ") + sub->get_name();
      known = known || sub->get_name() == word;
    }
    if (!known)
      return fail("'" + totex::printable(word) + "' is not a subcommand; accepted: " + names + " (see totex --help)",
                  totex::cli::kUsageExit);
    break;
  }
  std::string running = "totex";  // for the out-of-memory message
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(std::string(e.what()) + " (see totex --help)", totex::cli::kUsageExit, true);
  } catch (const std::bad_alloc&) {
    return fail("resources: out of memory while parsing the command line", totex::cli::kResourceExit);
  }
  for (const CLI::App* sub : app.get_subcommands()) running += " " + sub->get_name();
  try {
    (void)totex::cli::run_limits();  // a bad TOTEX_MAX_SECONDS is refused before any work
    for (const auto& [cmd, action] : exports)
      if (cmd->parsed()) return action();
    return commands.run_selected();
  } catch (const totex::UsageError& e) {
    return fail(e.what(), totex::cli::kUsageExit);
  } catch (const totex::FileError& e) {
    return fail(e.what(), totex::cli::kUsageExit);
  } catch (const totex::OutputError& e) {  // "PATH: OS error text"; no half-written file is left
    return fail(e.what(), totex::cli::kCheckFailedExit);
  } catch (const totex::ToolError& e) {  // a model build or harness failed: "tool: ... see LOG"
    return fail(e.what(), totex::cli::kCheckFailedExit);
  } catch (const totex::ResourceError& e) {  // refused before allocating: "resources: ..."
    return fail(e.what(), totex::cli::kResourceExit);
  } catch (const std::bad_alloc&) {  // also what a std::vector too large to allocate comes to
    return fail("resources: out of memory while running `" + running + "` (try a smaller topology)",
                totex::cli::kResourceExit);
  } catch (const std::length_error&) {
    return fail("resources: out of memory while running `" + running + "` (a size beyond what can be allocated)",
                totex::cli::kResourceExit);
  } catch (const std::exception& e) {
    return fail(std::string("internal error: ") + e.what(), EXIT_FAILURE);
  }
}
