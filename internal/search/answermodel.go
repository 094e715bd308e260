package search

// DefaultAnswerModel is the answerability model of every tenant without
// a calibrated one: the output of `ragd eval fit-answerability` on the
// public signals recorded in internal/eval/testdata/answerability/public.tsv
// (SciFact, the Python docs and seven documentation sets; see
// answerable.go; eval's TestDefaultAnswerModelIsTheFit checks that it is).
// Leave one tenant out on that data: AUC 0.960 on the Python docs, 0.932
// on SciFact, 0.93–1.00 on the documentation sets; 0.942 on the manual's
// set, never fitted on (docs/EVAL.md, "Answerability").
var DefaultAnswerModel = AnswerModel{
	Bias: -4.7491,
	// keyword_coverage, term_coverage, document_coverage, absent_share,
	// missing_name, log_terms, top_mean, score_sd, opinion, missing_identifier,
	// missing_proper_name
	Weights: []float64{1.3578, 1.6028, 1.4307, -1.2601, -1.1886, 1.4749, 0.9404, 0.2309, -0.4458, -0.5211, -0.4744},
}
