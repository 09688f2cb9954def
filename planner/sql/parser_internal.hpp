#pragma once
/// Internal to planner/sql: the recursive-descent parser shared by parser.cpp (statements, token cursor,
/// errors), parse_query.cpp (queries, FROM) and parse_expression.cpp (expressions). Use parser.hpp instead.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "planner/common/error.hpp"
#include "planner/sql/ast.hpp"
#include "planner/sql/lexer.hpp"

namespace hindsight::sql {

class Parser {
 public:
  Parser(const std::string& sql, std::vector<Token> tokens);

  /// Skips `;` tokens; true when only the end of input is left.
  bool at_script_end();
  /// One statement, positioned after it; the caller checks for `;` or the end with expect_statement_end().
  StatementPtr parse_statement();
  void expect_statement_end();
  /// For parse_statement(): fails unless only `;` and the end of input are left.
  void expect_no_more_statements();
  ExprPtr parse_standalone_expression();

 private:
  // --- token cursor (parser.cpp) ---
  const Token& peek(size_t k = 0) const;
  const Token& advance();
  const Token& previous() const { return tokens_[pos_ > 0 ? pos_ - 1 : 0]; }
  bool check_kw(std::string_view kw, size_t k = 0) const { return peek(k).is_keyword(kw); }
  bool check_sym(std::string_view sym, size_t k = 0) const { return peek(k).is_symbol(sym); }
  /// accept_*: consume when it matches, otherwise remember it as an alternative expected here.
  bool accept_kw(std::string_view kw);
  bool accept_sym(std::string_view sym);
  const Token& expect_kw(std::string_view kw);
  const Token& expect_sym(std::string_view sym);
  void note_expected(std::string what);
  /// True when the token can be an identifier: an unquoted non-reserved word or a quoted identifier.
  bool is_identifier(const Token& t) const;
  std::string expect_identifier(const char* what);
  int64_t expect_unsigned_integer(const char* what);

  [[noreturn]] void fail(const Token& at, const std::string& message, ErrorCode code = ErrorCode::PARSE_ERROR) const;
  [[noreturn]] void fail_unexpected(const std::string& expected) const;
  [[noreturn]] void not_supported(const Token& at, const std::string& what) const;

  // --- node creation ---
  template <class T>
  std::unique_ptr<T> make(const Token& start) {
    auto node = std::make_unique<T>();
    node->id = next_id_++;
    node->span.line = start.line;
    node->span.col = start.col;
    return node;
  }
  template <class T>
  std::unique_ptr<T> make_at(const SourceSpan& start) {
    auto node = std::make_unique<T>();
    node->id = next_id_++;
    node->span.line = start.line;
    node->span.col = start.col;
    return node;
  }
  /// Ends the node's span at the last consumed token.
  template <class T>
  T& finish(T& node) {
    node.span.end_line = previous().end_line;
    node.span.end_col = previous().end_col;
    return node;
  }

  /// Bounds recursion (kMaxNestingDepth) so that deeply nested input is a PARSE_ERROR, not a stack overflow.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser& p);
    ~DepthGuard() { --parser_.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    Parser& parser_;
  };

  /// Counts the links of a left-associative chain parsed by a loop: the operators of a + b + c ... against
  /// kMaxChainedOperators, the UNION members and FROM / JOIN inputs of a query against kMaxChainedRelations. The
  /// tree (and the plan) is as deep as the chain is long, and later stages recurse over it.
  class ChainGuard {
   public:
    enum class Kind { Operators, Relations };
    explicit ChainGuard(Parser& p, Kind kind = Kind::Operators) : parser_(p), kind_(kind) {}
    ~ChainGuard() { (kind_ == Kind::Operators ? parser_.chained_ : parser_.relations_) -= steps_; }
    ChainGuard(const ChainGuard&) = delete;
    ChainGuard& operator=(const ChainGuard&) = delete;
    void step();

   private:
    Parser& parser_;
    Kind kind_;
    int steps_ = 0;
  };

  // --- statements (parser.cpp) ---
  StatementPtr parse_set();
  StatementPtr parse_analyze();
  std::string statement_end_message();

  // --- queries (parse_query.cpp) ---
  bool starts_query(size_t k = 0) const;
  /// Index (relative to pos_) of the token after the parenthesis group opening at relative index k.
  size_t skip_parenthesised(size_t k) const;
  QueryPtr parse_query();
  void parse_query_tail(Query& query);
  QueryBodyPtr parse_query_body();
  QueryBodyPtr parse_query_body_primary();
  std::unique_ptr<SelectCore> parse_select_core();
  std::unique_ptr<SelectItem> parse_select_item();
  std::unique_ptr<OrderByItem> parse_order_by_item();
  std::unique_ptr<CommonTableExpr> parse_cte();
  TableRefPtr parse_table_ref();
  TableRefPtr parse_table_primary();
  std::string parse_optional_alias();
  std::vector<std::string> parse_column_alias_list();
  void reject_unsupported_set_op();

  // --- expressions (parse_expression.cpp) ---
  ExprPtr parse_expr();
  ExprPtr parse_or();
  ExprPtr parse_and();
  ExprPtr parse_not();
  ExprPtr parse_comparison();
  ExprPtr parse_concat();
  ExprPtr parse_additive();
  ExprPtr parse_multiplicative();
  ExprPtr parse_unary();
  ExprPtr parse_primary();
  ExprPtr parse_number();
  ExprPtr parse_word_expression();
  ExprPtr parse_function_call();
  ExprPtr parse_case();
  ExprPtr parse_cast();
  ExprPtr parse_extract();
  ExprPtr parse_substring();
  ExprPtr parse_interval();
  ExprPtr parse_in(ExprPtr operand, bool negated, const Token& in_token);
  ExprPtr make_binary(BinaryOp op, ExprPtr left, ExprPtr right);
  std::string parse_type_name();

  const std::string& sql_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  int next_id_ = 0;
  int depth_ = 0;    ///< nesting depth (DepthGuard), at most kMaxNestingDepth
  int chained_ = 0;    ///< chain operators open on the way to the current token (ChainGuard)
  int relations_ = 0;  ///< UNION members and FROM / JOIN inputs open on the way (ChainGuard, Kind::Relations)
  std::vector<std::string> expected_;  ///< alternatives tried at expected_at_
  size_t expected_at_ = 0;
  size_t last_bare_alias_ = SIZE_MAX;  ///< token index of the last alias written without AS
};

}  // namespace hindsight::sql
