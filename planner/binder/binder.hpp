#pragma once
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "planner/catalog/table_def.hpp"
#include "planner/logical/logical_operator.hpp"
#include "planner/sql/ast.hpp"

namespace hindsight {

/// Names visible to expressions: the columns of the FROM clause (and, through `outer`, of the
/// enclosing queries — references to those are correlations).
struct ScopeColumn {
  std::string qualifier;  ///< table alias or name
  std::string name;
  ColumnId id;
  DataType type;
};

struct Scope {
  std::vector<ScopeColumn> columns;
  const Scope* outer = nullptr;
};

/// The result of binding a query: its plan and its visible output columns.
struct BoundQuery {
  LogicalPtr plan;
  std::vector<ColumnId> outputs;
  std::vector<std::string> names;
};

/// A CTE planned once and read by every reference (cte_materialization = always).
struct MaterializedCte {
  std::string name;
  LogicalPtr plan;
  std::vector<ColumnId> outputs;
  std::vector<std::string> names;
};

/// A link from an AST node to the logical operator it became (mapper stage "bind").
struct AstLink {
  int ast_id;
  NodeId node;
};

/// Binds an AST query against a catalog into a logical plan. Names are resolved (BIND_ERROR with
/// position), types checked and made explicit with casts (TYPE_ERROR), subqueries decorrelated into
/// joins: [NOT] EXISTS and [NOT] IN (subquery) conjuncts of WHERE become semi / anti / null-aware
/// anti joins; scalar subqueries become a left join with a one-row input (uncorrelated) or with an
/// aggregate grouped by the correlation columns (correlated, equality correlations only).
class Binder {
 public:
  /// `materialize_ctes`: plan each referenced CTE once (LogicalCteRef readers) instead of inlining it.
  Binder(const Catalog& catalog, PlanContext& ctx, const std::string& sql, bool materialize_ctes = false);
  /// The materialized CTEs, indexed by LogicalCteRef::cte_index (moved out by the caller).
  std::vector<MaterializedCte>& materialized_ctes() { return materialized_; }
  BoundQuery bind_query(const sql::Query& q, const Scope* outer = nullptr);
  const std::vector<AstLink>& ast_links() const { return ast_links_; }

  // --- used by the expression binder (bind_expression.cpp) ---
  struct ExprContext;
  ExprPtr bind_expr(const sql::Expr& e, ExprContext& ec);
  DataType unify(DataType a, DataType b, const sql::AstNode& at, const std::string& what) const;
  [[noreturn]] void fail(ErrorCode code, const sql::AstNode& at, const std::string& message) const;

  /// State of one select core while binding its expressions.
  struct ExprContext {
    const Scope* scope = nullptr;
    /// Plan that scalar subqueries attach to (a left join on top of it); null = not allowed here.
    LogicalPtr* plan = nullptr;
    /// Post-aggregation: maps aggregate calls and group expressions to output columns.
    std::function<ExprPtr(const sql::Expr&)> intercept;
    /// Set when a column of the (pre-aggregation) scope is referenced where only grouped columns may be.
    std::function<void(const sql::ColumnRefExpr&, const ScopeColumn&)> on_column;
    const char* clause = "expression";
  };

 private:
  struct Cte {
    const sql::CommonTableExpr* def;
  };

  BoundQuery bind_body(const sql::QueryBody& body, const Scope* outer);
  BoundQuery bind_select(const sql::SelectCore& core, const sql::Query* order_owner, const Scope* outer);
  LogicalPtr bind_from(const sql::TableRef& ref, Scope& scope, const Scope* outer);
  LogicalPtr bind_table(const sql::BaseTableRef& ref, Scope& scope, const Scope* outer);
  BoundQuery bind_cte_body(const sql::CommonTableExpr& def,
                           std::vector<std::map<std::string, Cte>>::reverse_iterator level_it, const Scope* outer);
  LogicalPtr bind_materialized_cte(const sql::BaseTableRef& ref, const sql::CommonTableExpr& def,
                                   std::vector<std::map<std::string, Cte>>::reverse_iterator level_it, Scope& scope,
                                   const std::string& qualifier);
  void bind_where(const sql::Expr& where, LogicalPtr& plan, const Scope& scope, std::vector<ExprPtr>* siphon,
                  const Scope* outer);
  AggKind aggregate_kind(const sql::FunctionCallExpr& f) const;
  void bind_subquery_conjunct(const sql::Expr& e, bool negate, LogicalPtr& plan, const Scope& scope);
  void expose_correlated(BoundQuery& sub, const std::vector<ExprPtr>& corr, const Scope& outer, const sql::AstNode& at);
  ExprPtr bind_scalar_subquery(const sql::SubqueryExpr& sq, ExprContext& ec);
  /// Binds a subquery whose WHERE may reference `outer`; conjuncts that do are returned separately.
  BoundQuery bind_correlated(const sql::Query& q, const Scope& outer, std::vector<ExprPtr>& correlated);
  /// bind_expr without the stack check and the source position.
  ExprPtr bind_expr_node(const sql::Expr& e, ExprContext& ec);
  ExprPtr bind_function(const sql::FunctionCallExpr& f, ExprContext& ec);
  ExprPtr bind_binary(const sql::BinaryExpr& b, ExprContext& ec);
  /// One node of a binary chain whose left operand is bound already (null when it is an INTERVAL literal).
  ExprPtr bind_binary_on(const sql::BinaryExpr& b, ExprPtr left, ExprContext& ec);
  ExprPtr bind_comparison(ScalarOp op, ExprPtr l, ExprPtr r, const sql::AstNode& at);
  ExprPtr bind_column(const sql::ColumnRefExpr& c, ExprContext& ec);
  /// ORDER BY over a set operation (output names and positions only).
  LogicalPtr order_set_operation(const sql::Query& q, BoundQuery& bq);

  void link(const sql::AstNode& ast, const LogicalOperator& op) { ast_links_.push_back({ast.id, op.id}); }
  template <class T>
  std::unique_ptr<T> make() {
    return std::make_unique<T>(ctx_.next_node_id());
  }
  ColumnId new_column(std::string name, DataType t, const ColumnInfo* lineage = nullptr);

  const Catalog& catalog_;
  PlanContext& ctx_;
  const std::string& sql_;
  std::vector<std::map<std::string, Cte>> cte_scopes_;
  std::vector<AstLink> ast_links_;
  std::vector<std::vector<ExprPtr>*> correlation_sinks_;
  std::vector<const Scope*> correlation_outer_;
  std::vector<bool> correlation_claimed_;
  bool materialize_ctes_ = false;
  std::vector<MaterializedCte> materialized_;
  std::map<const sql::CommonTableExpr*, int> materialized_index_;
};

/// True when the AST expression contains an aggregate function call (not inside a subquery).
bool contains_aggregate(const sql::Expr& e);
/// True when the AST expression contains a subquery.
bool contains_subquery(const sql::Expr& e);

}  // namespace hindsight
