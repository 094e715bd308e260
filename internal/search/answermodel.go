package search

// DefaultAnswerModel is the answerability model of every tenant without
// a calibrated one: the output of `ragd eval fit-answerability` on the
// public signals recorded in internal/eval/testdata/answerability/public.tsv
// (SciFact, the Python docs and seven documentation sets; see
// answerable.go; eval's TestDefaultAnswerModelIsTheFit checks that it is).
// Leave one corpus out on that data: AUC 0.958 on the Python docs, 0.926
// on SciFact, 0.977 on the documentation sets (held out together); 0.932
// on the manual's set, never fitted on (docs/EVAL.md, "Answerability").
var DefaultAnswerModel = AnswerModel{
	Bias: -5.1350,
	// keyword_coverage, term_coverage, document_coverage, absent_share,
	// missing_name, log_terms, top_mean, score_sd, opinion, missing_identifier,
	// missing_proper_name
	Weights: []float64{1.3702, 1.6666, 1.5724, -1.0677, -0.6892, 1.5226, 1.0955, 0.1919, -0.5771, -0.6418, -0.3457},
}
