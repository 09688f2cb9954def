#pragma once
/// The SQL abstract syntax tree produced by `parse_sql` / `parse_statement` (planner/sql/parser.hpp).
///
/// Shape of the tree
/// -----------------
/// * Every node derives from `AstNode`: a dense `id` (0, 1, 2, ... per parsed statement, in creation order;
///   `Statement::node_count` is one past the largest) and a `SourceSpan` covering its text.
/// * Four small enum-tagged class hierarchies: `Statement` (StatementType), `QueryBody` (QueryBodyType),
///   `TableRef` (TableRefType) and `Expr` (ExprType). Each concrete struct has `static constexpr kType`;
///   the base has `is<T>()` and a checked `as<T>()` that throws INTERNAL on a kind mismatch.
///   Plain nodes without subkinds (Query, SelectItem, OrderByItem, CommonTableExpr, CaseWhen) are structs.
/// * Children are owned by `std::unique_ptr`; an absent optional child is a null pointer.
/// * Identifiers (table, column, alias, function names) are stored lower-cased; "quoted" identifiers keep
///   their case exactly. Keywords never appear as strings except in `CastExpr::type_name` (upper-cased).
/// * The tree is a pure syntax tree: no name resolution, no types. GROUP BY / ORDER BY ordinals are plain
///   IntegerLiteral nodes; the binder interprets them.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "planner/common/error.hpp"

namespace hindsight::sql {

/// A region of the SQL text. All values are 1-based; (end_line, end_col) is the position of the node's last
/// character (inclusive). Columns count bytes.
struct SourceSpan {
  int line = 0;
  int col = 0;
  int end_line = 0;
  int end_col = 0;
};

/// Common base of every AST node.
struct AstNode {
  int id = -1;  ///< dense, unique within one parsed statement, assigned in creation order
  SourceSpan span;
  virtual ~AstNode() = default;
};

/// Checked downcast shared by the hierarchies below: `Base` has a `type` member and `T::kType`.
template <class T, class Base>
T& checked_cast(Base& node) {
  HS_ASSERT(node.type == T::kType, "sql AST: bad node cast");
  return static_cast<T&>(node);
}

struct Query;
struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
using QueryPtr = std::unique_ptr<Query>;

// ---------------------------------------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------------------------------------

enum class ExprType {
  ColumnRef,       ///< ColumnRefExpr: [qualifier.]name
  IntegerLiteral,  ///< IntegerLiteral: 42 (fits int64; larger integers become DecimalLiteral)
  DecimalLiteral,  ///< DecimalLiteral: 0.05, .5, 1. (no exponent)
  DoubleLiteral,   ///< DoubleLiteral: 1e-3, 2.5E10 (has an exponent)
  StringLiteral,   ///< StringLiteral: 'abc'
  DateLiteral,     ///< DateLiteral: DATE '1998-12-01'
  IntervalLiteral, ///< IntervalLiteral: INTERVAL '3' MONTH, INTERVAL 1 YEAR
  NullLiteral,     ///< NullLiteral: NULL
  BoolLiteral,     ///< BoolLiteral: TRUE / FALSE
  Unary,           ///< UnaryExpr: -e, +e, NOT e
  Binary,          ///< BinaryExpr: arithmetic, ||, comparisons, AND, OR
  Between,         ///< BetweenExpr: e [NOT] BETWEEN lo AND hi
  InList,          ///< InListExpr: e [NOT] IN (a, b, ...)
  InSubquery,      ///< InSubqueryExpr: e [NOT] IN (query)
  Exists,          ///< ExistsExpr: [NOT] EXISTS (query)
  Subquery,        ///< SubqueryExpr: scalar (query)
  Like,            ///< LikeExpr: e [NOT] LIKE pattern
  IsNull,          ///< IsNullExpr: e IS [NOT] NULL
  Case,            ///< CaseExpr: searched or simple CASE
  Cast,            ///< CastExpr: CAST(e AS type)
  FunctionCall,    ///< FunctionCallExpr: name([DISTINCT] args), count(*), normalised substring(...)
  Extract,         ///< ExtractExpr: EXTRACT(YEAR|MONTH|DAY FROM e)
};

/// Base of all expression nodes. Switch on `type`, then `as<T>()`.
struct Expr : AstNode {
  ExprType type;
  explicit Expr(ExprType t) : type(t) {}
  template <class T> bool is() const { return type == T::kType; }
  template <class T> T& as() { return checked_cast<T>(*this); }
  template <class T> const T& as() const { return checked_cast<const T>(*this); }
};

struct ColumnRefExpr : Expr {
  static constexpr ExprType kType = ExprType::ColumnRef;
  ColumnRefExpr() : Expr(kType) {}
  std::string qualifier;  ///< table name or alias; empty when unqualified
  std::string name;
};

struct IntegerLiteral : Expr {
  static constexpr ExprType kType = ExprType::IntegerLiteral;
  IntegerLiteral() : Expr(kType) {}
  /// >= 0 (a leading '-' is a UnaryExpr), except -9223372036854775808: BIGINT's minimum, whose magnitude does
  /// not fit int64, is one literal spanning the '-'.
  int64_t value = 0;
};

struct DecimalLiteral : Expr {
  static constexpr ExprType kType = ExprType::DecimalLiteral;
  DecimalLiteral() : Expr(kType) {}
  std::string text;    ///< digits as written, e.g. "0.05", ".5", "12345678901234567890"
  double value = 0.0;  ///< the same number as a double, for convenience
};

struct DoubleLiteral : Expr {
  static constexpr ExprType kType = ExprType::DoubleLiteral;
  DoubleLiteral() : Expr(kType) {}
  std::string text;  ///< as written, e.g. "1e-3"
  double value = 0.0;
};

struct StringLiteral : Expr {
  static constexpr ExprType kType = ExprType::StringLiteral;
  StringLiteral() : Expr(kType) {}
  std::string value;  ///< unescaped ('' -> ')
};

struct DateLiteral : Expr {
  static constexpr ExprType kType = ExprType::DateLiteral;
  DateLiteral() : Expr(kType) {}
  std::string text;  ///< the string as written, e.g. "1998-12-01" (not validated by the parser)
};

enum class IntervalUnit { Day, Month, Year };

struct IntervalLiteral : Expr {
  static constexpr ExprType kType = ExprType::IntervalLiteral;
  IntervalLiteral() : Expr(kType) {}
  std::string value;  ///< the quantity as written: "3" for INTERVAL '3' MONTH and for INTERVAL 3 MONTH
  IntervalUnit unit = IntervalUnit::Day;
};

struct NullLiteral : Expr {
  static constexpr ExprType kType = ExprType::NullLiteral;
  NullLiteral() : Expr(kType) {}
};

struct BoolLiteral : Expr {
  static constexpr ExprType kType = ExprType::BoolLiteral;
  BoolLiteral() : Expr(kType) {}
  bool value = false;
};

enum class UnaryOp { Minus, Plus, Not };

struct UnaryExpr : Expr {
  static constexpr ExprType kType = ExprType::Unary;
  UnaryExpr() : Expr(kType) {}
  UnaryOp op = UnaryOp::Minus;
  ExprPtr operand;
};

enum class BinaryOp {
  Add, Sub, Mul, Div, Mod,  ///< + - * / %
  Concat,                   ///< ||
  Eq, Ne, Lt, Le, Gt, Ge,   ///< = (<> and !=) < <= > >=
  And, Or,
};

struct BinaryExpr : Expr {
  static constexpr ExprType kType = ExprType::Binary;
  BinaryExpr() : Expr(kType) {}
  BinaryOp op = BinaryOp::Add;
  ExprPtr left;
  ExprPtr right;
};

struct BetweenExpr : Expr {
  static constexpr ExprType kType = ExprType::Between;
  BetweenExpr() : Expr(kType) {}
  bool negated = false;
  ExprPtr operand;
  ExprPtr low;
  ExprPtr high;
};

struct InListExpr : Expr {
  static constexpr ExprType kType = ExprType::InList;
  InListExpr() : Expr(kType) {}
  bool negated = false;
  ExprPtr operand;
  std::vector<ExprPtr> list;  ///< never empty
};

struct InSubqueryExpr : Expr {
  static constexpr ExprType kType = ExprType::InSubquery;
  InSubqueryExpr() : Expr(kType) {}
  bool negated = false;
  ExprPtr operand;
  QueryPtr query;
};

struct ExistsExpr : Expr {
  static constexpr ExprType kType = ExprType::Exists;
  ExistsExpr() : Expr(kType) {}
  bool negated = false;  ///< NOT EXISTS (parsed as one node, not NOT(EXISTS))
  QueryPtr query;
};

struct SubqueryExpr : Expr {
  static constexpr ExprType kType = ExprType::Subquery;
  SubqueryExpr() : Expr(kType) {}
  QueryPtr query;
};

struct LikeExpr : Expr {
  static constexpr ExprType kType = ExprType::Like;
  LikeExpr() : Expr(kType) {}
  bool negated = false;
  ExprPtr operand;
  ExprPtr pattern;
};

struct IsNullExpr : Expr {
  static constexpr ExprType kType = ExprType::IsNull;
  IsNullExpr() : Expr(kType) {}
  bool negated = false;  ///< IS NOT NULL
  ExprPtr operand;
};

/// One WHEN ... THEN ... arm of a CASE (an AstNode so it has an id and span).
struct CaseWhen : AstNode {
  ExprPtr when;  ///< a condition (searched CASE) or a value compared with CaseExpr::operand (simple CASE)
  ExprPtr then;
};

struct CaseExpr : Expr {
  static constexpr ExprType kType = ExprType::Case;
  CaseExpr() : Expr(kType) {}
  ExprPtr operand;  ///< simple CASE: CASE operand WHEN v THEN ...; null for a searched CASE
  std::vector<std::unique_ptr<CaseWhen>> whens;  ///< never empty
  ExprPtr else_expr;  ///< null when there is no ELSE
};

struct CastExpr : Expr {
  static constexpr ExprType kType = ExprType::Cast;
  CastExpr() : Expr(kType) {}
  ExprPtr operand;
  /// Type name from its tokens: words upper-cased and joined by one space, no spaces around '(' ',' ')':
  /// "DECIMAL(15,2)", "DATE", "VARCHAR(25)", "DOUBLE PRECISION", or a "Quoted" name as written.
  std::string type_name;
};

struct FunctionCallExpr : Expr {
  static constexpr ExprType kType = ExprType::FunctionCall;
  FunctionCallExpr() : Expr(kType) {}
  std::string name;           ///< lower-cased: "sum", "count", "substring", ...
  bool distinct = false;      ///< count(DISTINCT x)
  bool star = false;          ///< count(*): args is empty
  std::vector<ExprPtr> args;  ///< SUBSTRING(e FROM a FOR b) becomes substring(e, a, b)
};

enum class ExtractField { Year, Month, Day };

struct ExtractExpr : Expr {
  static constexpr ExprType kType = ExprType::Extract;
  ExtractExpr() : Expr(kType) {}
  ExtractField field = ExtractField::Year;
  ExprPtr operand;
};

// ---------------------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------------------

enum class SelectItemType {
  Expr,           ///< expr [[AS] alias]
  Star,           ///< *
  QualifiedStar,  ///< qualifier.*
};

struct SelectItem : AstNode {
  SelectItemType type = SelectItemType::Expr;
  ExprPtr expr;           ///< SelectItemType::Expr only
  std::string alias;      ///< empty when none
  std::string qualifier;  ///< QualifiedStar only
};

enum class TableRefType {
  BaseTable,  ///< BaseTableRef
  Derived,    ///< DerivedTableRef: (query) [AS] alias [(columns)]
  Join,       ///< JoinRef
};

struct TableRef : AstNode {
  TableRefType type;
  explicit TableRef(TableRefType t) : type(t) {}
  template <class T> bool is() const { return type == T::kType; }
  template <class T> T& as() { return checked_cast<T>(*this); }
  template <class T> const T& as() const { return checked_cast<const T>(*this); }
};
using TableRefPtr = std::unique_ptr<TableRef>;

struct BaseTableRef : TableRef {
  static constexpr TableRefType kType = TableRefType::BaseTable;
  BaseTableRef() : TableRef(kType) {}
  std::string name;
  std::string alias;  ///< empty when none
};

struct DerivedTableRef : TableRef {
  static constexpr TableRefType kType = TableRefType::Derived;
  DerivedTableRef() : TableRef(kType) {}
  QueryPtr query;
  std::string alias;                        ///< empty when none (the parser accepts a missing alias)
  std::vector<std::string> column_aliases;  ///< (c1, c2, ...) after the alias; empty when none
};

enum class JoinType { Inner, Left, Right, Full, Cross };

struct JoinRef : TableRef {
  static constexpr TableRefType kType = TableRefType::Join;
  JoinRef() : TableRef(kType) {}
  JoinType join_type = JoinType::Inner;
  TableRefPtr left;
  TableRefPtr right;
  ExprPtr condition;  ///< ON expression; null for CROSS JOIN
};

enum class QueryBodyType {
  Select,  ///< SelectCore
  SetOp,   ///< SetOperation
  Nested,  ///< NestedQuery: a parenthesised query with its own WITH / ORDER BY / LIMIT / OFFSET
};

struct QueryBody : AstNode {
  QueryBodyType type;
  explicit QueryBody(QueryBodyType t) : type(t) {}
  template <class T> bool is() const { return type == T::kType; }
  template <class T> T& as() { return checked_cast<T>(*this); }
  template <class T> const T& as() const { return checked_cast<const T>(*this); }
};
using QueryBodyPtr = std::unique_ptr<QueryBody>;

/// SELECT [DISTINCT] items [FROM refs] [WHERE e] [GROUP BY e, ...] [HAVING e].
struct SelectCore : QueryBody {
  static constexpr QueryBodyType kType = QueryBodyType::Select;
  SelectCore() : QueryBody(kType) {}
  bool distinct = false;
  std::vector<std::unique_ptr<SelectItem>> select_list;  ///< never empty
  std::vector<TableRefPtr> from;  ///< comma-separated refs (cross joined); empty without FROM
  ExprPtr where;                  ///< null when absent
  std::vector<ExprPtr> group_by;
  ExprPtr having;  ///< null when absent
};

enum class SetOpType { Union };

/// left UNION [ALL] right; chains are left-associative.
struct SetOperation : QueryBody {
  static constexpr QueryBodyType kType = QueryBodyType::SetOp;
  SetOperation() : QueryBody(kType) {}
  SetOpType op = SetOpType::Union;
  bool all = false;
  QueryBodyPtr left;
  QueryBodyPtr right;
};

/// `(query)` used as an operand of a set operation when it carries WITH / ORDER BY / LIMIT / OFFSET.
/// A parenthesised body without those is returned as the inner body itself (no Nested node).
struct NestedQuery : QueryBody {
  static constexpr QueryBodyType kType = QueryBodyType::Nested;
  NestedQuery() : QueryBody(kType) {}
  QueryPtr query;
};

enum class NullsOrder { Default, First, Last };

struct OrderByItem : AstNode {
  ExprPtr expr;
  bool descending = false;
  NullsOrder nulls = NullsOrder::Default;
};

/// One WITH entry: name [(col, ...)] AS (query).
struct CommonTableExpr : AstNode {
  std::string name;
  std::vector<std::string> column_aliases;  ///< empty when none
  QueryPtr query;
};

/// [WITH ctes] body [ORDER BY items] [LIMIT n] [OFFSET m].
struct Query : AstNode {
  std::vector<std::unique_ptr<CommonTableExpr>> with;
  QueryBodyPtr body;
  std::vector<std::unique_ptr<OrderByItem>> order_by;
  std::optional<int64_t> limit;
  std::optional<int64_t> offset;
};

// ---------------------------------------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------------------------------------

enum class StatementType {
  Select,   ///< SelectStatement: a query
  Set,      ///< SetStatement: SET name = value
  Explain,  ///< ExplainStatement: EXPLAIN [ANALYZE | REOPTIMIZATION] query
  Analyze,  ///< AnalyzeStatement: ANALYZE [table]
};

struct Statement : AstNode {
  StatementType type;
  explicit Statement(StatementType t) : type(t) {}
  std::string text;    ///< the statement's SQL text (without the terminating ';')
  int node_count = 0;  ///< ids of this statement's nodes are 0 .. node_count-1
  template <class T> bool is() const { return type == T::kType; }
  template <class T> T& as() { return checked_cast<T>(*this); }
  template <class T> const T& as() const { return checked_cast<const T>(*this); }
};
using StatementPtr = std::unique_ptr<Statement>;

struct SelectStatement : Statement {
  static constexpr StatementType kType = StatementType::Select;
  SelectStatement() : Statement(kType) {}
  QueryPtr query;
};

enum class SetValueType { Identifier, Number, String };

/// SET name = value (also SET name TO value).
struct SetStatement : Statement {
  static constexpr StatementType kType = StatementType::Set;
  SetStatement() : Statement(kType) {}
  std::string name;  ///< lower-cased
  SetValueType value_type = SetValueType::Identifier;
  std::string value;  ///< String: unescaped contents; Number: as written (with a leading '-' if any);
                      ///< Identifier: as written (not lower-cased), e.g. "on", "TRUE"
  std::string raw;    ///< the value's exact source text, e.g. "'256MB'"
};

struct ExplainStatement : Statement {
  static constexpr StatementType kType = StatementType::Explain;
  ExplainStatement() : Statement(kType) {}
  bool analyze = false;
  /// EXPLAIN REOPTIMIZATION: run the query, plan it again with what it observed, show that plan.
  bool reoptimization = false;
  QueryPtr query;
};

/// ANALYZE [table] (also spelled ANALYSE): recompute the statistics of one table, or of every table.
struct AnalyzeStatement : Statement {
  static constexpr StatementType kType = StatementType::Analyze;
  AnalyzeStatement() : Statement(kType) {}
  std::string table;       ///< as stored for identifiers (lower-cased unless quoted); empty: every table
  SourceSpan table_span;   ///< where the table name is written (unset when there is none)
};

// ---------------------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------------------

/// Normalised SQL text of an expression: keywords upper-case, identifiers as stored (lower-case; quoted when
/// needed), single spaces around binary operators, parentheses only where precedence needs them, function
/// names lower-case. E.g. `sum(l_extendedprice * (1 - l_discount))`, `count(*)`, `x BETWEEN 1 AND 2`.
/// The binder uses it for default output column names.
std::string to_string(const Expr& expr);
/// Normalised SQL text of a query in the same style (parsing it again gives the same tree).
std::string to_string(const Query& query);
/// Normalised SQL text of a statement.
std::string to_string(const Statement& stmt);

// ---------------------------------------------------------------------------------------------------------
// Traversal
// ---------------------------------------------------------------------------------------------------------

/// Calls `fn` on every node of the tree in pre-order: a node before its children, children in source order
/// (the CTEs, then the body, then ORDER BY items of a query; a join's left, right, then condition).
void for_each_node(const Statement& stmt, const std::function<void(const AstNode&)>& fn);
void for_each_node(const Query& query, const std::function<void(const AstNode&)>& fn);
void for_each_node(const Expr& expr, const std::function<void(const AstNode&)>& fn);

const char* binary_op_sql(BinaryOp op);        ///< "+", "=", "<>", "AND", ...
const char* join_type_name(JoinType type);     ///< "INNER", "LEFT", "RIGHT", "FULL", "CROSS"
const char* interval_unit_name(IntervalUnit u);  ///< "DAY", "MONTH", "YEAR"
const char* extract_field_name(ExtractField f);  ///< "YEAR", "MONTH", "DAY"

}  // namespace hindsight::sql
