package search

// DefaultAnswerModel is the answerability model of every tenant without
// a calibrated one: the output of `ragd eval fit-answerability` on the
// public signals recorded in internal/eval/testdata/answerability/public.tsv
// (see answerable.go; eval's TestDefaultAnswerModelIsTheFit checks that it
// is). Leave-one-corpus-out on that data: AUC 0.926 on the Python docs
// fitted on SciFact alone, 0.904 on SciFact fitted on the Python docs
// alone (docs/EVAL.md, "Answerability").
var DefaultAnswerModel = AnswerModel{
	Bias: -5.4952,
	// keyword_coverage, term_coverage, document_coverage, absent_share,
	// missing_name, log_terms, top_mean, score_sd, opinion
	Weights: []float64{1.4071, 1.7358, 1.6606, -1.1129, -0.2225, 1.5988, 1.2003, 0.1601, -0.6571},
}
