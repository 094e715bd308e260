package search

// DefaultAnswerModel is the answerability model of every tenant without
// a calibrated one: the output of `ragd eval fit-answerability` on the
// public signals recorded in internal/eval/testdata/answerability/public.tsv
// (see answerable.go; eval's TestDefaultAnswerModelIsTheFit checks that it
// is). Leave-one-corpus-out on that data: AUC 0.927 on the Python docs
// fitted on SciFact alone, 0.897 on SciFact fitted on the Python docs
// alone (docs/EVAL.md, "Answerability").
var DefaultAnswerModel = AnswerModel{
	Bias: -5.4379,
	// keyword_coverage, term_coverage, document_coverage, absent_share,
	// missing_name, log_terms, top_mean, score_sd, opinion
	Weights: []float64{1.3900, 1.7367, 1.6140, -1.0111, -0.4417, 1.6027, 1.1871, 0.1565, -0.6678},
}
