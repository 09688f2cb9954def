#include "planner/physical/join_ways.hpp"

#include <algorithm>

namespace hindsight {

namespace {

/// Output column of a projection that passes input column `id` through unchanged.
ColumnId passthrough_of(const LogicalProject& p, ColumnId id) {
  for (size_t i = 0; i < p.exprs.size(); ++i)
    if (p.exprs[i]->kind == ExprKind::ColumnRef && p.exprs[i]->column_id == id) return p.outputs[i];
  return kInvalidColumn;
}

bool hashed_on(const Distribution& d, const std::vector<ColumnId>& keys, const std::vector<size_t>& positions) {
  // True when d hashes exactly on keys[positions[0]], keys[positions[1]], ...
  if (d.kind != StreamDistribution::Hashed || d.columns.size() != positions.size()) return false;
  for (size_t i = 0; i < positions.size(); ++i)
    if (d.columns[i] != keys[positions[i]]) return false;
  return true;
}

bool hashed_key_positions(const Distribution& d, const std::vector<ColumnId>& keys, std::vector<size_t>& out) {
  return d.kind == StreamDistribution::Hashed && hindsight::key_positions(d.columns, keys, out);
}

/// True when probe and build rows that match on the keys are already on the same worker: both
/// hashed alike (same bucket count) on corresponding key columns, either by their own hash keys
/// or by a co-location mapping both declare.
bool colocated(const Distribution& P, const std::vector<ColumnId>& pkeys, const Distribution& B,
               const std::vector<ColumnId>& bkeys) {
  if (P.kind != StreamDistribution::Hashed || B.kind != StreamDistribution::Hashed || P.buckets != B.buckets) return false;
  std::vector<size_t> pos;
  if (hashed_key_positions(P, pkeys, pos) && hashed_on(B, bkeys, pos)) return true;
  for (const MappedKey& pm : P.mapped) {
    if (!hindsight::key_positions(pm.columns, pkeys, pos)) continue;
    for (const MappedKey& bm : B.mapped) {
      if (bm.mapping != pm.mapping || bm.columns.size() != pos.size()) continue;
      bool same = true;
      for (size_t i = 0; i < pos.size(); ++i) same &= bm.columns[i] == bkeys[pos[i]];
      if (same) return true;
    }
  }
  return false;
}

std::vector<ColumnId> pick(const std::vector<ColumnId>& keys, const std::vector<size_t>& pos) {
  std::vector<ColumnId> out;
  for (size_t i : pos) out.push_back(keys[i]);
  return out;
}

/// Every row of an inner equi-join has equal probe and build keys: an output hashed on probe key columns holds rows
/// equal on the matching build key columns in one bucket too (and the reverse). Recorded as a mapping kEqualKeys, so
/// that what reads mappings (an aggregate on the other side's key, a later co-located join) sees it. Not for outer
/// or semi joins: an unmatched row's build key is NULL, a semi join has no build columns.
void add_equal_keys(Distribution& d, const std::vector<ColumnId>& pkeys, const std::vector<ColumnId>& bkeys) {
  if (d.kind != StreamDistribution::Hashed) return;
  std::vector<size_t> pos;
  std::vector<ColumnId> other;
  if (hindsight::key_positions(d.columns, pkeys, pos)) other = pick(bkeys, pos);
  else if (hindsight::key_positions(d.columns, bkeys, pos)) other = pick(pkeys, pos);
  else return;
  // A computed key the enumerator has no column for (kInvalidColumn) names nothing.
  if (other == d.columns || std::find(other.begin(), other.end(), kInvalidColumn) != other.end()) return;
  // One such mapping per stream, this join's: a chain of joins on one key would otherwise grow the list (and the
  // distinct distributions the enumerator keeps plans for) with every join.
  std::erase_if(d.mapped, [](const MappedKey& m) { return m.mapping == kEqualKeys; });
  d.mapped.push_back(MappedKey{kEqualKeys, std::move(other)});
}

}  // namespace

bool key_positions(const std::vector<ColumnId>& cols, const std::vector<ColumnId>& keys, std::vector<size_t>& out) {
  if (cols.empty()) return false;
  out.clear();
  for (ColumnId c : cols) {
    size_t k = 0;
    while (k < keys.size() && keys[k] != c) ++k;
    if (k == keys.size()) return false;
    out.push_back(k);
  }
  return true;
}

bool broadcast_fits(double build_rows, double build_width, int workers, int64_t memory_limit, double share) {
  return build_rows * build_width * workers <= static_cast<double>(memory_limit) * share;
}

std::vector<JoinWayOption> join_way_options(const JoinSides& s, const CostModelOptions& o) {
  const Distribution& P = *s.probe;
  const Distribution& B = *s.build;
  const std::vector<ColumnId>& pkeys = *s.probe_keys;
  const std::vector<ColumnId>& bkeys = *s.build_keys;
  const bool needs_partitioned = s.type == JoinType::FullOuter;
  const double p = std::max(0.0, s.probe_rows), b = std::max(0.0, s.build_rows), out_rows = std::max(0.0, s.out_rows);
  const double join_local = hash_join_cost(p, b, out_rows, s.build_width, false, o).total;
  auto repartition = [&](double rows, double width) {
    return exchange_cost(ExchangeKind::Repartition, rows, width, o).total;
  };
  std::vector<JoinWayOption> ways;
  auto finish = [&]() {
    // A distributed FULL OUTER join's rows that only the build side had carry NULL probe columns
    // and sit on the worker of their build row, so its output is not hashed on any probe column.
    if (needs_partitioned)
      for (auto& w : ways)
        if (w.out.kind == StreamDistribution::Hashed) w.out = Distribution::any();
    // At one worker every plan runs where its rows are: the plans stay exactly as they were.
    if (s.type == JoinType::Inner && o.workers > 1)
      for (auto& w : ways) add_equal_keys(w.out, pkeys, bkeys);
    return ways;
  };
  if (P.is_single_instance() && B.is_single_instance()) {
    const bool both_replicated = P.kind == StreamDistribution::Replicated && B.kind == StreamDistribution::Replicated;
    ways.push_back({JoinWay::Single, join_local, both_replicated ? Distribution::replicated() : Distribution::single()});
    return finish();
  }
  if (P.is_single_instance()) {
    // A small single stream probing a distributed one: bring the other side to it.
    ways.push_back({JoinWay::Gather, exchange_cost(ExchangeKind::Gather, b, s.build_width, o).total + join_local,
                    Distribution::single()});
    return finish();
  }
  if (B.kind == StreamDistribution::Replicated && !needs_partitioned) {
    ways.push_back({JoinWay::Reference, join_local, P});
    return finish();
  }
  // Not for NOT IN: "the build side holds a NULL" and "the build side is empty" are properties of
  // the whole build side, which a worker holding one bucket of it cannot decide.
  if (s.type != JoinType::NullAwareAnti && colocated(P, pkeys, B, bkeys)) {
    ways.push_back({JoinWay::Colocated, join_local, P});
    return finish();
  }
  // Broadcast the build side, or repartition:
  //   broadcast   the build side copied to every worker (only if the copies fit the budget
  //               with margin; forced for NOT IN, which needs every build row everywhere, and
  //               for a single-worker build side);
  //   to probe    the probe side stays hashed where it is (on some of the keys); the build side
  //               is repartitioned on the matching keys into the probe's bucket layout;
  //   to build    the mirror image;
  //   both        both sides repartitioned on the keys, one bucket per worker (a side already
  //               so partitioned stays).
  // Listed with Both first: on equal cost the planner keeps the first.
  const bool forced_broadcast = s.type == JoinType::NullAwareAnti || B.kind == StreamDistribution::Single;
  const bool may_broadcast = !needs_partitioned && (forced_broadcast || s.build_fits_broadcast);
  const double broadcast = exchange_cost(ExchangeKind::Broadcast, b, s.build_width, o).total +
                           hash_join_cost(p, b, out_rows, s.build_width, true, o).total;
  if (forced_broadcast) {
    ways.push_back({JoinWay::Broadcast, broadcast, P});
    return finish();
  }
  auto partitioned_on_keys = [&](const Distribution& d, const std::vector<ColumnId>& keys) {
    return d.kind == StreamDistribution::Hashed && d.columns == keys && d.buckets == o.workers;
  };
  ways.push_back({JoinWay::Both,
                  (partitioned_on_keys(P, pkeys) ? 0 : repartition(p, s.probe_width)) +
                      (partitioned_on_keys(B, bkeys) ? 0 : repartition(b, s.build_width)) + join_local,
                  Distribution::hashed(pkeys, o.workers)});
  if (may_broadcast) ways.push_back({JoinWay::Broadcast, broadcast, P});
  std::vector<size_t> pos;
  if (hashed_key_positions(P, pkeys, pos)) ways.push_back({JoinWay::ToProbe, repartition(b, s.build_width) + join_local, P});
  if (hashed_key_positions(B, bkeys, pos))
    ways.push_back({JoinWay::ToBuild, repartition(p, s.probe_width) + join_local,
                    Distribution::hashed(pick(pkeys, pos), B.buckets)});
  return finish();
}

Distribution scan_distribution(const TableDef& def, const std::vector<int>& columns, const std::vector<ColumnId>& outputs) {
  // A hash table whose key columns are not all read still delivers its co-location mappings
  // (hashed with no key columns of its own): rows equal on a mapping's columns share a bucket.
  if (def.distribution == DistributionKind::Replicated) return Distribution::replicated();
  if (def.distribution != DistributionKind::Hash) return Distribution::any();
  auto output_of = [&](const std::string& name) {
    int idx = def.column_index(name);
    for (size_t i = 0; i < columns.size(); ++i)
      if (columns[i] == idx) return outputs[i];
    return kInvalidColumn;
  };
  auto all_read = [&](const std::vector<std::string>& names, std::vector<ColumnId>& out) {
    for (auto& n : names) {
      out.push_back(output_of(n));
      if (out.back() == kInvalidColumn) return false;
    }
    return true;
  };
  Distribution d = Distribution::hashed({}, def.buckets);
  if (!all_read(def.distribution_columns, d.columns)) d.columns.clear();
  for (auto& m : def.colocation) {
    if (m.id == kEqualKeys) continue;  // reserved (the catalog refuses it); a connector's table could still say it
    MappedKey k{m.id, {}};
    if (all_read(m.columns, k.columns)) d.mapped.push_back(std::move(k));
  }
  if (d.columns.empty() && d.mapped.empty()) return Distribution::any();
  return d;
}

Distribution project_distribution(const LogicalProject& p, const Distribution& in) {
  Distribution d = Distribution::hashed({}, in.buckets);
  bool keys = true;
  for (ColumnId c : in.columns) {
    d.columns.push_back(passthrough_of(p, c));
    keys &= d.columns.back() != kInvalidColumn;
  }
  if (!keys) d.columns.clear();
  for (auto& m : in.mapped) {
    MappedKey k{m.mapping, {}};
    bool ok = true;
    for (ColumnId c : m.columns) {
      k.columns.push_back(passthrough_of(p, c));
      ok &= k.columns.back() != kInvalidColumn;
    }
    if (ok) d.mapped.push_back(std::move(k));
  }
  if (d.columns.empty() && d.mapped.empty()) return Distribution::any();
  return d;
}

const Expr* hash_key_column(const Expr& e) {
  const Expr* x = &e;
  while (x->kind == ExprKind::Cast) {
    const Expr& in = *x->children[0];
    bool ints = (x->type.is_integral() || x->type.id == TypeId::Date) && in.type.id == x->type.id;
    bool widen = x->type.is_integral() && in.type.is_integral();
    bool same_scale = x->type.id == TypeId::Decimal && in.type.id == TypeId::Decimal && x->type.scale == in.type.scale;
    if (!(ints || widen || same_scale)) return nullptr;
    x = &in;
  }
  return x->kind == ExprKind::ColumnRef ? x : nullptr;
}

}  // namespace hindsight
