// overlay: settings applied on re-execution, globally (reexec_overlay) and per error code
// (reexec_overlay.<CODE>).
#include <fmt/format.h>

#include "reexec/plugins/plugins.hpp"

namespace hindsight::reexec {

namespace {

class OverlayPlugin final : public Plugin {
 public:
  const char* name() const noexcept override { return "overlay"; }
  void begin(const Settings& settings) noexcept override {
    global_ = settings.reexec_overlay;
    by_code_ = settings.reexec_overlay_by_code;
    settings_ = &settings;
  }
  bool wants_reexecution(const AttemptOutcome& o) noexcept override { return o.error && !text_for(*o.error).empty(); }
  void prepare(const AttemptOutcome& o, NextAttempt& next) noexcept override {
    next.replan = true;  // the settings may change the plan (workers, memory_limit)
    std::string shown;
    const std::string* texts[] = {&global_, &by_code(*o.error)};
    for (const std::string* text : texts) {
      if (text->empty()) continue;
      try {
        for (auto& kv : parse_overlay(*settings_, *text)) {
          shown += (shown.empty() ? "" : ";") + kv.first + "=" + kv.second;
          next.overlay.push_back(std::move(kv));
        }
      } catch (...) {
        // Checked by SET already; a value that fails now is left out rather than thrown across the interface.
      }
    }
    if (!shown.empty()) next.notes.push_back("overlay " + shown);
  }
  /// Its settings need another attempt: no attempt goes on spilling in place when it has some for the error.
  OverflowAnswer after_overflow(const AttemptOutcome& o) const noexcept override {
    return o.error && !text_for(*o.error).empty() ? OverflowAnswer::OtherSettings : OverflowAnswer::None;
  }
  /// Other settings make another run even when the plan is the same (a larger memory_limit).
  bool accept_plan(const AttemptOutcome& o, const CompiledQuery&, bool) noexcept override {
    return o.error && !text_for(*o.error).empty();
  }

 private:
  const std::string& by_code(ErrorCode code) const {
    static const std::string none;
    auto it = by_code_.find(error_code_name(code));
    return it == by_code_.end() ? none : it->second;
  }
  /// The overlay text that applies after `code` (the global one and the code's), empty if none.
  std::string text_for(ErrorCode code) const {
    if (!is_reexecutable_error(code)) return "";
    return global_ + by_code(code);
  }
  std::string global_;
  std::map<std::string, std::string> by_code_;
  const Settings* settings_ = nullptr;
};

}  // namespace

std::unique_ptr<Plugin> make_overlay_plugin() { return std::make_unique<OverlayPlugin>(); }

}  // namespace hindsight::reexec
