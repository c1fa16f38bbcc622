package db

import (
	"encoding/json"
	"fmt"
)

// IDList is the SQL of a subquery giving, in its one column "value", the
// ids held by parameter $n, which is IDs(ids): a JSON array, so any number
// of ids is one parameter of one statement (one ORDER BY covers them all
// and no engine's limit on parameters is reached). Use it as
// "... WHERE id IN (" + IDList(q, 1) + ")".
func IDList(q Querier, n int) string {
	if q.Dialect() == Postgres {
		return fmt.Sprintf("SELECT CAST(jsonb_array_elements_text(CAST($%d AS jsonb)) AS BIGINT) AS value", n)
	}
	return fmt.Sprintf("SELECT value FROM json_each($%d)", n)
}

// IDs is the parameter IDList reads.
func IDs(ids []int64) string {
	if len(ids) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(ids) // []int64 always marshals
	return string(b)
}
