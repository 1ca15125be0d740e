// SPDX-License-Identifier: Apache-2.0
#include "totex/schedule.hpp"

#include <algorithm>

namespace totex {

std::int64_t Schedule::transfer_count() const {
  if (source) return source->transfer_count();
  std::int64_t n = 0;
  for (const auto& step : steps) n += static_cast<std::int64_t>(step.size());
  return n;
}

std::size_t StepSource::busy_step_count() const {
  const std::unique_ptr<StepCursor> c = cursor();
  std::vector<Transfer> buf;
  std::size_t busy = 0;
  for (std::size_t i = 0; c->next(buf); ++i)
    if (!buf.empty()) busy = i + 1;
  return busy;
}

void Schedule::for_each_step(const std::function<void(std::size_t, const std::vector<Transfer>&)>& f) const {
  if (!source) {
    for (std::size_t i = 0; i < steps.size(); ++i) f(i, steps[i]);
    return;
  }
  const std::unique_ptr<StepCursor> c = source->cursor();
  std::vector<Transfer> buf;
  for (std::size_t i = 0; c->next(buf); ++i) f(i, buf);
}

void Schedule::materialize() {
  if (!source) return;
  std::vector<std::vector<Transfer>> all;
  all.reserve(source->step_count());
  for_each_step([&](std::size_t, const std::vector<Transfer>& st) { all.push_back(st); });
  steps = std::move(all);
  source.reset();
}

std::uint64_t transfer_checksum(const Schedule& s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a over 32-bit words
  auto mix = [&h](std::int64_t v) {
    h ^= static_cast<std::uint64_t>(static_cast<std::uint32_t>(v));
    h *= 0x100000001b3ULL;
  };
  s.for_each_step([&](std::size_t i, const std::vector<Transfer>& step) {
    mix(static_cast<std::int64_t>(i));
    mix(static_cast<std::int64_t>(step.size()));
    for (const Transfer& tr : step) {
      mix(tr.msg.src);
      mix(tr.msg.dst);
      mix(tr.from);
      mix(tr.port);
    }
  });
  return h;
}

bool MinSchedule::sends(std::size_t step, int terminal) const {
  if (step >= idle.size()) return true;
  return std::find(idle[step].begin(), idle[step].end(), terminal) == idle[step].end();
}

std::vector<NodeActions> node_actions(const Topology& t, const Schedule& lazy_or_not) {
  Schedule expanded;
  if (lazy_or_not.lazy()) {
    expanded = lazy_or_not;
    expanded.materialize();
  }
  const Schedule& s = lazy_or_not.lazy() ? expanded : lazy_or_not;
  const auto n = static_cast<std::size_t>(t.nodes());
  std::vector<NodeId> pos(n * n);
  for (std::size_t m = 0; m < pos.size(); ++m) pos[m] = static_cast<NodeId>(m / n);
  std::vector<std::size_t> at_relay;  // messages sitting at a relay after the previous step
  std::vector<bool> left_source(n * n, false);  // a detour may pass its source again, as a relay
  std::vector<NodeActions> out(s.steps.size());
  for (std::size_t step = 0; step < s.steps.size(); ++step) {
    NodeActions& a = out[step];
    a.inject.resize(n);
    a.deliver.resize(n);
    a.store.resize(n);
    std::vector<bool> moved(n * n, false);
    std::vector<std::size_t> next_relay;
    for (const Transfer& tr : s.steps[step]) {
      const std::size_t m = static_cast<std::size_t>(tr.msg.src) * n + static_cast<std::size_t>(tr.msg.dst);
      const NodeId to = t.neighbor(tr.from, tr.port);
      if (!left_source[m]) a.inject[static_cast<std::size_t>(tr.from)].push_back(tr.msg);  // its first hop
      left_source[m] = true;
      if (to == tr.msg.dst) a.deliver[static_cast<std::size_t>(to)].push_back(tr.msg);
      else next_relay.push_back(m);
      pos[m] = to;
      moved[m] = true;
    }
    for (std::size_t m : at_relay) {
      if (moved[m]) continue;
      a.store[static_cast<std::size_t>(pos[m])].push_back({static_cast<NodeId>(m / n), static_cast<NodeId>(m % n)});
      next_relay.push_back(m);
    }
    at_relay.swap(next_relay);
  }
  return out;
}

}  // namespace totex
