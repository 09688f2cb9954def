#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace hindsight::mapper {

class PlanMapper;

/// The human text of a mapped entity: either owned text, or "<prefix> #<number><suffix>" that the mapper spells
/// only when the label is first read (the planning path registers hundreds of entities per query and never reads
/// their labels). An empty label is no label.
class Label {
 public:
  Label() = default;
  Label(std::string text) : text_(std::make_unique<std::string>(std::move(text))) {}  // NOLINT: text is a label
  Label(std::string_view text) : text_(std::make_unique<std::string>(text)) {}        // NOLINT
  Label(const char* text) : text_(std::make_unique<std::string>(text)) {}             // NOLINT

  /// "<prefix> #<number><suffix>", e.g. numbered("HashJoin", 12) is "HashJoin #12". `prefix` and `suffix` are not
  /// copied: they must outlive the mapper (string literals or other static text); a null suffix is none.
  static Label numbered(const char* prefix, int64_t number, const char* suffix = nullptr) {
    Label label;
    label.numbered_ = true;
    label.prefix_ = prefix;
    label.number_ = number;
    label.suffix_ = suffix && *suffix ? suffix : nullptr;
    return label;
  }

  /// True for a numbered label (not spelled yet).
  bool is_numbered() const { return numbered_; }

 private:
  friend class PlanMapper;

  // The text through a pointer: a numbered label is then a few scalars that stay in registers when add() is inlined,
  // which a std::string member (pointing into itself) would keep in memory, with its destructor, on the hot path.
  std::unique_ptr<std::string> text_;  // null: no text
  // A flag of its own, not prefix_ != nullptr: a numbered label made in place is seen to be one at compile time.
  bool numbered_ = false;
  const char* prefix_ = nullptr;  // numbered: the static prefix; else the label is text_
  const char* suffix_ = nullptr;
  int64_t number_ = 0;
};

}  // namespace hindsight::mapper
