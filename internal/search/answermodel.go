package search

// DefaultAnswerModel is the answerability model of every tenant without
// a calibrated one: the output of `ragd eval fit-answerability` on the
// public signals recorded in internal/eval/testdata/answerability/public.tsv
// (SciFact, the Python docs and seven documentation sets; see
// answerable.go; eval's TestDefaultAnswerModelIsTheFit checks that it is).
// Leave one corpus out on that data: AUC 0.954 on the Python docs, 0.926
// on SciFact, 0.977 on the documentation sets (held out together); 0.928
// on the manual's set, never fitted on (docs/EVAL.md, "Answerability").
var DefaultAnswerModel = AnswerModel{
	Bias: -5.1349,
	// keyword_coverage, term_coverage, document_coverage, absent_share,
	// missing_name, log_terms, top_mean, score_sd, opinion, missing_identifier,
	// missing_proper_name
	Weights: []float64{1.3835, 1.6845, 1.5356, -1.0636, -0.6861, 1.5248, 1.0930, 0.1950, -0.5773, -0.6413, -0.3446},
}
