package search

// DefaultAnswerModel is the answerability model of every tenant without
// a calibrated one: the output of `ragd eval fit-answerability` on the
// public signals recorded in internal/eval/testdata/answerability/public.tsv
// (SciFact, the Python docs and seven documentation sets; see
// answerable.go; eval's TestDefaultAnswerModelIsTheFit checks that it is).
// Leave one corpus out on that data: AUC 0.958 on the Python docs, 0.927
// on SciFact, 0.977 on the documentation sets (held out together); 0.932
// on the manual's set, never fitted on (docs/EVAL.md, "Answerability").
var DefaultAnswerModel = AnswerModel{
	Bias: -5.1330,
	// keyword_coverage, term_coverage, document_coverage, absent_share,
	// missing_name, log_terms, top_mean, score_sd, opinion, missing_identifier,
	// missing_proper_name
	Weights: []float64{1.3700, 1.6665, 1.5726, -1.0685, -0.6883, 1.5214, 1.0954, 0.1918, -0.5770, -0.6424, -0.3457},
}
