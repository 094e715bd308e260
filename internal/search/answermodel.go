package search

// DefaultAnswerModel is the answerability model of every tenant without
// a calibrated one: the output of `ragd eval fit-answerability` on the
// public signals recorded in internal/eval/testdata/answerability/public.tsv
// (see answerable.go; eval's TestDefaultAnswerModelIsTheFit checks that it
// is). Leave-one-corpus-out on that data: AUC 0.926 on the Python docs
// fitted on SciFact alone, 0.896 on SciFact fitted on the Python docs
// alone (docs/EVAL.md, "Answerability").
var DefaultAnswerModel = AnswerModel{
	Bias: -5.4186,
	// keyword_coverage, term_coverage, document_coverage, absent_share,
	// missing_name, log_terms, top_mean, score_sd, opinion
	Weights: []float64{1.3927, 1.7144, 1.6362, -1.0161, -0.4448, 1.5956, 1.1903, 0.1582, -0.6708},
}
