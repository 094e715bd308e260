package search

// DefaultAnswerModel is the answerability model of every tenant without
// a calibrated one: the output of `ragd eval fit-answerability` on the
// public signals recorded in internal/eval/testdata/answerability (see
// answerable.go; TestDefaultAnswerModelIsTheFit checks it is).
var DefaultAnswerModel = AnswerModel{
	Bias: -3.9204,
	// keyword_coverage, term_coverage, document_coverage, absent_share,
	// missing_name, log_terms, top_mean, score_sd, opinion
	Weights: []float64{2.3042, 2.9868, 0, 0, -0.6648, 0.9395, 0, 0, 0},
}
