#include "planner/exec/sort_store.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "planner/common/error.hpp"
#include "planner/exec/prefix_sorter.hpp"

namespace hindsight {

namespace {

/// Blocks of at least this many bytes are mapped directly (and unmapped when freed).
constexpr size_t kMapBytes = size_t{128} << 10;
constexpr size_t kPage = 4096;

char* block_alloc(size_t size) {
  if (size >= kMapBytes) {
    void* p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<char*>(p);
  }
  void* p = std::malloc(size);
  if (!p) throw std::bad_alloc();
  return static_cast<char*>(p);
}

void block_free(char* p, size_t size) {
  if (size >= kMapBytes) ::munmap(p, size);
  else std::free(p);
}

/// The capacity a table of `size` entries (capacity `cap`) has after growing to `need`: at least doubled.
size_t table_capacity(size_t cap, size_t need) { return need <= cap ? cap : std::max(need, 2 * cap); }

template <typename T>
void grow_table(std::vector<T>& v, size_t need) {
  const size_t cap = table_capacity(v.capacity(), need);
  if (cap > v.capacity()) v.reserve(cap);
}

}  // namespace

// ---- ByteArena ---------------------------------------------------------------------------------------------------

ByteArena::ByteArena(size_t min_block, size_t max_block)
    : min_block_(std::max<size_t>(min_block, 64)), max_block_(std::max(max_block, min_block_)), next_(min_block_) {}

ByteArena::~ByteArena() { clear(); }

size_t ByteArena::next_block_size(size_t n) const {
  size_t size = std::max(next_, n);
  if (size >= kMapBytes) size = (size + kPage - 1) & ~(kPage - 1);
  return size;
}

size_t ByteArena::growth_for(size_t n) const {
  if (n == 0 || static_cast<size_t>(end_ - pos_) >= n) return 0;
  return next_block_size(n);
}

size_t ByteArena::reserve(size_t n) {
  if (n == 0 || static_cast<size_t>(end_ - pos_) >= n) return 0;
  const size_t size = next_block_size(n);
  blocks_.reserve(blocks_.size() + 1);  // before the block: a failure leaves nothing unowned
  char* p = block_alloc(size);
  blocks_.push_back({p, size});
  pos_ = p;
  end_ = p + size;
  allocated_ += size;
  next_ = std::min(max_block_, next_ * 2);
  return size;
}

std::string_view ByteArena::copy(std::string_view s) {
  if (s.empty()) return {};
  if (static_cast<size_t>(end_ - pos_) < s.size()) reserve(s.size());
  char* p = pos_;
  std::memcpy(p, s.data(), s.size());
  pos_ += s.size();
  used_ += s.size();
  return {p, s.size()};
}

void ByteArena::clear() {
  for (const Block& b : blocks_) block_free(b.data, b.size);
  std::vector<Block>().swap(blocks_);
  pos_ = end_ = nullptr;
  allocated_ = 0;
  used_ = 0;
  next_ = min_block_;
}

// ---- SortStore ---------------------------------------------------------------------------------------------------

SortStore::SortStore(std::vector<DataType> types, size_t max_block)
    : types_(std::move(types)), arena_(std::min<size_t>(1 << 10, max_block), max_block) {
  cols_.resize(types_.size());
  for (size_t c = 0; c < cols_.size(); ++c) cols_[c].kind = types_[c].physical();
}

size_t SortStore::value_width(PhysicalKind k) {
  switch (k) {
    case PhysicalKind::Int64: return sizeof(int64_t);
    case PhysicalKind::Double: return sizeof(double);
    case PhysicalKind::String: return sizeof(Ref);
  }
  return 0;
}

size_t SortStore::first_chunk_rows(size_t rows) {
  if (rows >= kChunkRows) return kChunkRows;
  size_t cap = 16;
  while (cap < rows) cap *= 2;
  return cap;
}

int64_t SortStore::table_growth(size_t chunks, size_t cap0, size_t table_cap, size_t rows, size_t width) {
  const size_t need = (rows + kMask) >> kChunkShift;
  if (need == 0) return 0;
  const size_t want0 = need > 1 ? kChunkRows : first_chunk_rows(rows);
  int64_t g = 0;
  if (chunks == 0) g += static_cast<int64_t>(want0 * width);
  else if (want0 > cap0) g += static_cast<int64_t>((want0 - cap0) * width);
  const size_t full_have = chunks > 1 ? chunks - 1 : 0;
  if (need - 1 > full_have) g += static_cast<int64_t>((need - 1 - full_have) * kChunkRows * width);
  g += static_cast<int64_t>((table_capacity(table_cap, need) - table_cap) * sizeof(void*));
  return g;
}

int64_t SortStore::column_growth(const Column& col, size_t extra, bool needs_nulls) const {
  const size_t total = rows_ + extra;
  const size_t cap = col.kind == PhysicalKind::Int64    ? col.ints.capacity()
                     : col.kind == PhysicalKind::Double ? col.dbls.capacity()
                                                        : col.strs.capacity();
  int64_t g = table_growth(col.value_chunks(), col.cap0, cap, total, value_width(col.kind));
  if (!col.nulls.empty() || needs_nulls) g += table_growth(col.nulls.size(), col.null_cap0, col.nulls.capacity(), total, 1);
  return g;
}

size_t SortStore::live_bytes() const {
  size_t b = arena_.used_bytes();
  for (const Column& c : cols_) b += rows_ * (value_width(c.kind) + (c.nulls.empty() ? 0 : 1));
  return b;
}

size_t SortStore::live_growth(const Batch& in) const {
  size_t b = 0;
  for (size_t c = 0; c < cols_.size(); ++c) {
    const ColumnVector& s = in.columns[c];
    b += in.rows * (value_width(cols_[c].kind) + (cols_[c].nulls.empty() && !s.has_nulls() ? 0 : 1));
    if (cols_[c].nulls.empty() && s.has_nulls()) b += rows_;  // the mask made for the rows before
    if (cols_[c].kind == PhysicalKind::String)
      for (const std::string& v : s.strs) b += v.size() > Ref::kInline ? v.size() : 0;
  }
  return b;
}

int64_t SortStore::growth_for(const Batch& in) const {
  int64_t g = 0;
  size_t payload = 0;
  for (size_t c = 0; c < cols_.size(); ++c) {
    const ColumnVector& s = in.columns[c];
    g += column_growth(cols_[c], in.rows, s.has_nulls());
    if (cols_[c].kind == PhysicalKind::String)
      for (const std::string& v : s.strs) payload += v.size() > Ref::kInline ? v.size() : 0;
  }
  return g + static_cast<int64_t>(arena_.growth_for(payload));
}

int64_t SortStore::append(const Batch& in) {
  const size_t n = in.rows;
  if (n == 0) return 0;
  HS_ASSERT(in.columns.size() == cols_.size(), "SortStore: batch layout differs");
  const size_t need = (rows_ + n + kMask) >> kChunkShift;
  const size_t before = allocated_bytes();
  size_t payload = 0;
  for (size_t c = 0; c < cols_.size(); ++c)
    if (cols_[c].kind == PhysicalKind::String)
      for (const std::string& v : in.columns[c].strs) payload += v.size() > Ref::kInline ? v.size() : 0;
  arena_.reserve(payload);  // every string of the batch fits the current block now
  for (size_t c = 0; c < cols_.size(); ++c) {
    Column& col = cols_[c];
    const ColumnVector& src = in.columns[c];
    // Chunk 0 starts at the rows it needs (16, 32, ... 2048: a small sort takes little), later ones are whole.
    auto add_chunks = [&](auto& table, size_t& cap0) {
      using Ptr = typename std::remove_reference_t<decltype(table)>::value_type;
      using T = typename Ptr::element_type;
      const size_t want0 = need > 1 ? kChunkRows : first_chunk_rows(rows_ + n);
      if (table.empty()) {
        table.reserve(table_capacity(0, need));
        allocated_ += table.capacity() * sizeof(void*);
        table.emplace_back(new T[want0]);
        cap0 = want0;
        allocated_ += want0 * sizeof(T);
      } else if (want0 > cap0) {
        Ptr grown(new T[want0]);
        std::memcpy(grown.get(), table[0].get(), cap0 * sizeof(T));
        table[0] = std::move(grown);
        allocated_ += (want0 - cap0) * sizeof(T);
        cap0 = want0;
      }
      if (table.size() >= need) return;
      const size_t cap = table.capacity();
      grow_table(table, need);
      allocated_ += (table.capacity() - cap) * sizeof(void*);
      while (table.size() < need) {
        table.emplace_back(new T[kChunkRows]);
        allocated_ += kChunkRows * sizeof(T);
      }
    };
    // Null masks: materialised (zeros for the rows before) at the first NULL of the column.
    if (src.has_nulls() || !col.nulls.empty()) {
      const bool fresh = col.nulls.empty();
      add_chunks(col.nulls, col.null_cap0);
      if (fresh)
        for (size_t k = 0; k < need; ++k) std::memset(col.nulls[k].get(), 0, k == 0 ? col.null_cap0 : kChunkRows);
      for (size_t i = 0; i < n; ++i) {
        const size_t r = rows_ + i;
        col.nulls[r >> kChunkShift][r & kMask] = src.has_nulls() ? src.nulls[i] : uint8_t{0};
      }
    }
    // Fixed-width values: one copy per chunk the batch touches.
    auto copy_values = [&](auto& table, const auto* from) {
      for (size_t i = 0; i < n;) {
        const size_t r = rows_ + i;
        const size_t k = std::min(n - i, kChunkRows - (r & kMask));
        std::memcpy(table[r >> kChunkShift].get() + (r & kMask), from + i, k * sizeof(*from));
        i += k;
      }
    };
    switch (col.kind) {
      case PhysicalKind::Int64:
        add_chunks(col.ints, col.cap0);
        copy_values(col.ints, src.ints.data());
        break;
      case PhysicalKind::Double:
        add_chunks(col.dbls, col.cap0);
        copy_values(col.dbls, src.dbls.data());
        break;
      case PhysicalKind::String:
        add_chunks(col.strs, col.cap0);
        for (size_t i = 0; i < n; ++i) {
          const size_t r = rows_ + i;
          const std::string& v = src.strs[i];
          Ref& ref = col.strs[r >> kChunkShift][r & kMask];
          ref.len = static_cast<uint32_t>(v.size());
          if (v.size() <= Ref::kInline) {
            std::memcpy(ref.bytes, v.data(), v.size());
          } else {
            const char* p = arena_.copy(v).data();
            std::memcpy(ref.bytes + 4, &p, sizeof p);
          }
        }
        break;
    }
  }
  rows_ += n;
  return static_cast<int64_t>(allocated_bytes() - before);
}

void SortStore::clear() {
  for (Column& c : cols_) {
    decltype(c.ints)().swap(c.ints);
    decltype(c.dbls)().swap(c.dbls);
    decltype(c.strs)().swap(c.strs);
    decltype(c.nulls)().swap(c.nulls);
    c.cap0 = c.null_cap0 = 0;
  }
  arena_.clear();
  rows_ = 0;
  allocated_ = 0;
}

void SortStore::gather(const uint32_t* sel, size_t n, Batch& out) const {
  out.columns.resize(cols_.size());
  for (size_t c = 0; c < cols_.size(); ++c) {
    const Column& col = cols_[c];
    ColumnVector& d = out.columns[c];
    d.type = types_[c];
    d.ints.clear();
    d.dbls.clear();
    switch (col.kind) {
      case PhysicalKind::Int64:
        d.strs.clear();
        d.ints.resize(n);
        for (size_t k = 0; k < n; ++k) d.ints[k] = col.ints[sel[k] >> kChunkShift][sel[k] & kMask];
        break;
      case PhysicalKind::Double:
        d.strs.clear();
        d.dbls.resize(n);
        for (size_t k = 0; k < n; ++k) d.dbls[k] = col.dbls[sel[k] >> kChunkShift][sel[k] & kMask];
        break;
      case PhysicalKind::String:
        d.strs.resize(n);
        for (size_t k = 0; k < n; ++k) {
          const std::string_view v = col.strs[sel[k] >> kChunkShift][sel[k] & kMask].view();
          d.strs[k].assign(v.data(), v.size());
        }
        break;
    }
    if (col.nulls.empty()) {
      d.nulls.clear();
    } else {
      d.nulls.resize(n);
      for (size_t k = 0; k < n; ++k) d.nulls[k] = col.nulls[sel[k] >> kChunkShift][sel[k] & kMask];
    }
  }
  out.rows = n;
}

namespace {

/// prefix_sort's view of a SortStore: key k is column keys[k].column.
class StoreRows {
 public:
  StoreRows(const SortStore& rows, const std::vector<SortKey>& keys) : rows_(rows), keys_(keys) {
    for (const SortKey& k : keys) {
      const auto c = static_cast<size_t>(k.column);
      cols_.push_back(c);
      kinds_.push_back(rows.types()[c].physical());
      ints_.push_back(rows.int_chunks(c));
      dbls_.push_back(rows.dbl_chunks(c));
      nulls_.push_back(rows.null_chunks(c));
    }
  }
  PhysicalKind kind(size_t key) const { return kinds_[key]; }
  bool is_null(size_t key, uint32_t r) const {
    const uint8_t* const* n = nulls_[key];
    return n && n[r >> SortStore::kChunkShift][r & (SortStore::kChunkRows - 1)];
  }
  int64_t int_at(size_t key, uint32_t r) const {
    return ints_[key][r >> SortStore::kChunkShift][r & (SortStore::kChunkRows - 1)];
  }
  double dbl_at(size_t key, uint32_t r) const {
    return dbls_[key][r >> SortStore::kChunkShift][r & (SortStore::kChunkRows - 1)];
  }
  std::string_view str_at(size_t key, uint32_t r) const { return rows_.str_at(cols_[key], r); }
  /// RowComparator::compare over keys key, key + 1, ...
  int compare_from(size_t key, uint32_t a, uint32_t b) const {
    for (size_t k = key; k < keys_.size(); ++k) {
      const size_t col = cols_[k];
      const bool an = rows_.is_null(col, a), bn = rows_.is_null(col, b);
      if (an || bn) {
        if (an && bn) continue;
        return an == keys_[k].nulls_first ? -1 : 1;
      }
      int c = 0;
      switch (kinds_[k]) {
        case PhysicalKind::Int64: {
          const int64_t x = rows_.int_at(col, a), y = rows_.int_at(col, b);
          c = x < y ? -1 : (y < x ? 1 : 0);
          break;
        }
        case PhysicalKind::Double: {
          const double x = rows_.dbl_at(col, a), y = rows_.dbl_at(col, b);
          c = x < y ? -1 : (y < x ? 1 : 0);
          break;
        }
        case PhysicalKind::String: {
          const int r = rows_.str_at(col, a).compare(rows_.str_at(col, b));
          c = r < 0 ? -1 : (r > 0 ? 1 : 0);
          break;
        }
      }
      if (c != 0) return keys_[k].ascending ? c : -c;
    }
    return 0;
  }

 private:
  const SortStore& rows_;
  const std::vector<SortKey>& keys_;
  std::vector<size_t> cols_;
  std::vector<PhysicalKind> kinds_;
  std::vector<const int64_t* const*> ints_;
  std::vector<const double* const*> dbls_;
  std::vector<const uint8_t* const*> nulls_;
};

}  // namespace

void sort_store_rows(const SortStore& rows, const std::vector<SortKey>& keys, std::vector<uint32_t>& perm) {
  if (keys.empty() || perm.size() < 2) return;
  prefix_sort::sort_perm(StoreRows(rows, keys), keys, perm);
}

}  // namespace hindsight
