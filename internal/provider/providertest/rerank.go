package providertest

import (
	"encoding/json"
	"net/http"
)

// RerankHandler is a Cohere-style POST /v1/rerank endpoint that gives each
// document the relevance score(i, doc), i its position in the request.
// A body that is not JSON gets 400.
func RerankHandler(score func(i int, doc string) float64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Documents []string `json:"documents"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		res := make([]map[string]any, len(req.Documents))
		for i, d := range req.Documents {
			res[i] = map[string]any{"index": i, "relevance_score": score(i, d)}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"id": "x", "results": res})
	}
}
