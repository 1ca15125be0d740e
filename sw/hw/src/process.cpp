// SPDX-License-Identifier: Apache-2.0
#include "process.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>

#include "totex/error.hpp"

extern char** environ;  // the process's environment, passed on to children as it is

namespace totex::hw {
namespace {

/// posix_spawn_file_actions_t, destroyed on every path.
class FileActions {
 public:
  FileActions() { ::posix_spawn_file_actions_init(&a_); }
  ~FileActions() { ::posix_spawn_file_actions_destroy(&a_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() { return &a_; }

 private:
  posix_spawn_file_actions_t a_{};
};

/// totex's environment with `extra` added (a NAME=value of `extra` replaces NAME's entry).
std::vector<std::string> child_environment(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const std::string& x : extra) replaced = replaced || x.substr(0, x.find('=')) == name;
    if (!replaced) env.push_back(entry);
  }
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

std::vector<char*> c_strings(std::vector<std::string>& v) {
  std::vector<char*> out;
  for (std::string& s : v) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv_in, ChildOutput output, const std::string& log_file,
                          const std::vector<std::string>& extra_env, const std::string& cwd) {
  if (argv_in.empty()) throw ToolError("tool: nothing to run");
  std::vector<std::string> argv = argv_in, env = child_environment(extra_env);
  std::vector<char*> c_argv = c_strings(argv), c_env = c_strings(env);
  FileActions actions;
  if (!cwd.empty())
    if (const int e = ::posix_spawn_file_actions_addchdir_np(actions.get(), cwd.c_str()); e != 0)
      throw ToolError("tool: cannot run " + argv[0] + " in " + cwd + ": " + std::strerror(e));
  std::array<int, 2> pipe_fds{-1, -1};
  if (output == ChildOutput::Capture) {
    if (::pipe(pipe_fds.data()) != 0) throw ToolError(std::string("tool: cannot create a pipe: ") + std::strerror(errno));
    ::posix_spawn_file_actions_addclose(actions.get(), pipe_fds[0]);
    ::posix_spawn_file_actions_adddup2(actions.get(), pipe_fds[1], STDOUT_FILENO);
    ::posix_spawn_file_actions_addclose(actions.get(), pipe_fds[1]);
  } else if (output == ChildOutput::ToStderr) {
    ::posix_spawn_file_actions_adddup2(actions.get(), STDERR_FILENO, STDOUT_FILENO);
  } else {
    ::posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::posix_spawn_file_actions_adddup2(actions.get(), STDOUT_FILENO, STDERR_FILENO);
  }
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, c_argv[0], actions.get(), nullptr, c_argv.data(), c_env.data());
  if (output == ChildOutput::Capture) ::close(pipe_fds[1]);
  if (rc != 0) {
    if (output == ChildOutput::Capture) ::close(pipe_fds[0]);
    throw ToolError("tool: cannot run " + argv[0] + ": " + std::strerror(rc));
  }
  ProcessResult r;
  if (output == ChildOutput::Capture) {
    std::array<char, 4096> buf{};
    for (ssize_t n; (n = ::read(pipe_fds[0], buf.data(), buf.size())) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      r.out.append(buf.data(), static_cast<std::size_t>(n));
    }
    ::close(pipe_fds[0]);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw ToolError("tool: lost the child process of " + argv[0]);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

bool program_available(const std::string& program) {
  try {
    return run_process({program, "--version"}, ChildOutput::ToLog, "/dev/null").exit_code == 0;
  } catch (const ToolError&) {
    return false;
  }
}

std::string argv_text(const std::vector<std::string>& argv) {
  std::string out;
  for (const std::string& a : argv) {
    const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                                         "-_=+./:,@%") == std::string::npos;
    std::string q = "'";
    for (const char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += (out.empty() ? "" : " ") + (plain ? a : q + "'");
  }
  return out;
}

}  // namespace totex::hw
