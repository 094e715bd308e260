package search

// DefaultAnswerModel is the answerability model of every tenant without
// a calibrated one: the output of `ragd eval fit-answerability` on the
// public signals recorded in internal/eval/testdata/answerability/public.tsv
// (see answerable.go; eval's TestDefaultAnswerModelIsTheFit checks that it
// is). Leave-one-corpus-out on that data: AUC 0.926 on the Python docs
// fitted on SciFact alone, 0.899 on SciFact fitted on the Python docs
// alone (docs/EVAL.md, "Answerability").
var DefaultAnswerModel = AnswerModel{
	Bias: -5.4049,
	// keyword_coverage, term_coverage, document_coverage, absent_share,
	// missing_name, log_terms, top_mean, score_sd, opinion, missing_identifier
	Weights: []float64{1.3985, 1.7450, 1.6021, -0.9850, -0.3565, 1.5660, 1.2041, 0.1655, -0.6345, -0.6350},
}
