package search

// DefaultAnswerModel is the answerability model of every tenant without
// a calibrated one: the output of `ragd eval fit-answerability` on the
// public signals recorded in internal/eval/testdata/answerability/public.tsv
// (see answerable.go; eval's TestDefaultAnswerModelIsTheFit checks that it
// is). Leave-one-corpus-out on that data: AUC 0.925 on the Python docs
// fitted on SciFact alone, 0.896 on SciFact fitted on the Python docs
// alone (docs/EVAL.md, "Answerability").
var DefaultAnswerModel = AnswerModel{
	Bias: -5.4630,
	// keyword_coverage, term_coverage, document_coverage, absent_share,
	// missing_name, log_terms, top_mean, score_sd, opinion
	Weights: []float64{1.4515, 1.7635, 1.6562, -0.9773, -0.2197, 1.5497, 1.2659, 0.1600, -0.8338},
}
