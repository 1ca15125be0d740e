// SPDX-License-Identifier: Apache-2.0
/// The `totex` command line: bound, schedule, verify (DESIGN.md section 4).
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "totex/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"totex: optimal all-to-all personalized exchange schedules, verified and simulated", "totex"};
  app.set_version_flag("--version", std::string("totex ") + TOTEX_VERSION);
  app.require_subcommand(1);
  totex::cli::register_commands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "totex: " << e.what() << " (see totex --help)\n";
    return totex::cli::kUsageExit;
  }
  try {
    return totex::cli::run_selected(app);
  } catch (const totex::UsageError& e) {
    std::cerr << "totex: " << e.what() << '\n';
    return totex::cli::kUsageExit;
  } catch (const totex::FileError& e) {
    std::cerr << "totex: " << e.what() << '\n';
    return totex::cli::kUsageExit;
  } catch (const totex::OutputError& e) {  // "PATH: OS error text"; no half-written file is left
    std::cerr << "totex: " << e.what() << '\n';
    return totex::cli::kCheckFailedExit;
  } catch (const std::exception& e) {
    std::cerr << "totex: internal error: " << e.what() << '\n';
    return EXIT_FAILURE;
  }
}
