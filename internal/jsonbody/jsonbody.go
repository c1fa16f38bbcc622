// Package jsonbody writes pre-rendered JSON answers through httpbody
// (compressed when that pays, one write): the store search answers tens of
// kilobytes from memory, and the HTTP API and the PostGIS baseline
// (tools/slb) must send them the same way.
package jsonbody

import (
	"net/http"

	"locator/internal/httpbody"
)

// Write writes a JSON body, compressed when the client accepts it and the
// body is big enough to gain from it.
func Write(w http.ResponseWriter, r *http.Request, body []byte) {
	httpbody.Write(w, r, "application/json", body)
}
