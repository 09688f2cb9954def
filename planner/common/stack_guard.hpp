#pragma once

namespace hindsight {

/// Throws NOT_SUPPORTED when the calling thread is close to the end of its stack. The recursive passes over
/// user-shaped trees (binding, evaluation) call it once per level, so a tree deeper than the stack can take is a
/// typed error instead of a crash. The parser's limits (kMaxNestingDepth, kMaxChainedOperators) keep release builds
/// far from this; it matters for builds with large frames (sanitizers, -O0) and threads with small stacks.
/// `stage` names the pass in the message ("binding", "evaluation").
void check_stack_depth(const char* stage);

}  // namespace hindsight
